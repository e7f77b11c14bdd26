"""Date strings into ISO 8601: numeric and Chinese forms and month names of the dev sets'
languages, dates in URLs. Regex-based (about a microsecond a string); dateutil's fuzzy mode is
never used (on Chinese text it silently replaces the year). Every date is checked: no earlier than
``MIN_YEAR`` and not in the future. Finding *the page's* date from these is ``fields.dates``."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Literal

__all__ = [
    "FUTURE_SLACK", "MIN_YEAR", "MONTH_FIRST_ALWAYS", "ORDER_MIN_SHARE", "PAGE_ORDER_MIN_VOTES",
    "MonthFirst",
    "date_from_url", "date_orders", "iter_dates", "learned_month_first", "parse_date",
    "text_month_first", "utc_now", "votes_month_first",
]

#: Dates before this year are rejected: the web hardly published news before 1995, and older
#: years in a page are historical references, not publication dates.
MIN_YEAR = 1995

#: A date this far past "now" is still accepted: pages are dated in their own time zone.
FUTURE_SLACK = timedelta(days=1)

#: How a numeric date whose first two numbers can both be months is read: ``True``, slashes
#: month-first (US usage) and dots and dashes day-first; ``False``, every form day-first;
#: ``MONTH_FIRST_ALWAYS``, every form month-first: the order a site or page shows in its
#: unambiguous dates (``learned_month_first``), e.g. a forum printing "08-13-2025" reads its
#: "08-12-2025" as 12 August. A first number above 12 is a day, a second above 12 a day, in
#: every case.
MONTH_FIRST_ALWAYS: Literal["always"] = "always"
MonthFirst = bool | Literal["always"]

#: ``learned_month_first``: one order must hold this share of the unambiguous dates' votes (a
#: page quoting a date of another country's form is outvoted, an even split decides nothing).
ORDER_MIN_SHARE = 0.75
#: One page's own unambiguous dates settle how its ambiguous ones read when at least this many
#: show an order (``text_month_first``): a forum thread printing "08-13-2025" beside
#: "08-12-2025" reads both month-first; one date quoted from elsewhere decides nothing.
PAGE_ORDER_MIN_VOTES = 2

_MONTHS: dict[str, int] = {}
for _names in (
    # English
    "january february march april may june july august september october november december",
    "jan feb mar apr may jun jul aug sep oct nov dec",
    # German
    "januar februar märz april mai juni juli august september oktober november dezember",
    "jänner feber maerz mrz sept okt dez",
    # French
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "janv févr fevrier avr juil aout sept déc decembre",
    # Spanish
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    # Italian
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    # Dutch
    "januari februari maart april mei juni juli augustus september oktober november december",
    # Portuguese
    "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    # Russian (genitive, as in dates) and nominative
    "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    "январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
):
    _words = _names.split()
    if len(_words) == 12:
        for _i, _w in enumerate(_words, 1):
            _MONTHS.setdefault(_w, _i)
for _w, _i in (("jänner", 1), ("feber", 2), ("maerz", 3), ("mrz", 3), ("sept", 9), ("okt", 10),
               ("dez", 12), ("janv", 1), ("févr", 2), ("fevrier", 2), ("avr", 4), ("juil", 7),
               ("aout", 8), ("déc", 12), ("decembre", 12), ("sep", 9),
               # Spanish, Italian and Portuguese abbreviations that are no English word
               # ("set", "out", "mag" are left out): "04-ago-2021", "12 dic 2020", "3 giu 2019".
               ("ene", 1), ("abr", 4), ("ago", 8), ("dic", 12), ("gen", 1), ("giu", 6),
               ("lug", 7), ("ott", 10), ("fev", 2)):
    _MONTHS.setdefault(_w, _i)
del _names, _words

_MONTH_RE = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))

_TIME = (r"(?:(?:\s*(?:T|,|um|at|à|alle|om|às|a las|-|\|)?\s*)"
         r"(?P<H>[01]?\d|2[0-3])\s*[:：时h]\s*(?P<M>[0-5]\d)(?:\s*[:：分]\s*(?P<S>[0-5]\d))?"
         r"(?:\.\d+)?(?:\s*(?P<ampm>[ap]\.?m\.?))?"
         r"(?:\s*(?P<tz>Z|[+-](?:[01]\d):?[0-5]\d)(?![\d]))?)?")

#: Numeric and Chinese forms, most specific first.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # 2018-07-17, 2018/07/17, 2018.07.17, 2018年7月17日
    (re.compile(r"(?<!\d)(?P<y>(?:19|20)\d\d)\s*(?:[-/.]|年)\s*(?P<m>[01]?\d)\s*(?:[-/.]|月)\s*"
                r"(?P<d>[0-3]?\d)(?!\d)(?:\s*[日号])?" + _TIME, re.IGNORECASE), "ymd"),
    # 17.07.2018 (European), 17/07/2018 or 07/17/2018, 11-29-2024 (decided below)
    (re.compile(r"(?<![\d.])(?P<a>[0-3]?\d)\s*(?P<sep>[./-])\s*(?P<b>[0-3]?\d)\s*(?P=sep)\s*"
                r"(?P<y>(?:19|20)\d\d)(?!\d)" + _TIME, re.IGNORECASE), "dmy"),
    # 30.10.23: a two-digit year only with dots, as German and Swiss sites print it
    (re.compile(r"(?<![\d.])(?P<a>[0-3]?\d)\.(?P<b>[01]?\d)\.(?P<yy>[0-3]\d)(?![\d.])" + _TIME),
     "dmyy"),
    # March 3, 2021 / Mar. 3rd 2021
    (re.compile(r"(?<![\w])(?P<mon>" + _MONTH_RE + r")\.?\s+(?P<d>[0-3]?\d)(?:st|nd|rd|th)?,?\s+"
                r"(?P<y>(?:19|20)\d\d)(?!\d)" + _TIME, re.IGNORECASE), "mdy_name"),
    # 3 March 2021 / 3. März 2021 / 3 de marzo de 2021 / 3rd of March, 2021 / 04-Aug-2021
    (re.compile(r"(?<![\w.])(?P<d>[0-3]?\d)(?:st|nd|rd|th|er)?(?:\.?\s*|-)(?:de\s+|of\s+)?(?P<mon>"
                + _MONTH_RE + r")(?:\.?,?\s+|-)(?:de\s+)?(?P<y>(?:19|20)\d\d)(?!\d)" + _TIME,
                re.IGNORECASE), "dmy_name"),
)

#: The form above with day and month in numbers, either order ("17/07/2018", "07-17-2018").
_NUMERIC_DAY_MONTH = next(pattern for pattern, kind in _PATTERNS if kind == "dmy")
#: The forms above that need a month's name.
_NAMED_FORMS = frozenset(("mdy_name", "dmy_name"))
#: The month names, matched case-sensitively (``_may_name_month``).
_MONTH_NAME = re.compile(_MONTH_RE)


def _may_name_month(text: str) -> bool:
    """False only when ``text`` holds no month name, so that the forms needing one cannot
    match: an ASCII text lower-cased holds none (for ASCII text, what IGNORECASE matches is
    what lower-casing finds, and no month name's letter matches an ASCII one but its own),
    found by a case-sensitive search, several times faster than the two case-insensitive
    forms scanning every position. Other texts may (the forms decide). Of the 918 texts
    the two forms read over the 251 pages of big9-2005, big9-2009 and cleanportal, 587 are
    ASCII without a month name."""
    return not text.isascii() or _MONTH_NAME.search(text.lower()) is not None


#: Every form above has a four-digit year of 19xx or 20xx, or is the dotted two-digit-year form:
#: text without either holds no date (most lines of a page), checked by one search.
_MAY_HOLD_DATE = re.compile(r"(?:19|20)\d\d|\d\.[01]?\d\.[0-3]\d")
#: Dates in URLs: /2019/11/19/, /2019-11-19/, _20191119, /20191119/.
_URL_PATTERNS = (
    re.compile(r"(?<!\d)((?:19|20)\d\d)[/_-]([01]?\d)[/_-]([0-3]?\d)(?!\d)"),
    re.compile(r"(?<!\d)((?:19|20)\d\d)([01]\d)([0-3]\d)(?!\d)"),
    re.compile(r"(?<!\d)((?:19|20)\d\d)[/_-]([01]\d)([0-3]\d)(?!\d)"),
)
#: Day-first dates in URLs: /29-10-2021.
_URL_DMY = re.compile(r"(?<![\d])([0-3]\d)[-_]([01]\d)[-_]((?:19|20)\d\d)(?!\d)")


def utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _valid(y: int, m: int, d: int, now: datetime) -> date | None:
    if not MIN_YEAR <= y <= now.year:
        return None
    try:
        day = date(y, m, d)
    except ValueError:
        return None
    if day > (now + FUTURE_SLACK).date():
        return None
    return day


def _iso(day: date, match: re.Match[str]) -> str:
    """Date plus time when the match carries one (seconds and offset only when written)."""
    hour = match.group("H")
    if hour is None:
        return day.isoformat()
    h, mi = int(hour), int(match.group("M"))
    ampm = (match.group("ampm") or "").replace(".", "").lower()
    if ampm == "pm" and h < 12:
        h += 12
    elif ampm == "am" and h == 12:
        h = 0
    sec = int(match.group("S") or 0)
    out = f"{day.isoformat()}T{h:02d}:{mi:02d}:{sec:02d}"
    tz = match.group("tz")
    if tz:
        if tz.upper() == "Z":
            out += "+00:00"
        else:
            digits = tz[1:].replace(":", "")
            out += f"{tz[0]}{digits[:2]}:{digits[2:]}"
    return out


def _from_match(kind: str, m: re.Match[str], now: datetime, month_first: MonthFirst) -> str | None:
    if kind == "dmyy":
        y = 2000 + int(m.group("yy"))
        d, mo = int(m.group("a")), int(m.group("b"))
        day = _valid(y, mo, d, now)
        return _iso(day, m) if day else None
    y = int(m.group("y"))
    if kind == "ymd":
        mo, d = int(m.group("m")), int(m.group("d"))
    elif kind == "dmy":
        a, b = int(m.group("a")), int(m.group("b"))
        # Dots and dashes are day-first everywhere; a slash is month-first in US usage unless
        # the first number cannot be a month. Either reads month-first when the second number
        # cannot be a month ("11-29-2024", as US forum software prints it). A learned order
        # (``MONTH_FIRST_ALWAYS``) reads every separator month-first.
        month_sep = month_first == MONTH_FIRST_ALWAYS or (month_first and m.group("sep") == "/")
        if (month_sep and a <= 12) or (a <= 12 < b):
            mo, d = a, b
        else:
            d, mo = a, b
    else:
        mo = _MONTHS[m.group("mon").lower()]
        d = int(m.group("d"))
    day = _valid(y, mo, d, now)
    return _iso(day, m) if day else None


def iter_dates(text: str, *, now: datetime | None = None,
               month_first: MonthFirst = True) -> Iterator[tuple[int, str]]:
    """Every valid date written in ``text`` as (position, ISO string), in text order."""
    if not _MAY_HOLD_DATE.search(text):
        return
    now = now or utc_now()
    found: list[tuple[int, int, str]] = []
    named = None  # (whether the text may name a month: asked once, before those forms)
    for pattern, kind in _PATTERNS:
        if kind in _NAMED_FORMS:
            if named is None:
                named = _may_name_month(text)
            if not named:
                continue
        for m in pattern.finditer(text):
            iso = _from_match(kind, m, now, month_first)
            if iso:
                found.append((m.start(), m.end(), iso))
    found.sort()
    last_end = -1
    for start, end, iso in found:
        if start >= last_end:  # overlapping matches of later patterns are the same date
            last_end = end
            yield start, iso


def parse_date(text: str | None, *, now: datetime | None = None,
               month_first: MonthFirst = True) -> str | None:
    """The first valid date in ``text`` as ISO 8601 (with time when written), else None."""
    if not text:
        return None
    text = text.strip()
    if text.isdigit() and len(text) in (10, 13):  # a Unix timestamp in seconds or milliseconds
        return _from_timestamp(int(text) // (1000 if len(text) == 13 else 1), now or utc_now())
    for _pos, iso in iter_dates(text[:200], now=now, month_first=month_first):
        return iso
    return None


def date_orders(text: str, *, named: bool = True) -> Iterator[str]:
    """The order of every date in ``text`` that shows it: "dmy" or "mdy" for a numeric date
    whose first or second number is above 12 ("13/01/2025", "08-13-2025"); with ``named``,
    "dmy_name" or "mdy_name" for an ambiguous numeric date ("02-12-2025") whose one reading
    is a day the text also prints with its month's name ("Dec 2, 2025": day-first). A
    month's name alone says nothing of the numeric order (English prints "December 2, 2025"
    on day-first pages too). ``named`` False: numeric dates only (the forms naming a month
    cost most of the time: ``votes_month_first`` reads them only where numeric dates are
    too few)."""
    if not _MAY_HOLD_DATE.search(text):
        return
    ambiguous: list[tuple[int, int, int]] = []
    for m in _NUMERIC_DAY_MONTH.finditer(text):
        a, b = int(m.group("a")), int(m.group("b"))
        if a <= 12 < b <= 31:
            yield "mdy"
        elif b <= 12 < a <= 31:
            yield "dmy"
        elif a != b and a and b:
            ambiguous.append((int(m.group("y")), a, b))
    if not named or not ambiguous or not _may_name_month(text):
        return
    days = {(int(m.group("y")), _MONTHS[m.group("mon").lower()], int(m.group("d")))
            for pattern, kind in _PATTERNS if kind in _NAMED_FORMS
            for m in pattern.finditer(text)}
    for y, a, b in ambiguous:
        if (y, b, a) in days:
            yield "dmy_name"
        elif (y, a, b) in days:
            yield "mdy_name"


def learned_month_first(votes: Mapping[str, int], default: MonthFirst,
                        min_votes: int = 1) -> MonthFirst:
    """The reading of ambiguous numeric dates that ``votes`` (``date_orders`` counted) settle:
    ``MONTH_FIRST_ALWAYS`` or ``False`` when one order holds ``ORDER_MIN_SHARE`` of at least
    ``min_votes`` votes, else ``default``. Numeric dates vote first (the template prints them
    as it prints the ambiguous ones); ambiguous dates matched by a date naming its month
    ("dmy_name", "mdy_name") only where too few numeric dates show an order."""
    mdy, dmy = votes.get("mdy", 0), votes.get("dmy", 0)
    if mdy + dmy < max(1, min_votes):
        mdy, dmy = votes.get("mdy_name", 0), votes.get("dmy_name", 0)
    total = mdy + dmy
    if total < max(1, min_votes):
        return default
    if mdy >= ORDER_MIN_SHARE * total:
        return MONTH_FIRST_ALWAYS
    if dmy >= ORDER_MIN_SHARE * total:
        return False
    return default


def text_month_first(text: str, default: MonthFirst) -> MonthFirst:
    """How one page's ambiguous numeric dates read, from the unambiguous dates of its
    ``text`` (``PAGE_ORDER_MIN_VOTES``), else ``default``."""
    return votes_month_first([text], default, PAGE_ORDER_MIN_VOTES)


def votes_month_first(texts: Sequence[str], default: MonthFirst,
                      min_votes: int = 1) -> MonthFirst:
    """``learned_month_first`` over the dates of ``texts`` (one site's pages, or one page),
    reading the dates that name their month only where the numeric ones are too few."""
    votes = Counter(order for text in texts for order in date_orders(text, named=False))
    if sum(votes.values()) < max(1, min_votes):
        votes.update(order for text in texts for order in date_orders(text)
                     if order.endswith("_name"))
    return learned_month_first(votes, default, min_votes)


def _from_timestamp(seconds: int, now: datetime) -> str | None:
    try:
        moment = datetime.fromtimestamp(seconds, UTC).replace(tzinfo=None)
    except (OverflowError, OSError, ValueError):
        return None
    if _valid(moment.year, moment.month, moment.day, now) is None:
        return None
    return moment.date().isoformat()


def date_from_url(url: str | None, *, now: datetime | None = None) -> str | None:
    """A date written in the URL path (``/2019/11/19/``, ``20191119``), else None."""
    if not url:
        return None
    now = now or utc_now()
    path = re.sub(r"^[a-z]+://[^/]+", "", url, flags=re.IGNORECASE)
    for pattern in _URL_PATTERNS:
        for m in pattern.finditer(path):
            day = _valid(int(m.group(1)), int(m.group(2)), int(m.group(3)), now)
            if day:
                return day.isoformat()
    for m in _URL_DMY.finditer(path):
        day = _valid(int(m.group(3)), int(m.group(2)), int(m.group(1)), now)
        if day:
            return day.isoformat()
    return None
