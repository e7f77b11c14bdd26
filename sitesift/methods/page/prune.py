"""Pruning inside the main block: what the chooser took along with the text.

``prune`` removes link lists, teasers (but the block's own cards, ``_own_cards``), sections
announced by a label ("Comments", "Reviews", "Related stories", ``_labelled_sections``) and
the labels before and after the prose (headline, byline, "Share this"), keeping linked lines
and glossaries that are text. ``drop_repeats`` removes a second copy of the story
(responsive layouts print it twice). Other methods prune a block they chose themselves
(a template's wrapper), so ``prune`` is public.
"""

from __future__ import annotations

import itertools
import re

from lxml import etree

from sitesift.methods.page.choose import prose_ancestors
from sitesift.methods.page.teasers import leads_elsewhere, mark_teasers
from sitesift.methods.page.units import Measures, Unit, blank, segment
from sitesift.parse.dom import (
    HEADING_TAGS,
    drop_keep_tail,
)

#: Inside the container, a block whose link share exceeds this and that is not prose is removed.
PRUNE_LINK_SHARE = 0.5
#: A comment label with more of its text in links than this is a "3 comments" link, not a
#: heading over the comments.
COMMENT_LABEL_MAX_LINK_SHARE = 0.5
#: After the last prose, a short unit with more links than this share is a label, not text.
TRAILING_MAX_LINK_SHARE = 0.3
#: Inside the block chosen, teasers holding at least this share of its prose (teasers and
#: the rest) are its own sections (``_own_cards``); a box of other pages' summaries beside a
#: story holds less. Char F1 on modern-dev half a for 0.1 / 0.2 / 0.3: 0.8925 / 0.8924 /
#: 0.8924 (0.8924 keeping every teaser out); whole 0.8634 -> 0.8642, half b 0.8329 ->
#: 0.8344; l3s-gn1 0.9054 -> 0.9059, scrapinghub and list-detail unchanged.
TEASER_OWN_MIN_SHARE = 0.1
#: A run of text at least this long (weighted characters, about a sentence) that repeats an
#: earlier run of the main content word for word may be a second copy, not more text:
#: responsive layouts render the story twice (a desktop and a mobile copy, one hidden by a
#: style sheet we do not read), CMS templates print the body twice...
REPEAT_MIN_WEIGHT = 80
#: ...when such repeats make up at least this share of the main content's text: a whole second
#: copy. Fewer repeats are the page's own (an FAQ shown twice, the same note under each
#: language tab of a quickstart), which the gold keeps. Char F1 on modern-dev half a (whole
#: set) for share 0 / 0.1 / 0.2 / 0.25 / 0.3 / 0.4: 0.8873 / 0.8875 / 0.8880 / 0.8884 /
#: 0.8881 / 0.8881 (0.8853 keeping repeats), simulated on output lines.
REPEAT_MIN_SHARE = 0.25
#: ...and at least this many repeated runs: a copy of a story is paragraphs, not a sentence
#: (a two-paragraph page whose paragraphs read alike stays as it is).
REPEAT_MIN_RUNS = 3

#: A mostly linked line inside the text keeps its place when at least this many characters
#: of it are outside its links (three or four words: ``_linked_line_of_text``). Char F1 on
#: modern-dev half a for 10 / 20 / 40: 0.8925 / 0.8925 / 0.8922 (0.8920 without); whole
#: 0.8631 -> 0.8634, half b 0.8326 -> 0.8329; l3s-gn1 0.9058 -> 0.9054, scrapinghub 0.9683
#: -> 0.9685, zh-news-dev 0.9693 -> 0.9687 (one page), list-detail unchanged.
LINKED_LINE_MIN_OWN_CHARS = 20

#: Labels that open a comment section: it and everything after it at its level is not main text.
#: "Response" alone, without a count, labels an API's response (a code sample, a field list:
#: docs.stripe.com's charges reference lost a third of its text), not readers' responses.
#: On modern-dev char F1 0.8670 -> 0.8676 (3 pages better); l3s-gn1, scrapinghub, list-detail
#: unchanged.
_COMMENTS_LABEL = re.compile(
    r"^\W*(\d+\s+)?(top rated |reader |readers' |user )?(comments?|responses|(?<=\d\s)response"
    r"|replies)"
    r"(\s*\(\d+\))?\W*$|^\W*(add|post|leave|write|show|view|read)( a| your| all)?( \d+)?"
    r" (comments?|reply|response)\b|^\W*(发表|网友|最新|热门|全部|我要)?(评论|跟贴|跟帖|留言)"
    r"(\W*\d*\W*)?$|^网友评论",
    re.IGNORECASE,
)
#: Labels that open the reviews of an item on sale ("Reviews", "Customer Reviews", "4,567
#: Reviews", "Reviews for Wool Runner", "Ratings & Reviews", "Be the first to review this
#: item"): on a product page, what follows are buyers' comments, not the item's description.
_REVIEWS_LABEL = re.compile(
    r"^\W*(based on )?([\d,.]+\s+)?([\w'’-]+\s+){0,2}(reviews?|ratings)"
    r"(\s*(&|and)\s*(reviews|ratings))?(\s+(for|of)\s+.{1,60})?(\s*\(\d[\d,]*\))?\W*$"
    r"|^\W*(write|read|see|show)( all| a)?( \d+)? reviews?\b|^\W*be the first to review\b",
    re.IGNORECASE,
)
#: Labels that open a box of links to other pages: the box (if it starts with one) is removed.
_RELATED_LABEL = re.compile(
    r"^\W*(related( \w+)?|recommended( \w+)?|(most )?(popular|read|viewed|shared|emailed)"
    r"( \w+)?|trending( \w+)?|(latest|recent|top) (news|stories|articles|posts|headlines|videos)"
    r"|more (stories|news|articles|videos|headlines|from [\w\s'’]+|on this( story| topic)?|"
    r"like this|in [\w\s'’]+)|you (may|might) (also )?like( \w+)?|read (more|next|also)|"
    r"also on [\w\s]+|see also|don'?t miss|further reading|editor'?s'? picks?|"
    r"相关\w*|推荐阅读|为您推荐|热门\w*|更多\w*|延伸阅读|猜你喜欢)\W*$",
    re.IGNORECASE,
)
#: Blocks that are items of a list or table.
_ITEM_TAGS = frozenset({"li", "dd", "dt", "td", "th"})


def _text(unit: Unit) -> str:
    return " ".join("".join(unit.pieces).split())


def _section_of(block: etree._Element, node: etree._Element,
                first_unit: dict[etree._Element, etree._Element]) -> etree._Element:
    """The largest ancestor of ``block`` below ``node`` whose text starts with ``block``."""
    section = block
    parent = section.getparent()
    while parent is not None and parent is not node and first_unit.get(parent) is block:
        section = parent
        parent = section.getparent()
    return section


def _labelled_sections(node: etree._Element, units: list[Unit], keep: set[etree._Element],
                       product: bool = False) -> list[etree._Element]:
    """Comment sections and link boxes announced by a label ("Comments", "Related stories");
    on a product page (``product``) its reviews too (``_REVIEWS_LABEL``)."""
    first_unit: dict[etree._Element, etree._Element] = {}
    for unit in units:
        el: etree._Element | None = unit.block
        while el is not None and el is not node and el not in first_unit:
            first_unit[el] = unit.block
            el = el.getparent()
    doomed: list[etree._Element] = []
    prose_seen = False
    for unit in units:
        if unit.is_prose():
            prose_seen = True
            continue
        if not prose_seen or unit.weight > 80:
            continue
        text = _text(unit)
        if (_COMMENTS_LABEL.match(text) or (product and _REVIEWS_LABEL.match(text))) and \
                unit.link_share <= COMMENT_LABEL_MAX_LINK_SHARE:
            # A heading, not a "3 comments" link in the byline: the comments follow it.
            section = _section_of(unit.block, node, first_unit)
            doomed.append(section)
            doomed.extend(sib for sib in section.itersiblings() if isinstance(sib.tag, str))
        elif _RELATED_LABEL.match(text):
            section = _section_of(unit.block, node, first_unit)
            if section is not unit.block or section not in keep:
                doomed.append(section)
    return doomed


def _is_trailing_label(unit: Unit) -> bool:
    """After the text: a label ("Share this", "Like this:", "Tags") or links, not a closing
    sentence such as "Thanks for reading!"."""
    if unit.link_share > TRAILING_MAX_LINK_SHARE or not unit.punct:
        return True
    return _text(unit).endswith((":", "："))


def _titles_prose(units: list[Unit], i: int) -> bool:
    """A heading followed by prose titles that prose, linked or not (a review's "1. The Book
    by Its Author" linking to a shop)."""
    return units[i].block.tag in HEADING_TAGS and i + 1 < len(units) and \
        units[i + 1].is_prose()


def _describes(units: list[Unit], i: int) -> bool:
    """A term (``dt``) followed by its description (``dd``) in words of its own: a reference
    page's member name ("WebSocket.send()", linked to its page) heads what it does."""
    if i + 1 >= len(units) or _term_item(units[i].block) != "dt":
        return False
    return _term_item(units[i + 1].block) == "dd" and \
        units[i + 1].link_share <= PRUNE_LINK_SHARE


def _linked_line_of_text(units: list[Unit], i: int, prose_at: list[int]) -> bool:
    """A mostly linked line inside the text (between its first and last prose) with words of
    its own outside the links: a list entry naming a linked place ("Flagship hotels: <a>,
    <a>"), a sentence pointing to a source. A menu or a tag list has no words between its
    links, and a heading is a title (``_titles_prose`` decides those)."""
    unit = units[i]
    return bool(prose_at) and prose_at[0] < i < prose_at[-1] and \
        unit.block.tag not in HEADING_TAGS and \
        unit.chars - unit.link_chars >= LINKED_LINE_MIN_OWN_CHARS


def _is_anchored_heading(unit: Unit) -> bool:
    """A heading whose link is its own anchor ("#instance_properties", for sharing the place):
    a section's title, not a link to another page."""
    return unit.block.tag in HEADING_TAGS and unit.block.find(".//a") is not None and \
        not leads_elsewhere(unit.block)


def _term_item(block: etree._Element) -> str | None:
    """"dt" or "dd" when the block is (or sits in) that item of a description list."""
    for el in itertools.chain((block,), block.iterancestors()):
        if el.tag in ("dt", "dd"):
            return el.tag
        if el.tag == "dl":
            return None
    return None


def _is_glossary(dl: etree._Element, by_block: dict[etree._Element, Unit]) -> bool:
    """A description list whose descriptions are mostly unlinked text: terms with what they
    mean (a reference's members, a glossary), however linked the terms. A menu in a ``dl``
    describes nothing: its ``dd``s are links too."""
    chars = links = 0
    for dd in dl.iter("dd"):
        for sub in dd.iter(etree.Element):
            unit = by_block.get(sub)
            if unit is not None:
                chars += unit.chars
                links += unit.link_chars
    return bool(chars) and links <= PRUNE_LINK_SHARE * chars


def _own_cards(units: list[Unit]) -> None:
    """Unmark the teasers of a block whose prose is ``TEASER_OWN_MIN_SHARE`` or more teasers:
    the block was chosen for that prose, so its cards are its sections (a guide's chapter
    cards, a listicle's entries under linked names, a feature page's tiles), not a box of
    other pages' summaries beside a story."""
    teasers = sum(unit.weight for unit in units if unit.teaser)
    if not teasers:
        return
    own = sum(unit.weight for unit in units if unit.is_prose())
    if teasers >= TEASER_OWN_MIN_SHARE * (teasers + own):
        for unit in units:
            unit.teaser = False


def prune(node: etree._Element, *, product: bool = False,
          memo: Measures | None = None) -> None:
    """Remove link lists, teasers, labelled comment and link sections, and the labels before
    and after the text (in place). Public for the template method's wrappers, which
    replay the choice of the main block and then prune it as this method does.
    ``product``: the node is the page of an item on sale (``product_region``). Its labels
    are the item's data, read as its content: name, price and options before the
    description, specifications (names and values, shipping and returns) after it; they
    stay. Its reviews go, as a story's comments do. ``memo``: as for ``segment``."""
    units = segment(node, memo)
    mark_teasers(units)
    _own_cards(units)
    keep = prose_ancestors(units)
    by_block: dict[etree._Element, Unit] = {u.block: u for u in units}
    doomed: list[etree._Element] = _labelled_sections(node, units, keep, product)
    dropped: list[Unit] = []
    prose_at = [i for i, unit in enumerate(units) if unit.is_prose()]
    for i, unit in enumerate(units):
        if unit.teaser or (unit.link_share > PRUNE_LINK_SHARE and not unit.is_prose() and \
                not _titles_prose(units, i) and not _describes(units, i) and \
                not _is_anchored_heading(unit) and not _linked_line_of_text(units, i, prose_at)):
            dropped.append(unit)
    # Leading and trailing labels: headline, byline, date, "Share this", "Comments".
    if prose_at and not product:
        dropped.extend(units[: prose_at[0]])
        # List items and table cells after the text are usually its own list or table.
        dropped.extend(
            unit for unit in units[prose_at[-1] + 1:]
            if unit.block.tag not in _ITEM_TAGS and _is_trailing_label(unit)
        )
    for unit in dropped:
        if unit.block in keep:
            blank(unit)  # the block holds prose too: remove just this run
        else:
            doomed.append(unit.block)
    # Lists and tables that are mostly links as a whole.
    for el in node.iter("ul", "ol", "table", "dl"):
        if el is node or el in keep or (el.tag == "dl" and _is_glossary(el, by_block)):
            continue
        chars = links = 0
        for sub in el.iter(etree.Element):
            unit = by_block.get(sub)
            if unit is not None:
                chars += unit.chars
                links += unit.link_chars
        if chars and links / chars > PRUNE_LINK_SHARE:
            doomed.append(el)
    for el in doomed:
        if el.getparent() is not None and el is not node:
            drop_keep_tail(el)


#: On an item's page every run of text of at least this weight that repeats an earlier one
#: goes, however little of the page the repeats make: its buy box is printed again for the
#: sticky bar and for small screens ("Free Shipping & Returns", "COLOR: Royal Black"), where
#: a story's repeated note or FAQ is the story's. Product mean char F1 on modern-dev half a
#: (8 pages) for 80 / 40 / 20 / 10: 0.749 / 0.755 / 0.756 / 0.757 (0.743 keeping repeats),
#: half b 0.551 / 0.549 / 0.551 / 0.552 (0.550): 20, about a label with its value, where
#: half a flattens (at 10, short specification lines a page repeats on purpose go too).
PRODUCT_REPEAT_MIN_WEIGHT = 20


def drop_repeats(node: etree._Element, *, product: bool = False,
                  memo: Measures | None = None) -> None:
    """Blank the runs of text that repeat earlier runs of at least ``REPEAT_MIN_WEIGHT`` when
    they add up to a second copy (``REPEAT_MIN_SHARE``), in place: a reader reads a story once,
    however many copies the markup holds. Code is left alone: examples repeat lines on purpose.
    ``product``: on an item's page every repeat of ``PRODUCT_REPEAT_MIN_WEIGHT`` goes.
    ``memo``: as for ``segment``."""
    units = segment(node, memo)
    code: set[etree._Element] = set()
    for pre in node.iter("pre"):
        code.update(pre.iter(etree.Element))
    seen: set[str] = set()
    repeats: list[Unit] = []
    for unit in units:
        if unit.weight < (PRODUCT_REPEAT_MIN_WEIGHT if product else REPEAT_MIN_WEIGHT) or \
                unit.block in code:
            continue
        key = "".join(_text(unit).split())
        if key in seen:
            repeats.append(unit)
        else:
            seen.add(key)
    total = sum(unit.weight for unit in units)
    if product or (len(repeats) >= REPEAT_MIN_RUNS and
                   sum(unit.weight for unit in repeats) >= REPEAT_MIN_SHARE * total):
        for unit in repeats:
            blank(unit)
