"""Pages that list a site's own posts, known from the posts' own pages (``own_post_lists``)."""

from __future__ import annotations

from sitesift import Options
from sitesift.methods.page.own_posts import own_post_lists
from sitesift.parse import parse_html
from sitesift.pipeline import Extractor
from sitesift.record import Page

WORDS = ("harbour", "tide", "gulls", "ferry", "lantern", "quay", "morning", "nets", "rope",
         "salt", "boats", "market", "fishermen", "weather", "stone", "bridge")


def _sentence(n: int) -> str:
    words = [WORDS[(n * 7 + k * 5) % len(WORDS)] for k in range(14)]
    return " ".join(words).capitalize() + "."


def _title(n: int) -> str:
    return f"Notes from the harbour road, part {n}"


def _paragraphs(n: int, count: int) -> str:
    return "".join(f"<p>{' '.join(_sentence(n * 11 + k * 3 + j) for j in range(4))}</p>"
                   for k in range(count))


def _card(n: int, how: str) -> str:
    """A summary card: its title linked around the heading (``a > h2``), inside it
    (``h2 > a``), by an overlay link naming it, or a link in no heading; under it the
    author's name as a link (as a forum post shows its poster's), no date, an excerpt."""
    url, title = f"/posts/part-{n}/", _title(n)
    heading = {"around": f"<a href='{url}'><h2 class='title'>{title}</h2></a>",
               "inside": f"<h2 class='title'><a href='{url}'>{title}</a></h2>",
               "overlay": f"<h2 class='title'>{title}</h2>",
               "bare": f"<a class='article-title' href='{url}'>{title}</a>"}[how]
    overlay = f"<a class='cover' href='{url}' aria-label='post link to {title}'></a>" \
        if how == "overlay" else ""
    return (f"<div class='card'>{heading}<a class='who' href='/authors/a{n % 3}/'>"
            f"Author {n % 3}</a><div class='summary'>{_paragraphs(n, 2)}</div>{overlay}</div>")


def _page(main: str) -> str:
    widget = ("<aside><h3 class='widget'>Categories</h3><ul><li><a href='/categories/'>"
              "All categories</a></li></ul><h3 class='widget'>Archives</h3><ul><li>"
              "<a href='/archives/'>Every post</a></li></ul></aside>")
    return (f"<html><head><title>Harbour notes</title></head><body><header><a href='/'>"
            f"Harbour notes</a></header><main>{main}</main>{widget}</body></html>")


def _post(n: int) -> str:
    return _page(f"<article><h1>{_title(n)}</h1><p class='by'>Author {n % 3}</p>"
                 f"{_paragraphs(n, 5)}</article>")


def _site(how: str) -> list[Page]:
    lists = {"/": range(0, 4), "/page/2/": range(4, 8), "/tags/tide/": (1, 3, 5)}
    pages = [Page(id=path, url=f"http://blog.test{path}", site="blog.test",
                  html=_page("".join(_card(n, how) for n in posts)))
             for path, posts in lists.items()]
    pages += [Page(id=str(n), url=f"http://blog.test/posts/part-{n}/", site="blog.test",
                   html=_post(n)) for n in range(8)]
    pages.append(Page(id="about", url="http://blog.test/about/", site="blog.test",
                      html=_page("<h1>Archives</h1><p>Who we are and what we write about "
                                 "on the harbour road, every week.</p>")))
    return pages


def test_pages_of_summaries_linking_the_site_s_posts_are_lists() -> None:
    for how in ("around", "inside", "overlay", "bare"):
        pages = _site(how)
        found = own_post_lists([parse_html(p.html) for p in pages], [p.url for p in pages])
        assert found == [True] * 3 + [False] * 9, how


def test_a_widget_heading_naming_a_page_is_no_post() -> None:
    # The sidebar's "Archives" heading sits over a link to a page whose heading is
    # "Archives": the link names something else, so the heading is no post's title.
    archives = Page(id="arch", url="http://blog.test/archives/", site="blog.test",
                    html=_page("<h1>Archives</h1>"))
    pages = [*_site("inside")[-1:], archives]
    assert own_post_lists([parse_html(p.html) for p in pages], [p.url for p in pages]) == \
        [False, False]


def test_auto_types_a_blog_of_summary_cards_by_its_posts_pages() -> None:
    # Alone, a page of summary cards reads as an article, and the cards' linked names under
    # linked titles as a forum's posts; the posts' own pages show that it lists them.
    records = list(Extractor(Options(method="auto")).extract_many(_site("around")))
    assert [r.page_type for r in records] == ["list"] * 3 + ["detail"] * 8 + \
        [records[-1].page_type]
    assert records[-1].page_type != "list"
    assert not any(r.extra.get("posts") for r in records)
