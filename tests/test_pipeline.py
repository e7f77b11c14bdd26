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


def test_oversized_page_is_read_up_to_the_limit_with_a_warning() -> None:
    record = extract_html("<p>" + "x" * 200 + " yz</p>", options=Options(max_page_bytes=100))
    assert record.error is None and record.text == "x" * 97
    assert "exceeds the limit of 100" in record.extra["warnings"][0]


def test_pathological_pages_are_read_up_to_their_limits_within_seconds() -> None:
    """200,000 table rows took 21 s, a tag with 100,000 attributes 17 s, then each was an
    error record at once: now each is read up to its limit, with warnings, and the other
    pages of the batch are extracted, whatever the method."""
    rows = "".join(f"<tr><td>row {i}</td></tr>" for i in range(200_000))
    attributes = " ".join(f'a{i}="v"' for i in range(100_000))
    pages = [
        Page(id="rows", site="s", html=f"<html><body><table>{rows}</table></body></html>"),
        Page(id="attrs", site="s", html=f"<html><body><div {attributes}>x</div>"
                                        "<p>Some text of the page.</p></body></html>"),
        Page(id="deep", site="s", html="<html><body><p>Before the depths.</p>"
                                       + "<div>" * 5000 + "deep"),
        Page(id="good", site="s", html=ARTICLE),
        Page(id="good2", site="s", html=ARTICLE.replace("Tuesday", "Friday")),
    ]
    for method in ("page", "auto"):
        # (CPU seconds, and no wall-clock limit: on the shared 2-core machine wall time is
        # load more than work)
        started = time.process_time()
        options = Options(method=method, page_timeout=None)
        records = {r.id: r for r in Extractor(options).extract_many(pages)}
        assert time.process_time() - started < 10.0
        assert list(records) == [p.id for p in pages]
        assert {r.id: r.error for r in records.values() if r.error} == {}, method
        rows_text = records["rows"].text or ""
        assert rows_text.startswith("row 0\n\nrow 1\n") and "row 49990" in rows_text
        assert records["rows"].method == "text"
        assert "more than 100,000 elements" in records["rows"].extra["warnings"][0]
        assert "Some text of the page." in (records["attrs"].text or "")
        assert "100,000 attributes" in records["attrs"].extra["warnings"][0]
        assert "deeper than 2,048" in records["deep"].extra["warnings"][0]
        assert "tide barrier" in (records["good"].text or "")
        assert "warnings" not in records["good"].extra


def _svg_path(numbers: int) -> str:
    """An inline SVG logo whose path data lost its quotes (``d=%22M 24.77 20.3 C ...``), as
    real pages have it: every number of the path is an attribute name to an HTML parser."""
    values = " ".join(f"{(i * 7.31) % 40:.3f}" for i in range(numbers))
    return (f'<svg class="logo" viewBox="0 0 40 40"><path fill="#fff" d=%22M 24.77 20.3 C '
            f'24.792 {values} Z%22></path></svg>')


HEADLINES = ("Board backs the new tide barrier", "Ferry pier to close for repairs",
             "Old market hall reopens in June")


def _svg_page(k: int, numbers: int) -> str:
    story = " ".join(f"The harbour board met on day {k} and voted on clause {i} of the plan "
                     "to rebuild the tide barrier, which the town has argued over for years."
                     for i in range(6))
    return (f"<html><head><title>{HEADLINES[k]} | Harbour Post</title></head><body>"
            f"<header><a href='/'>{_svg_path(numbers)}Harbour Post</a> <a href='/city'>City"
            f"</a> <a href='/sport'>Sport</a></header><article><h1>{HEADLINES[k]}</h1>"
            f"<p>{story}</p><p>Work starts in spring, the board said on day {k}.</p>"
            "</article><footer><a href='/about'>About us</a></footer></body></html>")


def test_a_page_with_a_broken_svg_path_of_over_1000_numbers_keeps_its_article() -> None:
    """The shape of real pages that were error records (``a tag has 1,128 attributes``)."""
    pages = [Page(id=f"p{k}", site="post", url=f"https://post.example/news/{k}",
                  html=_svg_page(k, 1_100 + 50 * k)) for k in range(3)]
    for method in ("page", "auto", "template", "siblings"):
        for record in Extractor(Options(method=method)).extract_many(pages):
            k = int(record.id[1:])
            assert record.error is None, (method, record.error)
            assert "voted on clause 5 of the plan" in (record.text or ""), method
            assert f"Work starts in spring, the board said on day {k}." in record.text
            assert record.title == HEADLINES[k]
            assert "<path> tag has" in record.extra["warnings"][0]


def _crawl(*args: object, **kwargs: object) -> None:
    """A content extractor that runs for 5 s (Python bytecodes all along: interruptible)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        pass


def test_slow_page_takes_the_cheap_path_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sitesift.pipeline.base.extract_content", _crawl)
    started = time.monotonic()
    record = extract_html(ARTICLE, options=Options(page_timeout=0.2))
    assert time.monotonic() - started < 2
    assert record.error is None and record.method == "text"
    assert "No streets in the old town were flooded" in (record.text or "")
    assert record.title == "Harbour news"
    assert record.extra["warnings"] == [(
        "timeout: page took longer than 0.2 s; the record holds the page's visible text "
        "(the cheap path)")]


def test_a_page_whose_cheap_path_times_out_too_is_a_timeout_record(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from sitesift.pipeline.base import PipelineBase

    monkeypatch.setattr("sitesift.pipeline.base.extract_content", _crawl)
    monkeypatch.setattr(PipelineBase, "_read_text", _crawl)
    started = time.monotonic()
    record = extract_html(ARTICLE, options=Options(page_timeout=0.2))
    assert time.monotonic() - started < 2
    assert record.error == "timeout: page took longer than 0.1 s" and record.text is None


def test_a_slow_site_step_falls_back_to_the_cheap_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A site-level step that runs out of time costs the page its steps, not its text."""
    from sitesift.methods.siblings.method import SiblingsMethod

    monkeypatch.setattr(SiblingsMethod, "apply", _crawl)
    pages = [Page(id=f"p{k}", site="h", html=ARTICLE.replace("Tuesday", f"day {k}"))
             for k in range(3)]
    records = list(Extractor(Options(method="auto", page_timeout=0.3)).extract_many(pages))
    assert [r.error for r in records] == [None] * 3
    assert all(r.method == "text" and "timeout:" in r.extra["warnings"][0] for r in records)
    assert "day 2" in (records[2].text or "")


def test_a_bug_in_an_extractor_costs_the_page_its_method_not_its_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from sitesift.pipeline.base import PipelineBase

    def broken(*args: object, **kwargs: object) -> content.Content:
        raise KeyError("boom")

    monkeypatch.setattr("sitesift.pipeline.base.extract_content", broken)
    record = extract_html(ARTICLE)
    assert record.error is None and record.method == "text"
    assert "No streets in the old town were flooded" in (record.text or "")
    assert record.extra["warnings"][0].startswith("internal: KeyError: 'boom'; ")
    # Where the cheap path fails too, the page is an error record.
    monkeypatch.setattr(PipelineBase, "_read_text", broken)
    record = extract_html(ARTICLE)
    assert record.error == "internal: KeyError: 'boom'" and record.text is None


def test_a_failing_site_step_leaves_the_page_to_the_page_method(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr("sitesift.methods.template.features.page_features", broken)
    pages = [Page(id=f"p{k}", site="h", html=ARTICLE.replace("Tuesday", f"day {k}"))
             for k in range(3)]
    for method in ("template", "auto"):
        records = list(Extractor(Options(method=method)).extract_many(pages))
        assert [r.error for r in records] == [None] * 3, method
        assert [r.method for r in records] == ["page"] * 3, method
        assert "(site features); the page is read by the page method" in \
            records[0].extra["warnings"][0]
        assert "day 2" in (records[2].text or "")


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
    assert out[0].error is None and out[0].method == "text"
    assert out[0].extra["warnings"][0].startswith("timeout: page took longer than 0.2 s")
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


def _docs_home(k: int) -> str:
    """A documentation site's home page: an intro, a picture, more prose, all loose in one
    box with a long index of links after them, so the main block is a run of siblings."""
    para = ("This project gives you a fast way to build things, and this paragraph says why it "
            "matters to you. ") * 2
    index = "".join(f'<li><a href="/l{i}">Link number {i} of the index</a></li>'
                    for i in range(40))
    return (f"<html><head><title>Project {k}</title></head><body><div class='page'>"
            f"<div class='intro'><p>{para} Intro {k}.</p></div>"
            "<div class='pic'><img src='/f.png'></div>"
            f"<div class='more'><p>{para} More {k}.</p><p>{para}</p></div>"
            f"<ul class='index'>{index}</ul></div></body></html>")


def test_a_run_of_siblings_chosen_as_main_block_is_an_html_element() -> None:
    """The wrapper the page extractor puts around a run of siblings was a bare
    ``etree._Element``: ``auto`` failed on it (``'lxml.etree._Element' object has no
    attribute 'text_content'``) on a documentation site's home page."""
    import lxml.html

    from sitesift.parse import parse_html

    found = content.extract_content(parse_html(_docs_home(0)))
    assert found.nodes and all(isinstance(n, lxml.html.HtmlElement) for n in found.nodes)
    pages = [Page(id=f"d{k}", site="docs", url=f"https://docs.example.org/{k}/",
                  html=_docs_home(k)) for k in range(4)]
    for method in ("page", "auto"):
        for record in Extractor(Options(method=method)).extract_many(pages):
            assert record.error is None, (method, record.error)
            assert f"More {record.id[1:]}." in (record.text or "")


def test_parsing_without_reading_leaves_the_metadata_unread() -> None:
    """Pages a saved template's wrapper reads skip the page-level metadata (the cheap and the
    page-method-alone paths parse pages again without it too)."""
    extractor = Extractor()
    assert extractor._parse(Page(id="a", html=ARTICLE), read=False).meta is None
    assert extractor._parse(Page(id="a", html=ARTICLE)).meta is not None


def test_a_page_whose_metadata_fails_keeps_its_text(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr("sitesift.pipeline.base.extract_metadata", broken)
    record = extract_html(ARTICLE)
    assert record.error is None and record.title is None
    assert "No streets in the old town were flooded" in (record.text or "")
    assert record.extra["warnings"] == [
        "internal: KeyError: 'boom'; the page's title, date and author are not read"]
