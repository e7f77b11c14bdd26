"""The page of an item on sale (schema.org Product declared): its name, price, description and
specifications are the content, its reviews and the site around it are not. Small pages
written for these tests."""

from __future__ import annotations

import json

from sitesift.fields.declared import declared_kind, declared_type
from sitesift.methods.page.content import extract_content
from sitesift.parse import parse_html

PRODUCT = {"@context": "https://schema.org", "@type": "Product", "name": "Trail 25 Pack",
           "offers": {"@type": "Offer", "price": "99.00", "priceCurrency": "USD"}}
DESCRIPTION = ("Keep your day's gear within easy reach in the Trail 25 pack. It is designed to "
               "fit a wide range of bodies, and it has pockets galore for your essentials.")
REVIEW = ("I used this bag on several short day hikes and had no complaints at all. The side "
          "pouches stretch enough to fit a full size bottle, and the straps stay comfortable. ")
NEWSLETTER = ("Sign up for our newsletter to enjoy member discounts, find inspiration for your "
              "next trip and discover fresh arrivals before anyone else does. ") * 3


def _page(ld: object | None, main: str, outside: str = "") -> str:
    script = (f"<script type='application/ld+json'>{json.dumps(ld)}</script>"
              if ld is not None else "")
    return (f"<html><head>{script}</head><body><header><a href='/'>Shop</a></header>"
            f"<main>{main}</main><div class='signup'><p>{outside}</p></div></body></html>")


ITEM = (
    "<h1>Trail 25 Pack</h1><div class='price'>$99.00</div><div>Colour: Oak Brown</div>"
    f"<div class='description'><p>{DESCRIPTION}</p></div>"
    "<h3>Technical Specs</h3><div class='spec'><div>Best Use</div><div>Hiking</div></div>"
    "<div class='spec'><div>Frame Type</div><div>Internal Frame</div></div>"
    "<div class='spec'><div>Weight</div><div>1 lb. 13 oz</div></div>"
)
REVIEWS = (
    "<div class='ugc'><h2>Customer Reviews</h2><div class='r'><h4>Great bag</h4>"
    f"<p>{REVIEW}</p></div><div class='r'><h4>Solid</h4><p>{REVIEW}</p></div></div>"
)


def test_a_declared_product_is_a_product_and_a_story_about_one_is_not() -> None:
    assert declared_kind(parse_html(_page(PRODUCT, ITEM))) == "product"
    assert declared_type(parse_html(_page(PRODUCT, ITEM))) is None  # (no page type of its own)
    review = [PRODUCT, {"@type": "Review", "name": "Trail 25 review"}]
    assert declared_kind(parse_html(_page(review, ITEM))) is None
    shop = [{"@type": "CollectionPage"}, PRODUCT]
    assert declared_kind(parse_html(_page(shop, ITEM))) == "list"


def test_a_product_page_keeps_its_name_price_and_specifications() -> None:
    text = extract_content(parse_html(_page(PRODUCT, ITEM))).text
    assert DESCRIPTION in text
    for data in ("Trail 25 Pack", "$99.00", "Colour: Oak Brown", "Technical Specs", "Best Use",
                 "Internal Frame", "1 lb. 13 oz"):
        assert data in text


def test_a_product_page_drops_its_reviews() -> None:
    text = extract_content(parse_html(_page(PRODUCT, ITEM + REVIEWS))).text
    assert DESCRIPTION in text and "Internal Frame" in text
    assert "Customer Reviews" not in text
    assert "day hikes" not in text


def test_the_main_landmark_outvotes_a_longer_blurb_outside_it() -> None:
    text = extract_content(parse_html(_page(PRODUCT, ITEM, NEWSLETTER))).text
    assert DESCRIPTION in text and "$99.00" in text
    assert "newsletter" not in text


def test_undeclared_pages_keep_reviews_as_text_and_lose_their_labels() -> None:
    # A story with a "Reviews" section (a review roundup) is no product page.
    page = _page(None, f"<h1>Best packs</h1><p>{DESCRIPTION}</p>{REVIEWS}")
    text = extract_content(parse_html(page)).text
    assert "day hikes" in text
    text = extract_content(parse_html(_page(None, ITEM))).text
    assert "Internal Frame" not in text  # (labels after the prose: a story's furniture)


def test_one_buy_button_makes_an_undeclared_page_a_product_page_and_a_grid_of_them_not() -> None:
    item = ITEM + "<button class='atc'>Add to cart</button>"
    text = extract_content(parse_html(_page(None, item + REVIEWS))).text
    assert "Internal Frame" in text and "day hikes" not in text
    grid = item + "".join(f"<div><a href='/p{i}'>Pack {i}</a><button>Add to cart</button></div>"
                          for i in range(3))
    text = extract_content(parse_html(_page(None, grid + REVIEWS))).text
    assert "day hikes" in text  # (a shop's grid: no one item's reviews)


def test_a_product_page_reads_its_repeated_buy_box_once() -> None:
    bar = ("<div class='perks'><div>Free Shipping &amp; Returns</div>"
           "<div>Secure Checkout</div></div>")
    text = extract_content(parse_html(_page(PRODUCT, bar + ITEM + bar))).text
    assert text.count("Free Shipping & Returns") == 1 and "Internal Frame" in text
    # A story's repeated line stays (one repeat is no second copy of the story).
    story = f"<h1>Packs</h1><p>{DESCRIPTION}</p>{bar}<p>{REVIEW}</p>{bar}<p>{REVIEW[::-1]}</p>"
    assert extract_content(parse_html(_page(None, story))).text.count("Free Shipping") == 2
