"""The article headline, chosen among metadata titles, on-page headings and ``<title>``.

``<title>`` nearly always names the article, but decorated with the site name ("Headline |
Site", "Headline_新浪网"). Headings (``<h1>``...) show the headline as printed, but pages also
use them for logos and section names. Paper 003's rule settles it: among the candidates, the
one most similar to the ``<title>`` text (Sim = 2*LCS/(|a|+|b|)) is the headline. Metadata
titles (JSON-LD headline, og:title) join the candidates; a publisher's own headline is preferred
when it agrees with the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz.distance import Indel

__all__ = ["TitleCandidates", "choose_title", "normalize_space", "strip_site_name"]

#: A heading must be at least this similar to the (undecorated) ``<title>`` to be the headline:
#: below it, the heading is a section name or logo, not the article's headline.
MIN_HEADING_SIMILARITY = 0.6
#: A metadata title this similar to the chosen heading is taken to be the same headline.
SAME_TITLE_SIMILARITY = 0.9
#: Headings longer than this are paragraphs styled as headings.
MAX_TITLE_CHARS = 300
#: A segment cut from ``<title>`` is dropped as site decoration only if what remains has at least
#: this many characters (short remains are more likely a cut headline than a headline).
MIN_REMAINING_CHARS = 8

#: Separators between headline and site name in ``<title>``: spaced dashes, bars, colons, etc.,
#: and unspaced bars or underscores (common on Chinese sites: "标题_新浪网").
_SEPARATOR = re.compile(r"\s+[|\-–—:·•»>/~*]{1,2}\s+|\s*[|｜_]{1,2}\s*|\s*[-—–]{2,}\s*|\s+-(?=\S)|"
                        r"(?<=\S)-\s+")


@dataclass(frozen=True, slots=True)
class TitleCandidates:
    """Title sources of one page; ``headings`` in document order (h1 first, then h2...)."""

    doc_title: str | None = None
    meta_titles: tuple[str, ...] = ()
    headings: tuple[str, ...] = ()
    site_names: tuple[str, ...] = ()


def normalize_space(text: str | None) -> str:
    return " ".join((text or "").split())


def _sim(a: str, b: str) -> float:
    return Indel.normalized_similarity(a.casefold(), b.casefold())


def _segments(title: str) -> list[tuple[str, str]]:
    """(kept part, dropped part) for every cut of ``title`` at one separator."""
    cuts = []
    for m in _SEPARATOR.finditer(title):
        left, right = title[:m.start()].strip(), title[m.end():].strip()
        if left and right:
            cuts.append((left, right))
            cuts.append((right, left))
    return cuts


def _is_site_name(part: str, site_names: Iterable[str]) -> bool:
    folded = part.casefold()
    for name in site_names:
        name = name.casefold()
        if not name:
            continue
        if folded == name or _sim(folded, name) >= SAME_TITLE_SIMILARITY:
            return True
        if len(folded) >= 3 and (folded in name or name in folded) and len(folded) < 40:
            return True
    return False


def strip_site_name(title: str, site_names: Iterable[str] = ()) -> str:
    """``title`` without site decoration: a known site name, else the shorter side of the last
    separator when the longer side is clearly the headline."""
    title = normalize_space(title)
    names = [n for n in site_names if n]
    changed = True
    while changed:
        changed = False
        for m in list(_SEPARATOR.finditer(title))[::-1]:
            left, right = title[:m.start()].strip(), title[m.end():].strip()
            if not left or not right:
                continue
            if _is_site_name(right, names) and len(left) >= MIN_REMAINING_CHARS:
                title, changed = left, True
                break
            if _is_site_name(left, names) and len(right) >= MIN_REMAINING_CHARS:
                title, changed = right, True
                break
    return title


def _longest_part(title: str) -> str:
    """The longest piece between separators: the headline when nothing else is known."""
    parts = [p.strip() for p in _SEPARATOR.split(title) if p and p.strip()]
    if len(parts) < 2:
        return title
    best = max(parts, key=len)
    # A title cut into many short pieces ("A - B - C") is more likely one headline with dashes.
    if len(best) < MIN_REMAINING_CHARS or len(best) * 2 < len(title) - len(best) * 0.5:
        return title
    return best


def choose_title(c: TitleCandidates) -> str | None:
    """The headline of the page, or None when it names nothing."""
    doc = strip_site_name(c.doc_title or "", c.site_names)
    metas = [strip_site_name(t, c.site_names) for t in c.meta_titles if normalize_space(t)]
    headings = [h for h in (normalize_space(h) for h in c.headings)
                if h and len(h) <= MAX_TITLE_CHARS]
    reference = doc or (metas[0] if metas else "")
    if not reference:
        return headings[0] if headings else None
    best, best_sim = None, 0.0
    for h in headings:
        s = max(_sim(h, reference), max((_sim(h, m) for m in metas), default=0.0))
        if s > best_sim + 1e-9:
            best, best_sim = h, s
    if best is not None and best_sim >= MIN_HEADING_SIMILARITY:
        # The publisher's metadata headline, when it is the same text, keeps its exact wording.
        for m in metas:
            if _sim(m, best) >= SAME_TITLE_SIMILARITY and len(m) >= len(best):
                return m
        return best
    if metas:
        return metas[0]
    # Only ``<title>``: cut the decoration by matching each cut against the headings.
    cuts = _segments(doc)
    if cuts and headings:
        kept, s = max(((k, max(_sim(k, h) for h in headings)) for k, _d in cuts),
                      key=lambda t: t[1])
        if s >= MIN_HEADING_SIMILARITY:
            return kept
    return _longest_part(doc)
