"""Text and Markdown rendering of DOM nodes."""

from __future__ import annotations

import lxml.html
from lxml import etree

from sitesift.output.render import to_markdown, to_text

#: Deeper than Python's default recursion limit.
DEEP = 3000


def _node(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(html)


def test_paragraphs_are_separated_by_a_blank_line() -> None:
    node = _node("<div><p>First  para\ngraph.</p><p>Second <b>bold</b> one.</p></div>")
    assert to_text([node]) == "First para graph.\n\nSecond bold one."


def test_br_is_a_line_break_and_pre_keeps_spacing() -> None:
    node = _node("<div><p>line one<br>line two</p><pre>a  b\n  c</pre></div>")
    assert to_text([node]) == "line one\nline two\n\na  b\n  c"


def test_paragraph_lines_spaces_and_preformatted_text_as_before() -> None:
    """A paragraph's pieces meet with single spaces, ``<br>`` lines lose their edge spaces,
    blank lines go, and preformatted text keeps its own (the flush's steps, each taken only
    where its mark is: the same text as taking them all; values of main 461c7c7)."""
    node = _node("<div><p>one <b> two </b> three<br> four <br><br>  five </p><p> </p>"
                 "<p>x<code>  y\n z </code></p></div>")
    assert to_text([node]) == "one two three\nfour\nfive\n\nx y z"
    assert to_markdown([node]) == "one ** two ** three\nfour\nfive\n\nx` y z `"
    node = _node("<div>lead <span>in</span><pre>  keep\n\n  this  </pre> after  <br>tail</div>")
    assert to_text([node]) == "lead in\n\n  keep\n\n  this  \n\nafter\ntail"
    assert to_markdown([node]) == "lead in\n\n```\n  keep\n\n  this  \n```\n\nafter\ntail"


def test_scripts_are_skipped_but_their_tail_is_kept() -> None:
    node = _node("<div><p>before<script>var x;</script> after</p></div>")
    assert to_text([node]) == "before after"


def test_text_of_deep_tree_does_not_recurse() -> None:
    root = el = etree.Element("div")
    for _ in range(DEEP):
        el = etree.SubElement(el, "div")
    el.text = "deep text"
    assert to_text([root]) == "deep text"


def test_markdown_headings_lists_quotes_code() -> None:
    node = _node(
        "<div><h2>Title</h2><p>Some <em>em</em> and <code>x_y</code>.</p>"
        "<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>"
        "<blockquote><p>quoted</p></blockquote><pre>code  here</pre></div>"
    )
    md = to_markdown([node])
    assert "## Title" in md
    assert "Some *em* and `x\\_y`." in md
    assert "- one\n\n- two" in md
    assert "1. first" in md
    assert "> quoted" in md
    assert "```\ncode  here\n```" in md


def test_markdown_links_optional() -> None:
    node = _node('<p>See <a href="https://example.org/">this page</a>.</p>')
    assert to_markdown([node]) == "See this page."
    assert to_markdown([node], links=True) == "See [this page](https://example.org/)."


def test_markdown_simple_table() -> None:
    node = _node(
        "<div><table><tr><th>Name</th><th>Score</th></tr>"
        "<tr><td>Ann</td><td>3</td></tr></table></div>"
    )
    assert to_markdown([node]) == "| Name | Score |\n| --- | --- |\n| Ann | 3 |"


def test_empty_emphasis_leaves_no_marks() -> None:
    assert to_markdown([_node("<p>a <b> </b>b</p>")]) == "a b"
