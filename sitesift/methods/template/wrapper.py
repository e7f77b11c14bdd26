"""Template wrappers: new pages of a learned template read at learned places, without the page
heuristics.

A saved profile already knows each template's content container (``template.py``, step 5).
Applying it the long way runs the page extractor inside the container, hashes every subtree
there for DeleteSame, and reads title, date and author with the page-level heuristics: most
of the cost of a page. Yet on pages of one template those heuristics decide the same way page
after page: the share bar goes, the story's paragraphs stay, the date sits in the same
``<span>``. A wrapper records those decisions once, when the template is learned, and replays
them (wrapper induction, learned from the full method's own output rather than from labels):

1. *Places.* Every element has two: its *label path*, a hash of the relaxed labels (tag,
   class, id) from ``<body>`` down to it without ordinals, so the tenth paragraph of a story
   and the third share it; and its *exact path*, the same with each step's ordinal among its
   same-label siblings (``template.Step``), so the story's cell is told from the other cells
   of a table layout.
2. *Votes* (``WrapperLearner``). Before the pipeline edits a learning page its elements' places
   are noted; after the pipeline (page extractor, then DeleteSame) every child of an element
   that stayed in the main block (or lies on the way from the container down to it) votes
   for its places: *kept* when it is still there, *dropped* when it went.
3. *Decisions* (``decide``). A label path most of whose votes say dropped is dropped; an exact
   place voted otherwise overrides it: it keeps what most pages kept there, and drops what
   most dropped there unless its label path is a run of alike elements (``MAX_EXACT_PLACES``).
4. *Checking* (``learn_wrapper``). Learning pages are parsed again, untouched, and read by the
   wrapper decided without their own votes (leave one out: each page is as new to the wrapper
   as a page of a later run). A page that does not *fit* (``Wrapper.fits``: too little of its
   container kept, no sentences on a detail page, a list's worth of link text) would be given
   to the full method, as when applying. The template gets a wrapper only when its learning
   pages all have one page type, at least ``MIN_FITTING_SHARE`` of them fit, and those agree
   with the full method's text by char F1 (the scorer's measure) ``MIN_MEAN_AGREEMENT`` on
   average and ``MIN_PAGE_AGREEMENT`` each. Title, date and author come from the places
   ``fields`` learns on the same pages; a template without a place for every
   field keeps the page-level metadata extractor for them.
5. *Applying* (``Wrapper.apply``). Find the container, walk it once: drop hidden and
   non-visual elements and every element whose place is dropped (its tail stays, as the page
   extractor keeps it); then prune what is left as the page extractor prunes its main block
   (``prune.prune``: labels before and after the story, link lists, teasers), which works
   on runs of text that no element decision can reach (a byline and a copyright line inside
   the story's own cell); a template whose checked learning pages pruning left unchanged
   skips it (its decisions already drop what pruning would). A page that then does not fit
   goes to the full method on the whole page (its tree parsed again). What is left is the
   record's text.

Measured on held-out halves (learned on one half of each site's pages of big9-2005, big9-2009,
cleanportal, zh-sites and list-detail, the other half read): body char F1 with wrappers within
0.006 of the full method's on every set (big9-2005 0.979 against 0.983, cleanportal 0.940
against 0.934), at 1.1-2 times its pages/s. A page of a wrapped template with field sources
costs a parse, the template's anchors, one walk of its container and the text rendering.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from lxml import etree

from sitesift.methods.page.prune import prune
from sitesift.methods.page.types import LIST_MIN_LINK_SHARE
from sitesift.methods.template.field_learning import learn_field_sources
from sitesift.methods.template.fields import FIELDS, FieldSources
from sitesift.methods.template.paths import PathFinder, Step
from sitesift.output.render import to_text
from sitesift.parse import parse_html
from sitesift.parse.dom import (
    SKIP_TAGS,
    drop_keep_tail,
    is_hidden,
    link_density,
    punctuation_count,
    text_weight,
)
from sitesift.parse.signatures import RelaxedLabels, combine
from sitesift.similarity import char_prf, f1

__all__ = [
    "MAX_CHARS_PER_MARK",
    "MAX_CHECKED_PAGES",
    "MAX_EXACT_PLACES",
    "MIN_FITTING_SHARE",
    "MIN_KEPT_RATIO",
    "MIN_MEAN_AGREEMENT",
    "MIN_PAGE_AGREEMENT",
    "MIN_WRAPPER_PAGES",
    "Decisions",
    "LearningPage",
    "ReadTemplate",
    "Votes",
    "Wrapper",
    "WrapperLearner",
    "decide",
    "label_paths",
    "learn_wrapper",
    "place_of",
    "reading_summary",
]

#: A template gets a wrapper only when, on its checked learning pages that fit (each left out
#: of the votes), the wrapper's text agrees with the full method's by at least this char F1 on
#: average, and by at least ``MIN_PAGE_AGREEMENT`` on each page. Tuned on big9-2005,
#: big9-2009, cleanportal and zh-sites (learn on half of each site, read the other half): a
#: mean of 0.97 with a floor of 0.75 wrapped 9 of 9 big9-2005
#: templates but cost 0.012 of held-out shingle F1; 0.98 with a floor of 0.9 or of 0.8 gave
#: the same held-out figures (0.8 wraps more pages when learning on every page).
MIN_MEAN_AGREEMENT = 0.98
MIN_PAGE_AGREEMENT = 0.8
#: Learning pages a template needs for a wrapper: with leave-one-out checking, two pages leave
#: one page's votes to decide each path.
MIN_WRAPPER_PAGES = 3
#: Learning pages the check parses again and reads with the wrapper (the first ones): enough
#: to see a template's variety, bounded for templates learned from hundreds of pages.
MAX_CHECKED_PAGES = 30
#: Share of the checked pages that must fit the wrapper (``Wrapper.fits``) for it to be kept:
#: a wrapper most pages would hand back to the full method is no use.
MIN_FITTING_SHARE = 0.5
#: An exact place drops an element its label path keeps only when that path is found at at
#: most this many places over the learning pages (cells, columns, boxes). Beyond, the path is
#: a run of alike elements (paragraphs, list items) where the twentieth is a story's paragraph
#: on one page and a trailing "E-mail this story" line on a shorter one: its label path
#: decides. (An exact place always keeps what most pages kept there: the story's cell among
#: a table layout's many cells.)
MAX_EXACT_PLACES = 4
#: A page fits the wrapper only when it keeps at least this ratio of the share of their
#: container's text that the template's checked learning pages keep (median): a page whose
#: story sits elsewhere keeps its container's menus only (a big9 bbc page kept 6 % where the
#: others keep about half).
MIN_KEPT_RATIO = 0.5
#: On a detail template, a page fits only when its text has a punctuation mark in every this
#: many characters at least (stories of the dev sets: one in 20 to 60; a menu left where the
#: story should be: none).
MAX_CHARS_PER_MARK = 150


#: An element's place: (label path, exact path). The label path hashes the relaxed labels
#: (tag, class, id) from ``<body>`` down, without ordinals, so the tenth paragraph of a story
#: and the third share it; the exact path adds each step's ordinal among its same-label
#: siblings (``template.Step``), so the first of three alike cells is told from the others.
Place = tuple[int, int]


def label_paths(
    base: etree._Element, *, labels: RelaxedLabels, start: Place = (0, 0)
) -> dict[etree._Element, Place]:
    """Place of every element below ``base`` (``base`` itself has ``start``); non-visual
    elements are left out."""
    places: dict[etree._Element, Place] = {base: start}
    stack = [base]
    while stack:
        el = stack.pop()
        for child, place in _children(el, places[el], labels):
            if place is not None:
                places[child] = place
                stack.append(child)
    return places


def _children(
    el: etree._Element, place: Place, labels: RelaxedLabels,
) -> Iterator[tuple[etree._Element, Place | None]]:
    """The element children of ``el`` (at ``place``) with their places (None for non-visual
    ones: scripts, styles... have no place in the structure)."""
    loose, exact = place
    seen: dict[int, int] = {}
    known = labels.known
    for child in el:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if tag in SKIP_TAGS:
            yield child, None
            continue
        label = (known((tag, child.get("class"), child.get("id"))) or labels.get(child))[1]
        n = seen.get(label, 0)
        seen[label] = n + 1
        yield child, (combine(loose, 0, label), combine(exact, n, label))


def _length(el: etree._Element) -> int:
    """Characters of text under ``el``, white space aside."""
    return len("".join(el.text_content().split()))


def place_of(key: Sequence[Step]) -> Place:
    """Place of the element at ``key`` (steps from ``<body>``)."""
    loose = exact = 0
    for label, ordinal in key:
        loose, exact = combine(loose, 0, label), combine(exact, ordinal, label)
    return loose, exact


@dataclass(frozen=True, slots=True)
class Decisions:
    """Which elements of a container go: those whose label path most learning pages dropped,
    unless their exact path was mostly kept (``keep_at``); and those whose exact path was
    mostly dropped though their label path was mostly kept (``drop_at``)."""

    drop: frozenset[int] = frozenset()
    drop_at: frozenset[int] = frozenset()
    keep_at: frozenset[int] = frozenset()

    def drops(self, place: Place) -> bool:
        loose, exact = place
        if exact in self.keep_at:
            return False
        return exact in self.drop_at or loose in self.drop


@dataclass(frozen=True, slots=True)
class Wrapper:
    """A template's learned reading of its main text: what in its container to drop, and its
    pages' type."""

    decisions: Decisions
    #: Page type of every learning page.
    page_type: str
    #: Mean text agreement (char F1) of the checked learning pages with the full method.
    agreement: float
    #: A page keeping less of its container's text than this (``apply``) is not read alike.
    min_kept: float = 0.0
    #: Prune what is kept as the page extractor prunes its main block (``prune.prune``).
    #: False when pruning changed no checked learning page (the decisions already drop what it
    #: would): it is then skipped, a third of the cost of applying the wrapper.
    prune: bool = True

    def apply(self, container: etree._Element, key: Sequence[Step], *,
              labels: RelaxedLabels) -> float:
        """Edit ``container`` (the page's own parsed tree, at template path ``key``) down to its
        main text; returns the share of its text kept."""
        before = _length(container)
        self._edit(container, key, labels)
        return _length(container) / before if before else 0.0

    def read(self, container: etree._Element, key: Sequence[Step], *,
             labels: RelaxedLabels) -> bool:
        """``apply``, then whether what it left ``fits``: the kept text read and weighed once,
        where ``fits`` would read and weigh it again."""
        before = _length(container)
        self._edit(container, key, labels)
        text = container.text_content()
        weight = text_weight(text)
        return self._fits(container, weight / before if before else 0.0, (text, weight))

    def _edit(self, container: etree._Element, key: Sequence[Step],
              labels: RelaxedLabels) -> None:
        """``apply``'s edit: the walk that drops, then the page extractor's pruning."""
        doomed: list[etree._Element] = []
        decisions = self.decisions
        stack = [(container, place_of(key))]
        while stack:
            el, at = stack.pop()
            for child, place in _children(el, at, labels):
                if place is None or is_hidden(child) or decisions.drops(place):
                    doomed.append(child)
                else:
                    stack.append((child, place))
        for el in doomed:
            drop_keep_tail(el)
        # The full method prunes its main block at the level of text runs (a byline or a
        # copyright line among the story's own text): so do the same on what is left.
        if self.prune:
            prune(container)

    def fits(self, main: etree._Element, kept: float) -> bool:
        """Whether what ``apply`` left (``kept``: the share of the container's text) reads as
        this template's main text: some text, at least ``min_kept`` of the container's, on
        detail pages sentences, and but on list pages less link text than a list has. A page
        whose story sits elsewhere (a layout variant the anchors still recognise) keeps a menu
        or a teaser list, or little at all; such a page is given to the full method."""
        return self._fits(main, kept, None)

    def _fits(self, main: etree._Element, kept: float, read: tuple[str, int] | None) -> bool:
        """``fits``, given ``main``'s text and its ``text_weight`` when read already."""
        if kept <= 0.0 or kept < self.min_kept:
            return False
        if self.page_type == "list":
            return True
        if self.page_type == "detail":
            if read is None:
                text = main.text_content()
                read = text, text_weight(text)
            text, weight = read
            if punctuation_count(text) * MAX_CHARS_PER_MARK < weight:
                return False  # a story is sentences; a menu (Home | World | UK) is not
        return link_density(main, weight=read[1] if read else None) < LIST_MIN_LINK_SHARE

    def to_dict(self) -> dict[str, object]:
        d = self.decisions
        return {"drop": sorted(d.drop), "drop_at": sorted(d.drop_at),
                "keep_at": sorted(d.keep_at), "page_type": self.page_type,
                "agreement": self.agreement, "min_kept": self.min_kept, "prune": self.prune}

    @classmethod
    def from_dict(cls, data: object) -> Wrapper:
        """Raises ``ValueError`` for anything but what ``to_dict`` writes."""
        if not isinstance(data, dict):
            raise ValueError("wrapper: not an object")
        sets = []
        for name in ("drop", "drop_at", "keep_at"):
            hashes = data.get(name)
            if not isinstance(hashes, list) or not all(
                    isinstance(h, int) and not isinstance(h, bool) and 0 <= h < 1 << 64
                    for h in hashes):
                raise ValueError(f"wrapper: {name} is not a list of 64-bit paths")
            sets.append(frozenset(hashes))
        page_type, agreement = data.get("page_type"), data.get("agreement")
        min_kept, pruned = data.get("min_kept"), data.get("prune")
        if not isinstance(page_type, str) or not all(
                isinstance(v, int | float) and not isinstance(v, bool)
                for v in (agreement, min_kept)):
            raise ValueError("wrapper: page type, agreement or min_kept missing")
        if not isinstance(pruned, bool):
            raise ValueError("wrapper: prune is not a boolean")
        return cls(decisions=Decisions(*sets), page_type=page_type,
                   agreement=float(agreement), min_kept=float(min_kept),  # type: ignore[arg-type]
                   prune=pruned)


@dataclass(slots=True)
class Votes:
    """One learning page's votes: place -> count of elements kept there, of elements dropped."""

    kept: Counter[Place]
    dropped: Counter[Place]


class WrapperLearner:
    """Collects the votes of a site's learning pages while the pipeline extracts them:
    ``before(i, root)`` snapshots page ``i``'s label paths and parents before anything edits
    its tree, ``after(i, main)`` turns them into votes once its record is done (the snapshot is
    dropped then: a learner holds votes, a few counters a page, not trees)."""

    def __init__(self, labels: RelaxedLabels) -> None:
        self.labels = labels
        self.votes: dict[int, Votes] = {}
        self._snapshots: dict[int, tuple[dict[etree._Element, Place],
                                         dict[etree._Element, etree._Element]]] = {}

    def before(self, page: int, root: etree._Element) -> None:
        body = root.find("body")
        base = body if body is not None else root
        paths = label_paths(base, labels=self.labels)
        parents = {el: el.getparent() for el in paths if el is not base}
        self._snapshots[page] = (paths, parents)  # type: ignore[assignment]

    def after(self, page: int, main: etree._Element | None) -> None:
        """Votes of page ``page`` whose main block ends as ``main`` (None: extraction failed,
        the page casts no votes). Children of what stayed vote for their path, and so do the
        children of ``main``'s ancestors: the one on the way to ``main`` stays, the others
        went (the template's container may sit above the main block of some of its pages)."""
        snapshot = self._snapshots.pop(page, None)
        if snapshot is None or main is None:
            return
        paths, parents = snapshot
        kept = set(main.iter(etree.Element))
        kept.update(main.iterancestors())
        votes = Votes(Counter(), Counter())
        for el, parent in parents.items():
            if parent in kept:  # children of what stayed: each stayed or went by a decision
                (votes.kept if el in kept else votes.dropped)[paths[el]] += 1
        self.votes[page] = votes


def decide(votes: Sequence[Votes], *, leave_out: int | None = None) -> Decisions:
    """What most votes say of each label path, and the exact paths that most votes say
    otherwise of (``leave_out``: one page's votes not counted)."""
    kept, dropped = _tally(v for j, v in enumerate(votes) if j != leave_out)
    return _decisions(kept, dropped)


def _tally(votes: Iterable[Votes]) -> tuple[Counter[Place], Counter[Place]]:
    """The votes of several pages added up: places kept, places dropped."""
    kept: Counter[Place] = Counter()
    dropped: Counter[Place] = Counter()
    for v in votes:
        kept.update(v.kept)
        dropped.update(v.dropped)
    return kept, dropped


def _decisions(kept: Counter[Place], dropped: Counter[Place]) -> Decisions:
    """``decide`` on votes already added up."""
    loose_kept: Counter[int] = Counter()
    loose_dropped: Counter[int] = Counter()
    for (loose, _exact), n in kept.items():
        loose_kept[loose] += n
    for (loose, _exact), n in dropped.items():
        loose_dropped[loose] += n
    drop = frozenset(h for h, n in loose_dropped.items() if n > loose_kept[h])
    places: Counter[int] = Counter(loose for loose, _exact in kept.keys() | dropped.keys())
    drop_at, keep_at = set(), set()
    for place in kept.keys() | dropped.keys():
        goes = dropped[place] > kept[place]
        if goes == (place[0] in drop):
            continue
        if not goes:
            keep_at.add(place[1])  # the story's cell among the layout's alike cells
        elif places[place[0]] <= MAX_EXACT_PLACES:
            drop_at.add(place[1])  # (in a run of alike elements positions mean nothing)
    return Decisions(drop, frozenset(drop_at), frozenset(keep_at))


@dataclass(frozen=True, slots=True)
class LearningPage:
    """What learning a wrapper needs of one learning page of a template."""

    votes: Votes
    #: Path of its main block (``template.container_key``).
    key: tuple[Step, ...]
    #: The page's HTML, parsed again untouched for the check.
    html: str
    url: str | None
    #: The full method's record of the page.
    text: str | None
    page_type: str | None
    #: Its title, published and author (``methods.template.fields``).
    fields: Mapping[str, str | None]


def learn_wrapper(
    container: tuple[Step, ...], pages: Sequence[LearningPage], *, labels: RelaxedLabels,
) -> tuple[Wrapper | None, FieldSources | None]:
    """The wrapper of a template whose content container is ``container`` (None when its
    pages are not read alike, see the module docstring) and its field sources (None unless
    every field has one), from its learning pages."""
    # Checked on the first pages only: each is parsed again, and a template may have hundreds.
    checked = pages[:MAX_CHECKED_PAGES]
    finders = [PathFinder(parse_html(page.html), labels=labels) for page in checked]
    # Fields first: they read the untouched trees, which the text check edits.
    fields = learn_field_sources([(f, p.url, p.fields) for f, p in zip(finders, checked,
                                                                        strict=True)])
    wrapper = _learn_text(container, pages, finders, labels=labels)
    return wrapper, (fields if fields.complete() else None)


def _learn_text(
    container: tuple[Step, ...], pages: Sequence[LearningPage], finders: Sequence[PathFinder],
    *, labels: RelaxedLabels,
) -> Wrapper | None:
    """The text part of ``learn_wrapper``: decisions, checked on the pages of ``finders`` (the
    first of ``pages``, parsed again)."""
    if len(pages) < MIN_WRAPPER_PAGES:
        return None
    if any(p.key[:len(container)] != container for p in pages):
        return None  # (the container is the common start of these paths)
    types = {p.page_type for p in pages}
    if len(types) != 1 or None in types:
        return None
    (page_type,) = types
    # Added up once; each checked page's own votes are taken out of the sums (leave one out).
    kept_votes, dropped_votes = _tally(p.votes for p in pages)
    readings = []
    pruned = False  # whether pruning changed any page: else the wrapper skips it
    for page, finder in zip(pages, finders, strict=False):
        el = finder.find(container)
        if el is None:
            return None
        decisions = _decisions(kept_votes - page.votes.kept, dropped_votes - page.votes.dropped)
        wrapper = Wrapper(decisions, page_type=page_type, agreement=0.0, prune=False)
        before = _length(el)
        unpruned = wrapper.apply(el, container, labels=labels)
        prune(el)
        kept = _length(el) / before if before else 0.0
        pruned = pruned or kept != unpruned
        readings.append((el, replace(wrapper, prune=True), kept))
    min_kept = MIN_KEPT_RATIO * statistics.median(kept for _el, _w, kept in readings)
    scores = []
    for page, (el, wrapper, kept) in zip(pages, readings, strict=False):
        if not replace(wrapper, min_kept=min_kept).fits(el, kept):
            continue  # such a page is given to the full method when applying too
        scores.append(f1(*char_prf(page.text or "", to_text([el]))))
        if scores[-1] < MIN_PAGE_AGREEMENT:
            return None
    if len(scores) < MIN_FITTING_SHARE * len(readings):
        return None
    mean = sum(scores) / len(scores)
    if mean < MIN_MEAN_AGREEMENT:
        return None
    return Wrapper(_decisions(kept_votes, dropped_votes), page_type=page_type,
                   agreement=round(mean, 4),
                   min_kept=round(min_kept, 4), prune=pruned)


class ReadTemplate(Protocol):
    """What ``reading_summary`` reads of a template (a ``template.TemplateModel``, which
    holds a wrapper: typed here by its parts, so that this module need not import that one)."""

    @property
    def wrapper(self) -> Wrapper | None: ...

    @property
    def fields(self) -> FieldSources | None: ...


def reading_summary(model: ReadTemplate) -> dict[str, object]:
    """What a saved template reads without the page heuristics, for people (``sitesift
    profiles show``, the service's profile view): its wrapper and the kind of each field's
    source."""
    wrapper = model.wrapper
    return {
        "wrapper": None if wrapper is None else {
            "page_type": wrapper.page_type, "agreement": wrapper.agreement,
            "dropped_paths": len(wrapper.decisions.drop) + len(wrapper.decisions.drop_at),
            "prunes": wrapper.prune,
        },
        # A field without a source is found from the headline's place ("anchor") when the
        # template learned it.
        "fields": None if model.fields is None else {
            name: source.kind if (source := getattr(model.fields, name)) is not None
            else "anchor" for name in FIELDS
        },
    }
