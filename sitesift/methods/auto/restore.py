"""What the site's pages show to be story that the page extractor left out (``auto``).

The other way round, a *standfirst* (a dek, a teaser) printed right after the headline, outside
the block the page extractor chose, is one line of a sentence or more that most pages of the
cluster print at the same place: the story starts with it (``standfirsts``).
A paragraph the page extractor dropped (a last one read as a teaser) at a place where the
cluster's other pages keep every paragraph is given back (``dropped_paragraphs``).
"""

from __future__ import annotations

import itertools
import statistics
from collections import defaultdict
from collections.abc import Sequence

from lxml import etree

from sitesift.methods.auto.slots import (
    FIELD_MIN_DISTINCT,
    FIELD_MIN_PAGES,
    MIN_CLUSTER_PAGES,
    SLOT_DEPTH,
    _folded,
    _size,
)
from sitesift.output.render import to_text
from sitesift.parse.dom import BLOCK_TAGS, SKIP_TAGS
from sitesift.parse.signatures import RelaxedLabels, structural_children

__all__ = [
    "STANDFIRST_MIN_CHARS", "dropped_paragraphs", "headline_leads", "paragraph_places",
    "standfirsts",
]

#: Shortest median standfirst (characters without white space): a sentence, not a byline or
#: a dateline (those are field slots, under ``FIELD_MAX_CHARS``). Auto body char F1 whole/a/b:
#: none -> 40 or 80: big9-2009 0.9854/0.9880/0.9800 -> 0.9895/0.9921/0.9845 (arstechnica's
#: teasers, foxnews's h2 summaries), big9-2005 0.9866/0.9836/0.9928 -> 0.9875/0.9849/0.9928,
#: cleanportal, zh-sites, list-detail equal; 150 misses foxnews's (big9-2009 half b 0.9800).
STANDFIRST_MIN_CHARS = 80
#: Longest standfirst of several lines (highlights, less than half of it links): a dek, not
#: a second story or a sidebar. Auto body char F1 whole/a/b, none -> 1000: big9-2009
#: 0.9895/0.9921/0.9845 -> 0.9914/0.9921/0.9900 (cnn's "Story Highlights" beside a headline
#: alone in its column), big9-2005 0.9875/0.9849/0.9928 -> 0.9883/0.9860/0.9928; cleanportal,
#: zh-sites, list-detail, l3s-gn1, modern-dev equal.
STANDFIRST_MAX_CHARS = 1000
#: Labels a standfirst's place is told by: its own only, since the headline places it (the
#: wrappers above vary: four of cnn 2009's ten pages have another). Auto body char F1
#: whole/a/b: 4 or 2 labels: big9-2009 0.9914/0.9921/0.9900, big9-2005 0.9883/0.9860/0.9928;
#: 1: 0.9926/0.9921/0.9936 and 0.9884/0.9861/0.9928; cleanportal, zh-sites, list-detail equal.
STANDFIRST_SLOT_DEPTH = 1
HEADLINE_TAGS = frozenset({"h1", "h2", "h3"})
SUBHEADING_TAGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
#: Shortest median subheadline (a heading right after the headline, characters without white
#: space): a phrase, shorter than a standfirst's sentence. The page extractor takes it out
#: with the headline (``headline_leads`` reads it before). nymag 2009 prints its datelines
#: ("1/30/09 at 5:50 PM", 14) in such a heading; cnn 2005 its subheadlines (38 and more).
#: Auto body char F1 whole/a/b, none -> 30: big9-2005 0.9892/0.9861/0.9953 ->
#: 0.9895/0.9861/0.9963 (cnn); 0 would take nymag's datelines: big9-2009 half a 0.9921 ->
#: 0.9917; cleanportal, zh-sites, list-detail equal.
SUBHEADLINE_MIN_CHARS = 30


def headline_leads(root: etree._Element) -> dict[str, etree._Element]:
    """Each headline of the page (folded text) and the block right after it (or after the
    wrapper it is the only child of), read before the page extractor edits the tree: it
    takes the headline out of the main text, and often the subheadline under it too."""
    leads: dict[str, etree._Element] = {}
    for heading in root.iter(*HEADLINE_TAGS):
        key = _folded(heading.text_content())
        if not key or key in leads:
            continue
        start = heading
        parent = start.getparent()
        while (parent is not None and parent.tag not in ("body", "html")
               and len(structural_children(parent)) == 1):
            start, parent = parent, parent.getparent()
        nxt = start.getnext()
        while nxt is not None and (not isinstance(nxt.tag, str) or nxt.tag in SKIP_TAGS):
            nxt = nxt.getnext()
        if nxt is not None and nxt.tag in BLOCK_TAGS:
            leads[key] = nxt
    return leads


def _standfirst(root: etree._Element, title: str | None,
                nodes: Sequence[etree._Element],
                leads: dict[str, etree._Element] | None = None) -> etree._Element | None:
    """The block right after the page's headline (a heading printing ``title``, or the
    wrapper it is the only child of), outside the main block ``nodes``: a line of text, or a
    short block of lines that are not links (a story's highlights). ``leads``: the page's
    ``headline_leads``, read before the tree was edited (else the edited tree is read)."""
    want = _folded(title)
    if not want:
        return None
    nxt = (leads if leads is not None else headline_leads(root)).get(want)
    if nxt is None:
        return None
    inside = set(nodes)
    if any(a in inside for a in (nxt, *nxt.iterancestors())) or any(
            d in inside for d in nxt.iterdescendants()):
        return None  # already in the main text, or holding it
    if any(isinstance(d.tag, str) and d.tag in BLOCK_TAGS for d in nxt.iterdescendants()):
        size = _size(nxt.text_content())
        linked = sum(_size(a.text_content()) for a in nxt.iter("a"))
        if size > STANDFIRST_MAX_CHARS or linked * 2 >= size or any(
                True for _ in nxt.iter(*HEADLINE_TAGS)):
            return None
    return nxt


def standfirsts(pages: Sequence[tuple[etree._Element, str | None, Sequence[etree._Element]]],
                labels: RelaxedLabels | None = None,
                leads: Sequence[dict[str, etree._Element] | None] = ()) -> list[str | None]:
    """For each page of one cluster (its tree, title and main block's nodes), the standfirst
    the page extractor left out: the line right after the headline, where most of the
    cluster's pages print one of their own, a sentence or more long (a dek, a teaser), or a
    heading (a subheadline). The story starts with it; a page's main block held it on none
    of them. ``leads``: per page, its ``headline_leads`` read before the tree was edited."""
    labels = labels if labels is not None else RelaxedLabels()
    found: list[str | None] = [None] * len(pages)
    if len(pages) < MIN_CLUSTER_PAGES:
        return found
    by_slot: dict[tuple[str, ...], list[tuple[int, str]]] = defaultdict(list)
    for k, (root, title, nodes) in enumerate(pages):
        el = _standfirst(root, title, nodes, leads[k] if k < len(leads) else None)
        if el is None:
            continue
        text = to_text([el]).strip()
        if text:
            slot = tuple(labels.get(a)[0] for a in itertools.islice(
                (el, *el.iterancestors()), STANDFIRST_SLOT_DEPTH))
            by_slot[slot].append((k, text))
    for slot, held in by_slot.items():
        texts = [text for _, text in held]
        shortest = (SUBHEADLINE_MIN_CHARS if slot[0].split("[", 1)[0] in SUBHEADING_TAGS
                    else STANDFIRST_MIN_CHARS)
        if (len(held) >= max(2, FIELD_MIN_PAGES * len(pages))
                and len(set(texts)) >= FIELD_MIN_DISTINCT * len(texts)
                and statistics.median(_size(t) for t in texts) >= shortest):
            for k, text in held:
                found[k] = text
    return found


#: Shortest paragraph (characters without white space) the site's pages may give back to a
#: page: a sentence or more of running text, not a label or a "Read more" line.
RESTORE_MIN_CHARS = 100
#: Largest share of a paragraph given back that may be link text: running text, not a list
#: of links written as a paragraph.
RESTORE_MAX_LINK_SHARE = 0.3


def paragraph_places(root: etree._Element, labels: RelaxedLabels | None = None,
                     ) -> dict[etree._Element, tuple[str, ...]]:
    """Every paragraph of running text (``<p>``, ``RESTORE_MIN_CHARS`` or more, few links)
    and its place (the labels of it and its nearest ancestors), read before the page
    extractor edits the tree (it moves a run of paragraphs into a wrapper of its own).
    ``labels``: a label memo shared by the site's pages."""
    labels = labels if labels is not None else RelaxedLabels()
    places = {}
    for p in root.iter("p"):
        size = _size(p.text_content())
        if size < RESTORE_MIN_CHARS:
            continue
        linked = sum(_size(a.text_content()) for a in p.iter("a"))
        if linked > RESTORE_MAX_LINK_SHARE * size:
            continue
        places[p] = tuple(labels.get(a)[0] for a in itertools.islice(
            (p, *p.iterancestors()), SLOT_DEPTH))
    return places


def _top(el: etree._Element) -> etree._Element:
    """The top of ``el``'s tree: the page's root while ``el`` is in the page, else the top of
    the subtree a step cut out (lxml's ``getroottree`` still names the page's document)."""
    top = el
    for top in el.iterancestors():  # noqa: B007 - the last one is the top
        pass
    return top


def dropped_paragraphs(
    pages: Sequence[tuple[dict[etree._Element, tuple[str, ...]], Sequence[etree._Element]]],
) -> list[list[etree._Element]]:
    """For each page of one cluster (its ``paragraph_places`` and main block's nodes), the
    paragraphs its main text left out at a place that is the story's on the cluster's pages:
    this page keeps other paragraphs of that place, and at least two other pages keep every
    paragraph they have there, none leaving one out. What the page extractor dropped there
    (a last paragraph ending in an ellipsis read as a teaser) the site's pages show to be
    story. A paragraph a site step or the page extractor deleted is out of the tree and stays
    out. Auto body char F1 whole/a/b: big9-2005 0.9895/0.9861/0.9963 -> 0.9906/0.9878/0.9963
    (arstechnica intel-2's last paragraph, ending "The horror... the horror...", R 0.80 ->
    1.00); big9-2009, cleanportal, zh-sites, list-detail equal."""
    found: list[list[etree._Element]] = [[] for _ in pages]
    if len(pages) < MIN_CLUSTER_PAGES:
        return found
    status: list[dict[tuple[str, ...], tuple[list[etree._Element], list[etree._Element]]]] = []
    for places, nodes in pages:
        root = _top(nodes[0]) if nodes else None
        inside = {el for node in nodes for el in node.iter(etree.Element)}
        by_place: dict[tuple[str, ...], tuple[list[etree._Element], list[etree._Element]]] = \
            defaultdict(lambda: ([], []))
        for p, place in places.items():
            if p in inside:
                by_place[place][0].append(p)
            elif _top(p) is root and not any(
                    d in inside for d in p.iter(etree.Element)):
                by_place[place][1].append(p)
        status.append(by_place)
    for k, by_place in enumerate(status):
        for place, (kept, dropped) in by_place.items():
            if not kept or not dropped:
                continue
            others = [s[place] for j, s in enumerate(status) if j != k and place in s]
            whole = sum(1 for held, left in others if held and not left)
            if whole >= MIN_CLUSTER_PAGES - 1 and all(not left for _, left in others):
                found[k].extend(dropped)
    return found
