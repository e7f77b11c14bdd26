"""DeleteSame of paper 000, made robust: remove from a page what its template siblings share.

The paper walks two DOM trees child by child, by index, deleting equal subtrees and recursing
into unequal ones. Pairing by index breaks as soon as one page has one extra node, so here:

- every element gets a *content signature*: a hash of its label (tag, class, id), its own text
  and its children's signatures, bottom-up, so equal signatures mean equal subtrees, text
  included (the paper's "same node" extended to the whole subtree);
- a subtree of the target is *shared* when its signature occurs in at least
  ``SHARED_FRACTION`` of the reference pages, wherever it sits there (alignment by signature,
  not by index), against several reference pages rather than one;
- walking the target top-down, shared subtrees are deleted and unshared ones are entered:
  what no reference shares is content.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from lxml import etree

from sitesift.compare.signatures import combine, node_label, stable_hash, structural_children
from sitesift.parse.dom import SKIP_TAGS, drop_keep_tail

__all__ = ["SHARED_FRACTION", "SignatureIndex", "content_signatures", "delete_shared"]

#: Share of the reference pages that must hold a subtree for it to count as template. A half
#: tolerates one reference that happens to lack a block (an ad slot left empty) while a block
#: repeated by chance in one other page (a recurring quote) stays content.
SHARED_FRACTION = 0.5


def _own_text(el: etree._Element) -> str:
    """The element's text outside its child elements, white space folded."""
    parts = [el.text or ""]
    parts += [c.tail or "" for c in el]
    return " ".join(" ".join(parts).split())


def content_signatures(root: etree._Element) -> dict[etree._Element, int]:
    """Signature of every structural element below ``root`` (iterative post-order)."""
    sigs: dict[etree._Element, int] = {}
    labels: dict[str, int] = {}
    stack: list[tuple[etree._Element, bool]] = [(root, False)]
    while stack:
        el, done = stack.pop()
        if not isinstance(el.tag, str) or el.tag in SKIP_TAGS:
            continue
        if not done:
            stack.append((el, True))
            stack.extend((c, False) for c in el)
            continue
        key = f"{node_label(el, -1, names=False)}|{_own_text(el)}"
        h = labels.get(key)
        if h is None:
            h = labels[key] = stable_hash(key)
        for i, child in enumerate(structural_children(el)):
            h = combine(h, i, sigs.get(child, 0))
        sigs[el] = h
    return sigs


class SignatureIndex:
    """How many pages of a reference set hold each signature (each page counted once)."""

    def __init__(self, pages: Iterable[Iterable[int]]) -> None:
        self.count: Counter[int] = Counter()
        self.pages = 0
        for signatures in pages:
            self.count.update(set(signatures))
            self.pages += 1

    def needed(self, fraction: float = SHARED_FRACTION) -> int:
        return max(1, math.ceil(fraction * self.pages))


def delete_shared(
    root: etree._Element,
    references: SignatureIndex,
    *,
    signatures: dict[etree._Element, int] | None = None,
    fraction: float = SHARED_FRACTION,
) -> list[etree._Element]:
    """Delete from ``root`` (in place: sitesift's own parsed tree, never a caller's) every
    subtree held by at least ``fraction`` of the reference pages; return the deleted subtrees
    (detached) so a caller can show what was removed and why."""
    sigs = signatures if signatures is not None else content_signatures(root)
    need = references.needed(fraction)
    removed: list[etree._Element] = []
    stack = [root]
    while stack:
        el = stack.pop()
        for child in structural_children(el):
            h = sigs.get(child)
            if h is not None and references.count[h] >= need:
                removed.append(child)
            else:
                stack.append(child)
    for el in removed:
        drop_keep_tail(el)
    return removed
