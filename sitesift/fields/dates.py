"""The page's publication date, from the dates found in it (strings are parsed by
``fields.date_forms``; relative ones, against the crawl time, by ``fields.relative_dates``).

``find_published`` ranks sources by how often they hold the original publication date:
JSON-LD, then meta tags, then ``<time>`` and ``itemprop`` markup, the URL, then dates written in
the text near the headline. Modification dates are used only when nothing else is found. A
government document's header labels its own date ("成文日期", written and signed), which goes
before the day the site released it (and before everything else).
Relative dates ("3 hours ago", "3小时前", "昨天 14:30") are read only when the page's crawl
time is known (``crawled``) and no absolute date is found.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone

import lxml.html

from sitesift.fields.date_forms import date_from_url, iter_dates, parse_date, utc_now
from sitesift.fields.relative_dates import RELATIVE, iter_relative

__all__ = ["find_published", "find_relative_date", "find_text_date", "markup_dates",
           "may_hold_date"]

#: How many characters before a date are searched for its label ("发布时间：", "Updated").
LABEL_CHARS = 20
#: A date line: the date starts within this many characters of a line of at most this many
#: words ("By X | 20. Mai 2007 | News"), or within ``PARAGRAPH_START_CHARS`` of any line
#: ("31. Oktober 2023. Dragqueens sind ..."). Longer lines are sentences of the story.
LINE_START_CHARS = 40
DATE_LINE_WORDS = 12
PARAGRAPH_START_CHARS = 3
#: Dates printed above the headline count as this many times farther than those below.
BEFORE_DISTANCE_FACTOR = 2
#: A printed date this close to the headline outweighs weak metadata (a bare <time>, "date").
NEAR_HEADLINE_CHARS = 400

# ---- finding the page's date -------------------------------------------------------------

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

_PUBLISH_HINT = re.compile(
    r"publi|posted|pubdate|pub-date|pub_date|post-date|postdate|post_date|created|erschienen|"
    r"veröffentlicht|datum|date|time|fecha|data|byline|meta|info", re.IGNORECASE)
_UPDATE_HINT = re.compile(r"updat|modif|aktualisiert|geändert|revised|edited|comment|copyright",
                          re.IGNORECASE)
#: Labels that introduce a publication date in text ("发布时间：", "Published", "Veröffentlicht").
#: A label right before a date that says it is the publication date.
_PUBLISH_WORDS = (r"(?:发布|發佈|发表|發表|时间|時間|日期|posted|published|publié|veröffentlicht|"
                  r"erschienen|datum|publiziert|publicado|pubblicato|date)")
_PUBLISH_LABEL = re.compile(_PUBLISH_WORDS + r"\s*(?:于|於|on|am|le|el|il)?\s*[:：]?\s*$",
                            re.IGNORECASE)
#: A text without any label word holds no labelled date: one search spares the date patterns
#: a walk over a whole story.
_PUBLISH_WORD = re.compile(_PUBLISH_WORDS, re.IGNORECASE)
_UPDATE_LABEL = re.compile(r"(?:updated|update|aktualisiert|modified|mis à jour|actualizado|"
                           r"aggiornato|更新|修改)(?:\s*(?:on|am|le|el|il|at|:))?\W{0,3}$",
                           re.IGNORECASE)


#: A label of another kind right before a date ("Joined:", "Registered:", "Founded:", "Expires:"):
#: the date of something else than the page (a member's profile beside each forum post). German
#: "Stand:" ("as of") dates the page itself and is read as an unlabelled date line.
_OTHER_LABEL = re.compile(r"(?<![^\W\d_])(?!stand\b)[^\W\d_]{2,}\s*[:：]\s*$", re.IGNORECASE)


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
                 month_first: bool) -> Iterator[tuple[int, str]]:
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


@dataclass(frozen=True, slots=True)
class TextDate:
    """A date printed in the text, and how far from the headline (in characters)."""

    iso: str
    distance: int
    #: Printed after an "updated" label: the date of a revision, not of publication.
    updated: bool = False


_WORD = re.compile(r"[^\W\d_]{2,}")
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")


def _word_count(line: str) -> int:
    """Words of a line, a CJK character counting half (two characters make a word)."""
    cjk = len(_CJK_CHAR.findall(line))
    return len(_WORD.findall(_CJK_CHAR.sub(" ", line))) + cjk // 2


def _printed(window: Sequence[str], *, labelled_only: bool, now: datetime, month_first: bool,
             backwards: bool = False,
             finder: Callable[[str], Iterable[tuple[int, str]]] | None = None,
             ) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(distance, date) of dates printed as date lines in ``window``, and of "updated" ones.

    A printed date opens its line (a byline or date line) or follows a publication label;
    dates inside running sentences are story events and are skipped. ``backwards``: the lines
    run upwards from the headline, so a date's distance is counted from its line's end.
    ``finder`` finds the dates of a line (default: the absolute ones, ``iter_dates``).
    """
    found: list[tuple[int, str]] = []
    updated: list[tuple[int, str]] = []
    distance = 0
    for line in window:
        dates = finder(line) if finder else iter_dates(line, now=now, month_first=month_first)
        for pos, iso in dates:
            lead = line[max(0, pos - LABEL_CHARS):pos]
            away = distance + (len(line) - pos if backwards else pos)
            if _UPDATE_LABEL.search(lead):
                updated.append((away, iso))
            elif _PUBLISH_LABEL.search(lead):
                found.append((away, iso))
            elif _OTHER_LABEL.search(lead):
                continue  # "Joined: 4 Jul 2012": a date the label says is not the page's
            elif (not labelled_only and (
                    (pos <= LINE_START_CHARS and _word_count(line) <= DATE_LINE_WORDS)
                    or pos <= PARAGRAPH_START_CHARS)):
                found.append((away, iso))
        distance += len(line) + 1
    return found, updated


def find_text_date(after: Sequence[str], before: Sequence[str] = (),
                   story: Sequence[str] | Callable[[], Sequence[str]] = (), *,
                   labelled_first: bool = False,
                   now: datetime | None = None, month_first: bool = True) -> TextDate | None:
    """The date printed nearest the headline, else the first date labelled as a publication
    date ("发布时间：", "Posted on") further down the story.

    ``after`` are the visible text lines below the headline, ``before`` the lines just above it
    (nearest first), ``story`` a longer run of lines from the headline on (or a function that
    walks it: only called when nothing is printed near the headline). Dates after an
    "updated" label count only when no other date is printed near the headline; dates above
    it count as twice as far. ``labelled_first`` (the headline is unknown and ``after`` starts
    at the top of the page) takes labelled dates before other printed ones.
    """
    now = now or utc_now()
    kw = {"now": now, "month_first": month_first}
    found, updated = _printed(after, labelled_only=labelled_first, **kw)
    if labelled_first and not found:
        found, updated = _printed(after, labelled_only=False, **kw)
    above, above_updated = _printed(before, labelled_only=False, backwards=True, **kw)
    found += [(d * BEFORE_DISTANCE_FACTOR, iso) for d, iso in above]
    updated += [(d * BEFORE_DISTANCE_FACTOR, iso) for d, iso in above_updated]
    for group, is_update in ((found, False), (updated, True)):
        if group:
            distance, iso = min(group, key=lambda t: t[0])
            return TextDate(iso, distance, is_update)
    text = "\n".join(story() if callable(story) else story)
    return _labelled_date(text, kw)


#: Characters a date with its time may take, read after a label word (windows of the story).
MAX_DATE_CHARS = 80


def _labelled_date(text: str, kw: dict[str, object]) -> TextDate | None:
    """The first date of ``text`` that follows a publication label.

    A labelled date starts at most ``LABEL_CHARS`` past a label word, so only windows around
    the label words are searched (a story is thousands of characters, its labels few).
    """
    for word in _PUBLISH_WORD.finditer(text):
        # From a little before the word, so the date patterns' look-behinds see their context.
        start = max(0, word.start() - 2)
        window = text[start:word.end() + LABEL_CHARS + MAX_DATE_CHARS]
        for at, iso in iter_dates(window, **kw):  # type: ignore[arg-type]
            pos = start + at
            if pos < word.end():
                continue
            if pos - word.start() > LABEL_CHARS:
                break
            if _PUBLISH_LABEL.search(text[max(0, pos - LABEL_CHARS):pos]):
                return TextDate(iso, pos)
    return None


#: "成文日期：2022年01月27日": the day a government document was written and signed, which its
#: header and its signature print; its "发布日期" (and the page's meta) is the day the site put
#: it out, a day or more later. The label may end its own line (a table's cell).
_WRITTEN_LABEL = re.compile(r"成文(?:日期|时间|時間)\s*[:：]?\s*")


def _written_date(lines: Sequence[str], kw: dict[str, object]) -> str | None:
    """The date a government document's header labels as its writing date, if any."""
    if not any("成文" in line for line in lines):
        return None
    text = "\n".join(lines)
    for label in _WRITTEN_LABEL.finditer(text):
        window = text[label.end():label.end() + MAX_DATE_CHARS]
        for pos, iso in iter_dates(window, **kw):  # type: ignore[arg-type]
            if pos == 0:
                return iso
            break
    return None


def find_relative_date(after: Sequence[str], before: Sequence[str],
                       crawled: datetime | date) -> str | None:
    """The relative date ("3 hours ago", "3小时前") printed nearest the headline, resolved
    against the crawl time; only date lines and labelled ones count, as for printed dates,
    and none after an "updated" label (the date of a revision)."""
    # ``now`` and ``month_first`` serve the absolute dates only: the finder reads the line.
    kw = {"labelled_only": False, "now": utc_now(), "month_first": True,
          "finder": lambda line: iter_relative(line, crawled)}
    found, _updated = _printed(after, **kw)  # type: ignore[arg-type]
    above, _above_updated = _printed(before, backwards=True, **kw)  # type: ignore[arg-type]
    found += [(d * BEFORE_DISTANCE_FACTOR, iso) for d, iso in above]
    return min(found, key=lambda t: t[0])[1] if found else None


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
    month_first: bool = True,
    now: datetime | None = None,
    top: Callable[[], Sequence[str]] | None = None,
    crawled: datetime | date | None = None,
) -> str | None:
    """The page's original publication date as ISO 8601, or None when nothing credible is found.

    ``date_elements`` are the elements passing ``may_hold_date``; ``meta`` maps lower-cased
    meta keys to their contents (see ``candidates.read_meta``);
    ``after``/``before`` are the visible text lines from the headline on and just above it,
    ``story`` a longer run from the headline on; ``labelled_first`` when the headline is unknown;
    ``top`` walks the page's lines from the top of the body, read only when nothing else is
    found (a byline box printed above a headline placed elsewhere: "Published on ...").
    ``crawled`` is when the page was fetched: a relative date printed at the headline is read
    against it when no absolute date is found.
    """
    now = now or utc_now()
    kw = {"now": now, "month_first": month_first}
    written = _written_date([*reversed(before), *after], kw)
    if written:
        return written
    url_day = date_from_url(url, now=now)
    published, declared, modified = _declared_dates(
        date_elements, meta, jsonld_published, jsonld_modified, now=now, month_first=month_first)
    relative = (lambda: find_relative_date(after, before, crawled)) if crawled else None
    text = find_text_date(after, before, story, labelled_first=labelled_first, **kw)
    text_day = text.iso if text else None
    if text and (iso := _confirmed(text, published, declared, modified)):
        return iso
    if text and not text.updated and text.distance <= NEAR_HEADLINE_CHARS and declared \
            and modified and _stamped(published[:declared], modified, text.iso) \
            and not _prints(after, published[:declared], kw):
        return text.iso
    if text and not declared and text.distance <= NEAR_HEADLINE_CHARS:
        # Only weak metadata (an unlabelled <time>, a bare "date" meta) against a date printed
        # right at the headline: the printed one is the article's.
        return text.iso
    if published:
        return _in_printed_offset(_agree_with_url(_by_votes(published), url_day), after, before)
    if url_day:
        return url_day
    if text_day:
        return text_day
    if relative is not None and (iso := relative()):
        return iso  # printed at the headline: the page's own word, over a modification date
    if modified:
        return modified[0]
    labelled = _labelled_date("\n".join(top()), kw) if top is not None else None
    return labelled.iso if labelled else None


def _day_clocks(line: str) -> Iterator[tuple[int, str]]:
    """The clock times printed after a day word ("昨天 06:54", "Yesterday at 6:54 pm"), as
    "HH:MM" (the finder of ``_printed``)."""
    for m in RELATIVE.finditer(line):
        zh = "zh_" if m.group("zh_day") else ""
        hour = m.group(zh + "H") if (m.group("en_day") or m.group("zh_day")) else None
        if hour is not None:
            ampm = (m.group(zh + "ampm") or "").lower()
            h = int(hour) % 12 + (12 if ampm == "p" else 0) if ampm else int(hour)
            yield m.start(), f"{h:02d}:{m.group(zh + 'M')}"


def _in_printed_offset(iso: str, after: Sequence[str], before: Sequence[str]) -> str:
    """``iso``, a declared UTC moment, in the page's own offset where the page prints its
    clock time at the headline with a day word ("昨天 06:54" for 2025-04-20T22:54Z): the
    same minute some whole hours off is the publisher's local time, and the local day the
    one the page means (no crawl time needed: the day word is not read, only the clock)."""
    if not iso.endswith("+00:00") or len(iso) < 16:
        return iso
    kw = {"labelled_only": False, "now": utc_now(), "month_first": True, "finder": _day_clocks}
    found, _updated = _printed(after, **kw)  # type: ignore[arg-type]
    above, _above_updated = _printed(before, backwards=True, **kw)  # type: ignore[arg-type]
    clocks = [*found, *((d * BEFORE_DISTANCE_FACTOR, c) for d, c in above)]
    if not clocks:
        return iso
    clock = min(clocks, key=lambda t: t[0])[1]
    moment = datetime.fromisoformat(iso)
    if clock[3:] != f"{moment.minute:02d}" or int(clock[:2]) == moment.hour:
        return iso
    hours = (int(clock[:2]) - moment.hour) % 24
    if hours > MAX_UTC_OFFSET_HOURS:
        hours -= 24
    return moment.astimezone(timezone(timedelta(hours=hours))).isoformat()


#: Time zones run from UTC-12 to UTC+14.
MAX_UTC_OFFSET_HOURS = 14


def _declared_dates(date_elements: Sequence[lxml.html.HtmlElement], meta: dict[str, list[str]],
                    jsonld_published: str | None, jsonld_modified: str | None, *,
                    now: datetime, month_first: bool) -> tuple[list[str], int, list[str]]:
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


def _prints(after: Sequence[str], declared: list[str], kw: dict[str, object]) -> bool:
    """Whether a date line under the headline prints a declared publication day: the page
    confirms its metadata, which is then no stamp, whatever date a caption prints nearer."""
    days = {iso[:10] for iso in declared}
    found, _updated = _printed(after, labelled_only=False, **kw)  # type: ignore[arg-type]
    return any(iso[:10] in days for _distance, iso in found)


def _swapped(iso: str) -> str | None:
    """The day of ``iso`` with month and day swapped, when that is a date too."""
    y, m, d = iso[:4], iso[5:7], iso[8:10]
    return f"{y}-{d}-{m}" if m != d and int(d) <= 12 else None


#: Least time a printed date lies before a declared one that looks like a CMS stamp, for the
#: printed one to win: regenerated pages carry a stamp months after the story (modern-dev
#: half a: 10, 21 and 31 months; half b: 6), while a date printed days before a fresh
#: article's declared date is an embedded post's (dates-dev half b: a quoted tweet, 2 days).
MIN_STAMP_GAP = timedelta(days=30)


def _stamped(declared: list[str], modified: list[str], printed: str) -> bool:
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


def _by_votes(candidates: list[str]) -> list[str]:
    """Candidates reordered so the day most sources agree on comes first (ties: source order)."""
    votes: dict[str, int] = {}
    for iso in candidates:
        votes[iso[:10]] = votes.get(iso[:10], 0) + 1
    best = max(votes.values())
    for i, iso in enumerate(candidates):
        if votes[iso[:10]] == best:
            return [iso, *candidates[:i], *candidates[i + 1:]]
    return candidates


def _agree_with_url(candidates: list[str], url_day: str | None) -> str:
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
