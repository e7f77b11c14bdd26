"""Paths down a page's tree and subtree signatures: what a template, its wrapper and its field
sources (paper 000: ``sitesift.methods.template.template``, ``.wrapper``, ``.fields``) share.

A place on a page is a path of ``Step``s from ``<body>``; ``PathFinder`` follows such paths on
a new page, ``element_steps`` / ``container_key`` / ``element_path`` write them down on a
learning page. ``content_signatures`` hashes subtrees bottom-up (label, own text, children),
so equal signatures mean equal subtrees. These sit below the three modules that use them, so
that none of them imports another to reach them (docs/design/architecture.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from lxml import etree

from sitesift.parse.dom import SKIP_TAGS
from sitesift.parse.signatures import (
    MASK64,
    PARENT_MULTIPLIER,
    POSITION_MULTIPLIER,
    RelaxedLabels,
    TextHashes,
    stable_hash,
    structural_children,
)

__all__ = [
    "PathFinder",
    "Step",
    "container_key",
    "content_signatures",
    "element_path",
    "element_steps",
    "page_base",
]

#: One step down the tree: the child's relaxed label hash (tag, class, id) and its ordinal
#: among the parent's structural children of that label. Ordinals by label, not plain child
#: indices, so that an extra ad slot or script before the container does not move it.
Step = tuple[int, int]


def content_signatures(
    root: etree._Element, *, labels: RelaxedLabels | None = None,
    structure: dict[etree._Element, tuple[int, list[etree._Element]]] | None = None,
    texts: TextHashes | None = None,
) -> dict[etree._Element, int]:
    """Signature of every structural element below ``root``.

    One pass over the elements in reverse document order, which visits every element after
    all of its descendants (no recursion, no explicit stack). An element's own text is its
    text plus the tails of its children (text outside child elements), white space folded.
    ``labels``: a memo of element labels shared by the pages of one site (they share most
    labels: a fifth of the cost on big9-2005). ``structure``: filled, when given, with each
    structural element's relaxed label hash and its structural children (the children it
    holds a signature of: ``structural_children``), which ``page_structure`` then reads
    instead of listing them again (``features.page_features``: one walk for both).
    ``texts``: a memo of the leaves' text hashes shared by the pages of one site (the same
    hashes: ``TextHashes``; without it, one for this page).
    """
    sigs: dict[etree._Element, int] = {}
    labels = labels if labels is not None else RelaxedLabels()
    known, label_of = labels.known, labels.get
    folded = (texts if texts is not None else TextHashes()).folded
    below_of = sigs.get
    # (``combine(parent, index, label)`` written out: a call per element and per child was a
    # fifth of this pass)
    parent_mul, position_mul, mask = PARENT_MULTIPLIER, POSITION_MULTIPLIER, MASK64
    for el in reversed(list(root.iter(etree.Element))):
        tag = el.tag
        if tag in SKIP_TAGS:
            continue
        found = known((tag, el.get("class"), el.get("id")))
        label = (found or label_of(el))[1]
        own = el.text
        if not len(el):  # (a leaf, most elements: its own text alone)
            sigs[el] = (label * parent_mul + position_mul + (folded(own) if own else 0)) & mask
            if structure is not None:
                structure[el] = (label, [])
            continue
        # (white space alone folds to nothing: most tails between blocks are that)
        parts = [own] if own and not own.isspace() else []
        children = []
        below_els: list[etree._Element] = []
        for child in el:
            tail = child.tail
            if tail and not tail.isspace():
                parts.append(tail)
            below = below_of(child)
            if below is not None:
                children.append(below)
                below_els.append(child)
        text = " ".join(" ".join(parts).split()) if parts else ""
        h = (label * parent_mul + position_mul + (stable_hash(text) if text else 0)) & mask
        for position, child_sig in enumerate(children, 1):
            h = (h * parent_mul + position * position_mul + child_sig) & mask
        sigs[el] = h
        if structure is not None:
            structure[el] = (label, below_els)
    return sigs


def page_base(root: etree._Element) -> etree._Element:
    """``<body>``, where every path starts (the root when the page has none)."""
    body = root.find("body")
    return body if body is not None else root


def element_steps(
    root: etree._Element, *, labels: RelaxedLabels | None = None
) -> dict[etree._Element, Step]:
    """The step of every structural element of the page, read before extraction edits the
    tree (removed siblings would change the ordinals)."""
    labels = labels if labels is not None else RelaxedLabels()
    steps: dict[etree._Element, Step] = {}
    for parent in root.iter(etree.Element):
        seen: Counter[int] = Counter()
        for child in structural_children(parent):
            h = labels.get(child)[1]
            steps[child] = (h, seen[h])
            seen[h] += 1
    return steps


def container_key(
    el: etree._Element, steps: Mapping[etree._Element, Step], root: etree._Element
) -> tuple[Step, ...]:
    """Path from ``<body>`` to ``el``, or to its nearest ancestor known to ``steps`` (the page
    extractor may wrap a run of siblings in a new element)."""
    base = page_base(root)
    path: list[Step] = []
    node: etree._Element | None = el
    while node is not None and node is not base:
        step = steps.get(node)
        if step is None:
            path.clear()  # an element of the extractor's own: the path starts above it
        else:
            path.append(step)
        node = node.getparent()
    return tuple(reversed(path)) if node is base else ()


def element_path(
    el: etree._Element, root: etree._Element, *, labels: RelaxedLabels,
) -> tuple[Step, ...] | None:
    """Path from ``<body>`` to ``el`` as ``PathFinder.find`` follows it, for one element
    (``element_steps`` gives every element's step at once); None when ``el`` is not a
    structural element below ``<body>``."""
    base = page_base(root)
    path: list[Step] = []
    node = el
    while node is not base:
        parent = node.getparent()
        if parent is None or not isinstance(node.tag, str) or node.tag in SKIP_TAGS:
            return None
        label = labels.get(node)[1]
        ordinal = sum(1 for sib in node.itersiblings(preceding=True)
                      if isinstance(sib.tag, str) and sib.tag not in SKIP_TAGS
                      and labels.get(sib)[1] == label)
        path.append((label, ordinal))
        node = parent
    return tuple(reversed(path))


class PathFinder:
    """Elements of one page by path from ``<body>`` (a container, anchors): each element's
    children are grouped by label once, and each subtree hashed once, however many paths of
    a profile's templates pass through or end there."""

    def __init__(self, root: etree._Element, *, labels: RelaxedLabels | None = None) -> None:
        self.root = root
        self.labels = labels if labels is not None else RelaxedLabels()
        self._children: dict[etree._Element, dict[int, list[etree._Element]]] = {}
        self._signatures: dict[etree._Element, int] = {}
        #: ``<body>``, looked up once (an ElementPath search: a sixth of a profile's finds).
        self._base: etree._Element | None = None

    def find(self, key: Sequence[Step]) -> etree._Element | None:
        """The element at ``key``, None when the page has no such path."""
        node = self._base
        if node is None:
            node = self._base = page_base(self.root)
        for label, ordinal in key:
            groups = self._children.get(node)
            if groups is None:
                groups = self._children[node] = {}
                known, label_of = self.labels.known, self.labels.get
                for child in structural_children(node):
                    found = known((child.tag, child.get("class"), child.get("id")))
                    groups.setdefault((found or label_of(child))[1], []).append(child)
            same = groups.get(label, ())
            if ordinal >= len(same):
                return None
            node = same[ordinal]
        return node

    def signature(self, el: etree._Element) -> int:
        found = self._signatures.get(el)
        if found is None:
            found = self._signatures[el] = content_signatures(el, labels=self.labels)[el]
        return found
