"""``auto``'s page types from what each page adds to its site's template."""

from __future__ import annotations

from sitesift import Options
from sitesift.methods.auto.site_types import OwnPart, site_types
from sitesift.pipeline import Extractor
from sitesift.record import Page

TOPICS = [f"Topic number {n}" for n in range(30)]


def _docs_page(n: int | None, main: str, *, form: str = "") -> str:
    nav = "".join(f"<li class='toctree-l1'><a class='reference internal' href='/topic{k}.html'>"
                  f"{t}</a></li>" for k, t in enumerate(TOPICS))
    search = ("<form class='search' action='/search.html' method='get'><input type='text' "
              "name='q'><input type='submit' value='Go'></form>")
    return (f"<html><head><title>{TOPICS[n] if n is not None else 'Search'} - Docs</title>"
            f"</head><body><div class='document'><div class='body' role='main'>{main}{form}"
            f"</div></div><div class='sphinxsidebar'><h3>Navigation</h3><ul>{nav}</ul>"
            f"<h3>Quick search</h3>{search}</div></body></html>")


def _prose(n: int) -> str:
    return "".join(f"<p>Paragraph {k} of topic {n} explains how the application object reads "
                   f"its configuration and why the order of the files matters here.</p>"
                   for k in range(8))


def test_a_short_document_is_no_list_and_a_search_page_no_document() -> None:
    # Alone, a page of one line under a navigation tree of 30 links reads as a list; across
    # the site the tree is the template's, and the page's own line is prose.
    pages = [Page(id=str(n), url=f"http://docs.test/topic{n}.html", site="docs.test",
                  html=_docs_page(n, f"<h1>{TOPICS[n]}</h1>{_prose(n)}")) for n in range(6)]
    pages.append(Page(id="short", url="http://docs.test/topic6.html", site="docs.test",
                      html=_docs_page(6, f"<h1>{TOPICS[6]}</h1><p>Obsolete, see <a href="
                                      "'/topic2.html'>Topic number 2</a> instead.</p>")))
    pages.append(Page(id="search", url="http://docs.test/search.html", site="docs.test",
                      html=_docs_page(None, "<h1>Search</h1><p>Please activate JavaScript "
                                      "to enable the search functionality.</p>",
                                      form="<form action='' method='get'><input type='text' "
                                      "name='q' value=''></form>")))
    alone = list(Extractor(Options(method="page")).extract_many(pages[-2:]))
    assert [r.page_type for r in alone] == ["list", "list"]
    records = list(Extractor(Options(method="auto")).extract_many(pages))
    assert [r.page_type for r in records] == ["detail"] * 7 + ["other"]
    assert "own part" in records[6].extra["auto"]["page_type"]


def test_an_index_of_links_of_its_own_is_a_list_and_a_blog_s_menu_page_no_post() -> None:
    index = OwnPart(weight=88, link_weight=61, targets=9)
    about = OwnPart(weight=300, sentence=True, menu=True)
    recent = OwnPart(weight=3000, sentence=True, menu=True)  # (a sidebar's latest posts)
    post = OwnPart(weight=3000, sentence=True)
    types = site_types(["other", "list", "detail", "detail", "detail"],
                       [index, about, recent, post, post],
                       [False] * 5, [False, False, True, True, True])
    assert [t and t[0] for t in types] == ["list", "other", None, None, None]
