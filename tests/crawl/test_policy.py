"""Links, item links, list pages and same-layer links on hand-built pages."""

from __future__ import annotations

from crawl_site import blog_site

from sitesift.crawl.policy import (
    DefaultPolicy,
    normalize_url,
    page_links,
    post_titles,
    same_layer_links,
)
from sitesift.crawl.urlpolicy import UrlStructurePolicy
from sitesift.parse.html import parse_html

BASE = "http://example.org/news/"
NAV = "<nav><a href='/'>Home</a><a href='/a'>About</a><a href='/c'>Contact</a></nav>"


def links_of(html: str, url: str = BASE):
    root = parse_html(html)
    return root, page_links(url, root)


def test_page_links_resolve_normalise_and_filter() -> None:
    _root, links = links_of(
        "<html><head><base href='http://example.org/x/'></head><body>"
        "<a href='a.html#top'> First  link </a><a href='HTTP://Example.ORG:80/b'>B</a>"
        "<a href='mailto:me@example.org'>mail</a><a href='/doc.PDF'>pdf</a>"
        "<a href='javascript:void(0)'>js</a><template><a href='/t'>t</a></template></body></html>"
    )
    assert [(link.url, link.anchor) for link in links] == [
        ("http://example.org/x/a.html", "First link"), ("http://example.org/b", "B"),
    ]
    assert links[0].path == "body/a"


def test_normalize_url() -> None:
    assert normalize_url("https://EXAMPLE.org:443#x") == "https://example.org/"
    assert normalize_url("http://example.org:8080/a?q=1") == "http://example.org:8080/a?q=1"
    assert normalize_url("ftp://example.org/") is None
    assert normalize_url("http://[::1]:99/") == "http://[::1]:99/"
    assert normalize_url("http://example.org:bad/") is None


def test_items_of_a_list_page_not_of_its_menus() -> None:
    items = "".join(f"<li><a href='/news/{i}.html'>Headline number {i} of the day</a></li>"
                    for i in range(6))
    root, links = links_of(f"<html><body>{NAV}<ul class='list'>{items}</ul></body></html>")
    policy = DefaultPolicy()
    found = policy.item_links(BASE, links, root)
    assert [link.url for link in found] == [f"http://example.org/news/{i}.html" for i in range(6)]
    assert policy.is_list_page(BASE, links, root)


def test_an_article_with_a_related_box_is_no_list_page() -> None:
    related = "".join(f"<li><a href='/news/{i}.html'>Related headline number {i}</a></li>"
                      for i in range(5))
    text = "<p>" + "A long paragraph of article text that readers came for. " * 40 + "</p>"
    root, links = links_of(f"<html><body>{NAV}<article>{text}</article><ul>{related}</ul>"
                           "</body></html>")
    policy = DefaultPolicy()
    assert len(policy.item_links(BASE, links, root)) == 5  # the related links are items...
    assert not policy.is_list_page(BASE, links, root)  # ...but the page is an article


def test_same_layer_links() -> None:
    _root, links = links_of(
        "<html><body><a href='/news/2024/b-7.html'>b</a><a href='/news/2024/c.html'>c</a>"
        "<a href='/news/2024/'>folder</a><a href='/news/2023/d.html'>other year</a>"
        "<a href='/news/2024/e.htm'>other shape</a><a href='http://other.org/news/2024/f.html'>"
        "f</a><a href='/news/2024/a-1.html'>self</a></body></html>",
        "http://example.org/news/2024/a-1.html",
    )
    found = same_layer_links("http://example.org/news/2024/a-1.html", links)
    assert [link.url for link in found] == [
        "http://example.org/news/2024/b-7.html", "http://example.org/news/2024/c.html",
    ]
    _root, links = links_of("<html><body><a href='/item?id=2'>x</a><a href='/item?page=2'>y</a>"
                           "</body></html>", "http://example.org/item?id=1")
    assert [link.url for link in same_layer_links("http://example.org/item?id=1", links)] == [
        "http://example.org/item?id=2"
    ]


def test_the_page_type_model_decides_first() -> None:
    """A list of headlines is a list by the single-page extractor's page type (its tree left
    intact), a short one too (repeated records); items whose headline is under half their
    text are no records there and fall to the policy's own cues."""
    from sitesift.methods.page.content import extract_content
    from sitesift.parse.html import parse_html as parse

    def page(n: int, note: str = "") -> str:
        items = "".join(f"<li><a href='/n/{i}.html'>Headline number {i} of the day</a>{note}"
                        "</li>" for i in range(n))
        return f"<html><body>{NAV}<ul class='list'>{items}</ul></body></html>"

    short_notes = page(6, " (a longer note on this story)")
    assert extract_content(parse(page(15))).page_type == "list"
    assert extract_content(parse(page(6))).page_type == "list"
    assert extract_content(parse(short_notes)).page_type == "other"
    for html in (page(15), page(6), short_notes):
        root, links = links_of(html)
        size = len(list(root.iter()))
        assert DefaultPolicy().is_list_page(BASE, links, root)
        assert len(list(root.iter())) == size  # the model ran on a copy


def test_post_titles_of_a_page_of_whole_posts_and_of_an_article_with_related_posts() -> None:
    site = blog_site(4)
    home = parse_html(site.routes["/"](site, None)[2].decode())
    post = parse_html(site.routes["/2024/post-1/"](site, None)[2].decode())
    on_home = post_titles("http://blog.example/", home)
    assert on_home == tuple(f"http://blog.example/2024/post-{i}/" for i in range(1, 5))
    assert post_titles("http://blog.example/2024/post-1/", post) == (
        "http://blog.example/2024/post-2/", "http://blog.example/2024/post-3/")
    assert post_titles("http://blog.example/", home, min_titles=5) == ()
    listicle = parse_html("<h2><a href='http://shop.example/a'>Shop A</a></h2><p>Text.</p>"
                          "<h2><a href='http://shop.example/b'>Shop B</a></h2><p>Text.</p>")
    assert post_titles("http://blog.example/best-shops/", listicle) == ()  # other hosts
    # The page-type model reads both as articles; the policies read both as lists (titles
    # followed either way), the home page's titles as its items. The learned policy takes
    # neither as evidence of a type: nothing tells the two apart reliably.
    links = page_links("http://blog.example/", home)
    assert DefaultPolicy().is_list_page("http://blog.example/", links, home)
    assert {link.url for link in DefaultPolicy().item_links("http://blog.example/", links, home)
            } == set(on_home)
    learned = UrlStructurePolicy()
    assert learned.is_list_page("http://blog.example/", links, home)
    post_links = page_links("http://blog.example/2024/post-1/", post)
    assert learned.is_list_page("http://blog.example/2024/post-1/", post_links, post)
    assert learned.hosts["blog.example"].typed == {}
