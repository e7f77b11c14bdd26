"""Relative dates ("3 hours ago", "3小时前") read against the page's crawl time, and only then.

The pages are written here; the crawl time comes in through every input that knows it (a WARC
record's WARC-Date, a manifest's ``fetched``, ``extract_html(crawled=...)``).
"""

from __future__ import annotations

import io
import json
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from sitesift import Extractor, Options, Page, extract_html
from sitesift.fields.printed_dates import find_relative_date
from sitesift.fields.relative_dates import RELATIVE, relative_date
from sitesift.input import iter_pages

CRAWLED = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)
STORY_EN = ("The storm reached the coast early in the morning, and the town closed its harbour "
            "while the fishing boats stayed in. ") * 8
STORY_ZH = "暴雨在清晨抵达沿海地区，港口暂停作业，渔船全部回港避风，当地政府启动了应急预案。" * 8


def en_page(byline: str, head: str = "") -> str:
    return (f"<html lang='en'><head><title>Storm hits the coast - Daily Coast</title>{head}"
            f"</head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article>"
            f"<h1>Storm hits the coast</h1><p class='byline'>{byline}</p><p>{STORY_EN}</p>"
            f"</article><footer>Daily Coast</footer></body></html>")


def zh_page(byline: str) -> str:
    return ("<html lang='zh-CN'><head><meta charset='utf-8'><title>暴雨袭击沿海地区_新闻频道"
            "</title></head><body><div class='nav'><a href='/'>首页</a></div><div class='article'>"
            f"<h1>暴雨袭击沿海地区</h1><div class='info'>{byline}</div><p>{STORY_ZH}</p>"
            "</div></body></html>")


URL = "https://news.example.com/coast/storm"


def published(html: str, crawled: datetime | date | None) -> str | None:
    options = Options(method="page")
    return extract_html(html, url=URL, options=options, crawled=crawled).published


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (en_page("By Jane Doe · 3 hours ago"), "2026-11-26T07:00:00+00:00"),
        (en_page("Posted 2 days ago by Jane Doe"), "2026-11-24"),
        (en_page("Jane Doe | yesterday"), "2026-11-25"),
        (en_page("Jane Doe, just now"), "2026-11-26T10:00:00+00:00"),
        (en_page("By Jane Doe, Yesterday at 2:30 pm"), "2026-11-25T14:30:00"),
        (zh_page("记者 王小明 3小时前"), "2026-11-26T07:00:00+00:00"),
        (zh_page("5分钟前 来源：沿海日报"), "2026-11-26T09:55:00+00:00"),
        (zh_page("发布于 2天前"), "2026-11-24"),
        (zh_page("昨天 14:30 · 沿海日报"), "2026-11-25T14:30:00"),
        (zh_page("前天 来源：沿海日报"), "2026-11-24"),
        (zh_page("刚刚 沿海日报"), "2026-11-26T10:00:00+00:00"),
    ],
)
def test_relative_date_at_the_headline(html: str, expected: str) -> None:
    assert published(html, CRAWLED) == expected


@pytest.mark.parametrize("html", [en_page("By Jane Doe · 3 hours ago"),
                                  zh_page("记者 王小明 3小时前"), zh_page("昨天 14:30 · 沿海日报")])
def test_no_crawl_time_no_relative_date(html: str) -> None:
    """The clock of the run is not the page's: without a crawl time nothing is read."""
    assert published(html, None) is None


def test_absolute_date_wins_over_relative() -> None:
    printed = en_page("By Jane Doe · 3 hours ago · March 3, 2021")
    assert published(printed, CRAWLED) == "2021-03-03"
    declared = en_page("By Jane Doe · 3 hours ago", head="<meta property="
                       "'article:published_time' content='2024-05-01T08:00:00Z'>")
    assert published(declared, CRAWLED)[:10] == "2024-05-01"
    zh = zh_page("3小时前 2018年07月17日 08:57 来源：沿海日报")
    assert published(zh, CRAWLED) == "2018-07-17T08:57:00"


def test_updated_relative_date_is_not_the_publication() -> None:
    assert published(en_page("By Jane Doe · Updated 3 hours ago"), CRAWLED) is None


def test_day_only_crawl_time_gives_days() -> None:
    assert published(en_page("By Jane Doe · 3 hours ago"), date(2026, 11, 26)) == "2026-11-26"
    assert published(zh_page("2天前 沿海日报"), date(2026, 11, 26)) == "2026-11-24"


def test_offset_of_the_crawl_time_is_kept() -> None:
    shanghai = datetime(2026, 11, 26, 1, 0, tzinfo=timezone(timedelta(hours=8)))
    assert published(zh_page("3小时前 沿海日报"), shanghai) == "2026-11-25T22:00:00+08:00"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3 hours ago", "2026-11-26T07:00:00+00:00"),
        ("an hour ago", "2026-11-26T09:00:00+00:00"),
        ("5 mins ago", "2026-11-26T09:55:00+00:00"),
        ("1 day ago", "2026-11-25"),
        ("半小时前", "2026-11-26T09:30:00+00:00"),
        ("十二小时前", "2026-11-25T22:00:00+00:00"),
        ("两天前", "2026-11-24"),
        ("今天 08:15", "2026-11-26T08:15:00"),
        ("today", None),  # alone a menu's word
        ("3 weeks ago", None),  # names no day
        ("2 months ago", None),
        ("3 hours", None),
    ],
)
def test_expressions(text: str, expected: str | None) -> None:
    match = RELATIVE.search(text)
    assert (relative_date(match, CRAWLED) if match else None) == expected


@pytest.mark.parametrize("line", ["目前天气晴朗", "他刚刚到达现场", "3天前往北京",
                                  "Yesterday, the council voted", "Just now the mayor spoke"])
def test_day_words_inside_a_sentence_are_no_date(line: str) -> None:
    assert find_relative_date([line], [], CRAWLED) is None


@pytest.mark.parametrize(("line", "expected"), [
    ("Jane Doe, yesterday", "2026-11-25"), ("Jane Doe · yesterday · News", "2026-11-25"),
    ("发布于前天", "2026-11-24"), ("昨天14:30", "2026-11-25T14:30:00")])
def test_day_words_standing_as_a_date(line: str, expected: str) -> None:
    assert find_relative_date([line], [], CRAWLED) == expected


def test_relative_dates_in_running_text_are_not_read() -> None:
    line = ("The mayor said three days ago that the harbour would stay closed, and 2 days ago "
            "the council agreed to pay for the repairs of the damaged quay walls.")
    assert find_relative_date([line], [], CRAWLED) is None


@pytest.mark.parametrize("text", ["3 hours ago", "2 days ago", "yesterday", "5分钟前", "3小时前",
                                  "2天前", "昨天 14:30", "前天", "刚刚", "1小时前"])
def test_agrees_with_dateparser(text: str) -> None:
    """The hand-written reading names the day (and minute) dateparser names."""
    dateparser = pytest.importorskip("dateparser", reason="dateparser not installed")
    base = CRAWLED.replace(tzinfo=None)
    theirs = dateparser.parse(text, settings={"RELATIVE_BASE": base})
    ours = relative_date(RELATIVE.search(text), base)
    assert ours is not None and theirs is not None
    assert ours[:10] == theirs.date().isoformat()
    if len(ours) > 10 and not text.startswith(("yesterday", "昨天 ")):
        assert ours[:16] == theirs.isoformat()[:16]


# ---- through the inputs -------------------------------------------------------------------


def test_warc_date_is_the_crawl_time(tmp_path: Path) -> None:
    path = tmp_path / "crawl.warc.gz"
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for url, html, stamp in [
            ("https://news.example.com/a", en_page("By Jane Doe · 3 hours ago"),
             "2026-11-26T10:00:00Z"),
            ("https://news.example.com/b", zh_page("记者 王小明 3小时前"), "2026-11-20T04:30:00Z"),
        ]:
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(html.encode("utf-8")), http_headers=http,
                warc_headers_dict={"WARC-Date": stamp}))
    pages = list(iter_pages([str(path)]))
    assert [p.crawled for p in pages] == [CRAWLED, datetime(2026, 11, 20, 4, 30, tzinfo=UTC)]
    records = list(Extractor(Options(method="page")).extract_many(pages))
    assert [r.published for r in records] == ["2026-11-26T07:00:00+00:00",
                                              "2026-11-20T01:30:00+00:00"]


def test_manifest_fetched_is_the_crawl_time(tmp_path: Path, caplog) -> None:
    (tmp_path / "a.html").write_text(zh_page("昨天 14:30 · 沿海日报"), encoding="utf-8")
    lines = [
        {"id": "a", "url": URL, "file": "a.html", "fetched": "2026-11-26T10:00:00+08:00"},
        {"id": "b", "url": URL, "html": en_page("By Jane Doe · 2 days ago"),
         "crawled": "2026-11-26"},
        {"id": "c", "url": URL, "html": en_page("By Jane Doe · 2 days ago")},
        {"id": "d", "url": URL, "html": en_page("By Jane Doe · 2 days ago"), "fetched": "soon"},
    ]
    manifest = tmp_path / "pages.jsonl"
    manifest.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    pages = list(iter_pages([str(manifest)]))
    assert pages[0].crawled == datetime(2026, 11, 26, 10, tzinfo=timezone(timedelta(hours=8)))
    assert pages[1].crawled == date(2026, 11, 26)
    assert pages[2].crawled is None and pages[3].crawled is None
    assert "no ISO 8601 date" in caplog.text
    records = list(Extractor(Options(method="page")).extract_many(pages))
    assert [r.published for r in records] == ["2026-11-25T14:30:00", "2026-11-24", None, None]


@pytest.mark.parametrize("method", ["auto", "template"])
def test_site_methods_read_relative_dates(method: str) -> None:
    """Pages of one site go through the template path too: the crawl time reaches it."""
    pages = [Page(id=str(i), url=f"https://news.example.com/coast/storm-{i}",
                  html=en_page(f"By Jane Doe · {i + 1} hours ago").replace(
                      "Storm hits the coast", f"Storm {i} hits the coast near town {i}"),
                  crawled=CRAWLED)
             for i in range(6)]
    records = list(Extractor(Options(method=method)).extract_many(pages))
    assert [r.published for r in records] == [
        (CRAWLED - timedelta(hours=i + 1)).isoformat() for i in range(6)]
