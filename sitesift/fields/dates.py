"""The page's publication date, from what the page declares (``fields.declared_dates``) and
what it prints (``fields.printed_dates``); strings are parsed by ``fields.date_forms``,
relative ones, against the crawl time, by ``fields.relative_dates``.

``find_published`` ranks sources by how often they hold the original publication date:
JSON-LD, then meta tags, then ``<time>`` and ``itemprop`` markup, the URL, then dates written in
the text near the headline. Modification dates are used only when nothing else is found. A
government document's header labels its own date ("成文日期", written and signed), which goes
before the day the site released it (and before everything else).
Relative dates ("3 hours ago", "3小时前", "昨天 14:30") are read only when the page's crawl
time is known (``crawled``) and no absolute date is found.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime

import lxml.html

from sitesift.fields.date_forms import MonthFirst, date_from_url, utc_now
from sitesift.fields.declared_dates import (
    agree_with_url,
    by_votes,
    declared_dates,
    stamped,
    state_date,
)
from sitesift.fields.printed_dates import (
    TextDate,
    find_relative_date,
    find_text_date,
    in_printed_offset,
    labelled_date,
    prints,
    written_date,
)

__all__ = ["find_published"]

#: A printed date this close to the headline outweighs weak metadata (a bare <time>, "date").
NEAR_HEADLINE_CHARS = 400


def find_published(
    *,
    date_elements: Sequence[lxml.html.HtmlElement],
    meta: dict[str, list[str]],
    jsonld_published: str | None,
    jsonld_modified: str | None,
    url: str | None,
    after: Sequence[str],
    before: Sequence[str],
    story: Sequence[str] | Callable[[], Sequence[str]] = (),
    labelled_first: bool = False,
    month_first: MonthFirst = True,
    now: datetime | None = None,
    top: Callable[[], Sequence[str]] | None = None,
    crawled: datetime | date | None = None,
    scripts: Callable[[], Iterable[str]] | None = None,
) -> str | None:
    """The page's original publication date as ISO 8601, or None when nothing credible is found.

    ``date_elements`` are the elements passing ``may_hold_date``; ``meta`` maps lower-cased
    meta keys to their contents (see ``candidates.read_meta``);
    ``after``/``before`` are the visible text lines from the headline on and just above it,
    ``story`` a longer run from the headline on; ``labelled_first`` when the headline is unknown;
    ``top`` walks the page's lines from the top of the body, read only when nothing else is
    found (a byline box printed above a headline placed elsewhere: "Published on ...").
    ``crawled`` is when the page was fetched: a relative date printed at the headline is read
    against it when no absolute date is found. ``scripts`` gives the text of the page's
    scripts, read only when nothing above gives a publication date (an app's state data).
    """
    now = now or utc_now()
    kw = {"now": now, "month_first": month_first}
    written = written_date([*reversed(before), *after], kw)
    if written:
        return written
    url_day = date_from_url(url, now=now)
    published, declared, modified = declared_dates(
        date_elements, meta, jsonld_published, jsonld_modified, now=now, month_first=month_first)
    relative = (lambda: find_relative_date(after, before, crawled)) if crawled else None
    text = find_text_date(after, before, story, labelled_first=labelled_first, **kw)
    text_day = text.iso if text else None
    if text and (iso := _confirmed(text, published, declared, modified)) and not (
            declared and iso[:10] not in {p[:10] for p in published}
            and prints([*before, *after], published[:declared], kw)):
        # (A printed day only a modification date confirms gives way where the page prints a
        # declared publication day at the headline as well: WordPress prints both `<time>`s,
        # "10. Februar 2019" and the revision's "9. Februar 2019" that its style hides.)
        return iso
    if text and not text.updated and text.distance <= NEAR_HEADLINE_CHARS and declared \
            and modified and stamped(published[:declared], modified, text.iso) \
            and not prints(after, published[:declared], kw):
        return text.iso
    if text and not declared and text.distance <= NEAR_HEADLINE_CHARS:
        # Only weak metadata (an unlabelled <time>, a bare "date" meta) against a date printed
        # right at the headline: the printed one is the article's.
        return text.iso
    if published:
        return in_printed_offset(agree_with_url(by_votes(published), url_day), after, before)
    if url_day:
        return url_day
    if text_day:
        return text_day
    if relative is not None and (iso := relative()):
        return iso  # printed at the headline: the page's own word, over a modification date
    if scripts is not None and (iso := state_date(scripts(), now=now)):
        return iso  # declared in the app's data: a publication date, over a modification
    if modified:
        return modified[0]
    labelled = labelled_date("\n".join(top()), kw) if top is not None else None
    return labelled.iso if labelled else None


def _confirmed(text: TextDate, published: list[str], declared: int,
               modified: list[str]) -> str | None:
    """The date printed under the headline where the page's own metadata confirms it: the one
    readers see, which settles disagreements between metadata sources."""
    if not published + modified:
        return None
    # A printed "Updated ..." date does not outvote a declared publication date, nor is it
    # confirmed by a minority of the sources that declare one: most of them naming an earlier
    # day say when the story first appeared (the original before the update), the others
    # repeat the revision ("sailthru.date" beside datePublished and article:published_time).
    confirming = published[:declared] if text.updated and declared else published + modified
    if text.updated and declared and _outvoted(text.iso[:10], confirming):
        return None
    for iso in confirming:
        if iso[:10] == text.iso[:10]:
            return iso if len(iso) > len(text.iso) else text.iso
    # "11.03.17", "11/01/2021": a numeric date read in the wrong order is the metadata's
    # day with month and day swapped; the metadata settles the order.
    swapped = _swapped(text.iso)
    for iso in published + modified:
        if iso[:10] == swapped:
            return iso
    return None


def _outvoted(day: str, declared: list[str]) -> bool:
    """Whether more of ``declared`` name one earlier day than name ``day``."""
    votes: dict[str, int] = {}
    for iso in declared:
        votes[iso[:10]] = votes.get(iso[:10], 0) + 1
    return any(d < day and n > votes.get(day, 0) for d, n in votes.items())


def _swapped(iso: str) -> str | None:
    """The day of ``iso`` with month and day swapped, when that is a date too."""
    y, m, d = iso[:4], iso[5:7], iso[8:10]
    return f"{y}-{d}-{m}" if m != d and int(d) <= 12 else None
