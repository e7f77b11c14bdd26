"""Noise removal by similarity with same-layer pages (paper 004, Yuan et al. 2006).

Pages in one URL directory of a site ("same-layer" pages) are built alike: a block of the target
page that nearly reappears in a same-layer page is navigation, header, footer or another
template part, i.e. noise. The method, top to bottom:

1. Same layer (``same_layer``): the site's pages sharing the longest URL directory prefix with
   the target; widened to shorter prefixes until ``MIN_SIBLINGS`` pages are in, the whole site
   when URLs are unknown or share nothing.
2. Node strings (``NodeString``): a depth-first walk turns each page's DOM into a string of
   nodes, each with its depth (the paper keeps "the depth of every node"). Text nodes are nodes
   too (tag ``#text``), so a block's text is matched where it sits.
3. Subtrees to match: the block tree of ``sitesift.segment.blocks`` (our DOM VIPS).
4. ``match_subtree``: the paper's state machine over a block's string T and a sibling's string
   S. ``normal``: equal tags match, the text of equal text nodes counts (TextMatch);
   a mismatch switches to ``s_move``, sliding over up to MAX subtrees of S; failing that, back
   to where the slide began and ``t_move`` slides over up to MAX subtrees of T; failing that
   too, both nodes stay unmatched and matching goes on after them (the paper's Reset).
   Tag_similarity = matched nodes / |T|, Text_similarity = matched text / text of T.
5. Second verification (in ``match_subtree``, pair by pair): the matched nodes of S must lie
   in one subtree (the candidate root's) and every matched pair must have equal depths
   relative to its root; the paper's figure 1 shows two different trees with one DFS string,
   which this rules out.
6. A block with Tag_similarity >= alpha and Text_similarity >= beta (paper: 0.8, 0.6) in
   ``MIN_MATCH_SHARE`` of its same-layer pages (at least 1, at most ``MAX_NEEDED_MATCHES``) is
   noise (``SiblingSite.judge``).
7. ``clean_content``: the noise blocks are deleted from the page extractor's main block.

Speed, for 100 siblings per page: the paper scans S from every start (``i = i-j+1``). Here the
site's text nodes are indexed once (text hash -> positions in all pages). A match with
Text_similarity >= beta must pair at least one of T's heaviest texts whose weights add up to
more than (1 - beta) of T's text, at an equal relative depth; so the only candidate roots in S
are the ancestors, that many levels up, of the occurrences of those "anchor" texts. A block is
compared with a handful of candidates per sibling instead of every position; a sibling stops
being searched at its first verified match, and a block once enough siblings matched or too
few are left to. Text found in no sibling at all bounds Text_similarity from above: a block
with more of it than it may leave unmatched is not searched at all (most content blocks).

Decisions go top-down on the block tree (the paper matches VIPS subtrees, which are coarse):
a container is noise as a whole only when it matches with at most
``CONTAINER_MAX_UNMATCHED`` characters of its text unmatched, else its children are decided
one by one, so an article box that shares its headings and share bar with its siblings is never
thrown away for what it shares.

What the paper leaves open, blocks that change on every page but are noise (ads, "related"
lists): a link-dense block (``VARYING_MIN_LINK_DENSITY``) whose *structure* (Tag_similarity
alone) matches a block of the same tag, class and id in at least ``VARYING_MIN_PAGES`` siblings
is a recurring list of links whose items change: noise too.
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple
from urllib.parse import urlsplit

from lxml import etree

from sitesift.methods.page.content import Content
from sitesift.parse.dom import drop_keep_tail
from sitesift.parse.rows import labels_left
from sitesift.parse.signatures import RelaxedLabels, stable_hash
from sitesift.segment.blocks import Block, is_visible

__all__ = [
    "Match",
    "NodeString",
    "SiblingSite",
    "Verdict",
    "clean_content",
    "leaf_labels",
    "match_subtree",
    "noise_blocks",
    "remove_block",
    "same_layer",
]

#: The paper's thresholds (alpha, beta) and MAX slide; ``Options`` carries the ones in use.
TAG_SIMILARITY = 0.8
TEXT_SIMILARITY = 0.6
MAX_SLIDE = 3
#: Same layer: widen the URL prefix until this many siblings are in (when the site has them).
MIN_SIBLINGS = 3
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

TEXT_TAG = "#text"
#: Index entries are one int, page << 32 | position (a tuple costs four times the memory).
_PAGE_SHIFT = 32
_POS_MASK = (1 << _PAGE_SHIFT) - 1
#: A text piece is (element, "text") for its own text or (element, "tail") for its tail.
Piece = tuple[etree._Element, str]


# -- 1. same layer -----------------------------------------------------------------------------


def _directories(url: str | None) -> tuple[str, ...] | None:
    """Host and directory segments of ``url`` (the file name left out), None without a URL."""
    if not url:
        return None
    parts = urlsplit(url)
    if not parts.netloc:
        return None
    return (parts.netloc.lower(), *parts.path.split("/")[1:-1])


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def same_layer(
    urls: Sequence[str | None], target: int, *, minimum: int = MIN_SIBLINGS,
    directories: Sequence[tuple[str, ...] | None] | None = None,
) -> list[int]:
    """Indices of the same-layer pages of ``urls[target]``: those sharing the longest directory
    prefix with it, widened to shorter prefixes until ``minimum`` pages are in; every other page
    of the site when the URLs are unknown or share no directory beyond the host.
    ``directories``: ``_directories`` of each URL, when the caller asks for many targets
    (splitting every URL again for each target is quadratic in the site's pages)."""
    dirs = directories if directories is not None else [_directories(u) for u in urls]
    others = [i for i in range(len(urls)) if i != target]
    mine = dirs[target]
    if mine is None:
        return others
    shared = []
    for i in others:
        theirs = dirs[i]
        shared.append(_common(mine, theirs) if theirs is not None else 0)
    levels = sorted(set(shared), reverse=True)
    for level in levels:
        if level < 1:  # not even the host: no layer to speak of
            break
        chosen = [i for i, s in zip(others, shared, strict=True) if s >= level]
        if len(chosen) >= min(minimum, len(others)):
            return chosen
    return others


# -- 2. node strings -----------------------------------------------------------------------------


@dataclass(slots=True)
class NodeString:
    """A page as its depth-first node string: visible elements and non-blank text nodes."""

    tags: list[str] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)
    #: Index just after each node's subtree (a text node's is its own index + 1).
    ends: list[int] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)
    #: Hash of a text node's folded text, and its weight (visible characters); 0 for elements.
    texts: list[int] = field(default_factory=list)
    weights: list[int] = field(default_factory=list)
    #: Relaxed label hash (tag, class, id) of elements; 0 for text nodes.
    labels: list[int] = field(default_factory=list)
    elements: dict[etree._Element, int] = field(default_factory=dict)
    pieces: dict[Piece, int] = field(default_factory=dict)
    #: Sums of ``weights`` before each position, made on first use (``text_weight``).
    _before: list[int] | None = None
    #: Positions of the text nodes, made on first use (``text_nodes``).
    _text_at: list[int] | None = None

    @classmethod
    def of(cls, root: etree._Element, labels: RelaxedLabels | None = None) -> NodeString:
        """The node string of the page under ``root`` (its ``<body>`` when there is one)."""
        body = root.find("body") if root.tag == "html" else root
        if body is None:
            body = root
        labels = labels or RelaxedLabels()
        out = cls()
        # (``_node`` and ``_text`` inlined, the lists bound to locals: this walk visits every
        # element and text of every page of the site)
        tags, depths, ends, parents = out.tags, out.depths, out.ends, out.parents
        texts, weights, label_hashes = out.texts, out.weights, out.labels
        elements, pieces = out.elements, out.pieces
        open_: list[int] = []

        def text_node(text: str, piece: Piece) -> None:
            # ``text_weight`` and ``normalize_space`` of one split (the same characters)
            words = text.split()
            if not words:
                return
            pos = len(tags)
            pieces[piece] = pos
            tags.append(TEXT_TAG)
            depths.append(len(open_))
            ends.append(pos + 1)
            parents.append(open_[-1])
            texts.append(stable_hash(" ".join(words)))
            weights.append(len("".join(words)))
            label_hashes.append(0)

        # lxml's own walk (C): a skipped subtree's only event after its start is its end; a
        # comment or processing instruction comes as one event, and only its tail is text.
        walker = etree.iterwalk(body, events=("start", "end", "comment", "pi"))
        skipped = False
        for event, el in walker:
            if event == "start":
                if not is_visible(el):
                    walker.skip_subtree()
                    skipped = True
                    continue
                pos = len(tags)
                tags.append(el.tag)
                depths.append(len(open_))
                ends.append(pos + 1)
                parents.append(open_[-1] if open_ else -1)
                texts.append(0)
                weights.append(0)
                label_hashes.append(labels.get(el)[1])
                elements[el] = pos
                open_.append(pos)
                if el.text:
                    text_node(el.text, (el, "text"))
                continue
            if event == "end":
                if skipped:
                    skipped = False
                else:
                    ends[open_.pop()] = len(tags)
            if el is not body and el.tail and open_:
                text_node(el.tail, (el, "tail"))
        return out

    def text_weight(self, start: int, stop: int) -> int:
        """Text weight of the nodes ``start`` to ``stop`` (excluded), from running sums: a
        block's text is summed for each of its candidate matches."""
        before = self._before
        if before is None:  # (a string is complete once ``of`` returns it)
            before = self._before = [0, *itertools.accumulate(self.weights)]
        return before[stop] - before[start]

    def text_nodes(self, start: int, stop: int) -> list[int]:
        """Positions of the text nodes from ``start`` to ``stop`` (excluded), in order: a
        block's texts are read for each of its blocks above it too, and most nodes are
        elements."""
        at = self._text_at
        if at is None:  # (a string is complete once ``of`` returns it)
            at = self._text_at = [p for p, h in enumerate(self.texts) if h]
        lo = bisect_left(at, start)
        return at[lo:bisect_left(at, stop, lo)]

    def ancestor(self, pos: int, levels: int) -> int:
        for _ in range(levels):
            pos = self.parents[pos]
            if pos < 0:
                break
        return pos


class _Subtree(NamedTuple):
    """A block as the part of its page's node string to match: T = string[start:stop], depths
    relative to ``base`` (the block's element, or for a run the element it sits in). (A named
    tuple: a frozen dataclass's ``__init__`` was 4 % of the sibling step.)"""

    start: int
    stop: int
    base: int
    #: Whether the base node is T[0] (an element block) or T's parent (a run).
    rooted: bool


def _subtree(string: NodeString, block: Block) -> _Subtree | None:
    if not block.is_run:
        pos = string.elements.get(block.owner)
        return None if pos is None else _Subtree(pos, string.ends[pos], pos, True)
    if not block.pieces:
        return None
    first, last = block.pieces[0], block.pieces[-1]
    start = string.elements.get(first[0]) if first[1] == "node" else string.pieces.get(first)
    stop = string.elements.get(last[0]) if last[1] == "node" else string.pieces.get(last)
    base = string.elements.get(block.owner)
    if start is None or stop is None or base is None:
        return None
    return _Subtree(start, string.ends[stop], base, False)


# -- 4, 5. subtree matching --------------------------------------------------------------------

NORMAL, S_MOVE, T_MOVE = 0, 1, 2


class Match(NamedTuple):
    """Best match of a block in one sibling page."""

    tag_similarity: float
    text_similarity: float


def match_subtree(
    t: NodeString, sub: _Subtree, s: NodeString, root: int, *, max_slide: int = MAX_SLIDE,
    min_tag: float = 0.0,
) -> Match | None:
    """Match T (``sub`` of ``t``) against the subtree of ``s`` at ``root`` with the paper's
    state machine; None when the second verification fails, or (``min_tag``) as soon as
    Tag_similarity can no longer reach ``min_tag``: a caller's threshold, which every failed
    candidate would otherwise be matched to its end to miss. The verification is checked
    pair by pair (a pair at unequal depths fails the whole match), not over all pairs after."""
    t_start, t_stop = sub.start, sub.stop
    s_start = root if sub.rooted else root + 1
    s_stop = s.ends[root]
    t_tags, s_tags, t_ends, s_ends = t.tags, s.tags, t.ends, s.ends
    t_depths, s_depths = t.depths, s.depths
    shift = s_depths[root] - t_depths[sub.base]  # equal depths relative to the two roots
    t_texts, s_texts, t_weights = t.texts, s.texts, t.weights
    size = t_stop - t_start
    # The pairs are counted, not kept: the first one (for the second verification below),
    # how many, and the text weight of those whose texts are equal (TextMatch).
    paired, first, matched_text = 0, None, 0
    i, j = s_start, t_start
    state, steps = NORMAL, 0
    save_i, save_j = i, j
    while j < t_stop and i < s_stop:
        if s_tags[i] == t_tags[j]:
            if s_depths[i] - t_depths[j] != shift:
                return None  # (second verification)
            if not paired:
                first = (j, i)
            paired += 1
            h = t_texts[j]
            if h and h == s_texts[i]:
                matched_text += t_weights[j]
            i, j = i + 1, j + 1
            state, steps = NORMAL, 0
            continue
        if state == NORMAL:
            # Pairs take the nodes of T and of S in order, one each, and the slides from here
            # come back to (i, j) at the lowest: at most the nodes from j on in T, and from i
            # on in S, are still to pair.
            if (paired + min(t_stop - j, s_stop - i)) / size < min_tag:
                return None
            save_i, save_j, state, steps = i, j, S_MOVE, 0
        if state == S_MOVE:
            if steps < max_slide and s_ends[i] < s_stop:
                i, steps = s_ends[i], steps + 1  # Move(S, i): slide over one subtree of S
                continue
            i, j, state, steps = save_i, save_j, T_MOVE, 0  # Reset
        if state == T_MOVE:
            if steps < max_slide and t_ends[j] < t_stop:
                j, steps = t_ends[j], steps + 1  # Move(T, j): slide over one subtree of T
                continue
            # Neither slide finds a partner: both nodes stay unmatched, go on after them.
            i, j, state, steps = s_ends[save_i], t_ends[save_j], NORMAL, 0
    if not paired or (sub.rooted and first != (t_start, root)):
        return None  # (second verification: a block's own root pairs with the candidate's)
    total_text = t.text_weight(t_start, t_stop)
    return Match(
        tag_similarity=paired / size,
        text_similarity=matched_text / total_text if total_text else 1.0,
    )


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
        labels = RelaxedLabels()
        self.strings = [NodeString.of(r, labels) if r is not None else None for r in roots]
        # Pages with the same texts in the same order are copies (one story under two URLs):
        # a copy is no sibling, or the whole story would "recur" and go.
        self.copies = [hash(tuple(s.texts)) if s is not None else None for s in self.strings]
        #: text hash -> page << 32 | position of every text node of the site
        self.by_text: dict[int, list[int]] = defaultdict(list)
        #: label hash -> page << 32 | position of every element of the site
        self.by_label: dict[int, list[int]] = defaultdict(list)
        for k, string in enumerate(self.strings):
            if string is None:
                continue
            for pos, (h, label) in enumerate(zip(string.texts, string.labels, strict=True)):
                if h:
                    self.by_text[h].append(k << _PAGE_SHIFT | pos)
                else:
                    self.by_label[label].append(k << _PAGE_SHIFT | pos)
        #: label hash -> (page, its first ``MAX_CANDIDATES`` positions of that label) in page
        #: order, filled on first use: a page's blocks share few labels, and each block of
        #: every page would otherwise walk the label's whole entry list (all ``<li>`` of a
        #: site) again.
        self._label_roots: dict[int, list[tuple[int, list[int]]]] = {}
        #: text hash -> the pages holding it, each once, in page order; filled on first use
        #: (a text's index entries list it once per occurrence: a menu's every page).
        self._text_pages: dict[int, list[int]] = {}

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
        shared: dict[int, bool] = {}  # text hash -> whether a sibling holds it (this page's)
        verdicts: dict[int, Verdict] = {}
        stack = [top]
        while stack:
            block = stack.pop()
            sub = _subtree(t, block)
            verdict = None if sub is None else self._same(t, sub, block, allowed, need, shared)
            if verdict is None and sub is not None and not block.children:
                verdict = self._varying(t, sub, block, allowed)
            if verdict is not None:
                verdicts[id(block)] = verdict
            else:
                stack.extend(block.children)
        return verdicts

    def _anchors(self, t: NodeString, sub: _Subtree) -> list[tuple[int, int]]:
        """T's anchor texts (see module doc): each as its text hash and how many levels its
        node lies below T's base."""
        texts = t.text_nodes(sub.start, sub.stop)
        texts.sort(key=lambda p: -t.weights[p])
        total = sum(t.weights[p] for p in texts)
        anchors, covered = [], 0
        for p in texts:
            anchors.append(p)
            covered += t.weights[p]
            if covered > (1 - self.beta) * total:
                break
        t_base = t.depths[sub.base]
        return [(t.texts[p], t.depths[p] - t_base) for p in anchors]

    def _candidate_pages(self, anchors: list[tuple[int, int]], allowed: set[int]) -> list[int]:
        """The sibling pages holding an anchor text, in the order the anchors find them."""
        order: dict[int, None] = {}
        for h, _ in anchors:
            for k in self._pages_of(h):
                if k in allowed and k not in order:
                    order[k] = None
        return list(order)

    def _pages_of(self, h: int) -> list[int]:
        """The pages holding text ``h``, each once, in page order (``by_text`` is sorted by
        page)."""
        found = self._text_pages.get(h)
        if found is None:
            found = self._text_pages[h] = list(dict.fromkeys(
                entry >> _PAGE_SHIFT for entry in self.by_text.get(h, ())))
        return found

    def _roots(self, k: int, anchors: list[tuple[int, int]], root_tag: str) -> list[int]:
        """Candidate roots in page ``k`` (the first ``MAX_CANDIDATES``): ancestors, as many
        levels up as in T, of the anchor texts' nodes there, with T's root tag. Computed for a
        page only when the search reaches it: on a site of many pages, finding every page's
        roots for every block was quadratic in the site's size. (A text's index entries are
        sorted by page, then position: a page's are one slice.)"""
        s = self.strings[k]
        assert s is not None
        parents, tags = s.parents, s.tags
        first, after = k << _PAGE_SHIFT, (k + 1) << _PAGE_SHIFT
        roots: list[int] = []
        for h, up in anchors:
            entries = self.by_text.get(h, ())
            lo = bisect_left(entries, first)
            for n in range(lo, bisect_left(entries, after, lo)):
                root = entries[n] & _POS_MASK
                for _ in range(up):  # (NodeString.ancestor, inlined: the hot loop)
                    root = parents[root]
                    if root < 0:
                        break
                if root >= 0 and tags[root] == root_tag and root not in roots:
                    roots.append(root)
                    if len(roots) == MAX_CANDIDATES:
                        return roots
        return roots

    def _same(
        self, t: NodeString, sub: _Subtree, block: Block, allowed: set[int], need: int,
        shared: dict[int, bool],
    ) -> Verdict | None:
        """The paper's test: matches (alpha, beta) in ``need`` siblings (searching stops
        there). A container must leave at most ``CONTAINER_MAX_UNMATCHED`` characters
        unmatched; text found in no sibling at all can never match, so a block with more of
        it than it may leave unmatched is not searched. ``shared``: whether a sibling holds
        a text, memoised over the page's blocks (a container's texts are its children's)."""
        total = t.text_weight(sub.start, sub.stop)
        slack = (1 - self.beta) * total
        if block.children:
            slack = min(slack, CONTAINER_MAX_UNMATCHED)
        unique = 0
        texts, weights = t.texts, t.weights
        for p in t.text_nodes(sub.start, sub.stop):
            h = texts[p]
            found = shared.get(h)
            if found is None:
                found = shared[h] = any(k in allowed for k in self._pages_of(h))
            if not found:
                unique += weights[p]
                if unique > slack:
                    return None
        pages, best_tag, best_text = 0, 0.0, 0.0
        anchors = self._anchors(t, sub)
        candidates = self._candidate_pages(anchors, allowed)
        root_tag = t.tags[sub.base]
        left = len(candidates)
        # A candidate subtree with fewer nodes than ``alpha`` of T's cannot reach ``alpha``
        # (Tag_similarity pairs each node of either string at most once): not matched.
        size, inside = sub.stop - sub.start, 0 if sub.rooted else 1
        for k in candidates:
            if pages + left < need:  # too few pages left to reach ``need``
                return None
            left -= 1
            s = self.strings[k]
            ends = s.ends  # type: ignore[union-attr]
            for root in self._roots(k, anchors, root_tag):
                if (ends[root] - root - inside) / size < self.alpha:
                    continue
                m = match_subtree(t, sub, s, root, max_slide=self.max_slide,  # type: ignore[arg-type]
                                  min_tag=self.alpha)
                if m is None or m.tag_similarity < self.alpha or m.text_similarity < self.beta:
                    continue
                if (1 - m.text_similarity) * total > slack + 1e-9:
                    continue
                pages += 1
                best_tag, best_text = max(best_tag, m.tag_similarity), max(
                    best_text, m.text_similarity)
                break
            if pages >= need:
                return Verdict("same", pages, len(allowed), best_tag, best_text)
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
        pages, best = 0, 0.0
        # Tag_similarity counts pairs of nodes, one of each string: a candidate subtree with
        # fewer nodes than ``alpha`` of T's can never reach ``alpha`` (skipped unmatched).
        size = sub.stop - sub.start
        for k, roots in self._roots_by_label(t.labels[sub.base]):
            if k not in allowed:
                continue
            s = self.strings[k]
            ends = s.ends  # type: ignore[union-attr]
            for root in roots:
                if (ends[root] - root) / size < self.alpha:
                    continue
                m = match_subtree(t, sub, s, root, max_slide=self.max_slide,  # type: ignore[arg-type]
                                  min_tag=self.alpha)
                if m is not None and m.tag_similarity >= self.alpha:
                    pages += 1
                    best = max(best, m.tag_similarity)
                    break
            if pages >= need:
                return Verdict("varying", pages, len(allowed), best, 0.0)
        return None

    def _roots_by_label(self, label: int) -> list[tuple[int, list[int]]]:
        """Each page's first ``MAX_CANDIDATES`` elements of ``label``, in page order."""
        found = self._label_roots.get(label)
        if found is None:
            per_page: dict[int, list[int]] = defaultdict(list)
            for entry in self.by_label.get(label, ()):
                roots = per_page[entry >> _PAGE_SHIFT]
                if len(roots) < MAX_CANDIDATES:
                    roots.append(entry & _POS_MASK)
            found = self._label_roots[label] = list(per_page.items())
        return found


# -- applying the verdicts ---------------------------------------------------------------------


def noise_blocks(top: Block, verdicts: dict[int, Verdict]) -> list[tuple[Block, Verdict]]:
    """The topmost blocks judged noise, in page order, with their verdicts."""
    out = []
    stack = [top]
    while stack:
        block = stack.pop()
        verdict = verdicts.get(id(block))
        if verdict is not None:
            out.append((block, verdict))
        else:
            stack.extend(reversed(block.children))
    return out


def leaf_labels(top: Block, verdicts: dict[int, Verdict]) -> dict[int, tuple[str, str]]:
    """("noise", reason) for every leaf under a noise block, keyed by ``id(leaf)``."""
    labels = {}
    for block, verdict in noise_blocks(top, verdicts):
        for leaf in block.leaves():
            labels[id(leaf)] = ("noise", verdict.reason)
    return labels


def remove_block(block: Block) -> None:
    """Delete ``block`` from its tree (sitesift's own parsed tree): an element block with its
    subtree, a run with its inline elements and loose text."""
    if not block.is_run:
        drop_keep_tail(block.owner)
        return
    for el, kind in block.pieces:  # texts first: dropping a node moves its tail
        if kind == "text":
            el.text = None
        elif kind == "tail":
            el.tail = None
    for el, kind in block.pieces:
        if kind == "node" and el.getparent() is not None:  # the extractor may have dropped it
            drop_keep_tail(el)


def clean_content(content: Content, top: Block, verdicts: dict[int, Verdict]) -> Content:
    """The page extractor's ``content`` with the noise blocks deleted from it (as the template
    method does, ``methods.template.site.clean_content``): the extractor picks the main block on the
    whole page, then what of it recurs in same-layer pages goes. A main block that lies inside
    a noise block goes whole (a page without an article of its own, whose extractor picked a
    notice every page shows)."""
    noise = noise_blocks(top, verdicts)
    labels = labels_left([block.owner for block, _ in noise if not block.is_run])
    noise = [(block, verdict) for block, verdict in noise
             if block.is_run or block.owner not in labels]  # a row's label stays with its value
    owners = {block.owner for block, _ in noise if not block.is_run}
    kept = tuple(
        node for node in content.nodes
        if not any(el in owners for el in (node, *node.iterancestors()))
    )
    for block, _ in noise:
        remove_block(block)
    return replace(content, nodes=kept)
