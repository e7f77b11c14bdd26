"""Step 7 of paper 004: applying the verdicts. The topmost noise blocks, their labels for the
explanation, and the page extractor's main block with them deleted (``clean_content``)."""

from __future__ import annotations

from dataclasses import replace

from lxml import etree

from sitesift.methods.page.content import Content
from sitesift.methods.siblings.site import Verdict
from sitesift.parse.dom import drop_keep_tail
from sitesift.parse.rows import labels_left
from sitesift.segment.blocks import Block

__all__ = ["clean_content", "leaf_labels", "noise_blocks", "remove_block", "within_varying"]

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


def within_varying(top: Block, verdicts: dict[int, Verdict],
                   nodes: tuple[etree._Element, ...]) -> list[Block]:
    """The noise blocks inside the varying region of the page extractor's main block
    (``nodes``): under it, with a leaf of text judged content under it both before and
    after them. What a site's template puts into its pages' main block sits at its edges (a
    byline, a share bar, a credit line); a block between two parts of the page's own text
    is there because the page put it there, and similar pages repeating it (shared code, a
    repeated paragraph, a note) does not make it the template's."""
    tops = set(nodes)

    def inside(block: Block) -> bool:
        return all(_under(el, tops) for el in (block.owner, *block.nodes))

    noise = noise_blocks(top, verdicts)
    owned = {id(leaf): block for block, _ in noise for leaf in block.leaves()}
    order = [leaf for leaf in top.leaves() if leaf.weight and inside(leaf)]
    kept = [k for k, leaf in enumerate(order) if id(leaf) not in owned]
    if len(kept) < 2:
        return []
    middle: dict[int, Block] = {}
    for k in range(kept[0] + 1, kept[-1]):
        block = owned.get(id(order[k]))
        if block is not None and inside(block):
            middle.setdefault(id(block), block)
    return list(middle.values())


def _under(el: etree._Element, tops: set[etree._Element]) -> bool:
    return el in tops or any(up in tops for up in el.iterancestors())


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
    method does, ``methods.template.site.delete_template``): the extractor picks the main
    block on the whole page, then what of it recurs in same-layer pages goes. A main block
    that lies inside a noise block goes whole (a page without an article of its own, whose
    extractor picked a notice every page shows). The very ``content`` given when no deletion
    reached its nodes' subtrees (``_reaches``): their text is the one rendered before."""
    noise = noise_blocks(top, verdicts)
    labels = labels_left([block.owner for block, _ in noise if not block.is_run])
    noise = [(block, verdict) for block, verdict in noise
             if block.is_run or block.owner not in labels]  # a row's label stays with its value
    owners = {block.owner for block, _ in noise if not block.is_run}
    kept = tuple(
        node for node in content.nodes
        if not any(el in owners for el in (node, *node.iterancestors()))
    )
    untouched = len(kept) == len(content.nodes) and not _reaches(content.nodes, noise)
    for block, _ in noise:
        remove_block(block)
    return content if untouched else replace(content, nodes=kept)


def _reaches(nodes: tuple[etree._Element, ...], noise: list[tuple[Block, Verdict]]) -> bool:
    """Whether deleting ``noise`` edits a subtree of ``nodes`` (what their text is rendered
    from, their own tails left out). A deletion edits only the elements it names (a run's
    pieces, an element block's owner), their subtrees, and the sibling or parent its tail
    joins (``drop_keep_tail``); so one that names no element inside or above a node (an
    element above it would take the node's subtree with it) edits no node's subtree: a tail
    joins a sibling's tail or the parent's text, inside a node only where the element is.
    Deletions only detach, so what lies outside the nodes before stays outside."""
    above = set()  # the nodes and their ancestors
    for node in nodes:
        above.add(node)
        above.update(node.iterancestors())
    inside = set(nodes)
    for block, _ in noise:
        for el in (p[0] for p in block.pieces) if block.is_run else (block.owner,):
            if el in above or any(up in inside for up in el.iterancestors()):
                return True
    return False
