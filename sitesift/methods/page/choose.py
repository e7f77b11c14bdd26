"""Choosing the main block: the element whose units score best, prose for, links and labels
against.

``choose`` scores every element (a run of siblings may win inside a page-wide cell, data tables
are not penalised as labels); ``widen`` lets a split article win through its parent. The
landmark functions (``main_landmark``, ``landmark_of_sections``, ``landmark_of_other``) and
``product_region`` then take the page's own statement of where its content is (``<main>``,
an item on sale's region) over the score where that statement holds.
"""

from __future__ import annotations

import re

from lxml import etree

from sitesift.methods.page.units import Unit, best_sibling_run
from sitesift.parse.dom import (
    text_content,
    text_weight,
)

#: When choosing the container: link text inside prose counts against it at this rate
#: (news prose links a lot, but a paragraph that is all links is a menu)...
PROSE_LINK_PENALTY = 0.5
#: ...link text outside prose (menus, link lists) at this rate...
LINK_PENALTY = 1.0
#: ...and short unpunctuated text outside links (labels, dates, table cells) at this rate,
#: low because data tables and lists of short items can be main content.
LABEL_PENALTY = 0.2
#: A table of this many rows of several cells, whose text is at most this share links, is
#: data (prices, rankings, specs): its cells are not penalised as labels when the main block
#: is chosen. Char F1 on modern-dev half a 0.8778 -> 0.8793, the same for 2, 3 or 5 rows.
DATA_TABLE_MIN_ROWS = 3
DATA_TABLE_MAX_LINK_SHARE = 0.2
#: On a page with a prose body, a block holding less than this share of the prose of the
#: main landmark around it is one section of the landmark's content, which is taken instead
#: (``landmark_of_sections``). Simulated on modern-dev (the pruned landmark against the
#: page's text, detail pages): 0.6 / 0.7 / 0.8 / 0.9 change 2 / 3 / 4 / 5 pages, mean page
#: char F1 summed +0.53 / +0.53 / +0.51 / +0.57, all in half a.
SECTION_MAX_LANDMARK_SHARE = 0.7
#: A main block holds at least this share of the page's prose, else its ancestor does. Char F1
#: on modern-dev half a for 0.3 / 0.5 / 0.7: 0.870 / 0.872 / 0.871 (0.870 without).
MAIN_MIN_PROSE_SHARE = 0.5

#: A run of siblings replaces their parent only when leaving out the rest gains at least this
#: share of the run's score: a trailing list of short items is not reason enough.
RUN_MIN_GAIN = 0.3
#: Prose inside an element marked up as the article body (schema.org ``itemprop``) counts this
#: many times: the page's own statement of where its text is.
MARKED_BODY_BOOST = 2.0
#: ``itemprop`` values that mark the main text.
BODY_ITEMPROPS = frozenset({"articleBody", "articlebody", "text", "reviewBody"})
_LIST_TAGS = frozenset({"ul", "ol", "dl", "menu", "dir", "table", "tbody", "thead", "tfoot", "tr"})


def _data_cells(body: etree._Element) -> set[etree._Element]:
    """Cells of data tables: at least ``DATA_TABLE_MIN_ROWS`` rows of several cells, few
    links, no table nested inside (layout tables nest). A figure in a ranking's cell is the
    article's data, not a label around it."""
    cells: set[etree._Element] = set()
    for table in body.iter("table"):
        if any(inner is not table for inner in table.iter("table")):
            continue
        rows = [tr for tr in table.iter("tr")
                if sum(1 for cell in tr if cell.tag in ("td", "th")) >= 2]
        if len(rows) < DATA_TABLE_MIN_ROWS:
            continue
        text = text_weight(text_content(table))
        linked = sum(text_weight(text_content(a)) for a in table.iter("a"))
        if text and linked <= DATA_TABLE_MAX_LINK_SHARE * text:
            cells.update(table.iter("td", "th"))
    return cells


def choose(body: etree._Element, units: list[Unit]) -> etree._Element:
    """The element, or run of sibling elements, maximising good minus penalised bad text.

    A run of siblings wins when the article's paragraphs sit directly in a page-wide cell or
    body next to link tables: it is wrapped in a new ``div`` (the tree is ours to edit).
    """
    marked: set[etree._Element] = set()
    for el in body.iter(etree.Element):
        if el.get("itemprop") in BODY_ITEMPROPS and el not in marked:
            marked.update(el.iter(etree.Element))
    cells = _data_cells(body)
    own: dict[etree._Element, float] = {}
    for unit in units:
        links = unit.link_weight
        if unit.is_prose():
            value = unit.weight - links - PROSE_LINK_PENALTY * links
            if unit.block in marked:
                value *= MARKED_BODY_BOOST
        else:
            label = 0.0 if unit.block in cells else LABEL_PENALTY
            value = -LINK_PENALTY * links - label * (unit.weight - links)
        own[unit.block] = own.get(unit.block, 0.0) + value
    score: dict[etree._Element, float] = {}
    best, best_score = body, float("-inf")
    best_run: tuple[etree._Element, int, int] | None = None
    for el in reversed(list(body.iter(etree.Element))):
        value = own.get(el, 0.0)
        children = [score.get(child, 0.0) for child in el]
        value += sum(children)
        score[el] = value
        # Strictly greater: among equal scores the deepest (first in post-order) wins.
        if value > best_score:
            best, best_score, best_run = el, value, None
        if len(children) >= 2 and own.get(el, 0.0) <= 0 and el.tag not in _LIST_TAGS:
            run, start, end = best_sibling_run(children)
            if end - start >= 2 and run > best_score and \
                    run - value >= RUN_MIN_GAIN * run:
                best, best_score, best_run = el, run, (el, start, end)
    if best_score <= 0:
        # No prose anywhere (a page of links): no element is main text; the body, pruned of
        # its link lists, is all there is.
        return body
    if best_run is None:
        return best
    parent, start, end = best_run
    members = list(parent)[start:end]
    # Made by the tree's own parser (``makeelement``): an ``HtmlElement`` like every other
    # element of the page, where ``etree.Element`` made a bare ``_Element`` without
    # ``text_content()`` that later steps of ``auto`` failed on.
    wrapper = parent.makeelement("div", {})
    members[0].addprevious(wrapper)
    for member in members:
        wrapper.append(member)  # moves the element with its tail
    return wrapper


def widen(main: etree._Element, body: etree._Element, prose: dict[etree._Element, int],
           named: list[etree._Element]) -> etree._Element:
    """The chosen block, or its nearest ancestor holding ``MAIN_MIN_PROSE_SHARE`` of the
    page's prose when it holds less: a winner that is a small part of the prose (one section
    of a course page, one answer of a help page) is one piece of a text split across blocks.
    Prose in containers named as boilerplate (``named``: a footer of disclaimers kept for its
    length) is no part of that text."""
    total = prose.get(body, 0) - sum(
        prose.get(el, 0) for el in named
        if not is_within(main, el) and not any(is_within(el, other) for other in named
                                             if other is not el)
    )
    node = main
    while node is not body and prose.get(node, 0) < MAIN_MIN_PROSE_SHARE * total:
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node


def prose_ancestors(units: list[Unit]) -> set[etree._Element]:
    """Every element that contains a prose unit: removing one would lose main text."""
    keep: set[etree._Element] = set()
    for unit in units:
        if unit.is_prose():
            el: etree._Element | None = unit.block
            while el is not None and el not in keep:
                keep.add(el)
                el = el.getparent()
    return keep


def main_landmark(body: etree._Element) -> etree._Element | None:
    """The page's one ``<main>`` (or ``role=main``) element, where the author says its dominant
    content is; None when there is none or several."""
    found = [el for el in body.iter(etree.Element) if el.tag == "main" or el.get("role") == "main"]
    return found[0] if len(found) == 1 else None


def landmark_of_sections(body: etree._Element, main: etree._Element,
                          prose: dict[etree._Element, int]) -> etree._Element:
    """The main landmark holding the block chosen, when that block holds less than
    ``SECTION_MAX_LANDMARK_SHARE`` of the landmark's prose: the author's main content is
    several sections (a service page's offer, its process, its cases), of which the block
    is one; else the block."""
    landmark = main_landmark(body)
    if landmark is None or landmark is main or not is_within(main, landmark):
        return main
    if prose.get(main, 0) >= SECTION_MAX_LANDMARK_SHARE * prose.get(landmark, 0):
        return main
    return landmark


def landmark_of_other(body: etree._Element, main: etree._Element) -> etree._Element:
    """On a page of type "other" (no prose body, no list: a product's specifications, a
    shop's item page), the main landmark holding the block chosen, else that block. Without
    prose the choice is a small part of what the page shows (a shipping notice beside an
    item's details), and the author's landmark is the better statement of where the content
    is. On modern-dev this changes 5 pages, each for the better (mean page char F1 +0.11 on
    them; all in half b, none of half a's pages is such a page); the landmark on every page
    costs news precision (tried and dropped). An ``<article>`` around the block, inside the
    landmark, is the author's narrower statement (a composition of its own beside the
    landmark's asides): the block stands."""
    landmark = main_landmark(body)
    if landmark is None or not is_within(main, landmark):
        return main
    el = main
    while el is not None and el is not landmark:
        if el.tag == "article":
            return main
        el = el.getparent()
    return landmark


#: A product page's main landmark is its content when it holds at least this much text (a
#: paragraph's worth; weighted characters): less is a shell a script fills. A guard, not a
#: tuned value: on modern-dev the 28 pages read as product pages that have a landmark hold
#: 765-21,137 in it, so any value up to 765 selects the same pages.
PRODUCT_LANDMARK_MIN_WEIGHT = 200


#: The label of the control that puts an item in the basket ("Add to cart", "Add to bag",
#: "Buy now"): the page of an item on sale shows one (two with a sticky bar); a shop's grid
#: shows one per card.
_BUY_LABEL = re.compile(r"^\W*(add to (cart|bag|basket|trolley)|buy (it )?now)\W*$", re.IGNORECASE)
#: At most this many buy controls: one item on sale (a grid of cards shows one for each).
#: modern-dev: 1-2 on 13 product pages (a sticky bar repeats the button) and one article
#: (output unchanged), 4 on one product page, 9-48 on shop grids and on product pages whose
#: carousels of other items each have a button (10, 13): 2 to 8 select the same pages.
BUY_MAX_CONTROLS = 2


def sells_one_item(root: etree._Element) -> bool:
    """Whether the page shows one control buying one item (``_BUY_LABEL``), read before
    cleaning (buttons are no text): an item on sale whose page declares nothing."""
    found = 0
    for el in root.iter("button", "input", "a"):
        label = el.get("value") or "" if el.tag == "input" else text_content(el)
        if len(label) < 40 and _BUY_LABEL.match(" ".join(label.split())):
            found += 1
            if found > BUY_MAX_CONTROLS:
                return False
    return found > 0


def product_region(body: etree._Element, main: etree._Element) -> etree._Element:
    """On the page of an item on sale (declared: ``declared.PRODUCT_TYPES``), the main
    landmark, where the item's name, price, options, description and specifications sit
    together. Prose is no guide there: a description is a paragraph or two among data, and a
    newsletter's blurb or a reviews' summary can outweigh it (the block chosen may lie
    outside the landmark, or around it). The block chosen stands when there is no landmark,
    when the landmark holds less than ``PRODUCT_LANDMARK_MIN_WEIGHT`` (an empty shell a
    script fills), and when an ``<article>`` inside the landmark holds it
    (``landmark_of_other``)."""
    landmark = main_landmark(body)
    if landmark is None or text_weight(text_content(landmark)) < PRODUCT_LANDMARK_MIN_WEIGHT:
        return main
    if is_within(main, landmark):
        return landmark_of_other(body, main)
    return landmark


def is_within(el: etree._Element, node: etree._Element) -> bool:
    while el is not None:
        if el is node:
            return True
        el = el.getparent()
    return False
