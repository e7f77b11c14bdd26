"""Data rows (``parse.rows``): DeleteSame leaves a row's label with the page's own
value, and takes a row that recurs whole. Small pages written for these tests."""

from __future__ import annotations

from lxml import etree

from sitesift.methods.template.template import SignatureIndex, content_signatures, delete_shared
from sitesift.parse import parse_html
from sitesift.parse.rows import is_label, labels_left

ITEM = """<html><body><div class="nav"><a href="/">Home</a> <a href="/deals">Deals</a></div>
<div class="item"><h1>{name}</h1>
<div class="row"><div class="label"><span>Condition:</span></div>
<div class="value">{condition}</div></div>
<div class="row"><div class="label"><span>Ships from:</span></div>
<div class="value">United States</div></div>
<dl class="specs"><dt>Year</dt><dd>{year}</dd></dl>
<table><tr><th>Weight</th><td>{weight}</td></tr></table>
<p>{description}</p></div></body></html>"""


def _item(k: int) -> etree._Element:
    return parse_html(ITEM.format(
        name=f"Brass lamp number {k}", condition=("Used", "New", "For parts", "Open box")[k % 4],
        year=1950 + k, weight=f"{k + 1} kg",
        description=f"A brass desk lamp, model {k}, rewired and tested by the seller."))


def test_a_label_beside_the_page_s_own_value_stays_and_a_row_shared_whole_goes() -> None:
    index = SignatureIndex(content_signatures(_item(k)).values() for k in range(1, 4))
    target = _item(0)
    delete_shared(target, index)
    left = "".join(target.text_content().split())
    assert "Home" not in left  # the template's own block goes as before
    for row in ("Condition:Used", "Year1950", "Weight1kg"):
        assert row in left  # each label stays beside the value only this page has
    assert "Shipsfrom" not in left and "UnitedStates" not in left  # the row recurs whole


def test_a_label_is_a_label_element_or_a_short_line_ending_in_a_colon() -> None:
    def el(html: str) -> etree._Element:
        return parse_html(f"<html><body>{html}</body></html>").find(".//body")[0]

    assert is_label(el("<dt>Year</dt>")) and is_label(el("<th>Weight</th>"))
    assert not is_label(el("<label>Name</label>"))
    assert is_label(el("<div><span>Item number:</span></div>"))
    assert is_label(el("<div>型号：</div>"))
    assert not is_label(el("<div>Year</div>"))  # no colon, no label element
    assert not is_label(el("<p>Here is what the seller wrote about the lamp's history:</p>"))
    assert not is_label(el("<dt> </dt>"))


def test_a_deleted_label_whose_value_stays_is_left_and_one_whose_value_goes_is_not() -> None:
    root = parse_html(
        "<html><body><div class='row'><div class='l'><span>Condition:</span></div>"
        "<div class='v'>Used</div></div>"
        "<div class='row'><div class='l'><span>Returns:</span></div>"
        "<div class='v'><span>30 days</span></div></div>"
        "<div class='row'><div class='l'>Seller notes</div><div class='v'>Mint</div></div>"
        "</body></html>")
    spans = {" ".join(el.text_content().split()): el for el in root.iter("span", "div")}
    condition, returns, days = spans["Condition:"], spans["Returns:"], spans["30 days"]
    notes = spans["Seller notes"]
    # the span climbs to the wrapper it is the only child of: the value is the box beside it
    assert labels_left([condition, returns, days, notes]) == {condition}


def test_a_line_ending_in_a_colon_over_a_section_is_no_row_label() -> None:
    def story(k: int) -> etree._Element:
        return parse_html(
            f"<html><body><div class='story'><p>The board met on day {k} to vote.</p>"
            f"<p>On the Net:</p><p>Harbour board: http://harbour.test/{k}</p>"
            f"<div class='row'><div>Filed:</div><div>Day {k}</div></div></div></body></html>")

    index = SignatureIndex(content_signatures(story(k)).values() for k in range(1, 4))
    target = story(0)
    delete_shared(target, index)
    left = "".join(target.text_content().split())
    assert "OntheNet" not in left  # a section's head among paragraphs: shared, it goes
    assert "Filed:Day0" in left  # a row's label: it stays with the page's own value
