"""Dates printed on the page: date lines and labelled dates near the headline, above and
below it ("By X | 20. Mai 2007", "发布时间：2021-03-04"), the first labelled date further down
the story, a government document's writing date ("成文日期"), relative dates at the headline
against the crawl time, and the clock time a page prints beside a day word ("昨天 06:54").

A printed date opens its line or follows a publication label; dates inside running sentences
are story events. ``fields.dates`` weighs these against what the page declares
(``fields.declared_dates``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from sitesift.fields.date_forms import MonthFirst, iter_dates, utc_now
from sitesift.fields.relative_dates import RELATIVE, iter_relative
from sitesift.parse.dom import HAN

__all__ = ["TextDate", "find_relative_date", "find_text_date", "in_printed_offset",
           "labelled_date", "prints", "written_date"]

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


#: Labels that introduce a publication date in text ("发布时间：", "Published", "Veröffentlicht").
#: A label right before a date that says it is the publication date.
_PUBLISH_WORDS = (r"(?:发布|發佈|发表|發表|时间|時間|日期|posted|published|publié|veröffentlicht|"
                  r"erschienen|datum|publiziert|publicado|pubblicato|date)")
_PUBLISH_LABEL = re.compile(_PUBLISH_WORDS + r"\s*(?:于|於|on|am|le|el|il)?\s*[:：]?\s*$",
                            re.IGNORECASE)
#: A text without any label word holds no labelled date: one search spares the date patterns
#: a walk over a whole story.
_PUBLISH_WORD = re.compile(_PUBLISH_WORDS, re.IGNORECASE)
#: The same words matched case-sensitively, for text lower-cased beforehand (``_label_words``).
_PUBLISH_WORD_LOWER = re.compile(_PUBLISH_WORDS)
#: The only characters on which ``_PUBLISH_WORD`` and a case-sensitive search of the
#: lower-cased text differ (every code point checked against each letter of the words): "İ"
#: lower-cases to two characters (moving what follows), and IGNORECASE matches "ı" to "i"
#: and "ſ" to "s", which lower-case to themselves.
_CASE_EXCEPTIONS = ("\u0130", "\u0131", "\u017f")
_UPDATE_LABEL = re.compile(r"(?:updated|update|aktualisiert|modified|mis à jour|actualizado|"
                           r"aggiornato|更新|修改)(?:\s*(?:on|am|le|el|il|at|:))?\W{0,3}$",
                           re.IGNORECASE)


#: A label of another kind right before a date ("Joined:", "Registered:", "Founded:", "Expires:"):
#: the date of something else than the page (a member's profile beside each forum post). German
#: "Stand:" ("as of") dates the page itself and is read as an unlabelled date line.
_OTHER_LABEL = re.compile(r"(?<![^\W\d_])(?!stand\b)[^\W\d_]{2,}\s*[:：]\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TextDate:
    """A date printed in the text, and how far from the headline (in characters)."""

    iso: str
    distance: int
    #: Printed after an "updated" label: the date of a revision, not of publication.
    updated: bool = False


_WORD = re.compile(r"[^\W\d_]{2,}")


def _word_count(line: str) -> int:
    """Words of a line, a CJK character counting half (two characters make a word)."""
    cjk = len(HAN.findall(line))
    return len(_WORD.findall(HAN.sub(" ", line))) + cjk // 2


def _printed(window: Sequence[str], *, labelled_only: bool, now: datetime, month_first: MonthFirst,
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
                   now: datetime | None = None, month_first: MonthFirst = True) -> TextDate | None:
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
    return labelled_date(text, kw)


#: Characters a date with its time may take, read after a label word (windows of the story).
MAX_DATE_CHARS = 80


def labelled_date(text: str, kw: dict[str, object]) -> TextDate | None:
    """The first date of ``text`` that follows a publication label.

    A labelled date starts at most ``LABEL_CHARS`` past a label word, so only windows around
    the label words are searched (a story is thousands of characters, its labels few).
    """
    for word in _label_words(text):
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


def _label_words(text: str) -> Iterator[re.Match[str]]:
    """``_PUBLISH_WORD.finditer(text)``: the same spans, found in ``text.lower()`` by a
    case-sensitive search where no character of ``_CASE_EXCEPTIONS`` is in it. Lower-casing
    is then one character for one, and a letter matches under IGNORECASE exactly when it
    lower-cases to the pattern's (lower-case) letter; the case-insensitive alternation tests
    every position in Python's regex engine, about ten times slower over a story of
    thousands of characters (0.058 s over the 251 pages of big9-2005, big9-2009 and
    cleanportal, each call a story's 8,000 characters)."""
    if any(c in text for c in _CASE_EXCEPTIONS):
        return _PUBLISH_WORD.finditer(text)
    return _PUBLISH_WORD_LOWER.finditer(text.lower())


#: "成文日期：2022年01月27日": the day a government document was written and signed, which its
#: header and its signature print; its "发布日期" (and the page's meta) is the day the site put
#: it out, a day or more later. The label may end its own line (a table's cell).
_WRITTEN_LABEL = re.compile(r"成文(?:日期|时间|時間)\s*[:：]?\s*")


def written_date(lines: Sequence[str], kw: dict[str, object]) -> str | None:
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


def in_printed_offset(iso: str, after: Sequence[str], before: Sequence[str]) -> str:
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


def prints(after: Sequence[str], declared: list[str], kw: dict[str, object]) -> bool:
    """Whether a date line under the headline prints a declared publication day: the page
    confirms its metadata, which is then no stamp, whatever date a caption prints nearer."""
    days = {iso[:10] for iso in declared}
    found, _updated = _printed(after, labelled_only=False, **kw)  # type: ignore[arg-type]
    return any(iso[:10] in days for _distance, iso in found)
