"""Repeated records tell list pages from articles (small pages written for these tests)."""

from __future__ import annotations

from sitesift.methods.page import units as units_module
from sitesift.methods.page.content import extract_content
from sitesift.methods.page.records import record_share
from sitesift.parse import parse_html

SUMMARY = ("The council met on Tuesday, and after a long debate it approved the budget for next "
           "year, with money for the harbour, the schools and the old tram line.")
PARAGRAPH = ("The mayor said the plan would take five years, and that the first works on the "
             "quay would start in spring, once the tenders are signed; critics asked for more.")


def _page(body: str) -> str:
    return f"<html><head><title>T</title></head><body>{body}</body></html>"


def _type(html: str) -> str | None:
    return extract_content(parse_html(html)).page_type


def test_teaser_cards_with_long_summaries_are_a_list() -> None:
    # Enough summary prose for an article, but in repeated cards: a list of teasers.
    cards = "".join(
        f"<div class='card'><h3><a href='/s/{i}'>Story number {i} of the day</a></h3>"
        f"<p>{SUMMARY}</p></div>" for i in range(6))
    assert _type(_page(f"<main><div class='stream'>{cards}</div></main>")) == "list"


def test_feed_entries_without_links_are_a_list() -> None:
    # A ticker: time + a short line per entry, no link anywhere (pages driven by scripts).
    entries = "".join(
        f"<div class='entry'><div class='time'>08:{i:02d}</div><div class='say'>Index up "
        f"{i} points</div></div>" for i in range(6))
    assert _type(_page(f"<div class='feed'>{entries}</div><p>Data delayed.</p>")) == "list"


def test_article_made_of_steps_stays_detail() -> None:
    # A how-to's steps (or a listicle's items) are records too, but the page reads as an
    # article: its body decides.
    steps = "".join(f"<div class='step'><h3>Step {i}</h3><p>{PARAGRAPH}</p></div>"
                    for i in range(1, 6))
    assert _type(_page(f"<article>{steps}</article>")) == "detail"


def test_short_headline_rows_are_a_list() -> None:
    # Few rows (fewer than the link-list rule needs) with a footer sentence: still a list.
    rows = "".join(f"<li><a href='/n/{i}'>Tide barrier closes for winter number {i}</a> "
                   f"<span>2026-11-{i + 10}</span></li>" for i in range(5))
    body = (f"<main><h1>Latest news</h1><ul class='news'>{rows}</ul></main>"
            "<footer><p>© 2026 Harbour News. All rights reserved, and this line is long.</p>"
            "</footer>")
    assert _type(_page(body)) == "list"


def test_article_paragraphs_with_links_stay_detail() -> None:
    # Paragraphs repeat and hold links, but each is one run of text: no records.
    paragraphs = "".join(
        f"<p>{PARAGRAPH} <a href='/r/{i}'>the report published last week</a> said.</p>"
        for i in range(6))
    assert _type(_page(f"<article>{paragraphs}</article>")) == "detail"


def test_article_with_a_related_list_stays_detail() -> None:
    related = "".join(f"<li><a href='/o/{i}'>Another story worth reading, number {i}</a>"
                      f"<span>2026-11-0{i}</span></li>" for i in range(5))
    body = ("<article>" + f"<p>{PARAGRAPH}</p>" * 8 + "</article>"
            f"<div class='more'><ul>{related}</ul></div>")
    assert _type(_page(body)) == "detail"


def test_menu_entries_are_no_records() -> None:
    root = parse_html(_page("<ul>" + "".join(
        f"<li><a href='/{i}'>Sec {i}</a></li>" for i in range(8)) + "</ul>"))
    body = root.find("body")
    assert record_share(body, units_module.segment(body)) == 0.0


def test_record_share_is_the_heaviest_run() -> None:
    rows = "".join(f"<tr><td><a href='/t/{i}'>Topic about the harbour {i}</a></td>"
                   f"<td>alba</td></tr>" for i in range(4))
    root = parse_html(_page(f"<table>{rows}</table><p>{PARAGRAPH}</p>"))
    body = root.find("body")
    share = record_share(body, units_module.segment(body))
    assert 0.4 < share < 0.8


def _share(body_html: str) -> float:
    body = parse_html(_page(body_html)).find("body")
    return record_share(body, units_module.segment(body))


def test_ids_in_class_names_do_not_split_a_run() -> None:
    cards = "".join(f"<div class='card post-{1000 + i}'><a href='/s/{i}'>A headline for story "
                    f"{i}</a><span>2026-11-0{i}</span></div>" for i in range(5))
    assert _share(cards) > 0.9


def test_slides_and_article_sections_are_no_records() -> None:
    slides = "".join(f"<figure><p>Slide {i}: the quay at dawn</p><figcaption>Photo {i} by "
                     f"A. Writer</figcaption></figure>" for i in range(6))
    sections = "".join(f"<div class='part'><h2>Part {i}</h2><p>{PARAGRAPH}</p><p>{SUMMARY}</p>"
                       "</div>" for i in range(5))
    assert _share(slides) == 0.0
    assert _share(sections) == 0.0


def _ranking(classes: list[str]) -> str:
    rows = "".join(
        f"<div class='{classes[i % len(classes)]}'><div>{i + 1}.</div><div><a href='/p/{i}'>Tool "
        f"{i}</a></div><div>{9 - i / 10:.1f}</div></div>" for i in range(16))
    aside = "".join(f"<li>Filter by size, platform and rating, option {i}</li>" for i in range(2))
    return _page(f"<ul class='filters'>{aside}</ul><div class='ranking'>{rows}</div>")


def test_striped_rows_are_one_run() -> None:
    # Zebra rows: every other row has a second background class. They are one ranking.
    striped = _ranking(["row entry bg-white", "row entry bg-gray"])
    assert _type(striped) == _type(_ranking(["row entry bg-white"])) == "list"
    # Two kinds of rows that do not alternate strictly stay two runs (half the ranking each:
    # no list beside the filters).
    assert _type(_ranking(["row entry bg-white"] * 2 + ["row entry bg-gray"] * 2)) == "other"


def test_an_unclosed_containers_nested_copies_are_one_run() -> None:
    # <div class="list"> left open: each day's list nests in the previous one's; the items of
    # all of them are one run, as a reader sees them.
    from sitesift.methods.page.records import chain_children
    html = "".join(f"<div class='list'><b>Day {d}</b>"
                   + "".join(f"<div class='item'>x{d}{i}</div>" for i in range(3))
                   for d in range(4)) + "</div>" * 4
    root = parse_html(f"<html><body>{html}</body></html>")
    top = root.find(".//div[@class='list']")
    kids = chain_children(top)
    assert [k.text for k in kids if k.get("class") == "item"] == \
        [f"x{d}{i}" for d in range(4) for i in range(3)]
    assert not any(k.get("class") == "list" for k in kids)


def test_a_run_is_found_from_a_scope_inside_a_chain() -> None:
    # A scope that is itself a nested copy still reads its own items and those nested in it.
    from dataclasses import dataclass

    from lxml import etree

    from sitesift.methods.page.records import heaviest_run

    @dataclass(frozen=True)
    class _U:
        block: etree._Element
        weight: int

        def is_prose(self) -> bool:
            return False

    html = "".join(f"<div class='list'><b>Day {d}</b>"
                   + "".join(f"<div class='item'><span>Title {d}{i}</span><span>May {i}</span>"
                             f"</div>" for i in range(3)) for d in range(4)) + "</div>" * 4
    root = parse_html(f"<html><body>{html}</body></html>")
    inner = root.findall(".//div[@class='list']")[1]
    units = [_U(el, 10) for el in inner.iter("span")]
    run = heaviest_run(inner, units)
    assert run is not None and len(run.records) == 9


def test_record_runs_answer_as_heaviest_run_for_every_scope_and_limit() -> None:
    # One summing for several scopes and prose limits: each answer is the one-off function's.
    import pytest

    from sitesift.methods.page.records import RecordRuns, heaviest_run

    cards = "".join(
        f"<div class='card item-{i}'><h3><a href='/s/{i}'>Story number {i} of the day</a></h3>"
        f"<p>{SUMMARY}</p>{f'<p>{PARAGRAPH}</p>' if i % 2 else ''}</div>" for i in range(6))
    rows = "".join(f"<li class='row'><a href='/t/{i}'>A headline for the story {i}</a>"
                   f"<span>May {i}</span></li>" for i in range(5))
    body = parse_html(_page(f"<main><div class='stream'>{cards}</div><ul>{rows}</ul></main>"
                            f"<p>{PARAGRAPH}</p>")).find("body")
    units = units_module.segment(body)
    runs = RecordRuns(body, units)
    for scope in (body, body.find("main"), body.find(".//ul"), body.find(".//div")):
        for limit in (0, 1, 2):
            expected = heaviest_run(scope, units, max_prose=limit)
            got = runs.heaviest(scope, max_prose=limit)
            assert got == expected
    assert runs.heaviest(body, max_prose=2) is not None
    other = parse_html(_page("<p>x</p>")).find("body")
    with pytest.raises(ValueError):
        runs.heaviest(other)


def test_class_words_drop_the_words_holding_digits() -> None:
    from sitesift.methods.page.records import _words_of

    for cls, want in (("post  post-2089739 col-md-4 entry", "post entry"), ("", ""),
                      (None, ""), ("card\tcard--big", "card card--big"),
                      ("item-٣ élément x2", "élément"), ("a1 b2", "")):
        generic = " ".join(w for w in (cls or "").split() if not any(c.isdigit() for c in w))
        assert _words_of(cls) == generic == want
