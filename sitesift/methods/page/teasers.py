"""Teasers: summaries of other pages (repeated cards with a linked headline, excerpts cut
off with an ellipsis).

A teaser can be prose-like (a sentence or two under a headline) and would otherwise count as
the page's own text, so ``mark_teasers`` flags their units before the main block is chosen
and pruned; ``leads_elsewhere`` tells a block that only points to another page.
"""

from __future__ import annotations

from lxml import etree

from sitesift.methods.page.clean import outermost_of
from sitesift.methods.page.units import Unit, cut_off, signature
from sitesift.parse.dom import (
    HEADING_TAGS,
    text_content,
    text_weight,
)

#: A repeated item (teaser, card, list entry) is an element with at least this many siblings
#: of the same tag and class...
TEASER_MIN_SIBLINGS = 3
#: ...holding a link-only unit (its headline) at least this long: its prose is a teaser.
TEASER_MIN_HEADLINE = 15
#: A unit whose text ends with an ellipsis is a cut-off teaser if shorter than this.
TEASER_MAX_ELLIPSIS_WEIGHT = 600
#: ...unless it has no link and has at least this many characters.
TEASER_MAX_UNLINKED_CHARS = 200
#: Repeated items holding more than this share of the page's prose are its text (a thread's
#: posts), not teasers. Mean char F1 on modern-dev half a for 0.5 / 0.6 / 0.7 / 0.8 / 0.9:
#: 0.872 / 0.867 / 0.867 / 0.864 / 0.861; short stories beside a box of headlines with
#: summaries (l3s-gn1) reach 0.6, so the flat part's upper end.
TEASER_MAX_PROSE_SHARE = 0.7
#: An item holding more prose than this for each headline in it is a section of the page (a
#: listicle's entry under its linked name), not a summary of another page: a teaser is a
#: headline and a sentence or two.
#: Char F1 on modern-dev half a for 200 / 300 / 400 / 600 / none: 0.8742 / 0.8744 / 0.8737 /
#: 0.8726 / 0.8716. (Per headline: l3s-gn1's boxes of four headlines with summaries stay teasers.)
TEASER_MAX_ITEM_PROSE = 300
#: A linked unit at least this share of whose text is code names a symbol, not a story.
CODE_NAME_MIN_SHARE = 0.9


def mark_teasers(units: list[Unit]) -> None:
    """Flag prose units that summarise other pages: cut off with an ellipsis, or inside a
    repeated item (card, list entry) that has its own linked headline."""
    headline_blocks = _mark_excerpts(units)
    groups, titled = _repeated_items(headline_blocks)
    if not groups:
        return
    _mark_items(units, _items_of(units, groups), titled, headline_blocks)


def _mark_excerpts(units: list[Unit]) -> list[etree._Element]:
    """Flag the units cut off with an ellipsis; return the blocks of the linked headlines
    (to another page, not a symbol's name) that may title repeated items."""
    headline_blocks: list[etree._Element] = []
    for unit in units:
        if unit.link_share >= 0.9 and unit.chars >= TEASER_MIN_HEADLINE and \
                leads_elsewhere(unit.block) and not _names_code(unit):
            headline_blocks.append(unit.block)
        # (A heading is no excerpt, however it ends: "Here a Book, There a Book.....")
        if unit.block.tag not in HEADING_TAGS and unit.weight < TEASER_MAX_ELLIPSIS_WEIGHT and \
                unit.pieces and cut_off(unit.pieces[-1]) and \
                (unit.link_chars or unit.chars < TEASER_MAX_UNLINKED_CHARS):
            # Cut off and linked (or short): an excerpt. A long unlinked paragraph that
            # trails off "…" is the writer's style.
            unit.teaser = True
    return headline_blocks


def _repeated_items(headline_blocks: list[etree._Element],
                    ) -> tuple[set[etree._Element], set[etree._Element]]:
    """The repeated items (cards, list entries) that hold a headline each, and those of them
    whose headline is a heading."""
    # Items: the ancestor of each headline a few levels up whose parent holds at least
    # TEASER_MIN_SIBLINGS same-signature children that *each* have a headline.
    found: dict[tuple[etree._Element, tuple[str, str], int], set[etree._Element]] = {}
    # Items whose linked headline is a heading: the title of another page, by markup.
    titled: set[etree._Element] = set()
    for block in headline_blocks:
        el: etree._Element | None = block
        for level in range(4):  # a headline sits a few levels inside its card
            if el is None:
                break
            parent = el.getparent()
            if parent is None:
                break
            found.setdefault((parent, signature(el), level), set()).add(el)
            if block.tag in HEADING_TAGS:
                titled.add(el)
            el = parent
    groups: set[etree._Element] = set()
    for (_parent, sig, _level), members in found.items():
        if len(members) >= TEASER_MIN_SIBLINGS and sig[0] not in ("p", "span", "a", "br"):
            groups.update(members)
    return groups, titled


def _items_of(units: list[Unit], groups: set[etree._Element]) -> list[etree._Element | None]:
    """Each unit's repeated item (a few levels up), or None."""
    member_of: list[etree._Element | None] = []
    for unit in units:
        el = unit.block
        found_member = None
        for _ in range(5):
            if el is None:
                break
            if el in groups:
                found_member = el
                break
            el = el.getparent()
        member_of.append(found_member)
    return member_of


def _mark_items(units: list[Unit], member_of: list[etree._Element | None],
                titled: set[etree._Element], headline_blocks: list[etree._Element]) -> None:
    """The verdict on the items: flag the units of those that summarise another page."""
    # Summaries sit beside a page's own text. Items without a titling heading that hold
    # nearly all the page's prose are its text: a thread's posts, each with a linked name.
    prose = [unit.weight if unit.is_prose() else 0 for unit in units]
    total = sum(prose)
    held = sum(w for w, member in zip(prose, member_of, strict=True)
               if member is not None and member not in titled)
    untitled_are_text = total and held > TEASER_MAX_PROSE_SHARE * total
    # Prose per headline of an item: a box of several headlines is one item of its row.
    item_prose: dict[etree._Element, int] = {}
    for w, member in zip(prose, member_of, strict=True):
        if member is not None:
            item_prose[member] = item_prose.get(member, 0) + w
    heads = set(headline_blocks)
    for member in item_prose:
        n = sum(1 for el in member.iter(etree.Element) if el in heads)
        item_prose[member] //= max(n, 1)
    for unit, member in zip(units, member_of, strict=True):
        if member is not None and item_prose[member] <= TEASER_MAX_ITEM_PROSE and \
                (member in titled or not untitled_are_text):
            unit.teaser = True


def _names_code(unit: Unit) -> bool:
    """Whether the unit's text is set as code (``<code>``): a linked identifier names a
    symbol ("WebSocket.send()", a reference page's member), not another page's story."""
    code = sum(text_weight(text_content(el)) for el in outermost_of(unit.block, "code"))
    return code >= CODE_NAME_MIN_SHARE * unit.chars


def leads_elsewhere(block: etree._Element) -> bool:
    """Whether a link in (or around) the block leads to another page: a headline's. Links to
    a place on this page (a section's anchor, "#" for a script) title nothing elsewhere."""
    links = list(block.iter("a"))
    if not links:  # a card's link may wrap its headline block
        links = [el for el in block.iterancestors("a")][:1]
    for link in links:
        href = (link.get("href") or "").strip()
        if not href.startswith(("#", "javascript:")):
            return True
    return False
