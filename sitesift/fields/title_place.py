"""Where the headline sits: the heading next to the story when ``<title>`` is no help.

Paper 003 picks, among the page's headings, the one most like ``<title>``. On pages whose
``<title>`` is the site's name ("Charleston Daily Mail", "Press TV", a ``<title>`` several
pages of the site share) nothing on the page is like it, and the page-level choice falls back
on the first long h1, which on such pages is often the site's logo or a section name ("TIMES
LEADER SPECIAL SECTIONS"), or on the site's name itself. Such a title has no evidence
(``titles.title_agrees``), and the page's layout decides instead. Once the main content is
known, the heading printed nearest the start of the story (just above it, or as its first
heading) is the headline; logos and section names sit far up in the site's header. When no
heading is there and the title is no heading of the page either, the nearest headline-like
plain line just above the story (``<div class="sh">``, ``<b>``) is taken. A title with
evidence beyond ``<title>`` (a declared or meta title, the share links' title, the URL slug)
always stays, as does the whole ``<title>``; a part cut from ``<title>`` (the chooser's guess
at its decoration) stays when the page prints it anywhere, else a heading or plain line of at
least ``MIN_WORDS_OVER_DOC_TITLE`` words at the story replaces it (``<title>`` naming the
site: "Summit Daily News for Breckenridge, ... - Arts and Entertainment", "WABC | Top
Stories"). The visual method (paper 002) ranks its title cues against the title placed so
(measured in docs/design/titles.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from sitesift.fields.candidates import heading_text
from sitesift.fields.date_forms import parse_date
from sitesift.fields.lines import lines_before
from sitesift.fields.list_titles import own_h1
from sitesift.fields.metadata import Metadata
from sitesift.fields.title_text import is_site_name, normalize_space, title_segments
from sitesift.fields.titles import TitleCandidates, title_agrees, title_declared

__all__ = ["list_name", "near_heading"]

#: A heading at most this many elements before the story's start (or inside the story, at
#: most this many elements after its start) is "at the story".
MAX_ELEMENTS_BEFORE = 40
MAX_ELEMENTS_INSIDE = 15
#: A headline has at least this many words and at most this many characters.
MIN_WORDS = 2
#: A heading holding a date and at most this many words is a dateline.
MAX_DATE_LINE_WORDS = 8
#: Plain lines just above the story that are read (nearest first) when no heading is there,
#: and how much text that is at most; a headline-like line has at most this many words.
LINES_ABOVE = 4
LINES_ABOVE_CHARS = 600
MAX_LINE_WORDS = 25
HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
MAX_CHARS = 200
#: Elements whose text the page does not show: ``<title>`` printing the title is no evidence.
_UNSHOWN = frozenset(("title", "script", "style", "noscript", "template"))
#: A title only ``<title>`` gives, printed nowhere on the page, yields to a heading at the story
#: with at least this many words (``<title>`` may name the site or section: "Sports Wire").
MIN_WORDS_OVER_DOC_TITLE = 4
_CJK = re.compile(r"[\u3400-\u9fff\u3040-\u30ff]")


#: Trademark signs a page prints beside a name and ``<title>`` or a declaration leaves out
#: ("Crusher® ANC 2" printed, "Crusher ANC 2" declared): the same title either way.
_MARKS = re.compile("[\u00ae\u2122\u2120]")


def _plain(text: str | None) -> str:
    """``text`` with white space normalised and trademark signs left out (``_MARKS``)."""
    return normalize_space(_MARKS.sub("", text or ""))


def _words(text: str) -> int:
    return len(text.split()) + len(_CJK.findall(text)) // 2


def near_heading(meta: Metadata, nodes: Sequence[etree._Element],
                 root: etree._Element, *, list_page: bool = False) -> str | None:
    """``meta.title``, or the heading nearest the start of the main content (the first of
    ``nodes``) when the title agrees with no ``<title>`` text, or only with ``<title>`` and is
    printed nowhere (not on a list page, whose ``<title>`` names the list)."""
    c = meta.title_candidates
    if c is None or not nodes:
        return meta.title
    if list_page:
        named = list_name(meta.title, c)
        if named is not None:
            return named
    # ``<title>`` alone (no declared title, share link or URL slug) is weak evidence.
    doc_only = title_agrees(meta.title, c)
    if doc_only and (list_page or title_declared(meta.title, c)
                     or normalize_space(meta.title) == normalize_space(c.doc_title)):
        return meta.title  # (a ``<title>`` whole is the headline more often than not)
    main = nodes[0]
    position = {el: i for i, el in enumerate(root.iter(etree.Element))}
    start = position.get(main)
    if start is None:
        return meta.title
    title = _plain(meta.title)
    near = _walk(title, nodes, position, start)
    if near.stays:
        return meta.title
    best, printed = near.best, near.printed
    if not printed and title and any(_plain(h) == title for _k, h in c.headings):
        return meta.title  # a heading the content extractor pruned: its place is unknown
    if doc_only:
        # The title ``<title>`` gives is printed nowhere: a headline at the story outvotes it,
        # a heading there, else a headline-like line just above the story (not the story's
        # own first line: a blog post may open with a question).
        if printed:
            return meta.title
        if best and _words(best) >= MIN_WORDS_OVER_DOC_TITLE:
            return best
        return _line_above(main, root, c.site_names, MIN_WORDS_OVER_DOC_TITLE) or meta.title
    headings = {_plain(h) for _k, h in c.headings}
    if best is None and title not in headings:
        # No heading at the story, and the title is no heading of the page either: the
        # headline may be a plain line just above the story (<div class="sh">, <b>, <font>).
        line = _line_above(main, root, c.site_names, MIN_WORDS)
        if line:
            return line
    return best or meta.title


_NAME_WORD = re.compile(r"[^\W\d_]{2,}")
#: The count of items a list page prints beside its name ("Fitness Equipment(102+)",
#: "Laptops (245)"): the list's size, not its name.
_ITEM_COUNT = re.compile(r"\s*\(\d[\d,.]*\+?\)$")


def list_name(title: str | None, c: TitleCandidates) -> str | None:
    """The one h1 of a list page when ``title`` is another text sharing a word with it, else
    None.

    A listing or category page prints the list's name as its h1 ("Headlamps", "Shop Mac",
    "Sparks, NV homes for sale & real estate") and words ``<title>`` and its declared titles
    for search engines ("Headlamps for Camping, Hiking & Running | REI Co-op"): the reader
    sees the h1. Several h1s are the list's cards (a coupon's, the newest post's); an h1
    sharing no word with the page's titles is a promotion, and one naming the site is its
    logo. No threshold. Measured on modern-dev's list pages (the page type decided by the
    content; page method): half a none moves (2901's "Engineering" is the site's name),
    half b +0635 +1572 +3027 +3069 -0767; no title of l3s-gn1, readability-meta or big9
    moves; list-detail's list pages (no gold title) get their category's h1 ("AI" for
    "AI News & Artificial Intelligence | TechCrunch" and for a card's headline)."""
    h1 = own_h1(c)
    h1 = _ITEM_COUNT.sub("", h1) if h1 is not None else ""
    if not h1 or not title or h1.casefold() == normalize_space(title).casefold() \
            or is_site_name(h1, c.site_names) or _cut_as_site(h1, title, c.doc_title):
        return None
    words = set(_NAME_WORD.findall(h1.casefold()))
    named = {w for t in (title, c.doc_title or "", *c.declared_titles)
             for w in _NAME_WORD.findall(t.casefold())}
    return h1 if words & named else None


def _cut_as_site(h1: str, title: str, doc_title: str | None) -> bool:
    """Whether ``h1`` is the end of ``<title>`` that the chosen ``title``, another of its
    segments, was cut from: the site's name as the logo prints it ("Board / Forum" over the
    h1 "Forum"), where no declared site name or host says so (a forum on its own host)."""
    segments = [s.casefold() for s in title_segments(doc_title)]
    if len(segments) < 2:
        return False
    h1, title = h1.casefold(), normalize_space(title).casefold()
    return h1 in (segments[0], segments[-1]) and title in segments and title != h1


@dataclass(frozen=True, slots=True)
class _Near:
    """What one walk over the page's elements found about the chosen title."""

    #: The title is printed inside the main content or at its start: it stays.
    stays: bool = False
    #: The title is printed as some element's own text (anywhere on the page).
    printed: bool = False
    #: The headline-like heading nearest the start of the main content, if any.
    best: str | None = None


def _walk(title: str, nodes: Sequence[etree._Element], position: dict[etree._Element, int],
          start: int) -> _Near:
    """Where the page prints ``title`` (already ``_plain``), and the heading at the story
    (``position``: every element's index in document order; ``start``: the content's)."""
    inside = {el for node in nodes for el in node.iter(etree.Element)}
    best, best_distance, printed = None, None, False
    for el, i in position.items():
        text = _plain(el.text) if title and el.text and el.tag not in _UNSHOWN else ""
        if text and text == title:
            printed = True
        if text and text == title and el in inside:
            # Printed inside the main content, however far from its start (a promotion line
            # may open the content): the story shows the chosen title, which stays.
            return _Near(stays=True)
        if not start - MAX_ELEMENTS_BEFORE <= i <= start + MAX_ELEMENTS_INSIDE:
            continue
        if text and text == title:  # the chosen title is printed at the story: it stays
            return _Near(stays=True)
        if el.tag not in HEADING_TAGS:
            continue
        text = normalize_space(heading_text(el))
        if not text or len(text) > MAX_CHARS or _words(text) < MIN_WORDS or (
                parse_date(text) and _words(text) <= MAX_DATE_LINE_WORDS):
            continue
        distance = abs(i - start)
        if best_distance is None or distance < best_distance:
            best, best_distance = text, distance
    return _Near(printed=printed, best=best)


def _line_above(main: etree._Element, root: etree._Element, site_names: Sequence[str],
                min_words: int) -> str | None:
    """The nearest headline-like plain line of at least ``min_words`` words just above
    ``main``."""
    body = root.find("body")
    if body is None or main is body:
        return None
    return next((line for line in lines_before(main, body, LINES_ABOVE_CHARS)[:LINES_ABOVE]
                 if _words(line) >= min_words and _headline_like(line, site_names)), None)


#: Menus ("Most Viewed | Most Discussed") and credits, labels, share links: never headlines.
_MENU = re.compile(r"\s[|·•>»›]\s|^[·•]")
_NOT_HEADLINE = re.compile(
    r"^(?:by|von|par|por|posted|published|updated|last updated|filed|written|photo|"
    r"image|source|from|home|share|email|print|comments?|related|advertisement)\b", re.IGNORECASE)


def _headline_like(line: str, site_names: Sequence[str]) -> bool:
    """A short line that is no sentence, menu, credit, dateline or site name."""
    if len(line) > MAX_CHARS or not MIN_WORDS <= _words(line) <= MAX_LINE_WORDS:
        return False
    if not re.search(r"[^\W\d_]", line) or _NOT_HEADLINE.match(line):
        return False
    if line.endswith((".", ":", ",", ";", "»", "›", ">", "|", "/")) and not line.endswith("..."):
        return False
    if _MENU.search(line) or (line[0].isalpha() and line[0].islower()):
        return False
    if parse_date(line) and _words(line) <= MAX_DATE_LINE_WORDS:
        return False
    folded = line.casefold()
    return not any(n and (n.casefold() in folded or folded in n.casefold())
                   for n in site_names if len(n) >= 3)

