"""Title rules chosen on modern-dev's half b: whole pages written for
the tests, each shaped like a kind of page those rules were found on."""

from __future__ import annotations

import pytest

from sitesift.fields.candidates import heading_text
from sitesift.fields.metadata import extract_metadata
from sitesift.fields.title_text import is_home_page
from sitesift.parse import parse_html

#: (what the page is, its head, its body, its URL, the title expected)
PAGES = [
    # og:title is ``<title>`` without the site's name (the SEO plugin's wording); the h1
    # words the headline otherwise: the reader sees the h1.
    ("an h1 rewording a declared copy of the title without the site's name",
     ("<title>Hire Local Movers – Moving Help in Jackson, NJ | HelperCo</title>"
     '<meta property="og:title" content="Hire Local Movers – Moving Help in Jackson, NJ">'
     '<meta property="og:site_name" content="HelperCo">'),
     "<main><h1>Hire Movers in Jackson, NJ</h1><p>Book local help.</p></main>",
     "https://helperco.com/movers/jackson_nj/", "Hire Movers in Jackson, NJ"),
    # The h1 drops the markdown emphasis og:title keeps: the same words, no other wording.
    ("an h1 in the same words as the declared copy",
     ("<title>*A Treatise on Coffee* (1792) — The Review</title>"
     '<meta property="og:title" content="*A Treatise on Coffee* (1792)">'
     '<meta property="og:site_name" content="The Review">'),
     "<main><h1>A Treatise on Coffee (1792)</h1><p>A book.</p></main>",
     "https://thereview.org/collection/coffee", "*A Treatise on Coffee* (1792)"),
    # og:title copies ``<title>``; the h1 prints the product's name with its brand and model
    # before it: the declared name without the site's is the headline.
    ("an h1 adding a brand to the declared headline",
     ('<title>24" Deep Standing Desk | LIFTCO Desk</title>'
     '<meta property="og:title" content="24&quot; Deep Standing Desk | LIFTCO Desk">'
     '<meta property="og:site_name" content="LIFTCO Desk">'),
     '<main><h1>LIFTCO V3 24" Deep Standing Desk</h1><p>A desk.</p></main>',
     "https://liftcodesk.com/24-deep-standing-desk/", '24" Deep Standing Desk'),
    # An h1 printing the whole ``<title>``, the site's name included, stays as printed.
    ("an h1 printing the title with the site's name",
     ("<title>Vehicle rental News and Reporting Coverage | WRLD</title>"
     '<meta property="og:title" content="Vehicle rental News and Reporting Coverage | WRLD">'),
     "<main><h1>Vehicle rental News and Reporting Coverage | WRLD</h1><p>Stories.</p></main>",
     "https://www.wrld.com/vehicle-rental/18236761/",
     "Vehicle rental News and Reporting Coverage | WRLD"),
    # JSON-LD's headline copies ``<title>`` and og:title is a rewrite for sharing that the
    # page prints nowhere: the printed h1 decides.
    ("an h1 under an SEO copy and a title for sharing printed nowhere",
     ("<title>The Most Popular Workout of 2024 & 5 Trends to Watch In 2025</title>"
      '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "The Most'
      ' Popular Workout of 2024 & 5 Trends to Watch In 2025"}</script>'
      '<meta property="og:title" content="These are the top 6 fitness trends to be ready for'
      ' in 2025">'),
     ("<main><h1>The No. 1 most popular workout of 2024 — and 5 fitness trends to expect in"
      " 2025</h1><p>Pilates again.</p></main>"),
     "https://today.example/health/fitness-trends-2025-rcna184567",
     "The No. 1 most popular workout of 2024 — and 5 fitness trends to expect in 2025"),
    # The h1 prints the product's name with a tagline in a span the style sheet sets on a
    # line of its own; og:title (``<title>`` without the site's name) starts with the name.
    ("an h1 with a tagline that a declared copy of the title starts with",
     ("<title>Black Edition | Meal Replacement Powder | Hual US</title>"
      '<meta property="og:title" content="Black Edition | Meal Replacement Powder">'
      '<meta property="og:site_name" content="Hual">'),
     ('<main><h1 class="heading">Black Edition<span class="pdp-header__tagline">Complete'
      " high-protein powder meal</span></h1><p>A meal.</p></main>"),
     "https://hual.com/products/hual-black-edition", "Black Edition"),
    # A personal site: the h1 is the owner's name (the logo), the post's headline an h2, and
    # og:title the headline with the site's name.
    ("an h2 printing the declared title without the site's name",
     ("<title>A brief intro to rebasing • Dana Example</title>"
     '<meta property="og:title" content="A brief intro to rebasing • Dana Example">'
     '<meta property="og:site_name" content="Dana Example">'),
     ("<header><h1>Dana Example</h1></header>"
     "<article><h2>A brief intro to rebasing</h2><p>Rebasing moves commits.</p></article>"),
     "https://example.org/posts/a-brief-intro", "A brief intro to rebasing"),
    # A page without an h1, its headline printed as an h2.
    ("an h2 printing it on a page without h1",
     ("<title>How to Make a Good Game: 5 Tips | Gamekit</title>"
     '<meta property="og:title" content="How to Make a Good Game: 5 Tips | Gamekit">'),
     ("<main><h2>How to Make a Good Game: 5 Tips</h2><h2>Skip the tutorial?</h2>"
     "<p>Players skip it.</p></main>"),
     "https://gamekit.io/page/how-to-make-a-good-game", "How to Make a Good Game: 5 Tips"),
    # A product page: the colour's label (an h3) prints what is left of og:title once the
    # product's name, which the stripper takes for the site's, is cut: og:title stays.
    ("an h3 printing part of the declared title is a label",
     ("<title>Aluminum Black Wallet - Strong &amp; Durable | The Ridgeway</title>"
     '<meta property="og:title" content="Ridgeway Wallet - Royal Black">'
     '<meta property="og:site_name" content="RidgewayWallet">'),
     "<main><h2>Ridgeway Wallet</h2><h3>Royal Black</h3><p>Holds cards.</p></main>",
     "https://ridgeway.com/products/aluminum-black", "Ridgeway Wallet - Royal Black"),
    # ``<title>`` sets the maker's name apart ("Product - Maker"); og:title names the product,
    # which holds the maker's name: it is the page's title, not the site's name.
    ("a product named after its maker",
     ("<title>Pear Watch - Pear</title>"
     '<meta property="og:title" content="Pear Watch">'
     '<meta property="og:site_name" content="Pear">'),
     "<main><h2>Pear Watch Ultra 3</h2><h2>Shop Watch</h2><p>A watch.</p></main>",
     "https://www.pear.com/pear-watch-ultra-2/", "Pear Watch"),
    # The heading over the comments quotes the post's title field, which the h1 prints; the
    # SEO title ``<title>`` and og:title copy is another wording.
    ("the h1 that the comments heading quotes",
     ("<title>Best Apps to Learn a Language in 2025 – Top 10 Picks</title>"
      '<meta property="og:title" content="Best Apps to Learn a Language in 2025 – Top 10 Picks">'),
     ("<article><h1>Top 10: Best Language Apps (tested)</h1><p>We tested apps.</p></article>"
     "<section><h2>6 thoughts on “Top 10: Best Language Apps (tested)”</h2></section>"),
     "https://talk.example/en/blog/best-language-app/", "Top 10: Best Language Apps (tested)"),
    # A site's front page declaring the site's name as its title is titled so.
    ("the front page declaring the site's name",
     ("<title>Quietstats | Simple, privacy-friendly analytics</title>"
     '<meta property="og:title" content="Quietstats">'
     '<meta property="og:site_name" content="Quietstats">'),
     "<main><h1>Easy to use and privacy-friendly analytics</h1><p>Count visits.</p></main>",
     "https://quietstats.io/", "Quietstats"),
    # On any other page of the site a declared title naming the site is no headline.
    ("another page declaring the site's name",
     ("<title>Quietstats | Simple, privacy-friendly analytics</title>"
     '<meta property="og:title" content="Quietstats">'
     '<meta property="og:site_name" content="Quietstats">'),
     "<main><h1>Easy to use and privacy-friendly analytics</h1><p>Count visits.</p></main>",
     "https://quietstats.io/features", "Easy to use and privacy-friendly analytics"),
]


@pytest.mark.parametrize(("head", "body", "url", "expected"), [p[1:] for p in PAGES],
                         ids=[p[0] for p in PAGES])
def test_title_of_a_page(head: str, body: str, url: str, expected: str) -> None:
    html = f"<html><head>{head}</head><body>{body}</body></html>"
    assert extract_metadata(parse_html(html), url=url).title == expected


def test_is_home_page() -> None:
    assert is_home_page("https://fly.io/")
    assert is_home_page("https://fly.io")
    assert not is_home_page("https://fly.io/docs/")
    assert not is_home_page("http://www.thestar.co.za/?fSectionId=492&fArticleId=nw1")
    assert not is_home_page(None)


def test_a_tagline_or_kicker_inside_a_heading_is_no_part_of_its_text() -> None:
    root = parse_html("<html><body><h1>Black Edition<span class='x__tagline__y'>Complete"
                      " meal</span></h1><h2><span class='kicker'>Gesund wohnen</span> 10 Tipps"
                      " gegen Schimmel</h2><h3>Java<b>Script</b> basics</h3></body></html>")
    assert [heading_text(h).strip() for h in root.iter("h1", "h2", "h3")] == \
        ["Black Edition", "10 Tipps gegen Schimmel", "JavaScript basics"]
