"""What the site-level methods read of a parsed page, computed once, before any method edits the
tree: one object for clustering (structure), site discovery (strings) and template removal
(content signatures), so that a page is walked for each only when a caller asks for it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from sitesift.methods.template.istm import PageStructure, page_structure
from sitesift.methods.template.template import content_signatures
from sitesift.parse.dom import SKIP_TAGS
from sitesift.parse.signatures import RelaxedLabels, TextHashes, stable_hash

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MAX_STRING_CHARS", "MIN_STRING_CHARS", "PageFeatures", "page_features", "page_strings"]

#: Lengths of the strings that stand for a template: menu entries and footer lines are short,
#: article paragraphs long; one character is punctuation or a bullet.
MIN_STRING_CHARS = 2
MAX_STRING_CHARS = 80


@dataclass(frozen=True, slots=True)
class PageFeatures:
    """A page's features; a field is None when it was not asked for."""

    #: Relaxed ISTM leaf paths (template signal): clustering a site's pages.
    structure: PageStructure | None = None
    #: Sorted unique uint64 hashes of the page's short strings (site signal): site discovery.
    strings: np.ndarray | None = None
    #: Content signature of every structural element (DeleteSame, template assignment). Keys
    #: are the page's own elements: these features live as long as the parsed tree.
    signatures: dict[etree._Element, int] | None = None

    def need(self, *names: str) -> None:
        """Raise ``ValueError`` naming the first of ``names`` that was not computed."""
        for name in names:
            if getattr(self, name) is None:
                raise ValueError(f"page features lack {name!r}: page_features(root, {name}=True)")


def page_strings(root: etree._Element) -> np.ndarray:
    """Hashes of the page's short strings: each text or tail, white space folded, of
    MIN_STRING_CHARS..MAX_STRING_CHARS characters, outside script, style, head and other
    non-visual elements (iterative walk; the tree is not changed)."""
    found: set[int] = set()

    def add(text: str | None) -> None:
        if text:
            folded = " ".join(text.split())
            if MIN_STRING_CHARS <= len(folded) <= MAX_STRING_CHARS:
                found.add(stable_hash(folded))

    stack: list[etree._Element] = [root]
    while stack:
        el = stack.pop()
        if isinstance(el.tag, str) and el.tag not in SKIP_TAGS:
            add(el.text)
            stack.extend(el)
        if el is not root:
            add(el.tail)  # a skipped element's tail is still visible text
    import numpy as np  # (here: applying a saved profile needs no strings, nor numpy)

    return np.array(sorted(found), dtype=np.uint64)


def page_features(
    root: etree._Element, *, structure: bool = True, strings: bool = True,
    signatures: bool = True, labels: RelaxedLabels | None = None,
    texts: TextHashes | None = None,
) -> PageFeatures:
    """The features of a parsed page that the caller asks for (all by default). ``labels``: a
    label memo shared by the pages of one site (``page_structure``, ``content_signatures``);
    ``texts``: a memo of text hashes shared by them (``content_signatures``)."""
    # With both, one walk: the signatures' pass keeps each element's label and structural
    # children for the structure's (the same values: each function's own steps).
    known: dict[etree._Element, tuple[int, list[etree._Element]]] | None = (
        {} if structure and signatures else None)
    if known is not None and labels is None:
        labels = RelaxedLabels()  # (one memo for both: a label is a function of the element)
    sigs = content_signatures(root, labels=labels, structure=known, texts=texts) \
        if signatures else None
    return PageFeatures(
        structure=page_structure(root, relaxed=True, labels=labels, known=known)
        if structure else None,
        strings=page_strings(root) if strings else None,
        signatures=sigs,
    )
