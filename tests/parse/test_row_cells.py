"""``parse.rows`` on elements no row can hold: form controls and scripts a site step deletes."""

from __future__ import annotations

from sitesift.parse import parse_html
from sitesift.parse.rows import labels_left


def test_a_deleted_form_control_beside_a_label_is_no_row_and_no_error() -> None:
    # A <select> is skipped by the structural view of its box (parse.dom.SKIP_TAGS), yet a
    # site step may delete it as noise: it stands for no cell, so it leaves no label.
    root = parse_html("""<html><body><div class="sort"><span>Sort by:</span>
        <select name="order"><option>Newest</option><option>Oldest</option></select>
        <div class="results">Forty-two results for brass lamps</div></div></body></html>""")
    select = next(root.iter("select"))
    script_holder = parse_html("<html><body><div><script>var a = 1;</script>"
                               "<p>Text of the page</p></div></body></html>")
    script = next(script_holder.iter("script"))
    assert labels_left([select]) == set()
    assert labels_left([script]) == set()
