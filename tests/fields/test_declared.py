"""The kind a page declares itself (schema.org JSON-LD or microdata): small pages written
for these tests."""

from __future__ import annotations

import json

from sitesift.fields.declared import declared_type
from sitesift.methods.page.content import extract_content
from sitesift.parse import parse_html

STORY = "The council approved the harbour plan on Tuesday after a long debate. " * 12


def _page(ld: object | None = None, body: str = f"<article><p>{STORY}</p></article>",
          attrs: str = "") -> str:
    script = (f"<script type='application/ld+json'>{json.dumps(ld)}</script>"
              if ld is not None else "")
    return f"<html><head>{script}</head><body{attrs}>{body}</body></html>"


def test_a_declared_collection_is_a_list_and_its_items_are_not_the_page() -> None:
    ld = {"@context": "https://schema.org", "@graph": [
        {"@type": "CollectionPage", "name": "Dinner"},
        {"@type": "ItemList", "itemListElement": [{"@type": "Recipe", "name": "Soup"}]}]}
    assert declared_type(parse_html(_page(ld))) == "list"
    # The prose of an article-sized body does not outvote the declaration.
    assert extract_content(parse_html(_page(ld))).page_type == "list"


def test_an_article_inside_a_collection_stays_an_article() -> None:
    ld = [{"@type": "NewsArticle", "headline": "Harbour"}, {"@type": "CollectionPage"}]
    assert declared_type(parse_html(_page(ld))) is None
    assert extract_content(parse_html(_page(ld))).page_type == "detail"


def test_a_question_page_in_microdata_is_a_thread() -> None:
    html = _page(attrs=" itemscope itemtype='https://schema.org/QAPage'")
    assert declared_type(parse_html(html)) == "thread"
    assert extract_content(parse_html(html)).page_type == "thread"


def test_nested_items_and_undeclared_pages_say_nothing() -> None:
    nested = (f"<div itemscope itemtype='https://schema.org/Article'><p>{STORY}</p>"
              "<div itemscope itemtype='https://schema.org/CollectionPage'></div></div>")
    assert declared_type(parse_html(_page(body=nested))) is None
    assert declared_type(parse_html(_page())) is None


def test_the_page_items_are_those_the_ancestor_query_selects() -> None:
    # _declared reads items from their itemscope attributes: the same elements as the query
    # "//*[@itemscope and @itemtype][not(ancestor::*[@itemscope])]" (nested items, an item
    # without a type, an empty type, a type on an element that is no item).
    from sitesift.fields.declared import _declared

    body = ("<div itemscope itemtype='https://schema.org/CollectionPage'>"
            "<div itemscope itemtype='https://schema.org/Recipe'></div></div>"
            "<section itemscope><p itemscope itemtype='http://schema.org/QAPage/'></p></section>"
            "<span itemtype='https://schema.org/Product'></span>"
            "<aside itemscope itemtype=''></aside><i itemscope itemtype='a/Offer b/Car'></i>")
    root = parse_html(_page(body=body))
    want: set[str] = set()
    for el in root.xpath("//*[@itemscope and @itemtype][not(ancestor::*[@itemscope])]"):
        want.update(t.lower().rstrip("/").rsplit("/", 1)[-1] for t in el.get("itemtype").split())
    assert want == {"collectionpage", "offer", "car"}
    assert _declared(root) == want
