"""ISTM: Improved Simple Tree Matching of paper 000 (Wang et al. 2018), Algorithm 2.

    sim(P1, P2)        = sim(P1 X11, P2 X11)                                   (6)
    sim(P1 Xnm, P2 Xnm) = sigma * [ sum_i sim(P1 X(n+1)i, P2 X(n+1)i) * Lp ]   (7)
    sigma              = 1 if the nodes are equal (Def. 8), else 0              (9)
    Lp_1 = 1;  Lp_2(m) = (|(N-1)/2 - m| + 1) / sum_k (|(N-1)/2 - k| + 1);  Lp_n = 1/N, n > 2   (8)

Settled here: m is the 0-based index (only then are the weights symmetric, as the text means);
the tree root X11 is ``<body>`` (its children are the page's first-level blocks); non-visual
nodes (script, style...) are left out; node equality compares tag, attribute names (values of
class and id), child count, and position (children are paired by index, as in the paper).

Two implementations agree exactly (tests check it):
- ``istm_reference``: the algorithm as written, node pair by node pair.
- ``similarity_matrix``: all pairs at once. Because equal nodes have equal child counts, the
  recursion adds up, for every root-to-leaf path on which all nodes are equal in both pages,
  the product of the weights along it. A path's product depends on the path alone. So each
  page becomes a set of leaf-path hashes with weights, and sim(P1, P2) is the weight of the
  intersection of the two sets: one sparse matrix product for all pairs of a site.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from sitesift.parse.signatures import (
    MASK64,
    PARENT_MULTIPLIER,
    POSITION_MULTIPLIER,
    RelaxedLabels,
    node_label,
    stable_hash,
    structural_children,
    structure_root,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = ["PageStructure", "istm_reference", "page_structure", "position_weights",
           "similarity_matrix"]


def position_weights(n: int) -> list[float]:
    """Lp_2(m) of formula (8) for the N = n first-level blocks: edge blocks (header, nav,
    footer) weigh more than central ones (the content, which varies from page to page)."""
    raw = [abs((n - 1) / 2 - m) + 1 for m in range(n)]
    total = sum(raw)
    return [r / total for r in raw]


def _child_weights(level: int, n: int) -> list[float]:
    """Weights of the n children of a node at ``level`` (the root is level 1)."""
    return position_weights(n) if level == 1 else [1.0 / n] * n


def istm_reference(root1: etree._Element, root2: etree._Element) -> float:
    """ISTM(P1, P2, 1) of Algorithm 2, computed pair by pair (explicit stack, no recursion)."""
    a, b = structure_root(root1), structure_root(root2)
    total = 0.0
    stack: list[tuple[etree._Element, etree._Element, int, float]] = [(a, b, 1, 1.0)]
    while stack:
        x, y, level, weight = stack.pop()
        xs, ys = structural_children(x), structural_children(y)
        if node_label(x, len(xs)) != node_label(y, len(ys)):
            continue  # sigma = 0: this subtree adds nothing
        if not xs:
            total += weight  # equal leaves: sim = 1
            continue
        for child_x, child_y, w in zip(xs, ys, _child_weights(level, len(xs)), strict=True):
            stack.append((child_x, child_y, level + 1, weight * w))
    return total


@dataclass(frozen=True, slots=True)
class PageStructure:
    """A page reduced to what ISTM needs: its leaf-path hashes and their path weights."""

    paths: np.ndarray  # uint64 hashes, one per leaf of the structural tree
    weights: np.ndarray  # float64, product of Lp along each path; they sum to 1


def page_structure(
    root: etree._Element, *, relaxed: bool = False, labels: RelaxedLabels | None = None,
    known: Mapping[etree._Element, tuple[int, list[etree._Element]]] | None = None,
) -> PageStructure:
    """Leaf paths of ``root``'s structural tree (iterative walk).

    ``relaxed``: the variant used for clustering (see ``similarity_matrix``): labels keep tag,
    class and id only (no child count, no other attribute names; the root its tag alone), and
    a child's position is its rank among siblings of the same label, so one inserted block (an
    ad, a photo) no longer zeroes the whole parent. ``labels``: a label memo shared by the
    pages of one site (a label is a function of tag, class and id: the same paths).
    ``known`` (relaxed): elements' relaxed label hashes and structural children, as
    ``content_signatures(..., structure=)`` gathered them from the same tree and memo, read
    instead of listing and labelling them again (an element missing there is read here)."""
    known = known if known is not None and relaxed else {}
    paths: list[int] = []
    weights: list[float] = []
    strict_labels: dict[str, int] = {}  # per call: labels repeat a lot within a page
    relaxed_labels = labels if labels is not None else RelaxedLabels()
    start = structure_root(root)
    # The root stands for the page in relaxed mode: its attributes vary by section.
    root_label = stable_hash(str(start.tag))
    stack: list[tuple[etree._Element, int, int, int, float, int]] = [
        (start, 0, 0, 1, 1.0, root_label)
    ]
    parent_mul, position_mul, mask = PARENT_MULTIPLIER, POSITION_MULTIPLIER, MASK64
    while stack:
        el, parent_hash, index, level, weight, label = stack.pop()
        found = known.get(el)
        children = found[1] if found is not None else structural_children(el)
        if not relaxed:
            text = node_label(el, len(children))
            label = strict_labels.get(text) or strict_labels.setdefault(text, stable_hash(text))
        # (``combine(parent_hash, index, label)`` written out: one call per element)
        h = (parent_hash * parent_mul + (index + 1) * position_mul + label) & mask
        if not children:
            paths.append(h)
            weights.append(weight)
            continue
        if relaxed:
            # (the same weights as ``_child_weights``: below the first level every child of
            # N weighs 1/N, the one float computed once)
            shares = position_weights(len(children)) if level == 1 else None
            share = 1.0 / len(children)
            ranks: dict[int, int] = {}
            for k, child in enumerate(children):
                seen = known.get(child)
                child_label = seen[0] if seen is not None else relaxed_labels.get(child)[1]
                i = ranks[child_label] = ranks.get(child_label, -1) + 1
                w = shares[k] if shares is not None else share
                stack.append((child, h, i, level + 1, weight * w, child_label))
            continue
        for i, (child, w) in enumerate(
            zip(children, _child_weights(level, len(children)), strict=True)
        ):
            stack.append((child, h, i, level + 1, weight * w, 0))
    import numpy as np  # (here: applying a saved profile never builds a structure; 0.1 s)

    return PageStructure(np.array(paths, dtype=np.uint64), np.array(weights, dtype=np.float64))


def similarity_matrix(pages: Sequence[PageStructure], *, relaxed: bool = False) -> np.ndarray:
    """ISTM for every pair of ``pages`` (n x n, symmetric, ones on the diagonal).

    ``relaxed`` (structures built with ``relaxed=True``): a shared leaf path counts
    sqrt(w1 * w2), its two pages' weights being different when their trees differ; for equal
    trees this is the strict value, and it stays within [0, 1] (Cauchy-Schwarz)."""
    import numpy as np  # (imported here as scipy is: applying saved profiles needs neither)
    from scipy import sparse  # imported here: applying saved profiles never needs it (0.3 s)

    n = len(pages)
    if n == 0:
        return np.zeros((0, 0))
    all_paths = np.concatenate([p.paths for p in pages])
    columns, inverse = np.unique(all_paths, return_inverse=True)
    rows = np.repeat(np.arange(n), [len(p.paths) for p in pages])
    weights = np.concatenate([p.weights for p in pages])
    shape = (n, len(columns))
    # Duplicate leaf paths inside one page cannot occur (index is part of the path).
    if relaxed:
        root_w = sparse.csr_matrix((np.sqrt(weights), (rows, inverse)), shape=shape)
        sim = (root_w @ root_w.T).toarray()
    else:
        weighted = sparse.csr_matrix((weights, (rows, inverse)), shape=shape)
        binary = sparse.csr_matrix((np.ones_like(weights), (rows, inverse)), shape=shape)
        sim = (weighted @ binary.T).toarray()
    return np.clip(sim, 0.0, 1.0)
