"""Template removal by clustering structurally similar pages (paper 000, Wang et al. 2018).

A site's pages come from a few front-end templates. The method, top to bottom:

1. ISTM similarity between pages (``istm``), hierarchical clustering of a site's pages on
   1 - ISTM (``cluster``): pages of one cluster share a template.
2. ``learn_template``: for one cluster, count in how many of its pages each subtree occurs. A
   subtree is identified by its *content signature*: a hash of its label (tag, class, id), its
   own text and its children's signatures, bottom-up, so equal signatures mean equal subtrees,
   text included (the paper's "same node", Def. 8, extended to whole subtrees).
3. ``delete_shared`` is the paper's DeleteSame made robust. The paper walks two trees child by
   child, by index, deleting equal subtrees and recursing into unequal ones; pairing by index
   breaks as soon as one page has an extra node, and one reference page is fragile. Here a
   subtree is template when at least ``SHARED_FRACTION`` of the cluster's *other* pages hold it,
   wherever it sits there (alignment by signature, not by index); the walk deletes template
   subtrees and enters the others: what no reference shares is content.
4. Order with the page extractor (``sitesift.methods.page.content``), settled on the dev sets: the
   extractor first picks the main block on the whole page, whose template parts are cues it
   reads (a shared "Comments" heading says what follows is not the story); DeleteSame then
   removes from that block what the cluster's pages share (bylines, share bars, ads, related
   links). Deleting first and extracting after lost those cues: cleanportal char F1 0.905
   against 0.925, big9-2005 0.984 against 0.985.

5. The *content container* of a template: the deepest element that held the page extractor's
   main block on every learning page of the cluster (the common prefix of their root-to-block
   paths, ``common_container``). Applying a saved profile runs the page extractor inside it
   only: the same text on every dev page, at about half the cost of searching the whole page.
6. *Anchors* of a template: shared subtrees found at the same path on most of its learning
   pages (``learn_anchors``). A saved profile recognises a new page's template by looking its
   anchors up at their paths (``anchor_coverage``), so applying it hashes the anchors and the
   content container only, not every subtree of the page (a third of the elements on the
   dev sets).

A ``TemplateModel`` (signature counts, the structure of the cluster's medoid page and the
content container) is what a site profile saves, so new pages of a known site are cleaned
without clustering again; new pages are assigned to a template by the share of its shared
subtrees they hold (``SiteProfile.assign``), the medoid keeps the template's ISTM structure
for comparing templates across runs and for inspection.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from lxml import etree

from sitesift.methods.template.istm import PageStructure

# Paths and signatures live in ``paths`` (below this module, the wrapper and the field sources);
# the names stay importable from here.
from sitesift.methods.template.paths import (
    PathFinder,
    Step,
    container_key,
    content_signatures,
    element_path,
    element_steps,
    page_base,
)
from sitesift.parse.dom import BLOCK_TAGS, SKIP_TAGS, drop_keep_tail
from sitesift.parse.rows import labels_of_kept_values
from sitesift.parse.signatures import RelaxedLabels, structural_children

if TYPE_CHECKING:
    import numpy as np

    from sitesift.methods.template.fields import FieldSources
    from sitesift.methods.template.wrapper import Wrapper

__all__ = [
    "MAX_ANCHORS",
    "MIN_KEPT_SHARE",
    "SHARED_FRACTION",
    "Anchor",
    "PathFinder",
    "References",
    "SignatureIndex",
    "Step",
    "TemplateModel",
    "anchor_coverage",
    "common_container",
    "container_key",
    "content_signatures",
    "delete_shared",
    "element_path",
    "element_steps",
    "find_container",
    "in_middle",
    "learn_anchors",
    "learn_template",
]

#: Share of the reference pages that must hold a subtree for it to count as template. A half
#: tolerates one reference that happens to lack a block (an ad slot left empty) while a block
#: repeated by chance in one other page (a recurring quote) stays content.
SHARED_FRACTION = 0.5
#: DeleteSame never leaves less than this share of a block's text: a block that its cluster's
#: pages share nearly whole is the same story under another URL (or a near copy of it), not
#: template. Template parts inside a story's block (bylines, share bars, related links) are a
#: small part of its text.
MIN_KEPT_SHARE = 0.2
#: Inside a main block's varying region, a shared subtree stays as the label of the page's
#: own text after it (an admonition's "Tip", a tab's label: zoo-docs-dev rtdtheme-typer)
#: unless that text is mostly links (a "Related:" label over the page's own link list).
LABELLED_MAX_LINK_SHARE = 0.5
#: Siblings of one label (tag and class) of their own text that make a block a repeated item
#: (a review, a product tile): what such items share with other pages' items are their labels
#: ("Verified purchase", "Top rated"), part of each item; DeleteSame deletes nothing inside
#: them.
ITEM_MIN_REPEATS = 3
#: Preformatted text (code listings): one text whose parts DeleteSame never takes apart. A
#: listing no other page shares whole is content; its highlighted tokens ("def", "return")
#: recur on every page of a documentation site (docs.python.org in modern-dev lost 0.09 of
#: its recall to them).
PREFORMATTED_TAGS = frozenset({"pre", "code", "samp", "kbd", "listing", "xmp", "plaintext"})


#: A template's anchor: the path from ``<body>`` to a shared subtree, and its content signature.
Anchor = tuple[tuple[Step, ...], int]
#: Anchors a template keeps: the ones most of its pages hold, smallest subtrees first among
#: equals (each is hashed on every page the profile is applied to). Measured on big9-2005/2009,
#: cleanportal and zh-sites, learning on half of each site (docs/design/template.md): with 16,
#: held-out pages of a site hold a median 0.94 of their template's anchors and pages of other
#: sites at most 0.375 (all big9 pages share an archive toolbar); with 8, other sites reached 0.5.
MAX_ANCHORS = 16
#: Anchors taken from one region of the page before other regions have theirs.
ANCHORS_PER_REGION = 4


class References(Protocol):
    """Reference pages as DeleteSame needs them: how many hold each signature, and how many
    there are (a ``SignatureIndex`` or a saved ``TemplateModel``)."""

    @property
    def count(self) -> Mapping[int, int]: ...

    @property
    def pages(self) -> int: ...


class SignatureIndex:
    """How many pages of a reference set hold each signature (each page counted once, and
    copies of one page once: a story published under two URLs would otherwise be "shared"
    by its pages, and DeleteSame would delete all of it)."""

    def __init__(self, pages: Iterable[Iterable[int]] = ()) -> None:
        self.count: Counter[int] = Counter()
        self.pages = 0
        seen: set[frozenset[int]] = set()
        for signatures in pages:
            distinct = frozenset(signatures)
            if distinct in seen:
                continue
            seen.add(distinct)
            self.count.update(distinct)
            self.pages += 1


def _has_own_text(el: etree._Element) -> bool:
    """Whether ``el`` holds text outside its child elements (it is running text)."""
    if el.text and el.text.strip():
        return True
    return any(c.tail and c.tail.strip() for c in el)


def delete_shared(
    root: etree._Element,
    references: References,
    *,
    signatures: dict[etree._Element, int] | None = None,
    fraction: float = SHARED_FRACTION,
    member: bool = False,
    items: bool = False,
    edges: bool = False,
) -> list[etree._Element]:
    """Delete from ``root`` (in place: sitesift's own parsed tree, never a caller's) every
    subtree held by at least ``fraction`` of the reference pages; return the deleted subtrees
    (detached) so a caller can show what was removed and why.

    ``member``: the page is itself one of the indexed pages. It is then left out (a page is no
    reference of itself): every signature of the page counts one less, among one page less.
    ``items``: repeated items (``ITEM_MIN_REPEATS``) are kept whole, their shared labels with
    them (``auto``, whose forum step reads a thread's posts apart: the template method alone
    strips posts' shared "Quote" and "Report" lines, forum-flux char F1 0.915 against 0.886).
    ``edges``: only the shared subtrees at an edge of ``root``'s own text go (``in_middle``:
    ``auto``, where ``root`` is a part of the page extractor's main block).
    """
    sigs = signatures if signatures is not None else content_signatures(root)
    own = 1 if member else 0
    others = references.pages - own
    if others < 1:
        return []
    need = max(1, math.ceil(fraction * others))
    counts = references.count

    def shared(child: etree._Element) -> bool:
        h = sigs.get(child)
        return h is not None and counts.get(h, 0) - own >= need

    removed = _shared_subtrees(root, shared, items=items)
    if removed and _text_length(removed) > (1 - MIN_KEPT_SHARE) * _text_length([root]):
        return []
    if edges and removed:
        middle = in_middle([root], removed)
        gone = set(removed)
        removed = [el for el in removed
                   if el not in middle or not _labels_own(el, gone, root)]
    for el in removed:
        drop_keep_tail(el)
    return removed


def in_middle(nodes: Sequence[etree._Element],
              removed: Sequence[etree._Element]) -> set[etree._Element]:
    """The ``removed`` subtrees that lie inside the varying region of ``nodes`` (a main
    block): text of the block's own (outside every removed subtree) both before and after
    them. What a site's template contributes to its pages' main block sits at its edges (a
    byline, a share bar, a credit line) or, between two parts of the page's own text, is a
    box or a notice of its own (an ad slot); there a shared line heading a box of the page's
    own text (a documentation generator's "Tip" title or tab label) is the page's
    (``_labels_own``; zoo-docs-dev rtdtheme-typer's tutorial pages lost them to DeleteSame:
    auto char F1 0.9894 -> 0.9910 against the page method's 0.9914; big9-2005, whose
    "ADVERTISEMENT" and "(Story continues below)" lines sit right in the story's block,
    equal)."""
    gone = set(removed)
    order: list[etree._Element | None] = []  # None: a piece of the block's own text
    stack: list[tuple[etree._Element, bool]] = [(node, False) for node in reversed(nodes)]
    while stack:
        el, tail = stack.pop()
        if tail:
            if el.tail and el.tail.strip():
                order.append(None)
            continue
        if el in gone:
            order.append(el)
            continue
        if isinstance(el.tag, str) and el.text and el.text.strip():
            order.append(None)
        for child in reversed(el):
            stack.append((child, True))
            stack.append((child, False))
    own = [k for k, el in enumerate(order) if el is None]
    if not own:
        return set()
    return {el for k, el in enumerate(order) if el is not None and own[0] < k < own[-1]}


def _labels_own(el: etree._Element, gone: set[etree._Element], root: etree._Element) -> bool:
    """Whether ``el`` is the label of text of the page's own: a line (no block inside it)
    in a box of ``root`` (a part of the main block), whose element right after it shows
    text outside ``gone`` (what is about to be deleted), not mostly link text. A line right
    in ``root`` between its paragraphs is no label of a box: an ad slot's notice."""
    if el.getparent() is root or any(
            isinstance(d.tag, str) and d.tag in BLOCK_TAGS for d in el.iterdescendants()):
        return False  # right in the block, or a box of blocks (an ad slot): no label
    nxt = el.getnext()
    while nxt is not None and not isinstance(nxt.tag, str):
        nxt = nxt.getnext()
    if nxt is None or nxt in gone:
        return False
    own, links = _shown_length(nxt, gone)
    return own > 0 and links <= LABELLED_MAX_LINK_SHARE * own


def _shown_length(root: etree._Element, gone: set[etree._Element]) -> tuple[int, int]:
    """Characters (white space aside) of the text ``root`` shows outside ``gone`` (scripts
    and styles are no text), and of those inside links."""
    shown = linked = 0
    stack: list[tuple[etree._Element, bool]] = [(root, False)]
    while stack:
        el, in_link = stack.pop()
        if el in gone or not isinstance(el.tag, str) or el.tag in SKIP_TAGS:
            continue
        in_link = in_link or el.tag == "a"
        n = len("".join((el.text or "").split()))
        shown += n
        linked += n if in_link else 0
        for child in el:  # (a child's tail is its parent's text)
            stack.append((child, in_link))
            m = len("".join((child.tail or "").split()))
            shown += m
            linked += m if in_link else 0
    return shown, linked


def _shared_subtrees(
    root: etree._Element, shared: Callable[[etree._Element], bool], *, items: bool,
) -> list[etree._Element]:
    """The subtrees of ``root`` to delete, outermost first down each branch: the children
    ``shared`` says the reference pages hold, but an inline one inside running text, and none
    inside a repeated item (``items``); below a shared child nothing is looked at."""
    removed: list[etree._Element] = []
    stack = [(root, False)]
    while stack:
        el, in_item = stack.pop()
        if el.tag in PREFORMATTED_TAGS:
            continue  # not shared whole: its highlighted tokens ("def", "{") are its text
        children = structural_children(el)
        # (each child asked once; the repeated kinds counted only where they are read, and
        # the running text looked at only where a child is shared: only a shared child is
        # ever removed)
        held = {child for child in children if shared(child)}
        kept = [child for child in children if child not in held]
        if in_item or not items:
            stack.extend((child, in_item) for child in kept)
        else:
            kinds = [(child.tag, child.get("class")) for child in kept]
            repeats: dict[tuple[object, str | None], int] = {}
            for kind in kinds:
                repeats[kind] = repeats.get(kind, 0) + 1
            stack.extend((child, repeats[kind] >= ITEM_MIN_REPEATS)
                         for child, kind in zip(kept, kinds, strict=True))
        if in_item or not held:
            continue  # an item's labels ("Verified purchase") are the item's own
        in_prose = _has_own_text(el) or any(
            child.tag not in BLOCK_TAGS and child not in held and _has_text(child)
            for child in children)
        unshared = set(kept)
        # a row's label beside the page's own value is the record's (``parse.rows``)
        unshared |= labels_of_kept_values(children, held.__contains__)
        for child in children:
            if child in unshared:
                continue
            if not (in_prose and child.tag not in BLOCK_TAGS):
                removed.append(child)
            # else: an inline element inside running text (a ticker link, a <br>, a label
            # such as "Verified purchase" beside a line of its own) is the same on every page
            # but is part of that text: it stays.
    return removed


def _has_text(el: etree._Element) -> bool:
    return bool("".join(etree.tostring(el, method="text", encoding=str, with_tail=False)).strip())


def _text_length(elements: Sequence[etree._Element]) -> int:
    return sum(len("".join(etree.tostring(el, method="text", encoding=str, with_tail=False)
                           .split())) for el in elements)


#: Signatures held by fewer pages than this are never saved: a subtree of one page alone is
#: never template. Above it, a model keeps only counts that can reach ``SHARED_FRACTION``, so
#: a profile does not grow with the number of pages it was learned from.
MIN_SAVED_COUNT = 2


@dataclass(frozen=True, slots=True)
class TemplateModel:
    """One learned template: what its pages share, and a structure to recognise new pages by."""

    cluster: str
    #: Number of pages it was learned from.
    pages: int
    #: Subtree signatures with the number of learning pages holding each (count >= 2).
    count: dict[int, int]
    #: Relaxed ISTM structure of the cluster's medoid page (the page most similar to the
    #: others): the template's structure, for comparing templates and for inspection.
    medoid: PageStructure
    #: Path from ``<body>`` to the content container (``common_container``); empty: the whole
    #: page (the main blocks of the learning pages share no deeper ancestor, or none known).
    container: tuple[Step, ...] = ()
    #: Shared subtrees at fixed paths that recognise the template's pages (``learn_anchors``);
    #: empty: recognised by all of ``count`` (``SiteProfile.assign``).
    anchors: tuple[Anchor, ...] = ()
    #: How its pages' main text is read without the page heuristics
    #: (``wrapper``); None: its pages are not read alike, the full method runs.
    wrapper: Wrapper | None = None
    #: Where its pages carry title, date and author (``fields``); None: the
    #: page-level metadata extractor reads them.
    fields: FieldSources | None = None


def learn_template(
    cluster: str, signatures: Sequence[Iterable[int]], structures: Sequence[PageStructure],
    similarity: np.ndarray,
) -> TemplateModel:
    """The model of one cluster from its pages' signatures, structures and ISTM matrix."""
    index = SignatureIndex(signatures)
    # The least count that can still be template: for a new page ceil(f * n), for one of
    # the n learning pages (left out of its own references) ceil(f * (n - 1)) + 1.
    keep = max(MIN_SAVED_COUNT, math.ceil(SHARED_FRACTION * (index.pages - 1)))
    count = {h: c for h, c in index.count.items() if c >= keep}
    # (the array's own methods: numpy is not imported here, so that applying a saved
    # profile, which learns nothing, does not load it: 0.1 s of every run's start-up)
    medoid = int(similarity.sum(axis=1).argmax()) if len(structures) else 0
    return TemplateModel(cluster=cluster, pages=index.pages, count=count,
                         medoid=structures[medoid])


# -- content container -----------------------------------------------------------------------

def learn_anchors(
    model: TemplateModel,
    pages: Sequence[tuple[etree._Element, Mapping[etree._Element, Step],
                          Mapping[etree._Element, int]]],
) -> tuple[Anchor, ...]:
    """Anchors of ``model`` from its learning pages (root, steps and signatures of each, read
    before extraction edits the trees): the outermost subtrees that at least
    ``SHARED_FRACTION`` of the pages hold (the template's shared parts), kept when at least
    that share of the pages holds them at the same path."""
    need = max(1, math.ceil(SHARED_FRACTION * model.pages))
    core = {h for h, c in model.count.items() if c >= need}
    held: Counter[Anchor] = Counter()
    size: dict[Anchor, int] = {}
    for root, steps, sigs in pages:
        found: set[Anchor] = set()
        stack = [page_base(root)]
        while stack:
            el = stack.pop()
            for child in structural_children(el):
                h = sigs.get(child)
                if h is None or h not in core:
                    stack.append(child)
                    continue
                key = container_key(child, steps, root)
                if key:
                    anchor = (key, h)
                    found.add(anchor)
                    size.setdefault(anchor, sum(1 for _ in child.iter(etree.Element)))
        held.update(found)
    kept = [a for a, c in held.items() if c >= need]
    kept.sort(key=lambda a: (-held[a], size[a], a))
    # Spread over the page's regions (header, menu, footer...: the first step below the
    # wrappers every anchor sits in), so that one region that other layouts share too (a
    # crawler's toolbar, a common header) cannot make up most of the anchors; remaining
    # places go in order.
    split = len(common_container([key for key, _h in kept]))
    chosen: list[Anchor] = []
    per_region: Counter[tuple[Step, ...]] = Counter()
    for anchor in kept:
        region = anchor[0][:split + 1]
        if len(chosen) < MAX_ANCHORS and per_region[region] < ANCHORS_PER_REGION:
            chosen.append(anchor)
            per_region[region] += 1
    chosen += [a for a in kept if a not in chosen][:MAX_ANCHORS - len(chosen)]
    return tuple(chosen)


def anchor_coverage(page: PathFinder, anchors: Sequence[Anchor], *,
                    above: float | None = None, enough: float | None = None) -> float:
    """Share of ``anchors`` the page holds at their paths (0 when there are none).

    A caller that only needs to know whether the share passes a mark stops the hashing early:
    ``above``: once the share cannot exceed it, a value no higher is returned; ``enough``:
    once the share held so far reaches it, that share is returned (a lower bound)."""
    if not anchors:
        return 0.0
    n = len(anchors)
    held = 0
    for i, (key, h) in enumerate(anchors):
        el = page.find(key)
        if el is not None and page.signature(el) == h:
            held += 1
            if enough is not None and held / n >= enough:
                return held / n
        elif above is not None and (held + n - i - 1) / n <= above:
            return (held + n - i - 1) / n
    return held / n


def common_container(keys: Sequence[tuple[Step, ...]]) -> tuple[Step, ...]:
    """The longest path every key starts with: the deepest element holding every page's main
    block. One page whose block sits elsewhere widens the container rather than losing text."""
    if not keys:
        return ()
    prefix = keys[0]
    for key in keys[1:]:
        n = 0
        while n < min(len(prefix), len(key)) and prefix[n] == key[n]:
            n += 1
        prefix = prefix[:n]
    return prefix


def find_container(
    root: etree._Element, key: Sequence[Step], *, labels: RelaxedLabels | None = None
) -> etree._Element | None:
    """The element at ``key`` in a new page, None when the page has no such path."""
    return PathFinder(root, labels=labels).find(key)
