"""What the page method drops before it measures anything: never main text.

``clean`` removes scripts, entry forms and hidden elements (but keeps blocks hidden only to be
revealed by a click, and folded sections, ``_revealed`` and ``_folded``), and
``drop_hinted`` removes containers whose class or id names boilerplate (navigation, share
bars, comments, related links, ads, consent banners) unless their prose outvotes the name
(``_outvoted_hints``, ``_spare_prose``): a wrapper named "main-with-sidebar" holds the story.
Dropping these first keeps their text from weighing on the choice of the main block.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from lxml import etree

from sitesift.parse.dom import (
    HEADING_TAGS,
    NEGATIVE_HINTS,
    POSITIVE_HINTS,
    SKIP_TAGS,
    class_id,
    drop_keep_tail,
    has_hint,
    hint_tokens,
    is_hidden,
    name_tokens,
    text_content,
    text_weight,
)

#: A boilerplate-hinted container is still kept when it holds this share of the page's prose
#: (a wrapper named "main-with-sidebar" holds the article).
HINT_KEEP_SHARE = 0.6
#: Named containers may remove at most this share of the page's prose: beyond it, prose
#: outvotes names (``_spare_prose``)...
HINT_MIN_LEFT_SHARE = 0.2
#: ...except the names of the site's chrome and overlays, which no page's text sits in (and
#: comments, which stay comments beside a story however short: ``DISCUSSION_HINTS``).
CHROME_HINTS = frozenset({
    "nav", "navbar", "navigation", "subnav", "menu", "breadcrumb", "breadcrumbs", "crumbs",
    "footer", "foot", "header", "masthead", "topbar", "modal", "popup", "overlay", "cookie",
    "cookies", "consent", "gdpr", "login", "signup", "subscribe", "newsletter", "skip",
    "sitemap", "copyright", "logo", "sidebar", "secondary", "rail", "right-rail",
})
#: Names of notices about the site itself (cookie and consent banners): never a page's text,
#: however much of its prose they hold (on a page whose own text is a list or a form).
NOTICE_HINTS = frozenset({"cookie", "cookies", "consent", "gdpr"})
#: Of those, the words no text container is named with, whatever word marks it as content
#: beside them ("page-notice gdpr-banner"): a "cookie" may be a recipe's.
CONSENT_HINTS = frozenset({"consent", "gdpr"})
#: Containers never kept for their prose: those notices, and the page's footer, whose legal
#: lines and disclaimers can outweigh the prose of a product or list page. On modern-dev the
#: footer words change 7 pages, each for the better (mean page F1 +0.25 on them); half a's
#: char F1 of mean P and mean R moves 0.8859 -> 0.8853 (one page trades precision for recall),
#: half b 0.8199 -> 0.8261.
NEVER_KEPT_HINTS = NOTICE_HINTS | {"footer", "foot", "copyright"}
#: Hint words that name a layout device, not a boilerplate function: page builders and CSS
#: frameworks put them on any block (Elementor and HubSpot wrap every section in a "widget",
#: Tailwind's "overflow-hidden", a "jump-section", "kt-adv-heading"). Weak evidence: inside a
#: compound class name they do not count (``_hints``), and prose outvotes them page by page
#: (``_outvoted_hints``). Words naming a function (nav, comments, related, modal, gallery...)
#: stay strong: kept as weak, "modal-window" and "asset_gallery" blocks leaked into
#: scrapinghub's stories (char F1 0.967 -> 0.962).
WEAK_HINTS = frozenset({
    "widget", "banner", "hidden", "meta", "tools", "toolbar", "header", "topbar", "secondary",
    "listing", "jump", "adv",
})
#: Words naming a box about the writer (photo, biography, links to their other posts:
#: "author-box", "vcard author", "about-author"): it speaks of who wrote the text, not the
#: text. Only on names without a main-text word ("entry-author" is a post's own byline, left
#: to the furniture rules). On modern-dev char F1 0.8628 -> 0.8631 (half a 0.8917 -> 0.8920,
#: half b 0.8323 -> 0.8326; 28 pages change, 4 lose at most 0.014); l3s-gn1 0.9055 -> 0.9058,
#: scrapinghub unchanged (4 pages a little better), list-detail 0.9187 -> 0.9183, zh-sites
#: 0.9717 -> 0.9713.
AUTHOR_BOX_HINTS = frozenset({"author", "authors"})
#: Words that, beside "search" in a name, make it the results of a search: a collection or
#: results page's own content.
RESULT_WORDS = frozenset({"result", "results"})
#: A weak hint word is layout on a page where the elements carrying it hold this share of
#: the page's prose: most of the story cannot be boilerplate.
WEAK_HINT_LAYOUT_SHARE = 0.5
#: Any other hint word is layout too when at least this many separate elements carry it and
#: together hold that share of the prose: the story's own sections share one name (a
#: table of contents' targets "toc_how-they-work", "toc_tax-considerations"; the "skip-item"
#: targets of a long guide; "follow" blocks and two "carousel"s of a service page). One such
#: element is a box that happens to be long. Word F1 on modern-dev for 3 carriers: half a
#: 0.8802 -> 0.8857 (10 pages change, 4 lose 0.01-0.12), half b 0.8565 -> 0.8580 (a 0.7
#: share for these words: half a 0.8847); 2 carriers then: half a 0.8902 -> 0.8914 (2 pages
#: gain), half b 0.8609 unchanged.
LAYOUT_FAMILY_MIN_CARRIERS = 2
#: Words no family of text sections is named by: comments (beside a story they stay
#: comments), the page's footer and its notices (``NEVER_KEPT_HINTS``: a shop's card footers
#: and legal lines can outweigh its scant prose) and overlays (a grid's quick-view dialogs,
#: one per item, repeat the items' descriptions: modern-dev 0632, word F1 0.60 -> 0.06 as
#: layout).
OVERLAY_HINTS = frozenset({"modal", "popup", "overlay"})
#: An id spelling the element's own heading of this many words names its content ("more-on-
#: lists"), not a role: shorter headings are labels ("Comments", "Related posts").
HEADING_SLUG_MIN_WORDS = 3
#: Words that name a page's discussion: the comments under a story, or the posts of a page
#: that is a discussion (then its comments are its text).
DISCUSSION_HINTS = frozenset({"comment", "comments"})
#: (``OVERLAY_HINTS``)
_NEVER_LAYOUT_HINTS = DISCUSSION_HINTS | NEVER_KEPT_HINTS | OVERLAY_HINTS
#: A page is ``detail`` when its main container holds at least this much weighted prose...
DETAIL_MIN_PROSE = 400
#: Named containers may not leave a page without prose with less text than this (weighted
#: characters, a paragraph): below it the names are wrong, not the page empty
#: (``_spare_text``). Word F1 on modern-dev half a 0.8857 -> 0.8885 for 200 and 500 alike
#: (one page, a shop's grid in a "related-product" section: 0.04 -> 0.94); half b 0.8580 ->
#: 0.8609 for 500 (3 pages gain, none lose; 500 was chosen having seen half b). Pages under
#: 50 characters whose gold has 500+: 4 -> 3 (the three left hold no text in their HTML).
PAGE_MIN_TEXT = 500
#: Input types a reader types into. A form holding one asks for data (sign-up, lead, contact,
#: comment and search forms): its text is field labels, consent lines and status messages.
ENTRY_INPUT_TYPES = frozenset({"", "text", "email", "tel", "password", "search", "url"})
#: ...unless it holds more text than this for each field: then it wraps content (a thread's
#: posts inside a moderation form, a whole page inside ASP.NET's form), not just labels.
FORM_MAX_TEXT_PER_FIELD = 300
#: Veiled (hidden, <noscript>) blocks are kept only when they hold at least this much text,
#: a paragraph or two, besides outweighing the visible page.
VEILED_MIN_WEIGHT = 200
#: Lists and tables: a run of their items is never the article (it is part of a list).
_WORD_SPLIT = re.compile(r"[^\w]+|_")
#: Main-text words that, in one name with a discussion word, name a part of a comment.
_PART_WORDS = frozenset({"body", "content", "contents", "text"})
#: The furniture of a post, named after it ("entry-footer", "post-meta", "article-tags"): a
#: main-text word in the same name says whose furniture, not that it is text.
_FURNITURE_WORDS = frozenset({
    "footer", "foot", "meta", "byline", "dateline", "bio", "share", "sharing", "social", "tags",
    "tag", "related",
})
#: Words joining the names of several parts ("region-body-and-footer", "main-with-sidebar"):
#: such a name is a wrapper's, around the text too.
_JOINING_WORDS = frozenset({"and", "with"})
#: Tags never removed by class/id hints: the document frame.
_FRAME_TAGS = frozenset({"html", "body", "main", "article"})


#: A named container at least this share of whose text is in code blocks (``<pre>``), and at
#: least this much of it, is a panel of code samples, not boilerplate (``_is_code_panel``).
#: Char F1 on modern-dev half a for share 0.3 / 0.5 / 0.8: 0.8905 / 0.8905 / 0.8904 (0.8899
#: without the rule); the middle of the flat part.
CODE_PANEL_MIN_SHARE = 0.5
CODE_PANEL_MIN_WEIGHT = 200

#: Hint words of captions and credits, the one kind of boilerplate-named block that may hold
#: story text: a caption of at least ``CAPTION_MIN_PROSE`` prose characters (about a sentence)
#: is kept. Measured: cleanportal char F1 0.9126 -> 0.9235, scrapinghub shingle F1 0.9662 ->
#: 0.9643, big9-2005, big9-2009, zh-news-dev, zh-sites unchanged, l3s-gn1 0.899 -> 0.898.
CAPTION_HINTS = frozenset({"caption", "credit", "credits"})
CAPTION_MIN_PROSE = 100


def clean(body: etree._Element) -> list[etree._Element]:
    """Remove non-text elements and hidden ones (in place), except veiled text that outweighs
    the visible page. Returns the hidden blocks kept for a reader to open (``_revealed``):
    with ``body`` itself, the only elements under it left hidden or of a tag in
    ``SKIP_TAGS``."""
    doomed = _entry_forms(body)
    doomed += body.iter(*_DROPPED_TAGS)  # (document order, as a filtered walk gives them)
    for el in doomed:
        drop_keep_tail(el)
    veiled: list[etree._Element] = []
    revealed: list[etree._Element] = []
    for el in body.iter(etree.Element):
        if el is not body and (el.tag == "noscript" or is_hidden(el)):
            (revealed if _revealed(el) else veiled).append(el)
    if not veiled:
        return revealed
    weights = {el: text_weight(text_content(el)) for el in veiled}
    if max(weights.values()) > VEILED_MIN_WEIGHT:
        outermost = [el for el in veiled if not any(a in weights for a in el.iterancestors())]
        visible = text_weight(text_content(body)) - sum(weights[el] for el in outermost)
    else:  # (none can outweigh VEILED_MIN_WEIGHT: the page's text need not be weighed)
        visible = 0
    for el in veiled:
        # A veiled block holding more text than the whole visible page is the page's content
        # waiting for a script: a Discourse thread in <noscript> under an empty app shell, a
        # product grid shown on load. Readers see it; what merely hides (menus, dialogs,
        # log-in forms) holds less.
        if weights[el] > max(visible, VEILED_MIN_WEIGHT):
            if el.tag == "noscript":
                el.tag = "div"
            for attr in ("hidden", "aria-hidden", "style"):
                el.attrib.pop(attr, None)
        elif el.getparent() is not None:
            drop_keep_tail(el)
    return revealed


#: What ``clean`` drops by tag: every element never read as text but ``<noscript>``, which
#: is veiled (kept when it holds the page).
_DROPPED_TAGS = tuple(sorted(SKIP_TAGS - {"noscript"}))


def _entry_forms(body: etree._Element) -> list[etree._Element]:
    """Forms that ask the reader to type (``ENTRY_INPUT_TYPES``, text areas), outermost only."""
    doomed = []
    for form in outermost_of(body, "form"):
        fields = sum(
            1 for el in form.iter("input", "textarea")
            if el.tag == "textarea" or (el.get("type") or "").strip().lower() in ENTRY_INPUT_TYPES
        )
        if fields and text_weight(text_content(form)) <= FORM_MAX_TEXT_PER_FIELD * fields:
            doomed.append(form)
    return doomed


def outermost_of(root: etree._Element, tag: str) -> list[etree._Element]:
    """The ``tag`` elements under ``root`` that sit in no other ``tag`` element."""
    return [el for el in root.iter(tag) if not any(a.tag == tag for a in el.iterancestors())]


def _revealed(el: etree._Element) -> bool:
    """Whether ``el`` is a hidden block a reader opens with one click: a tab panel (a code
    sample's other languages, a product's specifications), or folded (``_folded``). Asked of
    the hidden elements alone: a few per page, where a pass over every element cost a tenth
    of the page method. Char F1 on modern-dev half a 0.8744 -> 0.8765;
    also keeping blocks any control names in ``aria-controls`` adds nothing there and lets
    more menus and dialogs in (snippets absent 0.950 -> 0.947 on half b)."""
    return el.get("role") == "tabpanel" or _folded(el)


#: Class and id words of a fold a reader opens with one click (an accordion's panel).
FOLD_WORDS = frozenset({"accordion", "collapsible", "collapse", "expandable"})


def _folded(el: etree._Element) -> bool:
    """Whether ``el`` is a folded panel: the body of a ``<details>`` (its summary is the
    button), or a block named as an accordion's or a collapsible's. Text a reader opens with
    one click, as a tab panel's: FAQ answers, a shop's buying guide, a product's
    specifications. On modern-dev (with ``landmark_of_other``) char F1 0.8570 -> 0.8579,
    shingle F1 0.8111 -> 0.8127;
    half a 0.8853 -> 0.8852 (a FAQ's answers in one service page's gold, not in another's nor
    in a blog's), half b 0.8267 -> 0.8287 (collection pages' buying guides: per-kind mean
    0.461 -> 0.505); scrapinghub 0.9669 -> 0.9666, l3s-gn1 and list-detail unchanged.
    The unnamed hidden child of a block named as an accordion's item (its button and its
    panel) is that item's panel: word F1 on modern-dev half a 0.8885 -> 0.8902 (a guide's
    sections in "es-accordion" items, 0.46 -> 0.99), half b 0.8609 -> 0.8609."""
    parent = el.getparent()
    return (parent is not None and parent.tag == "details" and el.tag != "summary") or \
        has_hint(el, FOLD_WORDS) or (parent is not None and has_hint(parent, FOLD_WORDS))


def _hints(el: etree._Element,
           tokens_of: Callable[[etree._Element], set[str]] = hint_tokens) -> frozenset[str]:
    """The element's boilerplate hint words ("nav", "aside", "footer" for those tags); none
    for the document frame or where a word marks the main text. ``tokens_of``: ``hint_tokens``
    or a memo of it (``_PageHints``)."""
    if el.tag in _FRAME_TAGS:
        return frozenset()
    tokens = tokens_of(el)
    if tokens & POSITIVE_HINTS:
        return _compound_hints(el) | (tokens & CONSENT_HINTS)
    hints = (tokens & NEGATIVE_HINTS) | (tokens & AUTHOR_BOX_HINTS)
    if "search" in hints and tokens & RESULT_WORDS:
        hints -= {"search"}  # "search-results" holds what was found, not the search box
    if hints and _id_spells_heading(el):
        hints -= _words(el.get("id"))
    weak = hints & WEAK_HINTS
    if weak:
        # A layout word inside a compound name ("elementor-widget-wrap", "overflow-hidden")
        # names a framework part; only a whole class name or id ("widget", "hidden") says
        # what the block is.
        names = set(class_id(el).lower().split())
        hints -= weak - names
    if el.tag in ("nav", "aside", "footer"):
        hints.add(el.tag)
    return frozenset(hints)


class _PageHints:
    """``_hints`` of one page's elements, remembered while its tree is not edited: an element
    without an id has the hints of its tag and class (nothing else is read then), which
    repeat; one with an id, its own; the tokens of each class and id string are made once
    (an element's are those of its class and of its id)."""

    def __init__(self) -> None:
        self._by_class: dict[tuple[str, str], frozenset[str]] = {}
        self._by_element: dict[etree._Element, frozenset[str]] = {}
        self._tokens: dict[str, set[str]] = {}

    def tokens(self, el: etree._Element) -> set[str]:
        """``hint_tokens(el)``."""
        out: set[str] = set()
        for raw in (el.get("class"), el.get("id")):
            if raw:
                words = self._tokens.get(raw)
                if words is None:
                    words = self._tokens[raw] = name_tokens(raw)
                out |= words
        return out

    def of(self, el: etree._Element) -> frozenset[str]:
        """``_hints(el)``."""
        if el.get("id") is not None:
            # (An id may spell the element's heading: its hints are its own, asked for by
            # the layout words and again by the verdicts, before the tree is edited.)
            hints = self._by_element.get(el)
            if hints is None:
                hints = self._by_element[el] = _hints(el, self.tokens)
            return hints
        key = (el.tag, el.get("class") or "")
        hints = self._by_class.get(key)
        if hints is None:
            hints = self._by_class[key] = _hints(el, self.tokens)
        return hints


def _compound_hints(el: etree._Element) -> frozenset[str]:
    """Hint words of a name that also has a main-text word: "comment-body", "comments-content"
    are the body of the comments, not of the story; "entry-footer", "post-meta",
    "article-tags" the furniture of the post (``_FURNITURE_WORDS``). Elsewhere the main-text
    word wins ("main-content-area"), and a name joining parts is a wrapper's."""
    found: set[str] = set()
    for name in class_id(el).split():
        words = _words(name)
        if words & DISCUSSION_HINTS and words & _PART_WORDS:
            found |= words & DISCUSSION_HINTS
        elif words & POSITIVE_HINTS and not words & _JOINING_WORDS:
            found |= words & _FURNITURE_WORDS
    return frozenset(found)


def _words(text: str | None) -> set[str]:
    return {w for w in _WORD_SPLIT.split((text or "").lower()) if w and not w.isdigit()}


def _id_spells_heading(el: etree._Element) -> bool:
    """Whether the id is the slug of the element's own heading ("more-on-lists" on the
    section titled "5.1. More on Lists"): a name made from the text, not a layout role."""
    ident = _words(el.get("id"))
    if len(ident) < HEADING_SLUG_MIN_WORDS:
        return False
    heading = next(el.iter(*HEADING_TAGS), None)
    return heading is not None and ident <= _words(text_content(heading))


def _outvoted_hints(prose: dict[etree._Element, int], total: int,
                    hints_of: _PageHints) -> frozenset[str]:
    """Hint words that are this page's layout, not its boilerplate: the outermost elements
    carrying the word hold ``WEAK_HINT_LAYOUT_SHARE`` of the page's prose (a page builder
    wraps the story's sections in "widget"s), and for a word naming a function, not a layout
    device, at least ``LAYOUT_FAMILY_MIN_CARRIERS`` of them do (the story's sections share
    the name). ``prose``: the prose weights under the page's body (``prose_weights``)."""
    # An element holding prose counts for a word it carries unless its parent, holding
    # prose too, carries the word (then the parent's weight holds its own): a test of the
    # element and its parent alone, so the elements with prose are read in any order, not
    # found by a walk of the whole body.
    carried: dict[etree._Element, frozenset[str]] = {}
    for el, value in prose.items():
        words = hints_of.of(el) - _NEVER_LAYOUT_HINTS if value else frozenset()
        if words:
            carried[el] = words
    held: Counter[str] = Counter()
    carriers: Counter[str] = Counter()
    for el, words in carried.items():
        for word in words - carried.get(el.getparent(), frozenset()):
            held[word] += prose[el]
            carriers[word] += 1
    return frozenset(
        w for w, v in held.items()
        if v >= WEAK_HINT_LAYOUT_SHARE * total
        and (w in WEAK_HINTS or carriers[w] >= LAYOUT_FAMILY_MIN_CARRIERS)
    )


def _is_described_caption(el: etree._Element, prose: int) -> bool:
    """A caption that describes (a sentence or more of prose) is part of the story; a short
    one is a photo credit. Only when "caption"-like words are the element's sole hints. (The
    prose first: most named elements hold none, and their names need not be split again.)"""
    if prose < CAPTION_MIN_PROSE:
        return False
    hints = hint_tokens(el) & NEGATIVE_HINTS
    return bool(hints) and hints <= CAPTION_HINTS


def _is_code_panel(el: etree._Element) -> bool:
    """A panel of code samples, whatever its name ("ApiSection-Aside" beside each section of
    an API reference): menus, sidebars and footers hold no code blocks."""
    pres = outermost_of(el, "pre")
    if not pres:
        return False
    code = sum(text_weight(text_content(pre)) for pre in pres)
    return code >= CODE_PANEL_MIN_WEIGHT and \
        code >= CODE_PANEL_MIN_SHARE * text_weight(text_content(el))


def drop_hinted(body: etree._Element, prose: dict[etree._Element, int],
                 total: int) -> tuple[int, list[etree._Element]]:
    """Remove boilerplate-named containers unless they hold much of the page's prose; returns
    how many went, and the named containers kept for their prose."""
    # Fallback content of <object> is what readers see now that plugins are gone: usually the
    # description of an embedded video, whatever its class says.
    fallback: set[etree._Element] = set()
    for obj in body.iter("object"):
        fallback.update(obj.iter(etree.Element))
    # Inside code, class names are a syntax highlighter's token kinds ("hljs-comment",
    # "token tag", "meta"): the code is shown verbatim.
    # The elements holding a code block, the only ones that may be code panels.
    coded: set[etree._Element] = set()
    for code in body.iter("pre", "code"):
        fallback.update(code.iter(etree.Element))
        if code.tag == "pre":
            coded.update(code.iterancestors())
    doomed = []
    # The verdict depends on the tag and the class/id text only, which repeat across a page.
    verdicts: dict[tuple[str, str], frozenset[str]] = {}
    hints_of = _PageHints()
    layout = _outvoted_hints(prose, total, hints_of)
    # Containers kept for their prose, with their words: the comments of a page that is a
    # discussion ("comment-tree" holding the thread, no story beside it) keep their own
    # "comment"s too. Beside a story, they stay comments.
    kept: dict[etree._Element, frozenset[str]] = {}
    named: list[etree._Element] = []
    for el in body.iter(etree.Element):
        tag = el.tag
        if el in fallback:
            continue
        key = (tag, class_id(el))
        hints = verdicts.get(key)
        if hints is None:
            hints = verdicts[key] = hints_of.of(el) - layout
        if not hints:
            continue
        own = prose.get(el, 0)
        if _is_described_caption(el, own) or (el in coded and _is_code_panel(el)):
            continue
        if own > HINT_KEEP_SHARE * total and not hints & NEVER_KEPT_HINTS:
            named.append(el)
            if total - own < DETAIL_MIN_PROSE and hints & DISCUSSION_HINTS:
                kept[el] = hints & DISCUSSION_HINTS
            continue
        if kept and any(hints & kept.get(a, frozenset()) for a in el.iterancestors()):
            continue
        doomed.append(el)
    doomed = _spare_prose(doomed, prose, total)
    doomed = _spare_text(body, doomed, prose, total)
    for el in doomed:
        if el.getparent() is not None:  # an ancestor may already be gone
            drop_keep_tail(el)
    return len(doomed), named


def _spare_text(body: etree._Element, doomed: list[etree._Element],
                prose: dict[etree._Element, int], total: int) -> list[etree._Element]:
    """Names outvoted by all the page's text: when dropping the named containers would leave
    less than ``PAGE_MIN_TEXT`` of text, and less than ``HINT_MIN_LEFT_SHARE`` of the page's,
    on a page without prose to speak of (a shop's grid in a "related-product" section), the
    heaviest of them, but the site's chrome, footer and comments, are spared until that much
    is left. A page shows something: the answer is then its best text, never an empty one."""
    marked = set(doomed)
    outermost = [el for el in doomed if not any(a in marked for a in el.iterancestors())]
    if total - sum(prose.get(el, 0) for el in outermost) >= DETAIL_MIN_PROSE:
        return doomed  # (prose is left: the common case, decided without reading text)
    weight = {el: text_weight(text_content(el)) for el in outermost}
    whole = text_weight(text_content(body))
    left = whole - sum(weight.values())
    if left >= PAGE_MIN_TEXT or left >= HINT_MIN_LEFT_SHARE * whole:
        return doomed  # (a short page, or one whose named boxes are the lesser part)
    return _spare_heaviest(doomed, outermost, weight, left, PAGE_MIN_TEXT,
                           CHROME_HINTS | DISCUSSION_HINTS | NEVER_KEPT_HINTS)


def _spare_prose(doomed: list[etree._Element], prose: dict[etree._Element, int],
                 total: int) -> list[etree._Element]:
    """Names outvoted by prose: when the named containers hold most of the page's prose, the
    heaviest of them are spared until ``HINT_MIN_LEFT_SHARE`` of it is left (a product's
    details in an "aside" sheet, a page whose text sits in "comments")."""
    marked = set(doomed)
    outermost = [el for el in doomed if not any(a in marked for a in el.iterancestors())]
    left = total - sum(prose.get(el, 0) for el in outermost)
    if left >= HINT_MIN_LEFT_SHARE * total or left >= DETAIL_MIN_PROSE:
        return doomed  # (a story's worth of prose beside its many comments stays the story)
    weight = {el: prose.get(el, 0) for el in outermost}
    return _spare_heaviest(doomed, outermost, weight, left, HINT_MIN_LEFT_SHARE * total,
                           CHROME_HINTS | DISCUSSION_HINTS)


def _spare_heaviest(doomed: list[etree._Element], outermost: list[etree._Element],
                    weight: dict[etree._Element, int], left: float, enough: float,
                    protected: frozenset[str]) -> list[etree._Element]:
    """``doomed`` without the heaviest of its ``outermost`` elements (by ``weight``), those
    named by none of the ``protected`` words, spared until ``left`` reaches ``enough``."""
    spared: set[etree._Element] = set()
    for el in sorted(outermost, key=lambda e: -weight[e]):
        if left >= enough or not weight[el]:
            break
        if _hints(el) & protected:
            continue
        spared.add(el)
        left += weight[el]
    return [
        el for el in doomed
        if el not in spared and not any(a in spared for a in el.iterancestors())
    ]
