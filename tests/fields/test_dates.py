"""Date parsing and the choice of the publication date among a page's sources."""

from __future__ import annotations

from datetime import datetime

import pytest

from sitesift.fields.date_forms import date_from_url, iter_dates, parse_date
from sitesift.fields.dates import find_published
from sitesift.fields.declared_dates import MAX_STATE_CHARS, state_date
from sitesift.fields.metadata import extract_metadata
from sitesift.fields.printed_dates import _PUBLISH_WORD, _label_words, find_text_date
from sitesift.parse import parse_html

NOW = datetime(2024, 6, 1, 12, 0)
LATER = datetime(2026, 1, 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2018-07-17T08:57:00+08:00", "2018-07-17T08:57:00+08:00"),
        ("2018-07-17T08:57:00Z", "2018-07-17T08:57:00+00:00"),
        ("2004-06-15 08:57:45", "2004-06-15T08:57:45"),
        ("2018年07月17日 08:57", "2018-07-17T08:57:00"),
        ("发布时间：2005年3月21日", "2005-03-21"),
        ("Published 3 March 2021", "2021-03-03"),
        ("March 3, 2021 at 4:05 pm", "2021-03-03T16:05:00"),
        ("Mar. 3rd 2021", "2021-03-03"),
        ("3. März 2021", "2021-03-03"),
        ("17.07.2018, 10:27", "2018-07-17T10:27:00"),
        ("11-29-2024, 09:03 AM", "2024-11-29T09:03:00"),
        ("29-11-2024", "2024-11-29"),
        ("le 19 février 2020", "2020-02-19"),
        ("15 августа 2016, 13:43", "2016-08-15T13:43:00"),
        ("1718000000", "2024-06-10"),
        # Day, month abbreviation and year joined by hyphens; Romance abbreviations.
        ("By: FlowGuard EMEA on 04-ago-2021 5:11:10", "2021-08-04T05:11:10"),
        ("04-Aug-2021", "2021-08-04"),
        ("12 dic 2020", "2020-12-12"),
        ("3 giu 2019", "2019-06-03"),
    ],
)
def test_parse_date_forms(text: str, expected: str) -> None:
    assert parse_date(text, now=datetime(2024, 12, 1)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "1994-05-01",  # before MIN_YEAR
        "2030-01-01",  # in the future
        "2019-02-30",  # no such day
        "version 2.1",
        "",
        "no date here",
    ],
)
def test_parse_date_rejects(text: str) -> None:
    assert parse_date(text, now=NOW) is None


def test_slash_dates_follow_the_page_language() -> None:
    assert parse_date("11/01/2023", now=NOW, month_first=True) == "2023-11-01"
    assert parse_date("11/01/2023", now=NOW, month_first=False) == "2023-01-11"
    # A first number above 12 cannot be a month, whatever the language.
    assert parse_date("25/01/2023", now=NOW, month_first=True) == "2023-01-25"


def test_chinese_year_is_never_replaced() -> None:
    # dateutil's fuzzy mode would put the current year here.
    assert parse_date("2018年07月17日", now=NOW) == "2018-07-17"


def test_iter_dates_reports_each_date_once_in_order() -> None:
    found = [iso for _pos, iso in iter_dates("从2018-07-17到2019年1月2日", now=NOW)]
    assert found == ["2018-07-17", "2019-01-02"]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com/2019/11/19/story.html", "2019-11-19"),
        ("https://example.com/news/20191119/12345.html", "2019-11-19"),
        ("https://example.com/meldungen/29-10-2021", "2021-10-29"),
        ("https://example.com/2019/11/story.html", None),
        ("https://2019.example.com/a", None),
        (None, None),
    ],
)
def test_date_from_url(url: str | None, expected: str | None) -> None:
    assert date_from_url(url, now=NOW) == expected


def test_text_date_skips_story_sentences_and_updates() -> None:
    after = [
        "Von Anna Muster | 20. Mai 2007 | Sport",
        "Am 19.05.2007 fanden die Meisterschaften statt, wie schon am 3. Mai 2006.",
    ]
    found = find_text_date(after, now=NOW)
    assert found is not None and found.iso == "2007-05-20"
    updated_only = ["Article mis à jour le 7 janvier 2020."]
    above = ["Par Loïc Le Clerc | 30 septembre 2018"]
    found = find_text_date(updated_only, above, now=NOW)
    assert found is not None and found.iso == "2018-09-30"


def test_text_date_labelled_further_down() -> None:
    story = ["一段很长的正文" * 5, "发布时间：2005/05/17 22:11:42 by 某人"]
    found = find_text_date([], [], story, now=NOW)
    assert found is not None and found.iso == "2005-05-17T22:11:42"


def _published(html: str, url: str | None = None) -> str | None:
    return extract_metadata(parse_html(html), url=url).published


def test_jsonld_beats_the_text() -> None:
    html = """<html><head><script type="application/ld+json">
    {"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Big news",
     "datePublished": "2021-03-03T10:00:00+01:00", "dateModified": "2021-04-01"}
    </script><title>Big news</title></head>
    <body><h1>Big news</h1><p>Posted March 9, 2021</p></body></html>"""
    assert _published(html) == "2021-03-03T10:00:00+01:00"


def test_printed_date_confirmed_by_metadata_wins_the_vote() -> None:
    # JSON-LD says one day, the meta tag and the printed date another: the printed one is
    # confirmed by metadata, so it wins.
    html = """<html><head><script type="application/ld+json">
    {"@type": "Article", "datePublished": "2022-01-04"}</script>
    <meta property="article:published_time" content="2022-01-06T08:29:34">
    <title>Vanlife</title></head>
    <body><h1>Vanlife</h1><p>06.01.2022</p><p>Text.</p></body></html>"""
    assert _published(html)[:10] == "2022-01-06"


def test_utc_meta_time_shown_in_local_time() -> None:
    html = """<html><head>
    <meta property="article:published_time" content="2023-11-09T02:11:03+00:00">
    <title>Stabbing</title></head><body><h1>Stabbing</h1>
    <time datetime="2023-11-08T21:11:03-05:00">November 8, 2023</time></body></html>"""
    assert _published(html) == "2023-11-08T21:11:03-05:00"


def test_url_day_corrects_a_utc_shift() -> None:
    html = """<html><head>
    <meta property="article:published_time" content="2018-12-31T23:11:59+00:00">
    <title>Ins neue Jahr</title></head><body><h1>Ins neue Jahr</h1></body></html>"""
    assert _published(html, "https://blog.example.org/2019/01/01/ins-neue-jahr/") == "2019-01-01"


def test_chinese_date_line_under_the_headline() -> None:
    html = """<html><head><meta charset="utf-8"><title>四年前中500万_新浪网</title></head>
    <body><div>导航 2004-01-01</div><h1>四年前中500万</h1>
    <div>http://www.sina.net 2005年03月21日 11:21 《理财周刊》</div>
    <p>人生如戏。2001年农历除夕夜，他中了大奖。</p></body></html>"""
    assert _published(html) == "2005-03-21T11:21:00"


def test_modified_date_only_as_a_last_resort() -> None:
    html = """<html><head><meta property="article:modified_time" content="2020-05-05">
    <title>Page</title></head><body><p>No date.</p></body></html>"""
    assert _published(html) == "2020-05-05"
    html = html.replace("<p>No date.</p>", "<h1>Page</h1><p>Posted on 2020-04-01</p>")
    assert _published(html) == "2020-04-01"


def test_no_date_at_all() -> None:
    assert _published("<html><body><h1>Title</h1><p>Text only.</p></body></html>") is None


def test_printed_update_date_does_not_outvote_the_declared_original() -> None:
    # "Last Updated" is printed and confirmed by dateModified only: the original date wins.
    html = """<html><head><script type="application/ld+json">
    {"@type": "Article", "headline": "Video tools",
     "datePublished": "2020-07-10T14:15:42+00:00", "dateModified": "2025-01-07T09:08:22+00:00"}
    </script><title>Video tools</title></head>
    <body><h1>Video tools</h1><p>Last Updated: January 7, 2025</p><p>Text.</p></body></html>"""
    assert _published(html)[:10] == "2020-07-10"


def test_labelled_date_from_the_top_of_the_page_is_the_last_resort() -> None:
    args = {"date_elements": [], "meta": {}, "jsonld_published": None, "jsonld_modified": None,
            "url": None, "after": ["Some story text."], "before": []}
    top = ["Menu", "Jane Roe", "Published on July 18, 2025", "Some story text."]
    assert find_published(**args, top=lambda: top) == "2025-07-18"
    # Read only when nothing else is found: declared metadata wins.
    args["jsonld_published"] = "2025-07-01"
    assert find_published(**args, top=lambda: top)[:10] == "2025-07-01"
    # An unlabelled date at the top is no publication date.
    args["jsonld_published"] = None
    assert find_published(**args, top=lambda: ["Sale ends July 18, 2025"]) is None


def test_a_thread_is_dated_by_its_question_not_by_its_many_answers() -> None:
    answers = "".join(
        f'<div><time itemprop="dateCreated" datetime="2011-02-12 0{i}:01:43Z"></time>'
        f"<p>Answer {i}.</p></div>" for i in range(4))
    html = f"""<html><head><title>Catering for 40</title></head><body><h1>Catering for 40</h1>
    <div><time itemprop="dateCreated" datetime="2011-02-11 23:49:17Z">14 years ago</time>
    <p>How should I prepare?</p></div>{answers}</body></html>"""
    assert _published(html)[:10] == "2011-02-11"


def test_a_date_labelled_as_something_else_is_not_the_page_date() -> None:
    after = ["archuser", "Registered: 2023-01-27", "Posts: 98", "Some question text."]
    before = ["#1 2024-03-08 10:59:47"]
    assert find_text_date(after, before, now=NOW).iso[:10] == "2024-03-08"
    # German "Stand:" ("as of") dates the page itself.
    assert find_text_date(["Stand: 28.04.2020 18:00 Uhr"], now=NOW).iso[:10] == "2020-04-28"


def test_a_cms_stamp_does_not_outvote_the_date_printed_at_the_headline() -> None:
    # Published and modified declared as the same moment, months after the printed date:
    # the page was regenerated, the printed date is the story's.
    args = {"date_elements": [], "meta": {}, "url": None, "before": [],
            "after": ["Shauna Mitchell", "August 25, 2023", "Story text."]}
    stamp = "2024-05-24T10:00:00+00:00"
    assert find_published(**args, jsonld_published=stamp, jsonld_modified=stamp,
                          now=NOW) == "2023-08-25"
    # Modified after the declared publication: the declaration stands.
    assert find_published(**args, jsonld_published=stamp, now=NOW,
                          jsonld_modified="2024-05-25T10:00:00+00:00") == stamp


def test_metadata_settles_the_order_of_an_ambiguous_printed_date() -> None:
    html = """<html lang="en"><head>
    <meta property="article:published_time" content="2017-11-03T03:01:00-04:00">
    <meta property="article:modified_time" content="2017-11-03T03:01:00-04:00">
    <title>Console review</title></head><body><h1>Console review</h1>
    <p>11.03.17 in Gadgetry</p><p>Text.</p></body></html>"""
    assert _published(html)[:10] == "2017-11-03"


def test_a_prefixed_publication_meta_key_is_read() -> None:
    html = """<html><head><meta name="w-published-date" content="2023-05-27T06:03:43Z">
    <meta name="x-wix-published-version" content="2024-01-01">
    <title>Costs</title></head><body><h1>Costs</h1><p>Text.</p></body></html>"""
    assert _published(html)[:10] == "2023-05-27"
    # A publication time under a site's prefix ("apub:time"), printed in pieces the text
    # search cannot join ("2019" / "09/07" / "19:02").
    qq = ("<meta name='apub:time' content='2019-9-7 21:30:50'><h1>儿歌一分钱被改成一元钱</h1>"
          "<div>2019</div><div>09/07</div><div>19:02</div><p>正文。</p>")
    assert (_published(qq) or "")[:10] == "2019-09-07"


def test_a_caption_date_does_not_unseat_a_declared_date_the_page_prints() -> None:
    # Published and modified declared as one moment look like a stamp, but the page prints that
    # day under the byline: a caption's earlier date nearer the headline is the story's event.
    args = {"date_elements": [], "meta": {}, "url": None, "before": [],
            "after": ["图像加注文字，2024年2月9日，莉娜在家中去世。", "Author, 琳达",
                      "2024年4月22日早上8点12分", "今年一月，莉娜向警方报案。"]}
    stamp = "2024-04-22T08:12:08+00:00"
    assert find_published(**args, jsonld_published=stamp, jsonld_modified=stamp,
                          now=NOW)[:10] == "2024-04-22"


def test_a_compact_meta_date_settles_a_two_digit_year() -> None:
    html = """<html><head><meta name="pub_date" content="20090312">
    <title>Bernie Behind Bars</title></head><body><h1>Bernie Behind Bars</h1>
    <p>Liz Moyer, 03.12.09, 06:00 PM EDT</p><p>Text of the story.</p></body></html>"""
    assert _published(html)[:10] == "2009-03-12"


def test_an_issue_date_is_weaker_than_the_printed_date() -> None:
    head = "<html><head><meta name='issue_date' content='February  2, 2009'><title>T</title>"
    printed = (head + "</head><body><h1>T</h1><p>Published Jan 25, 2009</p><p>Text.</p>"
               "</body></html>")
    assert _published(printed)[:10] == "2009-01-25"
    blog = head + "</head><body><h1>T</h1><p>1/30/09 at 5:50 PM</p><p>Text.</p></body></html>"
    assert _published(blog)[:10] == "2009-02-02"


def test_a_government_documents_writing_date_outvotes_its_release() -> None:
    # The info-disclosure header of a notice: written (and signed) on the 27th, put out on
    # the 28th, which the meta repeats; the document's date is the 27th.
    html = ("<html><head><meta name='pubdate' content='2022-01-28 00:00:00'></head><body>"
            "<table><tr><td>发文机关：</td><td>吉林省人民政府</td></tr>"
            "<tr><td>成文日期：</td><td>2022年01月27日</td></tr>"
            "<tr><td>标 题：</td><td>吉林省人民政府关于禁止新增建设项目的通告</td></tr>"
            "<tr><td>发布日期：</td><td>2022年01月28日</td></tr></table>"
            "<h1>吉林省人民政府关于禁止新增建设项目的通告</h1><p>特此通告。</p>"
            "<p>吉林省人民政府</p><p>2022年1月27日</p></body></html>")
    assert (_published(html) or "")[:10] == "2022-01-27"
    assert (_published(html.replace("成文日期", "索 引 号")) or "")[:10] == "2022-01-28"


def test_a_utc_declared_moment_takes_the_offset_of_the_clock_the_page_prints() -> None:
    # Declared 22:54 UTC; the page prints "昨天 06:54": Beijing time, the 21st.
    ld = '{"@type": "Article", "datePublished": "2025-04-20T22:54:26.000Z"}'
    body = "<h1>用 AI 秘书治好了我的数字仓鼠症</h1><p>Cooper_Q</p><p>昨天 06:54</p><p>正文。</p>"
    html = f"<script type='application/ld+json'>{ld}</script>{body}"
    assert _published(html) == "2025-04-21T06:54:26+08:00"
    # Another minute is another moment (a comment's, an edit's): the declared one stands.
    assert _published(html.replace("06:54", "06:55")) == "2025-04-20T22:54:26+00:00"


def test_a_printed_update_confirmed_by_a_minority_of_declared_sources_is_a_revision() -> None:
    # JSON-LD and article:published_time say the 15th of December; a recommendation tag
    # repeats the July revision that the page prints as "Updated".
    ld = ('{"@type": "NewsArticle", "datePublished": "2017-12-15T08:50:02-05:00", '
          '"dateModified": "2018-07-24T14:15:58-04:00"}')
    head = ("<meta property='article:published_time' content='2017-12-15T08:50:02-05:00'>"
            "<meta name='sailthru.date' content='2018-07-24'>")
    body = "<h1>The 21 best movies of 2017</h1><p>Updated Jul 24, 2018, 2:15pm EDT</p><p>Text.</p>"
    html = f"<head>{head}<script type='application/ld+json'>{ld}</script></head><body>{body}"
    assert (_published(html) or "")[:10] == "2017-12-15"
    # Confirmed by as many sources as name the original, the printed update still stands.
    both = html.replace("<meta property='article:published_time' "
                        "content='2017-12-15T08:50:02-05:00'>", "")
    assert (_published(both) or "")[:10] == "2018-07-24"


def test_dates_in_adjacent_inline_elements_are_not_glued() -> None:
    # A forum post's date and time in two spans (d0118): "28.09.19 12:44", not "28.09.1912:44".
    page = ('<html><body><h1>Kann man das reparieren?</h1><div class="post">'
            '<span class="name">macbacchi</span><span>28.09.19</span><span>12:44</span></div>'
            '<p>Text des Beitrags.</p></body></html>')
    assert (extract_metadata(parse_html(page)).published or "")[:10] == "2019-09-28"
    root = parse_html("<div><h1>T</h1><p><span>Feb</span> <span>18</span><span>2009</span>"
                      "<b>1<sup>st</sup></b> <i>W</i>ord</p></div>")
    from sitesift.fields.lines import lines_after
    assert lines_after(root.find(".//h1"), root, 200) == ["T", "Feb 18 2009 1st Word"]


def test_a_revision_printed_beside_the_publication_day_does_not_win() -> None:
    # WordPress prints the published and the updated <time> one after the other (its style
    # hides the second): the revision's day, which only the modification date confirms, gives
    # way.
    page = ('<html><body><div class="entry-meta">Veröffentlicht am '
            '<time class="entry-date published" datetime="2019-02-10T09:30:10+01:00">'
            '10. Februar 2019</time><br><time class="updated" datetime="2019-02-09T23:00:55+01:00">'
            '9. Februar 2019</time> von Heiko</div><h1>Laufen im Winter</h1>'
            '<p>Text.</p></body></html>')
    assert extract_metadata(parse_html(page)).published == "2019-02-10T09:30:10+01:00"


def test_a_single_page_apps_state_declares_the_publication_date() -> None:
    # Nothing in meta, JSON-LD, markup or text: the app's data holds the story's date.
    state = ('{"document": {"title": "Europas Topathleten", "createdAt": "2022-01-31T14:22:51",'
             ' "updatedAt": "2022-02-02T10:00:00",'
             ' "publicationDate": "2022-01-31T14:27:32+01:00"}}')
    page = ('<html><head><script>window.__STATE__ = ' + state + '</script></head><body>'
            '<h1>Europas Topathleten fit für München</h1><p>Text.</p></body></html>')
    assert extract_metadata(parse_html(page)).published == "2022-01-31T14:27:32+01:00"
    # A list's items name several days: none of them is the page's.
    many = state.replace(' "publicationDate": "2022-01-31T14:27:32+01:00"}}',
                         ' "publicationDate": "2022-01-31T14:27:32"}, "related": '
                         '[{"publishedAt": "2022-01-20T08:00:00"}]}')
    page = page.replace(state, many)
    assert extract_metadata(parse_html(page)).published is None


def test_a_huge_app_state_is_read_up_to_its_budget() -> None:
    # App states run to megabytes: a date past MAX_STATE_CHARS of script text is not read,
    # one inside it is, and no script at all or an empty one gives nothing.
    now = datetime(2026, 11, 26)
    date = '"publishedAt": "2021-05-04T08:00:00"'
    filler = "x" * MAX_STATE_CHARS
    assert state_date([filler, date], now=now) is None
    assert state_date([filler[:-len(date) - 10] + date], now=now) == "2021-05-04T08:00:00"
    assert state_date([], now=now) is None
    assert state_date([""], now=now) is None


@pytest.mark.parametrize("text", [
    "Posted on 3 May 2021 | PUBLISHED: 2021-05-03 | Datum: 3.5.2021 | publié le 3 mai",
    "发布时间：2021-05-03 發佈 日期 Veröffentlicht VERÖFFENTLICHT",
    "Update: no label here, only DATE-like words: dateline, candidate, mandated",
    # The characters where lower-casing and IGNORECASE differ: the regex decides there.
    "\u0130 Posted \u017fince PUBLI\u017fHED", "publı\u017fhed po\u017fted \u0130DATE",
    "",
])
def test_label_words_find_what_the_case_insensitive_pattern_finds(text: str) -> None:
    want = [m.span() for m in _PUBLISH_WORD.finditer(text)]
    assert [m.span() for m in _label_words(text)] == want


def test_a_learned_order_reads_every_separator_month_first() -> None:
    from sitesift.fields.date_forms import MONTH_FIRST_ALWAYS
    # Dashes read day-first by default; a site that prints "08-13-2025" is month-first.
    assert parse_date("08-12-2025, 05:29 PM", now=LATER) == "2025-12-08T17:29:00"
    assert parse_date("08-12-2025, 05:29 PM", now=LATER,
                      month_first=MONTH_FIRST_ALWAYS) == "2025-08-12T17:29:00"
    assert parse_date("01/03/2025 08:00", now=LATER, month_first=False) == "2025-03-01T08:00:00"
    # A number above 12 settles it whatever the order.
    assert parse_date("13/01/2025", now=LATER, month_first=MONTH_FIRST_ALWAYS) == "2025-01-13"


def test_unambiguous_dates_vote_for_the_order() -> None:
    from collections import Counter

    from sitesift.fields.date_forms import (
        MONTH_FIRST_ALWAYS,
        date_orders,
        learned_month_first,
        text_month_first,
    )
    assert list(date_orders("08-13-2025 and 08-12-2025 and 3 March 2021")) == ["mdy"]
    # A month's name alone says nothing of the numeric order; the same day printed both ways
    # does (modern-dev 0429: "02-12-2025" beside "Dec 2, 2025").
    assert list(date_orders("August 12, 2025, 05:29 PM")) == []
    assert list(date_orders("Posted 02-12-2025. Updated Dec 2, 2025.")) == ["dmy_name"]
    assert list(date_orders("Posted 02-12-2025. Updated Feb 12, 2025.")) == ["mdy_name"]
    assert learned_month_first(Counter(mdy=5, dmy=1), True) == MONTH_FIRST_ALWAYS
    # Numeric dates first: the names in members' texts do not outvote the template's order.
    assert learned_month_first(Counter(dmy=3, mdy_name=40), True) is False
    assert learned_month_first(Counter(mdy_name=4, dmy_name=1), False) == MONTH_FIRST_ALWAYS
    assert learned_month_first(Counter(mdy=3, dmy=3), "x") == "x"  # type: ignore[arg-type]
    assert learned_month_first(Counter(dmy=2), True) is False
    assert learned_month_first(Counter(), False) is False
    # One page: two votes settle it, one does not.
    assert text_month_first("08-13-2025, 08-12-2025, 08-14-2025", True) == MONTH_FIRST_ALWAYS
    assert text_month_first("08-13-2025, 08-12-2025", False) is False


def test_a_page_s_own_dates_settle_its_ambiguous_date() -> None:
    html = ("<html lang='en'><head><title>Ship launch</title></head><body><h1>Ship launch</h1>"
            "<p class='byline'>Posted 01/03/2025</p><p>The ship was launched on 14/02/2025 and "
            "sailed on 20/02/2025 from the yard, a long story of many words.</p></body></html>")
    assert extract_metadata(parse_html(html)).published == "2025-03-01"
