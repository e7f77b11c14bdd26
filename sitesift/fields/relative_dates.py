"""Relative dates ("3 hours ago", "3小时前", "昨天 14:30") read against the page's crawl time,
never against the clock of the run; ``fields.dates`` reads them only when no absolute date is
found."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime, timedelta

from sitesift.fields.date_forms import MIN_YEAR

__all__ = ["RELATIVE", "iter_relative", "relative_date"]


#: Minutes in a unit of "N <unit> ago" / "N<unit>前". Weeks, months and years are not read: "3
#: weeks ago" spans 15 to 27 days and names no day.
_UNIT_MINUTES = {"s": 0, "m": 1, "h": 60, "d": 1440}
_ZH_UNIT = {"秒": "s", "秒钟": "s", "分钟": "m", "分鐘": "m", "小时": "h", "小時": "h",
            "个小时": "h", "個小時": "h", "天": "d"}
#: A printed wall-clock time after "yesterday"/"昨天" ("昨天 14:30", "Yesterday at 2:30 pm").
_CLOCK = (r"(?:\s*(?:at\s+|,\s*)?(?P<H>[01]?\d|2[0-3])\s*[:：]\s*(?P<M>[0-5]\d)"
          r"(?:\s*(?P<ampm>[ap])\.?m\.?)?)?")
RELATIVE = re.compile(
    r"(?<![\w])(?P<en_n>\d{1,3}|an?|one)\s*(?P<en_unit>sec(?:ond)?|min(?:ute)?|h(?:ou)?r|day)s?"
    r"\s+ago\b"
    r"|(?P<zh_n>\d{1,3}|[一二两三四五六七八九十]{1,3}|半)\s*(?P<zh_unit>"
    + "|".join(sorted(_ZH_UNIT, key=len, reverse=True)) + r")\s*(?:以)?前(?![往进來来去后])"
    r"|(?<![\w])(?P<now>just\s+now|(?:a\s+)?moments?\s+ago)\b|(?P<zh_now>刚刚|剛剛)"
    r"|(?<![\w])(?P<en_day>yesterday|today)\b" + _CLOCK
    + r"|(?P<zh_day>昨天|昨日|前天|今天)" + _CLOCK.replace("?P<", "?P<zh_"),
    re.IGNORECASE)
#: Days back of each day word ("today" only with a clock time: alone it is a menu's word).
_DAY_WORDS = {"today": 0, "今天": 0, "yesterday": 1, "昨天": 1, "昨日": 1, "前天": 2}
_ZH_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}


def _count(text: str) -> float | None:
    """A count as printed: digits, "a"/"an"/"one", Chinese numerals up to 99, 半 (a half)."""
    text = text.lower()
    if text.isdigit():
        return int(text)
    if text in ("a", "an", "one"):
        return 1
    if text == "半":
        return 0.5
    tens, _, ones = text.partition("十")
    if "十" not in text:
        return _ZH_DIGITS.get(text)
    if len(tens) > 1 or len(ones) > 1:
        return None
    high = _ZH_DIGITS.get(tens, 1 if not tens else None)
    low = _ZH_DIGITS.get(ones, 0 if not ones else None)
    return None if high is None or low is None else high * 10 + low


def _minute(moment: datetime) -> str:
    """``moment`` to the minute, with its offset when it has one."""
    return moment.replace(second=0, microsecond=0).isoformat()


def relative_date(match: re.Match[str], crawled: datetime | date) -> str | None:
    """The date a ``RELATIVE`` match names, read against the crawl time: to the minute for
    minutes and hours when the crawl time has one, else to the day; a printed clock time
    ("昨天 14:30") is kept as printed (the site's local time)."""
    precise = isinstance(crawled, datetime)
    day = crawled.date() if precise else crawled  # type: ignore[union-attr]
    if match.group("now") or match.group("zh_now"):
        return _minute(crawled) if precise else day.isoformat()  # type: ignore[arg-type]
    word = match.group("en_day") or match.group("zh_day")
    if word:
        back = day - timedelta(days=_DAY_WORDS[word.lower()])
        zh = "zh_" if match.group("zh_day") else ""
        hour, ampm = match.group(zh + "H"), match.group(zh + "ampm")
        if hour is None:
            return back.isoformat() if back < day and back.year >= MIN_YEAR else None
        h = int(hour) % 12 + (12 if ampm.lower() == "p" else 0) if ampm else int(hour)
        return f"{back.isoformat()}T{h:02d}:{int(match.group(zh + 'M')):02d}:00"
    if match.group("en_unit"):  # second, sec, minute, min, hour, hr, day: the first letter
        count, unit = _count(match.group("en_n")), match.group("en_unit")[0].lower()
    else:
        count, unit = _count(match.group("zh_n")), _ZH_UNIT[match.group("zh_unit")]
    if count is None:
        return None
    if unit == "d":
        back = day - timedelta(days=int(count))
        return back.isoformat() if back.year >= MIN_YEAR else None
    ago = timedelta(minutes=count * _UNIT_MINUTES[unit])
    if precise:
        return _minute(crawled - ago)  # type: ignore[operator]
    # Only the day of the crawl is known: hours back stay on it unless a whole day passed.
    return (day - timedelta(days=ago.days)).isoformat()


#: What may stand right beside a bare day word or "just now" ("Jane Doe · yesterday", "前天
#: 来源："): the line's ends, spaces, separators. A word or ideograph there makes it part of a
#: sentence ("Yesterday, the council voted", "目前天气", "他刚刚到达"), as does a lower-case
#: English word after a space.
_BESIDE_ALONE = re.compile(r"[\s·•|/()（）\[\]【】:：\-–—]")
_CJK_BEFORE_LABEL = "于於"


def _alone(match: re.Match[str]) -> bool:
    """Whether a day word without a clock time, or "just now"/"刚刚", stands as a date."""
    bare_day = bool(match.group("en_day") or match.group("zh_day")) \
        and not (match.group("H") or match.group("zh_H"))
    if not (bare_day or match.group("now") or match.group("zh_now")):
        return True  # a count and a unit ("3小时前") or a day with its clock time
    line, start, end = match.string, match.start(), match.end()
    before = line[start - 1] if start else " "
    after = line[end] if end < len(line) else " "
    if match.group("en_day") or match.group("now"):
        # English: a lower-case word next is the sentence going on ("Just now the mayor").
        follows = line[end:].lstrip()[:1]
        if follows.islower():
            return False
    return bool((_BESIDE_ALONE.match(before) or before in _CJK_BEFORE_LABEL)
                and _BESIDE_ALONE.match(after))


def iter_relative(line: str, crawled: datetime | date) -> Iterator[tuple[int, str]]:
    for match in RELATIVE.finditer(line):
        iso = relative_date(match, crawled) if _alone(match) else None
        if iso:
            yield match.start(), iso
