"""The one link walk under the crawler and the title method."""

from __future__ import annotations

from sitesift.parse.html import parse_html
from sitesift.parse.links import Link, document_base, join_url, page_links

PAGE = (
    "<html><head><base href='/x/'></head><body><div class='m3'><ul><li>"
    "<a href='a.html#top'> First  link </a></li></ul></div>"
    "<a href='#top'>top</a><a href='javascript:void(0)'>js</a><a href='mailto:a@b'>m</a>"
    "<a href='http://[bad/'>bad</a><a href='/img'><img src='i.png'></a>"
    "<a href='/t' title='Titled image link'><img src='j.png'></a>"
    "<noscript><a href='/n'>no script</a></noscript></body></html>"
)


def test_links_resolved_against_base_with_paths_and_title_fallback() -> None:
    links = page_links(parse_html(PAGE), "http://example.org/p/q.html", paths=True)
    assert [(link.url, link.anchor) for link in links] == [
        ("http://example.org/x/a.html", "First link"), ("http://[bad/", "bad"),
        ("http://example.org/img", ""), ("http://example.org/t", "Titled image link"),
        ("http://example.org/n", "no script"),
    ]
    assert links[0].path == "body/div.m0/ul/li/a"
    assert links[0].to_dict() == {"url": "http://example.org/x/a.html", "anchor": "First link"}


def test_hidden_links_skipped_on_request_and_hrefs_kept_without_base() -> None:
    root = parse_html(PAGE.replace("<base href='/x/'>", ""))
    assert "http://example.org/n" not in [
        link.url for link in page_links(root, "http://example.org/", skip_hidden=True)]
    assert page_links(root)[0] == Link("a.html", "First link")
    assert document_base(parse_html(PAGE), None) == "/x/"
    assert join_url("http://[x", "a") == "a"
