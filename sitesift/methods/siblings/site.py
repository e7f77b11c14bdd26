"""Step 6 of paper 004: decisions over a site. ``SiblingSite`` indexes the node strings of a
site's pages once and judges each block of a page against its same-layer pages (``Verdict``:
in how many it matched, how well); a changing link list whose structure recurs is noise too."""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from lxml import etree

from sitesift.methods.siblings.layer import _directories, same_layer
from sitesift.methods.siblings.match import (
    MAX_SLIDE,
    TAG_SIMILARITY,
    TEXT_SIMILARITY,
    Match,
    match_subtree,
)
from sitesift.methods.siblings.strings import NodeString, _Subtree, _subtree
from sitesift.parse.signatures import RelaxedLabels
from sitesift.segment.blocks import Block
from sitesift.segment.layout import BLOCK_ELEMENT_TAGS

__all__ = ["SiblingSite", "Verdict"]

#: A block is noise when it matches in this share of its siblings (at least one). One page is
#: the paper's evidence; a share keeps a block shared by chance with one page of many
#: (the same story under two URLs) from counting.
MIN_MATCH_SHARE = 0.2
#: ... and never needs more than this many matching pages: five agreeing pages are evidence
#: enough, and a page with 100 siblings is not compared with all of them for every block.
MAX_NEEDED_MATCHES = 5
#: A container may go as a whole while at most this many characters of it are unmatched.
CONTAINER_MAX_UNMATCHED = 40
#: Changing link lists: link density and number of siblings with the same structure.
VARYING_MIN_LINK_DENSITY = 0.6
VARYING_MIN_PAGES = 2
#: Candidate roots tried per sibling page (the index makes more than a few rare).
MAX_CANDIDATES = 16

#: A candidate is matched only when it holds enough of T's heaviest texts, this many of them
#: (``_misses_text``: a bound, each text one look-up; more find few more misses).
TEXT_BOUND_TEXTS = 8


class _Content:
    """T's content as ``_probe``'s key: equal when what the search and the match read of T
    is (see there), compared slice by slice in the strings themselves, so that the key of a
    block holds no copy of its nodes (a tuple key a block held 10 MB more for 150 pages)."""

    __slots__ = ("container", "hash", "string", "sub")

    def __init__(self, string: NodeString, sub: _Subtree, container: bool) -> None:
        self.string, self.sub, self.container = string, sub, container
        start, stop, base = sub.start, sub.stop, sub.base
        # (the hash of the size, base and texts alone: equal contents hash equal, and the
        # tags and depths are compared on a hit)
        self.hash = hash((stop - start, string.tags[base], string.depths[base],
                          tuple(string.texts[start:stop])))

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Content):
            return NotImplemented
        a, b, x, y = self.sub, other.sub, self.string, other.string
        if (a.rooted != b.rooted or self.container != other.container
                or a.stop - a.start != b.stop - b.start
                or x.tags[a.base] != y.tags[b.base] or x.depths[a.base] != y.depths[b.base]):
            return False
        return (x.texts[a.start:a.stop] == y.texts[b.start:b.stop]
                and x.tags[a.start:a.stop] == y.tags[b.start:b.stop]
                and x.depths[a.start:a.stop] == y.depths[b.start:b.stop])


#: ``_Probe.found``'s mark of a page not matched yet (None: matched, no root fits).
_UNSEEN = object()


@dataclass(slots=True)
class _Probe:
    """What ``SiblingSite._same`` reads of one content of T: its anchor texts (hash, levels
    below the base), its heaviest texts (hash, weight) for the text bound, the pages holding
    an anchor in the order the search takes them, and the match found in each page searched
    (None: none)."""

    anchors: list[tuple[int, int]]
    heavy: tuple[int, ...]
    pages: list[int]
    found: dict[int, Match | None] = field(default_factory=dict)


# -- 6. decisions over a site ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why a block is noise: in how many of how many same-layer pages it matched (search stops
    at enough), how well (the best match seen)."""

    kind: str  # "same" (paper 004) or "varying" (a changing link list)
    pages: int
    siblings: int
    tag_similarity: float
    text_similarity: float

    @property
    def reason(self) -> str:
        if self.kind == "varying":
            return (f"link list with the same structure in {self.pages} of {self.siblings} "
                    f"same-layer pages (tag similarity {self.tag_similarity:.2f})")
        return (f"matches {self.pages} of {self.siblings} same-layer pages, as many as needed "
                f"(tag similarity {self.tag_similarity:.2f}, text similarity "
                f"{self.text_similarity:.2f})")


class SiblingSite:
    """The node strings of one site's pages, indexed, to judge the blocks of each page against
    its same-layer pages. Build it before any page's tree is edited (the strings refer to the
    pages' elements)."""

    def __init__(
        self,
        roots: Sequence[etree._Element | None],
        urls: Sequence[str | None],
        *,
        tag_similarity: float = TAG_SIMILARITY,
        text_similarity: float = TEXT_SIMILARITY,
        max_slide: int = MAX_SLIDE,
    ) -> None:
        """``roots[k]`` None: page k failed; it is nobody's sibling."""
        self.alpha, self.beta, self.max_slide = tag_similarity, text_similarity, max_slide
        self.urls = list(urls)
        self._directories = [_directories(u) for u in self.urls]
        labels, codes = RelaxedLabels(), dict[str, tuple[int, int]]()  # (for this site only)
        # Labels are read for one thing: a changing link list (``_varying``) is a leaf element
        # block, and its candidates are the elements of its label. A leaf element block is
        # the page's top or one of ``segment_blocks``' block children, each of
        # ``BLOCK_ELEMENT_TAGS`` when it is a leaf (holding such a block, it is divided): so
        # only elements of those tags, or of a page's top's, need their label.
        labelled = BLOCK_ELEMENT_TAGS.union(NodeString.start(r).tag for r in roots if r is not None)
        self.strings = [NodeString.of(r, labels, codes, labelled) if r is not None else None
                        for r in roots]
        # Pages with the same texts in the same order are copies (one story under two URLs):
        # a copy is no sibling, or the whole story would "recur" and go.
        self.copies = [hash(tuple(s.texts)) if s is not None else None for s in self.strings]
        #: text hash -> the pages holding it, each once, in page order (where in a page:
        #: ``NodeString.at_text``); read, never changed, once made here. One entry a page,
        #: not one a node: the index of every node of the site was a tenth of the step.
        self.text_pages: dict[int, list[int]] = defaultdict(list)
        for k, string in enumerate(self.strings):
            if string is not None:
                for h in string.at_text:
                    self.text_pages[h].append(k)
        #: label hash -> (page, its first ``MAX_CANDIDATES`` positions of that label) in page
        #: order, filled on first use: a page's blocks share few labels.
        self._label_roots: dict[int, list[tuple[int, list[int]]]] = {}
        #: A changing link list's shape (base label, tags and depths: ``_shape``) -> page ->
        #: Tag_similarity of the first of that page's candidates it matches (None: none),
        #: filled on first use. What ``_varying`` reads of a page is a function of these
        #: alone, and a site's link lists come in few shapes (77,105 matches of 1,476
        #: distinct shape and page pairs on the 251 pages of big9-2005, big9-2009 and
        #: cleanportal), so each pair is matched once for all of the site's blocks.
        self._shapes: dict[tuple[int, tuple[str, ...], tuple[int, ...]], int] = {}
        self._varying_pages: list[dict[int, float | None]] = []
        #: T's content (``_probe``'s key) -> what ``_same`` reads of it and its matches by
        #: page, filled as blocks are judged.
        self._probes: dict[_Content, _Probe] = {}

    def siblings(self, target: int) -> list[int]:
        live = [k for k, s in enumerate(self.strings) if s is not None]
        if target not in live:
            return []
        layer = same_layer([self.urls[k] for k in live], live.index(target),
                           directories=[self._directories[k] for k in live])
        return [live[k] for k in layer if self.copies[live[k]] != self.copies[target]]

    def judge(self, target: int, top: Block) -> dict[int, Verdict]:
        """Noise blocks of page ``target`` (whose block tree is ``top``), keyed by
        ``id(block)``: the topmost noise blocks; their descendants are noise with them."""
        t = self.strings[target]
        siblings = self.siblings(target)
        if t is None or not siblings:
            return {}
        need = max(1, min(MAX_NEEDED_MATCHES, math.ceil(MIN_MATCH_SHARE * len(siblings))))
        allowed = set(siblings)
        unique = self._unique_before(t, allowed)
        verdicts: dict[int, Verdict] = {}
        stack = [top]
        while stack:
            block = stack.pop()
            sub = _subtree(block)
            verdict = None if sub is None else self._same(t, sub, block, allowed, need, unique)
            if verdict is None and sub is not None and not block.children:
                verdict = self._varying(t, sub, block, allowed)
            if verdict is not None:
                verdicts[id(block)] = verdict
            else:
                stack.extend(block.children)
        return verdicts

    def _unique_before(self, t: NodeString, allowed: set[int]) -> list[int]:
        """The text weight before each position of ``t`` of the texts no page of
        ``allowed`` holds (running sums, as ``NodeString.text_weight``): such a text can never
        match, and each block's share of it is then two look-ups."""
        weights = t.weights
        lonely = [0] * len(weights)
        for h, places in t.at_text.items():
            pages = self.text_pages[h]  # (one page alone is t's, which is not allowed)
            if len(pages) == 1 or allowed.isdisjoint(pages):
                for p in places:
                    lonely[p] = weights[p]
        return [0, *itertools.accumulate(lonely)]

    def _anchors(self, t: NodeString, sub: _Subtree, heaviest: list[int]) -> list[tuple[int, int]]:
        """T's anchor texts (see module doc): each as its text hash and how many levels its
        node lies below T's base. ``heaviest``: T's text nodes, heaviest first."""
        weights = t.weights
        most = (1 - self.beta) * t.text_weight(sub.start, sub.stop)
        anchors, covered = [], 0
        for p in heaviest:
            anchors.append(p)
            covered += weights[p]
            if covered > most:
                break
        t_base = t.depths[sub.base]
        return [(t.texts[p], t.depths[p] - t_base) for p in anchors]

    def _misses_text(self, k: int, root: int, end: int, heavy: tuple[int, ...],
                     slack: float) -> bool:
        """Whether the subtree of page ``k`` from ``root`` to ``end`` lacks more of T's text
        than T may leave unmatched, by T's ``heavy`` texts (hash, weight) alone: a text of T
        pairs only with a node of the same text inside the candidate, so one it lacks is
        unmatched (a bound: the match itself then fails on TextMatch or on the slack; the
        half character keeps float rounding of its test on the safe side)."""
        at_text, missing = self.strings[k].at_text, 0  # type: ignore[union-attr]
        pairs = iter(heavy)
        for h, weight in zip(pairs, pairs, strict=True):
            places = at_text.get(h, ())
            n = bisect_left(places, root)
            if n == len(places) or places[n] >= end:
                missing += weight
                if missing > slack + 0.5:
                    return True
        return False

    def _candidate_pages(self, anchors: list[tuple[int, int]]) -> list[int]:
        """The pages holding an anchor text, in the order the anchors find them (first finds
        first; ``_same`` keeps the allowed ones in this order). One anchor's are its text's
        list itself (each page once, complete once the site is indexed): no copy kept."""
        pages = self.text_pages
        if len(anchors) == 1:
            return pages.get(anchors[0][0], [])
        return list(dict.fromkeys(
            itertools.chain.from_iterable(pages.get(h, ()) for h, _ in anchors)))

    def _roots(self, k: int, anchors: list[tuple[int, int]], root_tag: str) -> Iterator[int]:
        """Candidate roots in page ``k`` (the first ``MAX_CANDIDATES``): ancestors, as many
        levels up as in T, of the anchor texts' nodes there, with T's root tag. Computed for a
        page only when the search reaches it: on a site of many pages, finding every page's
        roots for every block was quadratic in the site's size; and one by one, as the search
        takes them: it stops at the first that matches, most often the first."""
        s = self.strings[k]
        assert s is not None
        parents, tags, at_text = s.parents, s.tags, s.at_text
        roots: set[int] = set()
        for h, up in anchors:
            for root in at_text.get(h, ()):
                for _ in range(up):  # (NodeString.ancestor, inlined: the hot loop)
                    root = parents[root]
                    if root < 0:
                        break
                if root >= 0 and tags[root] == root_tag and root not in roots:
                    yield root
                    roots.add(root)
                    if len(roots) == MAX_CANDIDATES:
                        return

    def _same(
        self, t: NodeString, sub: _Subtree, block: Block, allowed: set[int], need: int,
        unique: list[int],
    ) -> Verdict | None:
        """The paper's test: matches (alpha, beta) in ``need`` siblings (searching stops
        there). A container must leave at most ``CONTAINER_MAX_UNMATCHED`` characters
        unmatched; text found in no sibling at all can never match (``unique``: its running
        sums, ``_unique_before``), so a block with more of it than it may leave unmatched is
        not searched."""
        total = t.text_weight(sub.start, sub.stop)
        slack = (1 - self.beta) * total
        if block.children:
            slack = min(slack, CONTAINER_MAX_UNMATCHED)
        if unique[sub.stop] - unique[sub.start] > slack:
            return None
        probe = self._probe(t, sub, bool(block.children))
        found = probe.found
        candidates = list(filter(allowed.__contains__, probe.pages))
        pages, best_tag, best_text = 0, 0.0, 0.0
        left = len(candidates)
        for k in candidates:
            if pages + left < need:  # too few pages left to reach ``need``
                return None
            left -= 1
            m = found.get(k, _UNSEEN)
            if m is _UNSEEN:
                m = found[k] = self._match_in(t, sub, probe, k, total, slack)
            if m is None:
                continue
            pages += 1
            best_tag, best_text = max(best_tag, m.tag_similarity), max(
                best_text, m.text_similarity)
            if pages >= need:
                return Verdict("same", pages, len(allowed), best_tag, best_text)
        return None

    def _probe(self, t: NodeString, sub: _Subtree, container: bool) -> _Probe:
        """What ``_same`` reads of T, and its matches so far by sibling page, for T's
        content: every block of that content on any page of the site shares them.

        The key is all that the search and the match read of T: whether T is rooted and a
        container (the slack), its base's tag and depth (the candidates' root tag; depths
        relative to it), and its nodes' tags, depths and text hashes (a text's weight is its
        hash's: both are of the same folded text). Which pages are candidates, their roots
        (by the anchor texts), the text bound and each match are functions of these and of
        the candidate's page alone; the target page enters only through ``allowed`` and
        ``need``, which ``_same`` applies to the pages in their order. So a menu or footer
        that every page of a site shows is matched once against each sibling page, not once
        per page that shows it (58 % of the (block, page) matches on the 251 distinct pages
        of big9-2005, big9-2009 and cleanportal repeated one before)."""
        key = _Content(t, sub, container)
        probe = self._probes.get(key)
        if probe is None:
            heaviest = t.text_nodes(sub.start, sub.stop)
            heaviest.sort(key=t.weights.__getitem__, reverse=True)  # (stable: ties in order)
            anchors = self._anchors(t, sub, heaviest)
            heavy = tuple(itertools.chain.from_iterable(
                (t.texts[p], t.weights[p]) for p in heaviest[:TEXT_BOUND_TEXTS]))
            probe = self._probes[key] = _Probe(anchors, heavy, self._candidate_pages(anchors))
        return probe

    def _match_in(self, t: NodeString, sub: _Subtree, probe: _Probe, k: int, total: int,
                  slack: float) -> Match | None:
        """The match of T in page ``k``: of the first of its candidate roots that T matches
        (alpha, beta, and at most ``slack`` characters unmatched), None when none does."""
        # A candidate subtree with fewer nodes than ``alpha`` of T's cannot reach ``alpha``
        # (Tag_similarity pairs each node of either string at most once): not matched.
        size, inside = sub.stop - sub.start, 0 if sub.rooted else 1
        s = self.strings[k]
        ends = s.ends  # type: ignore[union-attr]
        for root in self._roots(k, probe.anchors, t.tags[sub.base]):
            if (ends[root] - root - inside) / size < self.alpha:
                continue
            if self._misses_text(k, root, ends[root], probe.heavy, slack):
                continue
            m = match_subtree(t, sub, s, root, max_slide=self.max_slide,  # type: ignore[arg-type]
                              min_tag=self.alpha)
            if m is None or m.tag_similarity < self.alpha or m.text_similarity < self.beta:
                continue
            if (1 - m.text_similarity) * total > slack + 1e-9:
                continue
            return m
        return None

    def _varying(
        self, t: NodeString, sub: _Subtree, block: Block, allowed: set[int]
    ) -> Verdict | None:
        """A link list whose structure recurs in ``VARYING_MIN_PAGES`` siblings."""
        if not sub.rooted or block.link_density < VARYING_MIN_LINK_DENSITY:
            return None
        need = min(VARYING_MIN_PAGES, len(allowed))
        if need < VARYING_MIN_PAGES:
            return None
        label = t.labels[sub.base]
        shape = self._shape(t, sub)
        pages, best = 0, 0.0
        for k, roots in self._roots_by_label(label):
            if k not in allowed:
                continue
            if k in shape:
                tag = shape[k]
            else:
                tag = shape[k] = self._first_varying(t, sub, k, roots)
            if tag is not None:
                pages += 1
                best = max(best, tag)
            if pages >= need:
                return Verdict("varying", pages, len(allowed), best, 0.0)
        return None

    def _shape(self, t: NodeString, sub: _Subtree) -> dict[int, float | None]:
        """The results of ``_first_varying`` by page for T's shape: its base label, and the
        tags and depths of its nodes. They are all the match reads of T when texts do not
        count: the pairs (equal tags), the second verification (equal depths relative to the
        roots), the slides (a subtree's end is where the depths come back to its node's) and
        Tag_similarity (pairs over T's size). Depths are absolute: a shape at another depth
        is only matched again, to the same results."""
        key = (t.labels[sub.base], tuple(t.tags[sub.start:sub.stop]),
               tuple(t.depths[sub.start:sub.stop]))
        n = self._shapes.setdefault(key, len(self._shapes))
        if n == len(self._varying_pages):
            self._varying_pages.append({})
        return self._varying_pages[n]

    def _first_varying(
        self, t: NodeString, sub: _Subtree, k: int, roots: list[int]
    ) -> float | None:
        """Tag_similarity of the first of page ``k``'s ``roots`` that T matches (at least
        ``alpha``), None when none does."""
        # Tag_similarity counts pairs of nodes, one of each string: a candidate subtree with
        # fewer nodes than ``alpha`` of T's can never reach ``alpha`` (skipped unmatched).
        size = sub.stop - sub.start
        s = self.strings[k]
        ends = s.ends  # type: ignore[union-attr]
        for root in roots:
            if (ends[root] - root) / size < self.alpha:
                continue
            m = match_subtree(t, sub, s, root, max_slide=self.max_slide,  # type: ignore[arg-type]
                              min_tag=self.alpha)
            if m is not None and m.tag_similarity >= self.alpha:
                return m.tag_similarity
        return None

    def _roots_by_label(self, label: int) -> list[tuple[int, list[int]]]:
        """Each page's first ``MAX_CANDIDATES`` elements of ``label``, in page order."""
        found = self._label_roots.get(label)
        if found is None:
            found = self._label_roots[label] = [
                (k, s.at_label[label][:MAX_CANDIDATES]) for k, s in enumerate(self.strings)
                if s is not None and label in s.at_label]
        return found
