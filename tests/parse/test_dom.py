"""DOM primitives: iterative walks, text measures, hints."""

from __future__ import annotations

import lxml.html
from lxml import etree

from sitesift.parse import parse_html
from sitesift.parse.dom import (
    END,
    START,
    cjk_count,
    drop_keep_tail,
    has_hint,
    hint_tokens,
    is_hidden,
    link_density,
    postorder,
    punctuation_count,
    text_content,
    text_weight,
    up_sums,
    walk,
)

#: Nesting deeper than Python's default recursion limit (1,000).
DEEP = 3000


def _deep_tree(depth: int) -> lxml.html.HtmlElement:
    root = lxml.html.Element("div")
    el = root
    for _ in range(depth):
        el = etree.SubElement(el, "div")
    el.text = "bottom"
    return root


def test_walk_is_iterative_and_balanced() -> None:
    events = list(walk(_deep_tree(DEEP)))
    assert len(events) == 2 * (DEEP + 1)
    assert sum(1 for kind, _ in events if kind == START) == sum(
        1 for kind, _ in events if kind == END
    )


def test_postorder_puts_children_before_parents() -> None:
    root = lxml.html.fromstring("<div><p><b>x</b></p><p>y</p></div>")
    order = postorder(root)
    assert [el.tag for el in order] == ["p", "b", "p", "div"]
    assert order[1].getparent() is order[2]
    assert order[-1] is root


def test_text_weight_ignores_white_space_and_counts_cjk() -> None:
    assert text_weight(" a b\n c ") == 3
    assert text_weight("中文 内容") == 4
    assert text_weight(None) == 0
    assert cjk_count("abc中文") == 2
    assert cjk_count("plain ascii") == 0


def test_punctuation_counts_ascii_and_cjk() -> None:
    assert punctuation_count("One, two. Three!") == 3
    assert punctuation_count("你好，世界。") == 2
    assert punctuation_count("Home About Contact") == 0


def test_hint_tokens_split_camel_case_and_separators() -> None:
    el = lxml.html.fromstring('<div class="topAd article-body" id="main_col"></div>')
    tokens = hint_tokens(el)
    assert {"top", "ad", "article", "body", "main", "col", "articlebody"} <= tokens
    assert "header" not in hint_tokens(lxml.html.fromstring('<div class="shadow"></div>'))


def test_has_hint_answers_as_hint_tokens() -> None:
    # The squashed-name shortcut must never miss a token: whole names without separators,
    # camelCase, ids, other scripts, and words spread over separators.
    words = frozenset({"collapse", "accordion", "fold"})
    names = ["js-collapse", "navCollapse x", "col-lapse", "c_ollapse", "accordion", "Accordion",
             "x-ACCORDION-y", "akkordeon", "折叠 collapse", "collapsed", "foldable", "", "unfold"]
    for name in names:
        for attrs in (f'class="{name}"', f'id="{name}"', f'class="a" id="{name}"'):
            el = lxml.html.fromstring(f"<div {attrs}></div>")
            assert has_hint(el, words) == bool(hint_tokens(el) & words), attrs
    assert has_hint(lxml.html.fromstring('<div class="col-lapse"></div>'), words)
    assert not has_hint(lxml.html.fromstring('<div class="collapsed"></div>'), words)


def test_is_hidden() -> None:
    assert is_hidden(lxml.html.fromstring('<div style="display: none">x</div>'))
    assert is_hidden(lxml.html.fromstring("<div hidden>x</div>"))
    assert not is_hidden(lxml.html.fromstring('<div style="color: red">x</div>'))


def test_is_hidden_from_names_answers_as_three_gets() -> None:
    """The names read once (``keys()``) give what ``get`` of each attribute gave, and the
    relaxed label keyed from them is the same."""
    from sitesift.parse.signatures import RelaxedLabels

    root = parse_html(
        "<html><body><div>a<p class='x'>b</p><span id='s' style=''>c</span>"
        "<i aria-hidden='false'>d</i><i aria-hidden='true'>e</i><b hidden>f</b>"
        "<em style='VISIBILITY : hidden'>g</em><u style='color:red' class='k' id='j'>h</u>"
        "<a href='/'>i</a></div></body></html>")
    labels, again = RelaxedLabels(), RelaxedLabels()
    seen = []
    for el in root.iter(etree.Element):
        slow = (el.get("hidden") is not None or el.get("aria-hidden") == "true"
                or "visibility:hidden" in (el.get("style") or "").replace(" ", "").lower())
        assert is_hidden(el) == is_hidden(el, el.keys()) == slow
        assert labels.get(el, el.keys()) == again.get(el)
        seen.append(slow)
    assert seen.count(True) == 3


def test_link_density() -> None:
    el = lxml.html.fromstring('<p>abcd <a href="#">efgh</a></p>')
    assert link_density(el) == 0.5
    assert link_density(lxml.html.fromstring("<p></p>")) == 0.0


def test_text_content_is_lxmls_for_every_element() -> None:
    root = parse_html(
        "<html><body><a href=x>plain</a><a href=y></a><p>one<!-- c --> two<b>three<?pi x?>"
        "four</b>five<script>s()</script>&amp; six</p><div><span></span>tail</div>"
        "<td>数据<br>二</td></body></html>")
    for el in root.iter(etree.Element):
        assert text_content(el) == el.text_content(), el.tag
    made = etree.Element("div")  # (a plain element, as the page extractor's run wrappers)
    assert text_content(made) == ""
    etree.SubElement(made, "p").text = "x"
    assert text_content(made) == "x"


def test_up_sums_are_subtree_sums_under_the_root() -> None:
    root = parse_html("<html><body><div><p>a</p><p>b<b>c</b></p></div><ul><li>d</li></ul>"
                      "</body></html>")
    body = root.find("body")
    own = {el: len(el.tag) for el in root.iter(etree.Element) if el.tag in ("p", "b", "li")}
    own[root.find("head")] = 100  # (outside the root: counts for nothing)
    want = {}
    for el in reversed(list(body.iter(etree.Element))):
        value = own.get(el, 0) + sum(want.get(child, 0) for child in el)
        if value:
            want[el] = value
    assert up_sums(body, own) == want
    assert want[body] == 1 + 1 + 1 + 2


def test_drop_keep_tail_keeps_following_text() -> None:
    root = parse_html("<html><body><p>a<span>gone</span> tail</p></body></html>")
    span = root.find(".//span")
    drop_keep_tail(span)
    assert root.find(".//p").text_content() == "a tail"


def test_name_tokens_of_plain_names_are_the_regex_split() -> None:
    # Plain names (lower case, digits, "-", "_", spaces) are split by string methods: the
    # tokens the regexes give, names of separators only and doubled separators included.
    import itertools
    import re

    from sitesift.parse.dom import name_tokens

    def by_regex(raw: str) -> set[str]:
        words = set(re.split(r"[^a-z0-9]+", raw))
        words.update(n if n.isalnum() else re.sub(r"[^a-z0-9]+", "", n) for n in raw.split())
        words.discard("")
        return words

    for parts in itertools.product(["a", "b2", "-", "_", " ", "nav", "--"], repeat=4):
        raw = "".join(parts)
        assert name_tokens(raw) == by_regex(raw), raw
    assert name_tokens("main-Content x") == {"main", "content", "x", "maincontent"}
