"""URL structure clustering (USC, paper 001): which URLs of one site point at the same kind of page.

Read top to bottom, it is the paper's Algorithm 3:

1. ``structure_vectors``: split each URL (path and query; scheme and host dropped, since one
   site is clustered at a time) into *blocks* at separators (``/ ? & = . - _`` ...). Block i of
   URL u is ``p(u,i) = (t(u,i), v(u,i))``: a type code (empty, letters, digits, mixed) and a
   value code handed out in order of first appearance (Def. 1). Vectors are padded with the
   empty block to ``N``, the most blocks of any URL.
2. ``dissimilarity``: ``Ns(um,un) = min{i | p(um,i) != p(un,i)}`` (1-based) and
   ``D = N!/Ns!`` (Def. 2, 0 for equal vectors): URLs that part early (different script,
   folder or mode) are far apart, URLs that part late (a different id) are close. ``N!`` is
   astronomic for long URLs, so ``ln D = lgamma(N+1) - lgamma(Ns+1)``; the distance used
   below is ``d = D / max D = 1/Ns!``, taken as ``exp(ln D - ln N!)`` (no overflow).
3. ``cluster_urls``: KNN-DPC, density peaks with K-nearest-neighbour density (Def. 3):
   ``rho_i = exp(-(1/K) * sum_{j in KNN(i)} d_ij^2)``; ``delta_i`` = distance to the nearest
   point of higher density (the largest distance for the densest point). Centres have both
   high; the paper picks them by eye on the decision graph and leaves automatic choice
   ("curve analysis") as future work. Here (``choose_centres``): deltas fall on the levels
   1/Ns!; the threshold is the level just before the largest relative jump in the number
   of centres it would give (the knee where splitting kinds of pages turns into splitting
   ids), among levels giving at most sqrt(n) centres; and a point that first differs from
   its denser neighbour at a query parameter *name* is never a centre (optional
   parameters). The rest join by breadth-first search through K-nearest neighbours closer
   than the threshold (Alg. 2); leftovers follow their nearest denser point, as in DPC.
4. ``Resolver``: from a cluster (the one holding a known topic URL, Alg. 3 line 8), per
   position the set of allowed values; a position with more than ``RULE_MAX_VALUES`` values
   keeps only their types (Def. 4), and numbers always stand as their type (ids and page
   counters are open-ended). The rule is exported as one regular expression, which is
   how it is applied (``Resolver.match``): a compiled regex checks >= 100,000 URLs/s.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

import numpy as np

__all__ = [
    "DEFAULT_K",
    "RULE_MAX_VALUES",
    "Clustering",
    "Resolver",
    "cluster_urls",
    "dissimilarity",
    "split_url",
    "structure_vectors",
]

#: Separators between blocks (the paper's examples: / ? & = . plus those of rewritten URLs).
SEPARATORS = "/?&=.-_,;:+~!|#"
#: Separators that start a query parameter name.
KEY_SEPARATORS = "?&;"
_SPLIT = re.compile("([" + re.escape(SEPARATORS) + "])")

#: Type codes t(u,i): fixed rather than by first appearance so rules read the same everywhere.
EMPTY, LETTERS, DIGITS, MIXED = 0, 1, 2, 3
TYPE_NAMES = ("empty", "letters", "digits", "mixed")

#: K of KNN-DPC. The paper tunes K per forum; 8 separates URL kinds of two real forums
#: (forum-dz, forum-awful links) with ids of 1-7 digits; docs/design/forum.md shows the range tried.
DEFAULT_K = 8
#: A rule position with more distinct values than this keeps the values' types only.
RULE_MAX_VALUES = 4


# -- 1. structure vectors --------------------------------------------------------------------------

def split_url(url: str) -> list[tuple[str, str]]:
    """(separator, block) pairs of the path and query of ``url``, percent-decoded.

    The first pair's separator is the path's leading ``/``; a trailing separator yields an
    empty block (``/archiver/``)."""
    parts = urlsplit(url.strip())
    text = unquote(parts.path or "/")
    if parts.query:
        text += "?" + unquote(parts.query)
    pieces = _SPLIT.split(text)
    pairs: list[tuple[str, str]] = []
    if pieces[0]:  # a relative path without leading separator
        pairs.append(("", pieces[0]))
    for k in range(1, len(pieces) - 1, 2):
        pairs.append((pieces[k], pieces[k + 1]))
    return pairs


def block_type(block: str) -> int:
    """t(u,i): empty, letters (any script), digits, or mixed."""
    if not block:
        return EMPTY
    if block.isascii() and block.isdigit():
        return DIGITS
    if block.isalpha():
        return LETTERS
    return MIXED


@dataclass(slots=True)
class Vectors:
    """S(u) of every URL as value codes (a value code implies its type code)."""

    urls: list[str]
    blocks: list[list[tuple[str, str]]]
    #: (n, N) value codes, padded with 0 (the empty value).
    codes: np.ndarray
    #: value code -> block text (code 0 is the empty block).
    values: list[str]

    @property
    def width(self) -> int:
        return int(self.codes.shape[1])


#: A run of digits in a block: an id or a counter, never what names a kind of page.
_DIGIT_RUN = re.compile(r"[0-9]+")


def structure_vectors(urls: Sequence[str], *, fold_ids: bool = True) -> Vectors:
    """Def. 1: value codes in order of first appearance, padded to N with the empty value.
    ``fold_ids`` (the paper's table has it False): every run of digits reads as one value
    ("17" as "3", "msg17" as "msg30"): ids and page counters are open-ended, so two URLs
    that differ only in them are one kind of page.
    (With each id its own value, URLs whose id stands before the kind's own words,
    ``?topic=5.0`` beside ``?topic=5.msg15``, would group by id: one cluster per topic.)"""
    blocks = [split_url(u) for u in urls]
    index: dict[str, int] = {"": 0}
    width = max((len(b) for b in blocks), default=1) or 1
    codes = np.zeros((len(urls), width), dtype=np.int64)
    for row, pairs in enumerate(blocks):
        for col, (_, block) in enumerate(pairs):
            key = _DIGIT_RUN.sub("0", block) if fold_ids else block
            codes[row, col] = index.setdefault(key, len(index))
    values = [""] * len(index)
    for text, code in index.items():
        values[code] = text
    return Vectors(list(urls), blocks, codes, values)


# -- 2. dissimilarity ------------------------------------------------------------------------------

def log_dissimilarity(first_diff: np.ndarray, width: int) -> np.ndarray:
    """ln D = ln(N!/Ns!) for 1-based first differing positions Ns (-inf where equal)."""
    lg = np.array([math.lgamma(k + 1) for k in range(width + 2)])
    out = lg[width] - lg[np.minimum(first_diff, width)]
    return np.where(first_diff > width, -np.inf, out)


def dissimilarity(a: str, b: str) -> float:
    """D(a, b) = N!/Ns! of two URLs on their own (N = the longer one's blocks)."""
    vec = structure_vectors([a, b])
    diff = np.nonzero(vec.codes[0] != vec.codes[1])[0]
    if not len(diff):
        return 0.0
    return math.exp(log_dissimilarity(np.array([diff[0] + 1]), vec.width)[0])


def distance_matrix(vec: Vectors) -> np.ndarray:
    """d = D / max D = 1/Ns! for every pair, from ln D (no overflow however long the URLs);
    0 for equal vectors. n x n floats: sample crawls above a few thousand URLs."""
    codes = vec.codes
    n, width = codes.shape
    first = np.empty((n, n), dtype=np.int32)
    for i in range(n):
        differs = codes != codes[i]
        any_diff = differs.any(axis=1)
        # 1-based first differing block; width + 1 marks equal vectors.
        first[i] = np.where(any_diff, differs.argmax(axis=1) + 1, width + 1)
    # D / max D = N!/Ns! / N! = 1/Ns!: exp of a difference of logs, never overflowing.
    return np.exp(log_dissimilarity(first, width) - math.lgamma(width + 1))


# -- 3. KNN-DPC ------------------------------------------------------------------------------------

@dataclass(slots=True)
class Clustering:
    """Result of ``cluster_urls``: a label per URL, the decision graph and the centres."""

    vectors: Vectors
    labels: np.ndarray
    rho: np.ndarray
    delta: np.ndarray
    centres: list[int]
    k: int
    #: Centre threshold on delta chosen by ``choose_centres``.
    threshold: float
    #: (delta level, number of centres it would give), coarsest first: the curve analysed.
    curve: list[tuple[float, int]] = field(default_factory=list)

    def members(self, label: int) -> list[int]:
        return [int(i) for i in np.nonzero(self.labels == label)[0]]

    def label_of(self, url: str) -> int | None:
        try:
            return int(self.labels[self.vectors.urls.index(url)])
        except ValueError:
            return None

    def resolver(self, label: int) -> Resolver:
        return Resolver.learn([self.vectors.blocks[i] for i in self.members(label)])

    def sizes(self) -> Counter[int]:
        return Counter(int(x) for x in self.labels)


def _density(dist: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """rho (Def. 3, Eq. 5) and the K nearest neighbours of each point (self excluded)."""
    n = dist.shape[0]
    k = max(1, min(k, n - 1))
    masked = dist + np.diag(np.full(n, np.inf))
    knn = np.argsort(masked, axis=1, kind="stable")[:, :k]
    near = np.take_along_axis(masked, knn, axis=1)
    rho = np.exp(-(near**2).mean(axis=1))
    return rho, knn


def _delta(dist: np.ndarray, rho: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """delta (Eq. 6) and the nearest denser point of each point; ties of rho are broken by
    input order so exactly one point is densest. Returns (delta, parent, order)."""
    n = len(rho)
    order = np.lexsort((np.arange(n), -rho))  # densest first
    delta = np.empty(n)
    parent = np.full(n, -1)
    for rank, i in enumerate(order):
        if rank == 0:
            delta[i] = dist[i].max()
            continue
        denser = order[:rank]
        j = denser[np.argmin(dist[i, denser])]
        delta[i], parent[i] = dist[i, j], j
    return delta, parent, order


def _names(blocks: list[tuple[str, str]]) -> frozenset[str]:
    """The query parameter names of a URL's blocks."""
    return frozenset(block for sep, block in blocks if sep in KEY_SEPARATORS)


def _splits_on_key(vec: Vectors, parent: np.ndarray) -> np.ndarray:
    """For each point: does it first differ from its nearest denser point at a query
    parameter *name* that is optional, one URL's names holding the other's? Names differ so
    when optional parameters are added or reordered, which never makes another kind of
    page, so such a point is never a centre. Names that neither holds
    (``?board=1.0`` beside ``?topic=5.0``) name two kinds."""
    out = np.zeros(len(parent), dtype=bool)
    for i, j in enumerate(parent):
        if j < 0:
            continue
        diff = np.nonzero(vec.codes[i] != vec.codes[j])[0]
        if not len(diff):
            continue
        col = int(diff[0])
        row = vec.blocks[i] if col < len(vec.blocks[i]) else vec.blocks[j]
        if row[col][0] in KEY_SEPARATORS:
            mine, theirs = _names(vec.blocks[i]), _names(vec.blocks[j])
            out[i] = mine <= theirs or theirs <= mine
    return out


def choose_centres(
    delta: np.ndarray, order: np.ndarray, on_key: np.ndarray
) -> tuple[list[int], float, list[tuple[float, int]]]:
    """Automatic centres (the paper's future work, by curve analysis): with D = N!/Ns! the
    deltas fall on levels 1/Ns!; going one level deeper adds the points that split off
    there as centres. The threshold is the level just before the largest relative jump of
    the number of centres (the knee: from splitting kinds of pages to splitting ids).
    Returns the centres (densest first), the threshold and the curve (level, centres)."""
    allowed = ~on_key
    allowed[order[0]] = False
    levels = np.unique(delta[allowed])[::-1]  # coarsest (largest delta) first
    if not len(levels):
        return [int(order[0])], float("inf"), []
    counts = np.array([1 + int((delta[allowed] >= t).sum()) for t in levels])
    # Candidate knees: levels that give at most sqrt(n) centres (the usual bound on the
    # number of clusters in DPC); the knee is the one followed by the largest jump.
    cap = max(2.0, math.sqrt(len(delta)))
    jumps = np.append(counts[1:] / counts[:-1], 1.0)
    jumps[counts > cap] = 0.0
    threshold = float(levels[int(np.argmax(jumps))])
    centres = [int(order[0])] + [int(i) for i in order[1:] if allowed[i] and delta[i] >= threshold]
    return centres, threshold, [(float(t), int(c)) for t, c in zip(levels, counts, strict=True)]


def _bfs(dist: np.ndarray, knn: np.ndarray, centres: list[int], threshold: float,
         parent: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Alg. 2: each centre's cluster grows breadth-first through K-nearest neighbours closer
    than the centre threshold; points left over follow their nearest denser point (DPC),
    in order of density so that point is labelled first."""
    labels = np.full(len(dist), -1)
    queue: list[int] = []
    for label, c in enumerate(centres):
        labels[c] = label
        queue.append(c)
    head = 0
    while head < len(queue):
        i = queue[head]
        head += 1
        for j in knn[i]:
            if labels[j] < 0 and dist[i, j] < threshold:
                labels[j] = labels[i]
                queue.append(int(j))
    for i in order:
        if labels[i] < 0:
            labels[i] = labels[parent[i]]
    return labels


def cluster_urls(urls: Sequence[str], *, k: int = DEFAULT_K) -> Clustering:
    """Alg. 1 (KNN-DPC) over the structure vectors of ``urls`` (one site). Cost: O(n^2)
    memory and time (2,000 URLs: under a second); sample a big crawl first (Alg. 3 line 2)."""
    urls = list(urls)
    vec = structure_vectors(urls)
    n = len(urls)
    if n < 2:
        one = np.ones(n)
        return Clustering(vec, np.zeros(n, dtype=np.int64), one, one, list(range(n)), k, 0.0)
    dist = distance_matrix(vec)
    rho, knn = _density(dist, k)
    delta, parent, order = _delta(dist, rho)
    centres, threshold, curve = choose_centres(delta, order, _splits_on_key(vec, parent))
    labels = _bfs(dist, knn, centres, threshold, parent, order)
    return Clustering(vec, labels, rho, delta, centres, k, threshold, curve)


# -- 4. resolver -----------------------------------------------------------------------------------

_ANY = "[^" + re.escape(SEPARATORS) + "]"
_END = "(?=[" + re.escape(SEPARATORS) + "]|$)"
# Letters and digits need no end check: a separator or the end of the URL must follow in the
# rule anyway, so "abc1" fails both; mixed must rule out the pure forms explicitly.
_TYPE_PATTERNS = {
    LETTERS: r"[^\W\d_]+",
    DIGITS: r"[0-9]+",
    MIXED: rf"(?![0-9]+{_END})(?![^\W\d_]+{_END}){_ANY}+",
}


@dataclass(frozen=True, slots=True)
class Position:
    """r(i) = (t(i), v(i)) of Def. 4, plus the separators seen before block i."""

    separators: frozenset[str]
    values: frozenset[str] | None  # None: any value of ``types``
    types: frozenset[int]

    def pattern(self) -> str:
        alts = []
        if self.values is not None:
            alts = [re.escape(v) for v in sorted(self.values) if v]
            if DIGITS in self.types:
                alts.append(_TYPE_PATTERNS[DIGITS])
        else:
            alts = [_TYPE_PATTERNS[t] for t in sorted(self.types) if t != EMPTY]
        value = "(?:" + "|".join(alts) + ")" if alts else ""
        if alts and EMPTY in self.types:
            value += "?"
        seps = "".join(sorted(self.separators))
        sep = ("[" + re.escape(seps) + "]") if seps else ""
        return sep + value


@dataclass(frozen=True, slots=True)
class Resolver:
    """The rule R of one URL cluster, applied as a regex over a URL's path and query
    (percent-decoded, as the blocks were)."""

    positions: tuple[Position, ...]
    regex: str
    compiled: re.Pattern[str] = field(compare=False, repr=False)

    @classmethod
    def learn(cls, members: Iterable[list[tuple[str, str]]]) -> Resolver:
        """Def. 4 from the (separator, block) pairs of a cluster's URLs."""
        rows = list(members)
        width = max((len(r) for r in rows), default=0)
        positions = []
        for col in range(width):
            present = [r[col] for r in rows if col < len(r)]
            values = {b for _, b in present} | ({""} if len(present) < len(rows) else set())
            types = frozenset(block_type(v) for v in values)
            seps = frozenset(s for s, _ in present)
            # Numbers are ids and page counters, open-ended however few were seen: their
            # type stands for them. Words are kept while few (Def. 4).
            words = {v for v in values if block_type(v) != DIGITS}
            kept = frozenset(words) if len(words) <= RULE_MAX_VALUES else None
            positions.append(Position(seps, kept, types))
        regex = _to_regex(positions)
        return cls(tuple(positions), regex, re.compile(regex))

    @classmethod
    def from_regex(cls, regex: str) -> Resolver:
        """A rule saved as its regex (site profiles keep the regex only)."""
        return cls((), regex, re.compile(regex))

    def match(self, url: str) -> bool:
        """Does ``url`` fit the rule?"""
        return self.compiled.fullmatch(_target(url)) is not None

    def filter(self, urls: Iterable[str]) -> list[str]:
        pattern = self.compiled
        return [u for u in urls if pattern.fullmatch(_target(u)) is not None]

    def describe(self) -> str:
        """Human-readable rule: one item per position, values or types."""
        out = []
        for p in self.positions:
            if p.values is not None:
                text = "|".join(sorted(v or "∅" for v in p.values)
                                + (["<digits>"] if DIGITS in p.types else []))
            else:
                text = "<" + "|".join(TYPE_NAMES[t] for t in sorted(p.types)) + ">"
            out.append("".join(sorted(p.separators)) + text)
        return " ".join(out)


def _to_regex(positions: Sequence[Position]) -> str:
    """Positions in order; the tail from the first position after which every block may be
    empty is optional as a whole (padding), nested so blocks never shift position."""
    pattern = ""
    for i in range(len(positions) - 1, -1, -1):
        piece = positions[i].pattern() + pattern
        tail_empty = all(EMPTY in p.types for p in positions[i:])
        pattern = f"(?:{piece})?" if tail_empty else piece
    return pattern


_PATH_QUERY = re.compile(r"(?:[A-Za-z][\w+.-]*://[^/?#]*)?([^#]*)")


def _target(url: str) -> str:
    """Path and query of ``url`` as ``split_url`` reads them; cheaper than ``urlsplit``
    because every URL of a crawl passes through here when a rule is applied."""
    text = _PATH_QUERY.match(url.strip()).group(1)  # type: ignore[union-attr]
    if not text.startswith("/"):
        text = "/" + text
    return unquote(text) if "%" in text else text


# -- report (``sitesift urls cluster``) ------------------------------------------------------------

def summarize(clustering: Clustering, *, topic: str | None = None,
              examples: int = 3) -> list[dict[str, object]]:
    """One dict per cluster, largest first: size, rule (readable and regex), examples; with a
    ``topic`` URL, its cluster comes first and ``matched`` says how many URLs its rule
    accepts (Alg. 3 lines 8-11)."""
    urls = clustering.vectors.urls
    topic_label = clustering.label_of(topic) if topic else None
    out = []
    for label, size in clustering.sizes().most_common():
        members = clustering.members(label)
        rule = clustering.resolver(label)
        item: dict[str, object] = {
            "cluster": label, "size": size, "rule": rule.describe(), "regex": rule.regex,
            "examples": [urls[i] for i in members[:examples]],
        }
        if label == topic_label:
            item["topic"] = True
            item["matched"] = len(rule.filter(urls))
        out.append(item)
    out.sort(key=lambda item: not item.get("topic", False))
    return out
