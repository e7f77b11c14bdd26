"""Linked records: the cue that tells a list page from an article even when the list's
summaries add up to an article's worth of prose.

A list page is many same-shaped records linking to same-shaped URLs: every card or row links
its own headline to another page of one kind (``/products/...``, ``/2024/05/...``). An
article's repeated parts do not: a how-to's steps and a listicle's entries hold long prose and
link, if at all, to pages of every kind; comments link their posters' short names. So the
records of ``sitesift.methods.page.records`` count here when most of them link a headline
(``HEADLINE_MIN_WEIGHT``) to distinct URLs of one shape, and their summaries are teasers,
short (``TEASER_MAX_PROSE`` of prose a record on average).

A page of whole posts (a blog's home page, its archives) is a list too, though every record
holds an article's worth of prose: ``whole_posts`` tells it by its linked, dated titles.

Feeds: news briefs grouped under date labels are a list whatever their links' shapes (a feed
aggregates sources); a box of timed news flashes that holds less than half its page is no
article (``feed_box``); teasers cut short with an ellipsis are a list's even when a script,
not an ``<a>``, links them (``truncated_teasers_share``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from urllib.parse import urlsplit

from lxml import etree

from sitesift.methods.page.records import (
    RECORD_MAX_PROSE,
    RecordRun,
    RecordRuns,
    TextUnit,
    chain_children,
    class_words,
    heaviest_run,
)
from sitesift.methods.page.thread import TIMED_MIN_SHARE
from sitesift.methods.page.units import weighted_length
from sitesift.parse.dom import normalize_space, text_content

__all__ = [
    "HEADLINE_MIN_WEIGHT", "LINKED_MIN_SHARE", "TEASER_MAX_PROSE", "feed_box",
    "linked_list_share", "owners", "priced_grid", "truncated_teasers_share",
]

#: A headline link holds at least this many weighted characters (CJK three times): a title,
#: not "More" or a poster's name.
HEADLINE_MIN_WEIGHT = 15
#: Most records link a headline: at least this share of them...
LINKED_MIN_SHARE = 0.5
#: ...to distinct URLs, this share of which have one shape (segment count and first segment).
SAME_SHAPE_MIN_SHARE = 0.5
#: A list's records need at least this many linked ones.
LINKED_MIN_RECORDS = 4
#: Teasers: at most this much prose a record on average (weighted characters). The page
#: extractor's listicle rule draws the same line (a repeated item with more than 300 prose
#: characters is an entry, not a teaser); modern-dev half a: lists' teasers 30-130, a listicle
#: of moving companies about 990.
TEASER_MAX_PROSE = 300
#: ...and no one record holds more than this share of their prose: teasers spread it, while
#: a story shown in a row among its site's other headlines holds nearly all of it (l3s-gn1).
TEASER_MAX_ONE_SHARE = 0.5
#: A teaser's summary may run over this many prose units (paragraphs) when the records link
#: their headlines (a podcast's episodes: two short paragraphs each): the average prose per
#: record (``TEASER_MAX_PROSE``) still tells teasers from an article's sections.
TEASER_MAX_UNITS = 3

#: Records showing a price on this share of them are products on offer.
PRICED_MIN_SHARE = 0.6
#: A run of linked teasers holding this share of the page's text is its content wherever the
#: container chosen lies (a catalogue of programmes under a paragraph of introduction). All
#: sets, every page with such a run outside the container chosen: lists 0.74 (a city's table
#: of services) and 0.90 (a catalogue of certificates), then 0.52 (a scholar's papers) and
#: 0.29; articles at most 0.66 (aibase's four stories beside their headline grid 0.50-0.66,
#: yahoo's story beside its news list 0.66, sina 0.60): 0.7 lies between.
LINKED_ALONE_MIN_SHARE = 0.7
#: A shop's grid: at least this many sibling cards of one tag and class, each showing a price
#: and linking a distinct page, ...
GRID_MIN_CARDS = 20
#: ...that make up this share of their parent's children (a grid is all cards; an article
#: reviewing priced products puts headings and paragraphs between them). All sets, the most
#: priced linked cards of one kind under a parent: shop category pages 25-159 (cards 0.93-1.0
#: of their parent's children); articles 28 (a tools review, 0.22 of its children: lists of
#: prices between paragraphs), 19, 14 and fewer; product pages' carousels 15 and fewer.
GRID_MIN_SHARE = 0.8

#: A feed box: at least this share of the container chosen is one record run...
FEED_MIN_RUN_SHARE = 0.8
#: ...whose records lead with a time label on this share of them (a feed's entries are each
#: timed, as a thread's posts are: ``thread.TIMED_MIN_SHARE``; an article's sections are not)...
FEED_TIMED_SHARE = TIMED_MIN_SHARE
#: ...and the container holds less than this share of the page's text: a live blog, an
#: article of timed entries, is its page's text; a front page's feed of news flashes is one
#: box among its link lists. All sets, pages whose container chosen is such a run: the two
#: copies of finance.ifeng's front page 0.28 (gold list); no other page has a timed run
#: there.
FEED_MAX_PAGE_SHARE = 0.5
#: A time label: an element whose whole text is a clock time or a date and time
#: ("08:20:00", "04-23 07:37", "2025-04-23 08:20").
_TIME_LABEL = re.compile(
    r"(?:\d{2,4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?\s*|\d{1,2}[-/.月]\d{1,2}日?\s*)?"
    r"\d{1,2}:\d{2}(?::\d{2})?")
#: A time label holds at most this many characters.
TIME_LABEL_MAX_CHARS = 20

#: A dated feed: its records are grouped under at least this many date labels (siblings of
#: the records whose whole text is a date: a day's heading in a digest of news briefs)...
FEED_MIN_DATE_LABELS = 2
#: ...and its records hold at most this much prose each on average (weighted characters):
#: briefs of one to three sentences (list-detail's digest of 535 briefs: 337), not an
#: article's sections. A feed aggregates sources of every URL shape, so the shape test of
#: ``_is_linked_list`` is left out for it.
FEED_MAX_PROSE = 2 * TEASER_MAX_PROSE
#: A date label holds at most this many characters ("4月22日·周二", "Tuesday, April 22").
DATE_LABEL_MAX_CHARS = 30
_DATE_LABEL = re.compile(
    r"\d{1,4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}|\d{1,2}\s*月\s*\d{1,2}\s*日|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|"
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
    re.IGNORECASE)

#: Truncated teasers: at least this share of a run's records hold a summary cut short
#: with an ellipsis, a summary that goes on on the item's own page (a site that links its
#: cards by script shows no headline links: the cut is the evidence left)...
TRUNCATED_MIN_SHARE = 0.6
#: ...and the run holds at least this share of the page's text. All sets, the heaviest run
#: per page with 0.6 of its records cut: lists 0.60 (list-detail's jiqizhixin, half b),
#: 0.74 (a search result page, b), 0.80 (modern-dev, 0.58 cut); pages of other types at
#: most 0.40 (a scrapinghub story's box of related teasers), 0.30 (l3s-gn1); dates-dev's
#: 0.80 has 0.43 of its records cut. 0.5 lies between.
TRUNCATED_MIN_PAGE_SHARE = 0.5
#: ...a summary, not a "Read more..." label: this many weighted characters (the page
#: extractor's least prose length; its teaser marks make summaries no prose, so prose is
#: not asked).
TRUNCATED_MIN_WEIGHT = 60
#: A summary cut short ends with one of these.
_ELLIPSIS = re.compile(r"(?:\.\.\.|…+|。。。)\s*$")

#: A price: a currency sign before a number, or a currency after it.
_PRICE = re.compile(r"[$€£¥₹]\s?\d|\d[\d,.]*\s?(?:€|USD|EUR|GBP|元)")


def _shape(href: str) -> tuple[int, str] | None:
    """The kind of page a URL names: its number of path segments and its first segment."""
    try:
        path = urlsplit(href).path
    except ValueError:
        return None
    segments = [s for s in path.split("/") if s]
    return len(segments), segments[0] if len(segments) > 1 else ""


def _headline_href(record: etree._Element) -> str | None:
    """The URL of the record's headline link, if it has one."""
    best: tuple[int, str] | None = None
    for a in record.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        text = text_content(a)
        weight = weighted_length(text)
        if weight >= HEADLINE_MIN_WEIGHT and (best is None or weight > best[0]):
            best = (weight, href)
    return best[1] if best else None


def owners(blocks: Sequence[etree._Element]) -> dict[etree._Element, int]:
    """Each element inside one of ``blocks`` mapped to that block's index."""
    return {el: k for k, block in enumerate(blocks) for el in block.iter(etree.Element)}


def _is_label(text: str, matches: Callable[[str], object], max_chars: int) -> bool:
    """Whether ``text`` is a short label (a date, a time) of nothing but what ``matches``."""
    return bool(text) and len(text) <= max_chars and bool(matches(text))


def _dated(run: RecordRun) -> bool:
    """Whether the run's records are grouped under date labels (``FEED_MIN_DATE_LABELS``
    siblings that are a date and nothing else): a feed of the days' items."""
    records = set(run.records)
    labels = 0
    for child in chain_children(run.parent):
        if child in records or not isinstance(child.tag, str):
            continue
        if _is_label(normalize_space("".join(child.itertext())), _DATE_LABEL.search,
                     DATE_LABEL_MAX_CHARS):
            labels += 1
    return labels >= FEED_MIN_DATE_LABELS


def _is_linked_list(run: RecordRun, units: Sequence[TextUnit]) -> bool:
    records = run.records
    hrefs = [h for r in records if (h := _headline_href(r)) is not None]
    if len(hrefs) < max(LINKED_MIN_RECORDS, LINKED_MIN_SHARE * len(records)):
        return False
    if len(set(hrefs)) < LINKED_MIN_SHARE * len(records):
        return False
    dated = _dated(run)
    shapes = Counter(_shape(h) for h in hrefs)
    if not dated and shapes.most_common(1)[0][1] < SAME_SHAPE_MIN_SHARE * len(records):
        return False
    owner = owners(records)
    prose = [0] * len(records)
    for u in units:
        if u.is_prose() and (k := owner.get(u.block)) is not None:
            prose[k] += u.weight
    total = sum(prose)
    if not total:
        return True
    most = FEED_MAX_PROSE if dated else TEASER_MAX_PROSE
    return total <= most * len(records) and max(prose) <= TEASER_MAX_ONE_SHARE * total


def _related(a: etree._Element, b: etree._Element) -> bool:
    """Whether one of the two elements holds the other (or they are one)."""
    return a is b or any(x is b for x in a.iterancestors()) or \
        any(x is a for x in b.iterancestors())


def _priced(run: RecordRun) -> bool:
    """Whether most records show a price: products on offer, a shop's list, even beside a
    block of prose (a category's description, its FAQ)."""
    priced = sum(bool(_PRICE.search(" ".join(r.itertext()))) for r in run.records)
    return priced >= PRICED_MIN_SHARE * len(run.records)


def linked_list_share(scopes: Iterable[etree._Element], units: Sequence[TextUnit],
                      main: etree._Element, *, runs: RecordRuns | None = None) -> float:
    """The largest share of a scope's text held by its heaviest record run when that run is
    a list's (linked teasers, see the module docstring) and is the page's content: it holds
    the container chosen or lies in it (a box of related headlines beside a short story is
    not, unless its records show prices); 0 without one. ``runs``: the record runs of
    ``units`` under a root holding the scopes, when the caller has them."""
    best = 0.0
    found = [run for scope in scopes for prose in (RECORD_MAX_PROSE, TEASER_MAX_UNITS)
             if (run := _heaviest(scope, units, prose, runs)) is not None]
    for run in found:
        if run.share > best and (
                _related(run.parent, main) or _priced(run)
                or run.share >= LINKED_ALONE_MIN_SHARE) and _is_linked_list(run, units):
            best = run.share
    return best


def _heaviest(scope: etree._Element, units: Sequence[TextUnit], max_prose: int,
              runs: RecordRuns | None) -> RecordRun | None:
    """The heaviest record run under ``scope``, from ``runs`` when given."""
    if runs is not None:
        return runs.heaviest(scope, max_prose=max_prose)
    return heaviest_run(scope, units, max_prose=max_prose)


def _leads_with_time(record: etree._Element) -> bool:
    """Whether one of the record's first two child elements (or the record itself, in its
    own text before them) is a time label and nothing else."""
    heads = [(record.text or "").strip()]
    heads += [normalize_space("".join(c.itertext()))
              for c in [c for c in record if isinstance(c.tag, str)][:2]]
    return any(_is_label(head, _TIME_LABEL.fullmatch, TIME_LABEL_MAX_CHARS) for head in heads)


def feed_box(body: etree._Element, units: Sequence[TextUnit], main: etree._Element, *,
             runs: RecordRuns | None = None) -> bool:
    """Whether the container chosen is a box of timed feed entries (news flashes, each led
    by its time) among a page's other content rather than the page's article: a record run
    of ``FEED_MIN_RUN_SHARE`` of it, ``FEED_TIMED_SHARE`` of its records led by a time
    label, the container holding less than ``FEED_MAX_PAGE_SHARE`` of the page's text.
    Its prose is then no article's: the page is typed by what else it holds. ``runs``: as
    for ``linked_list_share``."""
    if main is body:
        return False
    run = _heaviest(main, units, TEASER_MAX_UNITS, runs)
    if run is None or run.share < FEED_MIN_RUN_SHARE:
        return False
    timed = sum(_leads_with_time(r) for r in run.records)
    if timed < FEED_TIMED_SHARE * len(run.records):
        return False
    inside = set(main.iter(etree.Element))
    total = sum(u.weight for u in units)
    held = sum(u.weight for u in units if u.block in inside)
    return bool(total) and held < FEED_MAX_PAGE_SHARE * total


def truncated_teasers_share(body: etree._Element, units: Sequence[TextUnit], *,
                            runs: RecordRuns | None = None) -> float:
    """The share of the page's text held by its heaviest record run when most of its
    records' summaries are cut short (``TRUNCATED_MIN_SHARE``); 0 otherwise. An article's
    sections end their paragraphs; a list's teasers are cut where the item's page goes on.
    ``runs``: as for ``linked_list_share``."""
    run = _heaviest(body, units, TEASER_MAX_UNITS, runs)
    if run is None:
        return 0.0
    owner = owners(run.records)
    cut: set[int] = set()
    for u in units:
        k = owner.get(u.block)
        if k is not None and k not in cut and u.weight >= TRUNCATED_MIN_WEIGHT and \
                _ELLIPSIS.search("".join(u.block.itertext())):
            cut.add(k)
    return run.share if len(cut) >= TRUNCATED_MIN_SHARE * len(run.records) else 0.0


def priced_grid(body: etree._Element) -> int:
    """The number of cards in the page's largest shop grid (0 without one): sibling elements
    of one tag and class, ``GRID_MIN_SHARE`` of their parent's children, each showing a price
    and linking a page of its own. Read on the cleaned page before hinted containers go (a
    grid may sit in a "pagination" or "filter" wrapper) and whatever else the page holds
    (category descriptions, FAQ and SEO text may outweigh the cards)."""
    best = 0
    for parent in body.iter(etree.Element):
        if len(parent) < GRID_MIN_CARDS:  # (children and comments: most elements have few)
            continue
        children = [c for c in parent if isinstance(c.tag, str)]
        if len(children) < GRID_MIN_CARDS:
            continue
        kinds = Counter((c.tag, class_words(c)) for c in children)
        kind, size = kinds.most_common(1)[0]
        if size < max(GRID_MIN_CARDS, GRID_MIN_SHARE * len(children)):
            continue
        targets = set()
        for card in children:
            if (card.tag, class_words(card)) != kind or \
                    not _PRICE.search(" ".join(card.itertext())):
                continue
            href = next((h for a in card.iter("a") if (h := (a.get("href") or "").strip())
                         and not h.startswith(("#", "javascript:"))), None)
            if href is not None:
                targets.add(href)
        if len(targets) >= GRID_MIN_CARDS:
            best = max(best, len(targets))
    return best
