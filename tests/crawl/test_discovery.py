"""Discovery: pagination, archive and feed links of a page, sitemap and feed documents, and a
crawl from a home page that finds a site through its sitemap index (gzip) and feed."""

from __future__ import annotations

import gzip
from pathlib import Path

from crawl_site import Site, article, page, whole_post
from test_crawler import FAST, states
from test_policy import links_of as page_links_of

from sitesift.crawl import crawl
from sitesift.crawl.discovery import (
    archive_links,
    feed_links,
    pagination_links,
    parse_document,
)

HOME = "http://blog.example/"


def links_of(html: str, url: str = HOME):
    return page_links_of(html, url)


def test_pagination_links_by_rel_next_number_or_next_word_and_url_shape() -> None:
    root, links = links_of(
        "<html><head><link rel='next' href='/page/2/'></head><body>"
        "<a href='/page/3/'>Page 3</a><a href='/?paged=4'>4</a><a href='/page/5/'>Older Posts→</a>"
        "<a href='/2024/01/05/'>5</a>"  # a calendar day: the number is no page number
        "<a href='/?p=12'>Hello world</a>"  # a post: its anchor is no paging anchor
        "<a href='/about/'>Next</a>"  # a next word, but the URL is no next page of this one
        "<a href='http://other.example/page/2/'>2</a></body></html>")
    found = {link.url for link in pagination_links(HOME, links, root)}
    assert found == {HOME + "page/2/", HOME + "page/3/", HOME + "?paged=4", HOME + "page/5/"}
    root, links = links_of("<a href='/news/list_2.html'>下一页</a>"
                           "<a href='/news/list_3.html'>3</a>", HOME + "news/list.html")
    assert [link.url for link in pagination_links(HOME + "news/list.html", links, root)] == [
        HOME + "news/list_2.html", HOME + "news/list_3.html"]
    root, links = links_of("<a href='/?cat=3&paged=2'>2</a>", HOME + "?cat=3")
    assert [link.url for link in pagination_links(HOME + "?cat=3", links, root)] == [
        HOME + "?cat=3&paged=2"]


def test_archive_and_feed_links() -> None:
    root, links = links_of(
        "<html><head><link rel='alternate' type='application/rss+xml' href='/feed/'>"
        "<link rel='alternate' type='application/atom+xml; charset=utf-8' href='/atom/'>"
        "<link rel='alternate' hreflang='fr' href='/fr/'></head><body>"
        "<a rel='category tag' href='/category/news/'>News</a><a rel='tag' href='/tag/x/'>x</a>"
        "<a rel='author' href='/author/alice/'>Alice</a><a href='/about/'>About</a></body></html>")
    assert [link.url for link in archive_links(HOME, links, root)] == [
        HOME + "category/news/", HOME + "tag/x/", HOME + "author/alice/"]
    assert feed_links(HOME, root) == [HOME + "feed/", HOME + "atom/"]


def test_sitemaps_feeds_and_text_sitemaps_are_parsed() -> None:
    index = (b"<?xml version='1.0'?><sitemapindex xmlns='http://www.sitemaps.org/schemas/"
             b"sitemap/0.9'><sitemap><loc>http://blog.example/s1.xml.gz</loc></sitemap>"
             b"</sitemapindex>")
    assert parse_document(HOME + "sitemap.xml", index, 100) == ([], [HOME + "s1.xml.gz"])
    urlset = gzip.compress(b"<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
                           b"<url><loc> http://blog.example/a/ </loc></url>"
                           b"<url><loc>http://blog.example/b/</loc></url></urlset>")
    assert parse_document(HOME + "s1.xml.gz", urlset, 100) == ([HOME + "a/", HOME + "b/"], [])
    assert parse_document(HOME + "s1.xml.gz", urlset, 1) == ([HOME + "a/"], [])
    rss = (b"<rss version='2.0'><channel><link>http://blog.example/</link><item><title>A"
           b"</title><link>http://blog.example/a/</link></item></channel></rss>")
    assert parse_document(HOME + "feed/", rss, 100) == ([HOME + "a/"], [])
    atom = (b"<feed xmlns='http://www.w3.org/2005/Atom'><link rel='self' href='/atom/'/><entry>"
            b"<link href='/b/'/><link rel='replies' href='/b/#c'/></entry></feed>")
    assert parse_document(HOME + "atom/", atom, 100) == ([HOME + "b/"], [])
    assert parse_document(HOME + "s.txt", b"http://blog.example/c/\n\n", 100) == (
        [HOME + "c/"], [])
    assert parse_document(HOME + "s.xml", b"<html><body>soft 404</body></html>", 100) == (
        [], [])


def test_a_home_page_seed_finds_the_site_by_sitemap_feed_pagination_and_archives(
    serve, tmp_path: Path
) -> None:
    """The home page shows two whole posts and links page 2 (two more) and a category; the
    sitemap index (announced in robots.txt) holds a gzip sitemap with an old post nothing
    links to; the feed holds a post only it lists; a /wp-admin/ page is refused."""
    site = Site()
    site.add("/robots.txt", b"User-agent: *\nDisallow: /admin/\n"
             b"Sitemap: /sitemap-index.xml\n", "text/plain")
    site.add("/sitemap-index.xml", b"<sitemapindex><sitemap><loc>/posts.xml.gz</loc></sitemap>"
             b"</sitemapindex>", "application/xml")
    site.add("/posts.xml.gz", gzip.compress(
        b"<urlset><url><loc>/2024/post-1/</loc></url><url><loc>/2023/old-post/</loc></url>"
        b"<url><loc>/admin/secret/</loc></url></urlset>"), "application/x-gzip")
    site.add("/feed/", b"<rss><channel><item><link>/2024/feed-only/</link></item></channel>"
             b"</rss>", "application/rss+xml")
    head = "<link rel='alternate' type='application/rss+xml' href='/feed/'>"
    nav = ("<a rel='category tag' href='/category/news/'>News</a>"
           "<a class='next' href='/page/2/'>Older posts</a>")
    site.add("/", page("Blog", whole_post(1) + whole_post(2) + nav).replace(
        b"</head>", head.encode() + b"</head>"))
    site.add("/page/2/", page("Blog", whole_post(3) + whole_post(4)))
    site.add("/category/news/", page("News", whole_post(1) + whole_post(3)))
    for path in ("/2023/old-post/", "/2024/feed-only/", "/admin/secret/",
                 *(f"/2024/post-{i}/" for i in range(1, 5))):
        site.add(path, article(path))
    site = serve(site)
    warc = tmp_path / "c.warc.gz"
    crawl([site.url("/")], warc, FAST)
    got = states(warc, site)
    assert got == {
        "/": "done", "/page/2/": "done", "/category/news/": "done",
        "/sitemap-index.xml": "done", "/posts.xml.gz": "done", "/feed/": "done",
        **{f"/2024/post-{i}/": "done" for i in range(1, 5)},
        "/2023/old-post/": "done", "/2024/feed-only/": "done", "/admin/secret/": "skipped",
    }
    assert max(site.served.values()) == 1  # nothing fetched twice
    crawl([site.url("/")], warc, FAST)  # run again: nothing new, nothing fetched again
    assert max(site.served.values()) == 1


def test_sloppy_documents_give_their_urls_and_no_wrong_one() -> None:
    """Cases of ``benchmarks/crawl.py --discovery`` that ultimate-sitemap-parser or the first
    version of ``parse_document`` got wrong."""
    sm = "http://www.sitemaps.org/schemas/sitemap/0.9"
    # A byte-order mark and blank lines before the declaration: XML, not a text sitemap.
    bom = f"\ufeff\n\n<?xml version='1.0'?><urlset xmlns='{sm}'><url><loc>/a/</loc></url>"
    assert parse_document(HOME + "sitemap.xml", (bom + "</urlset>").encode(), 9) == (
        [HOME + "a/"], [])
    # Text sitemaps: only lines that are one absolute URL.
    assert parse_document(HOME + "s.txt", b"http://blog.example/c/\nsee http://x/ too\n/d/\n",
                          9) == ([HOME + "c/"], [])
    # Gzip whatever the name and type.
    assert parse_document(HOME + "sitemap", gzip.compress(bom.encode() + b"</urlset>"), 9) == (
        [HOME + "a/"], [])
    # Atom's xml:base, nested; RSS links relative to the feed.
    atom = (b"<feed xmlns='http://www.w3.org/2005/Atom' xml:base='http://blog.example/x/'>"
            b"<entry><link href='a/'/></entry><entry xml:base='/y/'><link href='b'/></entry>"
            b"</feed>")
    assert parse_document(HOME + "atom/", atom, 9) == ([HOME + "x/a/", HOME + "y/b"], [])
    rss = b"<rss><channel><item><link>b/</link></item></channel></rss>"
    assert parse_document(HOME + "blog/feed/", rss, 9) == ([HOME + "blog/feed/b/"], [])
    # Images and other extensions' <loc> are no pages.
    images = (f"<urlset xmlns='{sm}' xmlns:i='http://www.google.com/schemas/sitemap-image/1.1'>"
              "<url><loc>http://blog.example/a/</loc><i:image><i:loc>http://blog.example/a.jpg"
              "</i:loc></i:image></url></urlset>").encode()
    assert parse_document(HOME + "sitemap.xml", images, 9) == ([HOME + "a/"], [])
    # An undefined HTML entity: the rest of the document is still read.
    nbsp = (f"<urlset xmlns='{sm}'><url><loc>http://blog.example/a/&nbsp;</loc></url>"
            "<url><loc>http://blog.example/b/</loc></url></urlset>").encode()
    assert parse_document(HOME + "sitemap.xml", nbsp, 9) == ([HOME + "a/", HOME + "b/"], [])
    # Truncated (a server that timed out): the value cut by the end is not a URL.
    cut = (f"<urlset xmlns='{sm}'><url><loc>http://blog.example/a/</loc></url><url><loc>"
           "http://blog.example/b").encode()
    assert parse_document(HOME + "sitemap.xml", cut, 9) == ([HOME + "a/"], [])
    ended = cut + b"/</loc></url><url>"  # cut after a whole value: that one is kept
    assert parse_document(HOME + "sitemap.xml", ended, 9) == ([HOME + "a/", HOME + "b/"], [])


def test_declared_entities_are_never_expanded() -> None:
    laughs = "".join(f"<!ENTITY l{i} '{('&l' + str(i - 1) + ';') * 10}'>" for i in range(1, 10))
    bomb = (f"<?xml version='1.0'?><!DOCTYPE urlset [<!ENTITY l0 'ha'>{laughs}]><urlset>"
            "<url><loc>http://blog.example/a/</loc></url><url><loc>http://blog.example/&l9;"
            "</loc></url></urlset>").encode()
    assert parse_document(HOME + "sitemap.xml", bomb, 9) == ([], [])
    small = (b"<!DOCTYPE urlset [<!ENTITY e 'x/'>]><urlset><url><loc>http://blog.example/a/"
             b"</loc></url><url><loc>http://blog.example/&e;</loc></url></urlset>")
    assert parse_document(HOME + "sitemap.xml", small, 9) == ([HOME + "a/"], [])


def test_without_a_sitemap_archives_linked_from_posts_and_a_last_page_of_one_post(
    serve, tmp_path: Path
) -> None:
    """A blog with no sitemap whose home page links no archive (as WordPress's block themes):
    its posts link their category (rel=category), fetched though the posts are at the depth
    limit, with the category's page 2; the home page's page 2 shows one post only, and that
    post is fetched (the next page of a list is a list); a post only the feed lists gives its
    tag page too. With a sitemap the posts at the limit are not parsed (test above: its
    category comes from the home page)."""
    site = Site()
    site.add("/robots.txt", b"User-agent: *\nAllow: /\n", "text/plain")
    site.add("/", page("Blog", whole_post(1) + whole_post(2)
                       + "<a class='next' href='/page/2/'>Older posts</a>").replace(
        b"</head>", b"<link rel='alternate' type='application/rss+xml' href='/feed/'></head>"))
    site.add("/feed/", b"<rss><channel><item><link>/2024/feed-only/</link></item></channel>"
             b"</rss>", "application/rss+xml")
    site.add("/2024/feed-only/", article("A post the feed lists",
                                         "<a rel='tag' href='/tag/only/'>only</a>"))
    site.add("/tag/only/", page("Only", whole_post(4)))
    site.add("/page/2/", page("Blog", whole_post(3)))
    category = "<a rel='category tag' href='/category/news/'>News</a>"
    for i in (1, 2, 3):
        tag = "<a rel='tag' href='/tag/only/'>only</a>" if i == 1 else ""
        site.add(f"/2024/post-{i}/", article(f"Post {i}", category + tag))
    site.add("/category/news/", page("News", whole_post(1) + whole_post(3)
                                     + "<a href='/category/news/page/2/'>2</a>"))
    site.add("/category/news/page/2/", page("News", whole_post(2)))
    site = serve(site)
    warc = tmp_path / "c.warc.gz"
    crawl([site.url("/")], warc, FAST)
    assert states(warc, site) == {
        "/": "done", "/sitemap.xml": "skipped", "/page/2/": "done",
        **{f"/2024/post-{i}/": "done" for i in (1, 2, 3)},
        "/category/news/": "done", "/category/news/page/2/": "done",
        "/feed/": "done", "/2024/feed-only/": "done", "/tag/only/": "done",
    }
    assert max(site.served.values()) == 1
    # From a list page that is no home page: its items, not the site's archives.
    listed = tmp_path / "list.warc.gz"
    crawl([site.url("/category/news/")], listed, FAST)
    assert states(listed, site) == {"/category/news/": "done", "/category/news/page/2/": "done",
                                    **{f"/2024/post-{i}/": "done" for i in (1, 2, 3)}}
