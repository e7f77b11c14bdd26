import time

import pytest

from sitesift import Extractor, Options, Page, extract_html
from sitesift.methods.page import content

ARTICLE = """<html><head><title>Harbour news</title></head><body>
<nav><a href="/">Home</a> <a href="/city">City</a></nav>
<article><h1>Harbour news</h1>
<p>The tide barrier was closed on Tuesday night for the first time this winter, engineers said.</p>
<p>No streets in the old town were flooded, and ferries ran from the outer pier instead.</p>
</article></body></html>"""


def test_a_page_becomes_a_record_with_text_and_method() -> None:
    record = extract_html(ARTICLE, url="https://example.com/a.html")
    assert record.error is None and record.method == "page"
    assert "tide barrier" in (record.text or "")
    assert record.to_dict()["id"] == "https://example.com/a.html"


def test_failed_input_page_passes_through_as_error_record() -> None:
    record = Extractor().extract(Page(id="x", error="input: file missing"))
    assert record.id == "x" and record.error == "input: file missing" and record.text is None


@pytest.mark.parametrize("html", ["", "no markup here"])
def test_empty_pages_become_error_records(html: str) -> None:
    record = extract_html(html)
    assert record.error and record.error.startswith("empty:")


def test_oversized_page_is_refused_before_parsing() -> None:
    record = extract_html("<p>" + "x" * 200 + "</p>", options=Options(max_page_bytes=100))
    assert record.error and record.error.startswith("limit:")
    assert "exceeds the limit" in record.error


def test_pathological_pages_are_limit_errors_within_seconds_and_the_batch_goes_on() -> None:
    """200,000 table rows took 21 s, a tag with 100,000 attributes 17 s: now each is an error
    record at once, whatever the method; the other pages of the batch are extracted."""
    rows = "".join(f"<tr><td>row {i}</td></tr>" for i in range(200_000))
    attributes = " ".join(f'a{i}="v"' for i in range(100_000))
    pages = [
        Page(id="rows", site="s", html=f"<html><body><table>{rows}</table></body></html>"),
        Page(id="attrs", site="s", html=f"<html><body><div {attributes}>x</div></body></html>"),
        Page(id="deep", site="s", html="<html><body>" + "<div>" * 5000 + "deep"),
        Page(id="good", site="s", html=ARTICLE),
        Page(id="good2", site="s", html=ARTICLE.replace("Tuesday", "Friday")),
    ]
    for method in ("page", "auto"):
        started = time.perf_counter()
        records = {r.id: r for r in Extractor(Options(method=method)).extract_many(pages)}
        assert time.perf_counter() - started < 10.0
        assert list(records) == [p.id for p in pages]
        for bad in ("rows", "attrs", "deep"):
            assert (records[bad].error or "").startswith("limit: "), (method, bad)
        assert records["good"].error is None and "tide barrier" in (records["good"].text or "")


def _crawl(*args: object, **kwargs: object) -> None:
    """A content extractor that runs for 5 s (Python bytecodes all along: interruptible)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        pass


def test_slow_page_becomes_a_timeout_record(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sitesift.pipeline.base.extract_content", _crawl)
    started = time.monotonic()
    record = extract_html(ARTICLE, options=Options(page_timeout=0.2))
    assert record.error and record.error.startswith("timeout:")
    assert time.monotonic() - started < 2


def test_a_bug_in_an_extractor_is_an_internal_error_record(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> content.Content:
        raise KeyError("boom")

    monkeypatch.setattr("sitesift.pipeline.base.extract_content", broken)
    record = extract_html(ARTICLE)
    assert record.error and record.error.startswith("internal: KeyError")


def test_batch_keeps_input_order_and_every_page() -> None:
    pages = [Page(id=str(i), html=ARTICLE if i % 2 else "") for i in range(6)]
    records = list(Extractor().extract_many(pages))
    assert [r.id for r in records] == [str(i) for i in range(6)]
    assert [r.error is None for r in records] == [False, True] * 3


def test_caller_page_is_not_mutated() -> None:
    page = Page(id="a", html=ARTICLE)
    Extractor().extract(page)
    assert page.html == ARTICLE and page.error is None


def test_markdown_format_adds_markdown_to_the_record() -> None:
    record = extract_html(ARTICLE, options=Options(output_format="markdown"))
    assert "markdown" in record.to_dict()


def _detail(title: str, headline: str) -> str:
    return (f"<html><head><title>{title}</title></head><body><article><h2>{headline}</h2>"
            "<p>The tide barrier was closed on Tuesday night for the first time this winter, "
            "engineers said, and no streets in the old town were flooded.</p>"
            "<p>Ferries ran from the outer pier instead, the harbour office said.</p>"
            "</article></body></html>")


def _list_page() -> str:
    items = "".join(f'<li><a href="/p/{n}">Story number {n} of the harbour desk today</a></li>'
                    for n in range(3261000000, 3261000012))
    return f"<html><head><title>Latest-Gazette</title></head><body><ul>{items}</ul></body></html>"


def test_site_titles_learn_decoration_and_list_pages_carry_links() -> None:
    pages = [
        Page(id="detail-3261000001", site="g", html=_detail(
            "Harbour barrier closed-Gazette", "Subscribe to our newsletter")),
        Page(id="detail-3261000002", site="g", html=_detail(
            "Ferries move to the outer pier-Gazette", "Most read")),
        Page(id="list", site="g", html=_list_page()),
    ]
    streamed = list(Extractor(Options(method="page")).extract_many(pages))
    batch = list(Extractor(Options(method="page", site_titles=True)).extract_many(pages))
    assert [r.title for r in streamed[:2]] == ["Harbour barrier closed-Gazette",
                                               "Ferries move to the outer pier-Gazette"]
    # "-Gazette" is shared by the site's titles: it is decoration.
    assert [r.title for r in batch[:2]] == ["Harbour barrier closed",
                                            "Ferries move to the outer pier"]
    assert batch[2].page_type == "list"
    links = batch[2].extra["links"]
    assert len(links) == 12 and links[0] == {
        "url": "/p/3261000000", "anchor": "Story number 3261000000 of the harbour desk today"}
    assert "links" not in batch[0].extra


def test_page_method_streams_unless_site_titles_is_asked_for() -> None:
    def pages():
        yield Page(id="a", html=ARTICLE)
        raise AssertionError("read past the first page before yielding it")

    assert next(Extractor(Options(method="page")).extract_many(pages())).id == "a"


def test_a_failure_in_site_titles_keeps_page_titles(monkeypatch: pytest.MonkeyPatch) -> None:
    import sitesift.pipeline.base as pipeline

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("boom")

    monkeypatch.setattr(pipeline, "learn_site_titles", broken)
    pages = [Page(id=f"p{i}", site="s", html=ARTICLE) for i in range(2)]
    records = list(Extractor(Options(method="page", site_titles=True)).extract_many(pages))
    assert [r.error for r in records] == [None, None]
    assert [r.title for r in records] == ["Harbour news", "Harbour news"]


def test_auto_keeps_a_story_published_twice_and_reads_threads_only_by_their_first_post() -> None:
    from sitesift.methods.auto.threads import holds_post as _holds

    story = ("<html><body><div class='nav'><a href='/'>Home</a></div><article><h1>Tide</h1>"
             + "<p>The tide barrier closed at noon, the harbour master said today.</p>" * 8
             + "</article></body></html>")
    pages = [Page(id=f"copy{k}", url=f"http://h.test/news/{k}.html", site="h", html=story)
             for k in range(2)]
    records = list(Extractor().extract_many(pages))
    assert all("harbour master" in (r.text or "") for r in records)
    assert _holds("The first post, word for word, and the replies.",
                  "The first post, word for word")
    assert not _holds("A story about the tide barrier.", "Nice comment, well written indeed")


def test_auto_never_answers_a_story_with_a_first_post_holding_little_of_it() -> None:
    from sitesift.methods.auto.threads import thread_holds as _thread_holds

    story = " ".join(f"The harbour board met on day {k} and voted on the new tide gates."
                     for k in range(40))
    standfirst = [{"text": "The harbour board met on day 0 and voted on the new tide gates.",
                   "author": "desk", "published": None}]
    assert not _thread_holds(standfirst, story)
    whole = [{"text": story[: len(story) // 2], "author": "a", "published": None},
             {"text": story[len(story) // 2:], "author": "b", "published": None}]
    assert _thread_holds(whole, story)
    assert _thread_holds(standfirst, "")  # no main text: nothing to drop


def test_auto_turns_empty_and_broken_pages_of_a_site_into_error_records() -> None:
    from sitesift.methods.auto.threads import holds_post as _holds

    good = ("<html><body><article><h1>Tide</h1>"
            + "<p>The tide barrier closed at noon, the harbour master said today.</p>" * 8
            + "</article></body></html>")
    pages = [Page(id="good", site="h", html=good), Page(id="empty", site="h", html=""),
             Page(id="bytes", site="h", html="\x00\x01 no markup"),
             Page(id="good2", site="h", html=good.replace("noon", "dawn"))]
    records = list(Extractor().extract_many(pages))
    assert [r.id for r in records] == ["good", "empty", "bytes", "good2"]
    assert records[1].error and records[2].error
    assert "harbour master" in (records[0].text or "") and "dawn" in (records[3].text or "")
    assert not _holds("some text", "") and not _holds(None, "   ")


def test_slow_page_times_out_in_a_thread_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not the main thread (Dask workers, the service's thread pool): the watchdog's limit."""
    import threading

    monkeypatch.setattr("sitesift.pipeline.base.extract_content", _crawl)
    out: list = []
    started = time.monotonic()
    worker = threading.Thread(
        target=lambda: out.append(extract_html(ARTICLE, options=Options(page_timeout=0.2))))
    worker.start()
    worker.join()
    assert out[0].error and out[0].error.startswith("timeout: page took longer than 0.2 s")
    assert time.monotonic() - started < 2
    # Disarmed with the page: a later page in the same thread is not interrupted.
    monkeypatch.undo()
    later: list = []
    worker = threading.Thread(target=lambda: (
        later.append(extract_html(ARTICLE, options=Options(page_timeout=0.2))),
        time.sleep(0.8), later.append("slept")))
    worker.start()
    worker.join()
    assert later[0].error is None and later[1] == "slept"


def _story(title: str, headline: str) -> str:
    text = " ".join(f"{headline} was the talk of the ground on day {i} of the season, and the"
                    " manager said so at length to everyone who asked him." for i in range(12))
    return (f"<html><head><title>{title}</title></head><body><div class='nav'>"
            "<a href='/'>Home</a> <a href='/football'>Football</a></div>"
            f"<div class='top'><b>{headline}</b></div><div class='story'><p>{text}</p>"
            f"<p>{text}</p></div></body></html>")


def test_site_titles_leave_the_page_rules_their_title_when_the_page_title_stands() -> None:
    # "Gazette - Section" names the site and section; the headline is a bold line above the
    # story. The site learns "Gazette -" as decoration, but the page's own answer stands, so
    # the later rules still read <title> as the page method does and find the bold line.
    pages = [Page(id="a", site="g", html=_story(
                 "Gazette - Latest football news and transfer reports",
                 "Gunners star set to make his comeback")),
             Page(id="b", site="g", html=_story(
                 "Gazette - Rugby Union news and match reports",
                 "Dowling set for a long absence from the side"))]
    page = [r.title for r in Extractor(Options(method="page")).extract_many(pages)]
    assert page == ["Gunners star set to make his comeback",
                    "Dowling set for a long absence from the side"]
    assert [r.title for r in Extractor(Options(method="auto")).extract_many(pages)] == page
    site = [r.title for r in Extractor(Options(method="page", site_titles=True))
            .extract_many(pages)]
    assert site == page


def _product(name: str, h1: str) -> str:
    return (f"<html><head><title>{name} - Trail Outfitters</title>"
            f'<meta property="og:title" content="{name}"></head><body>'
            "<nav><a href='/'>Home</a> <a href='/shop'>Shop</a></nav>"
            f"<main><h1>{h1}</h1><p>Built for long nights outdoors, this piece of kit has been "
            "tested on three continents by our staff, who carried it for a season.</p>"
            "<p>It ships in recycled packaging and comes with a two-year warranty.</p>"
            "</main></body></html>")


def test_site_titles_give_the_h1_where_the_sites_template_prints_the_headline_there() -> None:
    # Four pages print their og:title as their h1; the fifth's og:title words the product at
    # more length, and its h1 prints a short form of it (modern-dev 3061, apple.com).
    names = ("Kayaks", "Sleeping Bags", "Hiking Boots", "Camp Stoves")
    pages = [Page(id=f"p{i}", site="shop", html=_product(n, n)) for i, n in enumerate(names)]
    pages.append(Page(id="odd", site="shop", html=_product(
        "Trail Lamp 300 and Trail Lamp 500", "Trail Lamp 300")))
    alone = Extractor(Options(method="page")).extract(pages[-1])
    assert alone.title == "Trail Lamp 300 and Trail Lamp 500"
    batch = list(Extractor(Options(method="page", site_titles=True)).extract_many(pages))
    assert [r.title for r in batch] == [*names, "Trail Lamp 300"]
