"""Dates a page declares in its data and markup: JSON-LD, meta keys (publication, unclear,
modification), ``itemprop``, ``<time>`` and ``<abbr>`` markup, ranked by how often each holds
the original publication date; the vote among them (the day most sources name, the URL's day),
and the sign that they are a CMS's render stamp rather than the story's day.

``fields.dates`` weighs these against the dates printed at the headline
(``fields.printed_dates``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, date, datetime, timedelta

import lxml.html

from sitesift.fields.date_forms import MonthFirst, parse_date

__all__ = ["PUBLISHED_META_KEYS", "agree_with_url", "by_votes", "declared_dates", "markup_dates",
           "may_hold_date", "stamped", "state_date"]

#: Meta keys holding the publication date, best first (lower-cased name/property/itemprop).
PUBLISHED_META_KEYS = (
    "article:published_time", "og:article:published_time", "article:published",
    "og:published_time", "published_time", "datepublished", "article.published",
    "pubdate", "publishdate", "publish-date", "publish_date", "published-date", "published_date",
    "publication_date", "publication-date", "citation_publication_date", "citation_date",
    "dc.date.issued", "dcterms.issued", "sailthru.date", "parsely-pub-date",
    "article_date_original", "original-publish-date", "cxenseparse:recs:publishtime",
    "og:pubdate", "article:post_date", "release_date", "displaydate", "og:regdate",
    "weibo:article:create_at", "bt:pubdate", "ptime", "pubtime",
)
#: Other meta keys whose name says publication date ("w-published-date", "og:publish_date",
#: "vr:published-time", "apub:time"): a site's own prefix on a standard name, read after the
#: keys above.
_PUBLISHED_KEY = re.compile(r"publish|publication|pub[-_:]?(?:date|time)|date[-_]?pub|"
                            r"release[-_]?date")
#: ... unless the name says it is something else: the publisher, a republication, a setting.
_NOT_PUBLISHED_KEY = re.compile(r"last|version|type|publisher|auto|premium|config|principles|"
                                r"platform|expir|updat|modif")
#: Meta keys with a date of unclear meaning (creation, a CMS timestamp): weaker evidence than
#: a date printed under the headline.
UNSPECIFIC_META_KEYS = (
    "dc.date", "dcterms.date", "date", "dc.date.created", "dcterms.created", "creation_date",
    "created", "datecreated", "timestamp",
    # A magazine's issue date: the story's day on its blogs, a later day for a printed story.
    "issue_date", "issuedate",
)
#: Meta keys with modification dates: a last resort when nothing says "published".
MODIFIED_META_KEYS = (
    "article:modified_time", "og:updated_time", "datemodified", "dcterms.modified",
    "dc.date.modified", "last-modified", "lastmod", "modified", "revised", "dateupdate",
    "updated_time", "updated", "last_updated",
)

#: A ``<time>`` whose class, id or itemprop (or its parent's) says it dates a revision.
_UPDATE_HINT = re.compile(r"updat|modif|aktualisiert|geändert|revised|edited|comment|copyright",
                          re.IGNORECASE)


def _attr_text(el: lxml.html.HtmlElement) -> str:
    return " ".join(filter(None, (el.get("class"), el.get("id"), el.get("itemprop"))))


#: itemprop values that carry a date.
DATE_ITEMPROPS = ("datepublished", "datecreated", "uploaddate", "datemodified")


def may_hold_date(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` is worth ``markup_dates``'s attention (called on every element)."""
    tag = el.tag
    if tag == "time" or (tag == "abbr" and el.get("title")):
        return True
    prop = el.get("itemprop")
    return bool(prop) and prop.lower() in DATE_ITEMPROPS


def markup_dates(elements: Iterable[lxml.html.HtmlElement], now: datetime,
                 month_first: MonthFirst) -> Iterator[tuple[int, str]]:
    """(rank, date) from ``itemprop=datePublished``, ``<time>`` and ``<abbr>`` markup.

    ``elements`` are the page's elements that pass ``may_hold_date``, in document order.

    Rank 0: explicitly a publication date; 1: a ``<time>`` with a publication hint or the
    first plain ``<time>``; 2: ``<time>`` that says it is an update. Only the first
    ``itemprop`` publication date counts: the page's own item comes first, and the later ones
    are each reply's or comment's (a thread with twenty answers from the next day would
    otherwise outvote its question).
    """
    first_plain = first_item = True
    for el in elements:
        itemprop = (el.get("itemprop") or "").lower()
        tag = el.tag
        if itemprop in ("datepublished", "datecreated", "uploaddate"):
            value = el.get("content") or el.get("datetime") or el.text_content()
            iso = parse_date(value, now=now, month_first=month_first) if first_item else None
            if iso:
                first_item = False
                yield 0, iso
            continue
        if tag not in ("time", "abbr"):
            continue
        value = el.get("datetime") or el.get("title") or ""
        if tag == "abbr" and not re.search(r"\d{4}", value):
            continue
        iso = parse_date(value, now=now, month_first=month_first) or (
            parse_date(el.text_content(), now=now, month_first=month_first)
            if tag == "time" else None)
        if not iso:
            continue
        hints = _attr_text(el)
        parent = el.getparent()
        if parent is not None:
            hints += " " + _attr_text(parent)
        if el.get("pubdate") is not None or re.search(r"publi|posted|pubdate", hints, re.I):
            yield 0, iso
        elif _UPDATE_HINT.search(hints) or itemprop == "datemodified":
            yield 2, iso
        elif first_plain:
            first_plain = False
            yield 1, iso


def declared_dates(date_elements: Sequence[lxml.html.HtmlElement], meta: dict[str, list[str]],
                    jsonld_published: str | None, jsonld_modified: str | None, *,
                    now: datetime, month_first: MonthFirst) -> tuple[list[str], int, list[str]]:
    """What the page's data and markup say: every source that says "published", best first
    (the first ``declared`` of them say so by name; then unlabelled markup and unclear meta
    keys), and the modification dates."""
    # Meta values are machine-written: slash dates there follow the US order whatever the
    # page's language.
    mkw = {"now": now, "month_first": True}
    published: list[str] = []
    iso = parse_date(jsonld_published, **mkw)
    if iso:
        published.append(iso)
    published += _meta_dates(meta, PUBLISHED_META_KEYS, mkw)
    published += _meta_dates(meta, sorted(k for k in meta if k not in PUBLISHED_META_KEYS
                                          and _PUBLISHED_KEY.search(k)
                                          and not _NOT_PUBLISHED_KEY.search(k)), mkw)[:1]
    ranked = sorted(markup_dates(date_elements, now, month_first), key=lambda r: r[0])
    published += [iso for rank, iso in ranked if rank == 0]
    declared = len(published)
    published += [iso for rank, iso in ranked if rank == 1]
    published += _meta_dates(meta, UNSPECIFIC_META_KEYS, mkw)
    modified = [iso for rank, iso in ranked if rank >= 2]
    iso = parse_date(jsonld_modified, **mkw)
    if iso:
        modified.append(iso)
    modified += _meta_dates(meta, MODIFIED_META_KEYS, mkw)[:1]
    return _local_times(published), declared, modified


#: Least time a printed date lies before a declared one that looks like a CMS stamp, for the
#: printed one to win: regenerated pages carry a stamp months after the story (modern-dev
#: half a: 10, 21 and 31 months; half b: 6), while a date printed days before a fresh
#: article's declared date is an embedded post's (dates-dev half b: a quoted tweet, 2 days).
MIN_STAMP_GAP = timedelta(days=30)


def stamped(declared: list[str], modified: list[str], printed: str) -> bool:
    """Whether the declared publication dates look like a render or migration stamp.

    A CMS that writes the same moment as published and modified (or "published" after
    "modified") reports when it regenerated the page, not when the story first appeared; a
    date printed at the headline well before that moment is the story's.
    """
    first = min(iso[:10] for iso in declared)
    if date.fromisoformat(printed[:10]) + MIN_STAMP_GAP >= date.fromisoformat(first):
        return False
    moments = [_instant(iso) for iso in (*declared, *modified)]
    if all(moments):  # with times: a story modified minutes after it went out is no stamp
        return max(moments[len(declared):]) <= min(moments[:len(declared)])  # type: ignore[type-var]
    return max(iso[:10] for iso in modified) <= first


#: "20090312": a machine-written date without separators, read in meta values only (in text
#: eight digits are as often a number).
_COMPACT_DATE = re.compile(r"^((?:19|20)\d\d)([01]\d)([0-3]\d)$")


def _meta_dates(meta: dict[str, list[str]], keys: Sequence[str],
                kw: dict[str, object]) -> list[str]:
    """The first parseable date of each key in ``keys`` that the page has, in key order."""
    out = []
    for key in keys:
        for value in meta.get(key, ()):
            compact = _COMPACT_DATE.match(value.strip())
            if compact:
                value = "-".join(compact.groups())
            iso = parse_date(value, **kw)  # type: ignore[arg-type]
            if iso:
                out.append(iso)
                break
    return out


def _local_times(candidates: list[str]) -> list[str]:
    """Candidates with a UTC time replaced by the same instant written with a local offset.

    Meta tags often hold UTC while the page prints local time; the local day is the one the
    publisher means.
    """
    local: dict[datetime, str] = {}
    for iso in candidates:
        moment = _instant(iso)
        if moment is not None and not iso.endswith("+00:00"):
            local.setdefault(moment, iso)
    out = []
    for iso in candidates:
        moment = _instant(iso)
        out.append(local.get(moment, iso) if moment is not None else iso)
    return out


def _instant(iso: str) -> datetime | None:
    if len(iso) <= 19:
        return None
    try:
        return datetime.fromisoformat(iso).astimezone(UTC)
    except ValueError:
        return None


def by_votes(candidates: list[str]) -> list[str]:
    """Candidates reordered so the day most sources agree on comes first (ties: source order)."""
    votes: dict[str, int] = {}
    for iso in candidates:
        votes[iso[:10]] = votes.get(iso[:10], 0) + 1
    best = max(votes.values())
    for i, iso in enumerate(candidates):
        if votes[iso[:10]] == best:
            return [iso, *candidates[:i], *candidates[i + 1:]]
    return candidates


def agree_with_url(candidates: list[str], url_day: str | None) -> str:
    """The first candidate, unless the URL names another day.

    A candidate on the URL's day wins; a first candidate one day off is the same moment in
    another time zone (UTC in meta tags, local in the URL), so the URL's day is kept.
    """
    if url_day:
        for iso in candidates:
            if iso[:10] == url_day:
                return iso
        first = date.fromisoformat(candidates[0][:10])
        if abs((first - date.fromisoformat(url_day)).days) <= 1:
            return url_day
    return candidates[0]


#: A publication key and its value in a script's data (a single-page app's state, escaped or
#: not): '"publicationDate":"2022-01-31T14:27:32+01:00"', '\\"publishedAt\\":\\"2021-..."'.
_STATE_DATE = re.compile(r'\\?"([\w:-]{4,40})\\?"\s*:\s*\\?"'
                         r'((?:19|20)\d\d-[01]\d-[0-3]\d[^"\\]{0,25})')
#: Most characters of script text scanned (app states run to megabytes).
MAX_STATE_CHARS = 2_000_000


def state_date(scripts: Iterable[str], *, now: datetime) -> str | None:
    """The publication date a page's scripts hold as data (a single-page app's state, which
    declares nothing in meta or JSON-LD): the values of publication keys ("publicationDate",
    "publishedAt"; the meta keys' rule), when they all name one day. Several days are a
    list's items (teasers, related stories), not the page's."""
    found: list[str] = []
    budget = MAX_STATE_CHARS
    for text in scripts:
        if budget <= 0:
            break
        text = text[:budget]
        budget -= len(text)
        for m in _STATE_DATE.finditer(text):
            key = m.group(1).lower()
            if not _PUBLISHED_KEY.search(key) or _NOT_PUBLISHED_KEY.search(key):
                continue
            iso = parse_date(m.group(2), now=now, month_first=True)
            if iso:
                found.append(iso)
    if not found or len({iso[:10] for iso in found}) > 1:
        return None
    return found[0]
