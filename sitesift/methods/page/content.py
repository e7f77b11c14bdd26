"""Single-page main-content extraction: sitesift's own text-and-link density method.

How it works (each step is one function below):

1. ``_clean``: drop what is never main text (scripts, form controls, hidden elements);
   ``_drop_hinted``: drop containers whose class/id says boilerplate (nav, share, comments,
   related, ads ...) unless they hold most of the page's prose.
2. ``_segment``: cut the page into *units*, runs of inline text between block boundaries, and
   measure each: characters without white space (so Chinese and English compare; CJK counts
   ``CJK_WEIGHT`` times), characters inside links, sentence punctuation (ASCII and CJK).
   ``_mark_teasers`` flags summaries of other pages (repeated cards with linked headlines,
   excerpts cut off with an ellipsis).
3. ``_choose``: score every element ``good - penalties`` summed over its units (prose counts
   for, link text and labels against) and take the best; a run of sibling elements may win
   when the article sits in a page-wide cell. A split article wins through its parent when
   its parts outweigh what lies between them.
4. ``prune``: inside the winner, remove link lists, teasers, sections announced by a label
   ("Comments", "Related stories") and the labels before and after the prose (headline,
   byline, "Share this").
5. Render text and Markdown from the pruned subtree (``sitesift.output.render``).

``page_type`` uses the same measures: a prose body of ``DETAIL_MIN_PROSE`` means ``detail``
unless most of it sits in repeated records (``sitesift.methods.page.records``: teaser cards, feed
entries); without such a body, mostly link text with many same-styled links, or mostly
repeated records, means ``list``; anything else is ``other``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

from sitesift.fields.declared import declared_kind, page_type_of
from sitesift.methods.page.linked import (
    POSTS_MIN_SHARE,
    TRUNCATED_MIN_PAGE_SHARE,
    feed_box,
    linked_list_share,
    priced_grid,
    truncated_teasers_share,
    whole_posts_share,
)
from sitesift.methods.page.records import LIST_MIN_RECORD_SHARE, RecordRuns, record_share
from sitesift.methods.page.thread import find_thread
from sitesift.output.render import to_markdown, to_text
from sitesift.parse.dom import (
    BLOCK_TAGS,
    HEADING_TAGS,
    NEGATIVE_HINTS,
    POSITIVE_HINTS,
    SKIP_TAGS,
    cjk_count,
    class_id,
    drop_keep_tail,
    has_hint,
    hint_tokens,
    is_hidden,
    name_tokens,
    punctuation_count,
    text_content,
    text_weight,
    up_sums,
)

__all__ = ["Content", "extract_content", "prune"]

# ---- thresholds (tuned on the dev sets; see benchmarks/dev_body.py) -------------------------
#: CJK characters carry about three times the information of a Latin letter, so a unit's
#: length counts each of them this many times over.
CJK_WEIGHT = 3
#: A unit at least this long (weighted characters) with punctuation reads as prose.
PROSE_MIN_LENGTH = 60
#: A unit with at least this many punctuation marks reads as prose even when short.
PROSE_MIN_PUNCT = 2
#: Colons count as punctuation only from this many in one unit (see ``_Unit.colons``).
PROSE_MIN_COLONS = 6
#: Units whose link share exceeds this are navigation, whatever their length.
PROSE_MAX_LINK_SHARE = 0.45
#: When choosing the container: link text inside prose counts against it at this rate
#: (news prose links a lot, but a paragraph that is all links is a menu)...
PROSE_LINK_PENALTY = 0.5
#: ...link text outside prose (menus, link lists) at this rate...
LINK_PENALTY = 1.0
#: ...and short unpunctuated text outside links (labels, dates, table cells) at this rate,
#: low because data tables and lists of short items can be main content.
LABEL_PENALTY = 0.2
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
#: An id spelling the element's own heading of this many words names its content ("more-on-
#: lists"), not a role: shorter headings are labels ("Comments", "Related posts").
HEADING_SLUG_MIN_WORDS = 3
#: A table of this many rows of several cells, whose text is at most this share links, is
#: data (prices, rankings, specs): its cells are not penalised as labels when the main block
#: is chosen. Char F1 on modern-dev half a 0.8778 -> 0.8793, the same for 2, 3 or 5 rows.
DATA_TABLE_MIN_ROWS = 3
DATA_TABLE_MAX_LINK_SHARE = 0.2
#: On a page with a prose body, a block holding less than this share of the prose of the
#: main landmark around it is one section of the landmark's content, which is taken instead
#: (``_landmark_of_sections``). Simulated on modern-dev (the pruned landmark against the
#: page's text, detail pages): 0.6 / 0.7 / 0.8 / 0.9 change 2 / 3 / 4 / 5 pages, mean page
#: char F1 summed +0.53 / +0.53 / +0.51 / +0.57, all in half a.
SECTION_MAX_LANDMARK_SHARE = 0.7
#: A main block holds at least this share of the page's prose, else its ancestor does. Char F1
#: on modern-dev half a for 0.3 / 0.5 / 0.7: 0.870 / 0.872 / 0.871 (0.870 without).
MAIN_MIN_PROSE_SHARE = 0.5
#: Words that name a page's discussion: the comments under a story, or the posts of a page
#: that is a discussion (then its comments are its text).
DISCUSSION_HINTS = frozenset({"comment", "comments"})
#: Inside the container, a block whose link share exceeds this and that is not prose is removed.
PRUNE_LINK_SHARE = 0.5
#: A comment label with more of its text in links than this is a "3 comments" link, not a
#: heading over the comments.
COMMENT_LABEL_MAX_LINK_SHARE = 0.5
#: After the last prose, a short unit with more links than this share is a label, not text.
TRAILING_MAX_LINK_SHARE = 0.3
#: A page is ``detail`` when its main container holds at least this much weighted prose...
DETAIL_MIN_PROSE = 400
#: ...and ``list`` when links hold at least this share of the body text and many items repeat.
LIST_MIN_LINK_SHARE = 0.45
#: ...and at least this many links sit in parents of the same tag and class (list items).
LIST_MIN_ITEMS = 12
#: A page with an article's worth of prose is a list when linked teasers
#: (``sitesift.methods.page.linked``) hold this share of its text or of the container chosen
#: (modern-dev half a: 0.4 and 0.5 type the same pages).
LINKED_LIST_MIN_SHARE = 0.4

#: A list page's records are its main content when they hold this share of its text...
LIST_ITEMS_MIN_SHARE = 0.3
#: ...with the text around them up to this share of their own weight (an introduction)...
LIST_INTRO_MAX_SHARE = 0.5
#: ...when at most this share of that text is links (not a menu or a pager).
LIST_INTRO_MAX_LINK_SHARE = 0.3

#: ...unless the container chosen lies outside them and holds this much prose (a short story
#: beside a box of headlines).
LIST_MAX_OTHER_PROSE = 100

#: A run of siblings replaces their parent only when leaving out the rest gains at least this
#: share of the run's score: a trailing list of short items is not reason enough.
RUN_MIN_GAIN = 0.3
#: Input types a reader types into. A form holding one asks for data (sign-up, lead, contact,
#: comment and search forms): its text is field labels, consent lines and status messages.
ENTRY_INPUT_TYPES = frozenset({"", "text", "email", "tel", "password", "search", "url"})
#: ...unless it holds more text than this for each field: then it wraps content (a thread's
#: posts inside a moderation form, a whole page inside ASP.NET's form), not just labels.
FORM_MAX_TEXT_PER_FIELD = 300
#: Veiled (hidden, <noscript>) blocks are kept only when they hold at least this much text,
#: a paragraph or two, besides outweighing the visible page.
VEILED_MIN_WEIGHT = 200
#: Prose inside an element marked up as the article body (schema.org ``itemprop``) counts this
#: many times: the page's own statement of where its text is.
MARKED_BODY_BOOST = 2.0
#: ``itemprop`` values that mark the main text.
BODY_ITEMPROPS = frozenset({"articleBody", "articlebody", "text", "reviewBody"})

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
#: A linked unit at least this share of whose text is code names a symbol, not a story.
CODE_NAME_MIN_SHARE = 0.9

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
#: Lists and tables: a run of their items is never the article (it is part of a list).
_WORD_SPLIT = re.compile(r"[^\w]+|_")
_LIST_TAGS = frozenset({"ul", "ol", "dl", "menu", "dir", "table", "tbody", "thead", "tfoot", "tr"})
#: Blocks that are items of a list or table.
_ITEM_TAGS = frozenset({"li", "dd", "dt", "td", "th"})
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


@dataclass(frozen=True, slots=True)
class Content:
    """Main content of one page. ``nodes`` are the chosen (pruned) subtrees, in page order.
    Text and Markdown are rendered from them when read (a site method edits the nodes after
    the page extractor chose them, so an early rendering would be thrown away)."""

    page_type: str | None = None
    nodes: tuple[etree._Element, ...] = field(default=(), repr=False)
    #: A discussion seen alone (``page_type`` "thread"): its posts, {author, published, text}
    #: in page order; ``nodes`` are then their bodies.
    posts: tuple[dict[str, str | None], ...] = field(default=(), repr=False)
    #: The page declares itself an item on sale (``declared.PRODUCT_TYPES``, no story type):
    #: its main text is the item's data, short fields included (name, price, condition).
    item: bool = False

    @property
    def text(self) -> str:
        """The content as plain text, paragraphs on lines of their own."""
        return to_text(self.nodes)

    @property
    def markdown(self) -> str:
        """The content as Markdown, rendered on demand (most runs write plain text only)."""
        return to_markdown(self.nodes)


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

_ELLIPSIS = re.compile(r"(\.\.\.|…)\s*(\]|\)|»)?\s*$")


@dataclass(slots=True)
class _Unit:
    """One run of inline text of a block element: its text between nested blocks (a block
    with a dateline, then paragraphs, then a "Share" label has three runs)."""

    block: etree._Element
    chars: int = 0
    cjk: int = 0
    link_chars: int = 0
    #: Sentence punctuation other than colons.
    punct: int = 0
    #: Colons end labels ("Source:", "来源：") as often as they join clauses; only several of
    #: them (a list of "key: value" lines) count as punctuation.
    colons: int = 0
    pieces: list[str] = field(default_factory=list)
    #: Set by ``_mark_teasers``: prose that only summarises another page.
    teaser: bool = False
    #: Position of the run's start in document order.
    seq: int = 0
    #: Where the text came from: (element, is_tail), so the run alone can be blanked.
    slots: list[tuple[etree._Element, bool]] = field(default_factory=list)

    @property
    def weight(self) -> int:
        """Length with CJK characters weighted up: comparable information across scripts."""
        return self.chars + (CJK_WEIGHT - 1) * self.cjk

    @property
    def link_share(self) -> float:
        return self.link_chars / self.chars if self.chars else 0.0

    @property
    def link_weight(self) -> float:
        return self.weight * self.link_share

    @property
    def marks(self) -> int:
        """Punctuation that speaks for prose."""
        return self.punct + (self.colons if self.colons >= PROSE_MIN_COLONS else 0)

    def is_prose(self) -> bool:
        if self.teaser or self.block.tag in HEADING_TAGS:  # headings title the prose
            return False
        if self.link_share > PROSE_MAX_LINK_SHARE:
            # Heavily linked prose: still prose when the text outside links is a sentence.
            return (self.chars - self.link_chars) * self.weight / self.chars >= PROSE_MIN_LENGTH \
                and self.marks >= PROSE_MIN_PUNCT
        if self.weight >= PROSE_MIN_LENGTH and self.marks >= 1:
            return True
        return self.marks >= PROSE_MIN_PUNCT and self.weight >= PROSE_MIN_LENGTH // 2


#: A text's measures: (characters without white space, CJK characters, colons, punctuation
#: marks other than colons).
Measures = dict[str, tuple[int, int, int, int]]


def _measures_of(text: str) -> tuple[int, int, int, int]:
    chars = text_weight(text)
    if not chars:
        return 0, 0, 0, 0
    colons = text.count(":") + text.count("：")
    return chars, cjk_count(text), colons, punctuation_count(text) - colons


def _measure(run: list, el: etree._Element, is_tail: bool, in_link: bool,
             memo: Measures, text: str | None) -> None:
    """Add ``text``, ``el``'s tail or text, to the open run ``run`` of ``_segment``
    (``[block, seq, unit]``), making its unit with the first text that counts."""
    if not text:
        return
    measures = memo.get(text)
    if measures is None:
        measures = memo[text] = _measures_of(text)
    chars, cjk, colons, punct = measures
    if not chars:
        return
    unit = run[2]
    if unit is None:
        unit = run[2] = _Unit(run[0], seq=run[1])
    unit.chars += chars
    unit.cjk += cjk
    unit.colons += colons
    unit.punct += punct
    if in_link:
        unit.link_chars += chars
    unit.pieces.append(text)
    unit.slots.append((el, is_tail))


def _segment(body: etree._Element, memo: Measures | None = None) -> list[_Unit]:
    """Text runs in document order: the inline text of block elements, cut at nested blocks.
    ``memo``: the measures of texts met before (a page is segmented several times as it is
    pruned: the same texts come back, and measuring them is most of a walk's cost)."""
    if memo is None:
        memo = {}
    units: list[_Unit] = []
    # The open runs, innermost last: [block, seq, unit]; the unit is made when the run's first
    # text comes (most blocks hold none of their own: only nested blocks, or nothing).
    stack: list[list] = [[body, 0, None]]
    counter = itertools.count(1)
    link_depth = 0
    # libxml2's own walk (the text after "start", the tail after "end"); most texts and tails
    # are empty or white space, checked here before any measuring.
    for event, el in etree.iterwalk(body, events=("start", "end")):
        tag = el.tag
        if not isinstance(tag, str):
            tag = ""
        if event == "start":
            if el is body:
                _measure(stack[-1], el, False, False, memo, el.text)
                continue
            if tag in BLOCK_TAGS:
                outer = stack[-1]
                if outer[2] is not None:  # close the run before this block; a new one may follow
                    units.append(outer[2])
                    outer[1], outer[2] = 0, None
                stack.append([el, next(counter), None])
            elif tag == "a":
                link_depth += 1
            text = el.text
            if text and not text.isspace():
                _measure(stack[-1], el, False, link_depth > 0, memo, text)
        else:
            if el is body:
                continue
            if tag in BLOCK_TAGS:
                unit = stack.pop()[2]
                if unit is not None:
                    units.append(unit)
                if stack[-1][2] is None:
                    stack[-1][1] = next(counter)  # the outer run resumes after this block
            elif tag == "a":
                link_depth -= 1
            tail = el.tail
            if tail and not tail.isspace():
                _measure(stack[-1], el, True, link_depth > 0, memo, tail)
    if stack and stack[0][2] is not None:
        units.append(stack[0][2])
    units.sort(key=lambda u: u.seq)
    return units


def _blank(unit: _Unit) -> None:
    """Remove one run's text, leaving the rest of its block (and nested blocks) in place."""
    for el, is_tail in unit.slots:
        if is_tail:
            el.tail = None
        else:
            el.text = None


def _signature(el: etree._Element) -> tuple[str, str]:
    return (el.tag, el.get("class") or "")


def _mark_teasers(units: list[_Unit]) -> None:
    """Flag prose units that summarise other pages: cut off with an ellipsis, or inside a
    repeated item (card, list entry) that has its own linked headline."""
    headline_blocks: list[etree._Element] = []
    for unit in units:
        if unit.link_share >= 0.9 and unit.chars >= TEASER_MIN_HEADLINE and \
                _leads_elsewhere(unit.block) and not _names_code(unit):
            headline_blocks.append(unit.block)
        # (A heading is no excerpt, however it ends: "Here a Book, There a Book.....")
        if unit.block.tag not in HEADING_TAGS and unit.weight < TEASER_MAX_ELLIPSIS_WEIGHT and \
                unit.pieces and _ELLIPSIS.search(unit.pieces[-1]) and \
                (unit.link_chars or unit.chars < TEASER_MAX_UNLINKED_CHARS):
            # Cut off and linked (or short): an excerpt. A long unlinked paragraph that
            # trails off "…" is the writer's style.
            unit.teaser = True
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
            found.setdefault((parent, _signature(el), level), set()).add(el)
            if block.tag in HEADING_TAGS:
                titled.add(el)
            el = parent
    groups: set[etree._Element] = set()
    for (_parent, sig, _level), members in found.items():
        if len(members) >= TEASER_MIN_SIBLINGS and sig[0] not in ("p", "span", "a", "br"):
            groups.update(members)
    if not groups:
        return
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


def _names_code(unit: _Unit) -> bool:
    """Whether the unit's text is set as code (``<code>``): a linked identifier names a
    symbol ("WebSocket.send()", a reference page's member), not another page's story."""
    code = sum(text_weight(text_content(el)) for el in _outermost(unit.block, "code"))
    return code >= CODE_NAME_MIN_SHARE * unit.chars


def _leads_elsewhere(block: etree._Element) -> bool:
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


def _clean(body: etree._Element) -> list[etree._Element]:
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
    outermost = [el for el in veiled if not any(a in weights for a in el.iterancestors())]
    visible = text_weight(text_content(body)) - sum(weights[el] for el in outermost)
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


#: What ``_clean`` drops by tag: every element never read as text but ``<noscript>``, which
#: is veiled (kept when it holds the page).
_DROPPED_TAGS = tuple(sorted(SKIP_TAGS - {"noscript"}))


def _entry_forms(body: etree._Element) -> list[etree._Element]:
    """Forms that ask the reader to type (``ENTRY_INPUT_TYPES``, text areas), outermost only."""
    doomed = []
    for form in _outermost(body, "form"):
        fields = sum(
            1 for el in form.iter("input", "textarea")
            if el.tag == "textarea" or (el.get("type") or "").strip().lower() in ENTRY_INPUT_TYPES
        )
        if fields and text_weight(text_content(form)) <= FORM_MAX_TEXT_PER_FIELD * fields:
            doomed.append(form)
    return doomed


def _outermost(root: etree._Element, tag: str) -> list[etree._Element]:
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
    specifications. On modern-dev (with ``_landmark_of_other``) char F1 0.8570 -> 0.8579,
    shingle F1 0.8111 -> 0.8127;
    half a 0.8853 -> 0.8852 (a FAQ's answers in one service page's gold, not in another's nor
    in a blog's), half b 0.8267 -> 0.8287 (collection pages' buying guides: per-kind mean
    0.461 -> 0.505); scrapinghub 0.9669 -> 0.9666, l3s-gn1 and list-detail unchanged."""
    parent = el.getparent()
    return (parent is not None and parent.tag == "details" and el.tag != "summary") or \
        has_hint(el, FOLD_WORDS)


def _prose_weights(body: etree._Element, units: list[_Unit]) -> dict[etree._Element, int]:
    """Prose weight under every element of ``body`` that holds some: each prose block's
    weight added up its ancestors (a few hundred blocks, where summing bottom-up visits
    every element of the page)."""
    own: dict[etree._Element, int] = {}
    for unit in units:
        if unit.is_prose():
            own[unit.block] = own.get(unit.block, 0) + unit.weight
    return up_sums(body, own)


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
    """``_hints`` of one page's elements, remembered: an element without an id has the hints
    of its tag and class (nothing else is read then), which repeat; the tokens of each class
    and id string are made once (an element's are those of its class and of its id)."""

    def __init__(self) -> None:
        self._by_class: dict[tuple[str, str], frozenset[str]] = {}
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
            return _hints(el, self.tokens)
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


def _outvoted_hints(body: etree._Element, prose: dict[etree._Element, int],
                    total: int, hints_of: _PageHints) -> frozenset[str]:
    """Weak hint words that are this page's layout, not its boilerplate: the outermost
    elements carrying the word hold ``WEAK_HINT_LAYOUT_SHARE`` of the page's prose (a page
    builder wraps the story's sections in "widget"s)."""
    held: Counter[str] = Counter()
    seen: dict[str, set[etree._Element]] = {}
    for el in body.iter(etree.Element):
        value = prose.get(el, 0)
        if not value:
            continue
        for word in hints_of.of(el) & WEAK_HINTS:
            inside = seen.setdefault(word, set())
            parent = el.getparent()
            if parent in inside:  # counted with its outermost ancestor carrying the word
                inside.add(el)
                continue
            inside.add(el)
            held[word] += value
    return frozenset(w for w, v in held.items() if v >= WEAK_HINT_LAYOUT_SHARE * total)


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
    pres = _outermost(el, "pre")
    if not pres:
        return False
    code = sum(text_weight(text_content(pre)) for pre in pres)
    return code >= CODE_PANEL_MIN_WEIGHT and \
        code >= CODE_PANEL_MIN_SHARE * text_weight(text_content(el))


def _drop_hinted(body: etree._Element, prose: dict[etree._Element, int],
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
    for code in body.iter("pre", "code"):
        fallback.update(code.iter(etree.Element))
    doomed = []
    # The verdict depends on the tag and the class/id text only, which repeat across a page.
    verdicts: dict[tuple[str, str], frozenset[str]] = {}
    hints_of = _PageHints()
    layout = _outvoted_hints(body, prose, total, hints_of)
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
        if _is_described_caption(el, own) or _is_code_panel(el):
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
    for el in doomed:
        if el.getparent() is not None:  # an ancestor may already be gone
            drop_keep_tail(el)
    return len(doomed), named


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
    spared: set[etree._Element] = set()
    for el in sorted(outermost, key=lambda e: -prose.get(e, 0)):
        if left >= HINT_MIN_LEFT_SHARE * total or not prose.get(el, 0):
            break
        if _hints(el) & (CHROME_HINTS | DISCUSSION_HINTS):
            continue
        spared.add(el)
        left += prose[el]
    return [
        el for el in doomed
        if el not in spared and not any(a in spared for a in el.iterancestors())
    ]


def _best_run(scores: list[float]) -> tuple[float, int, int]:
    """Maximum-sum run ``scores[start:end]`` (Kadane): contiguous children worth keeping."""
    best, best_start, best_end = float("-inf"), 0, 0
    run, start = 0.0, 0
    for i, value in enumerate(scores):
        if run <= 0:
            run, start = value, i
        else:
            run += value
        if run > best:
            best, best_start, best_end = run, start, i + 1
    return best, best_start, best_end


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


def _choose(body: etree._Element, units: list[_Unit]) -> etree._Element:
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
            run, start, end = _best_run(children)
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
    wrapper = etree.Element("div")
    members[0].addprevious(wrapper)
    for member in members:
        wrapper.append(member)  # moves the element with its tail
    return wrapper


def _widen(main: etree._Element, body: etree._Element, prose: dict[etree._Element, int],
           named: list[etree._Element]) -> etree._Element:
    """The chosen block, or its nearest ancestor holding ``MAIN_MIN_PROSE_SHARE`` of the
    page's prose when it holds less: a winner that is a small part of the prose (one section
    of a course page, one answer of a help page) is one piece of a text split across blocks.
    Prose in containers named as boilerplate (``named``: a footer of disclaimers kept for its
    length) is no part of that text."""
    total = prose.get(body, 0) - sum(
        prose.get(el, 0) for el in named
        if not _within(main, el) and not any(_within(el, other) for other in named
                                             if other is not el)
    )
    node = main
    while node is not body and prose.get(node, 0) < MAIN_MIN_PROSE_SHARE * total:
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node


def _prose_ancestors(units: list[_Unit]) -> set[etree._Element]:
    """Every element that contains a prose unit: removing one would lose main text."""
    keep: set[etree._Element] = set()
    for unit in units:
        if unit.is_prose():
            el: etree._Element | None = unit.block
            while el is not None and el not in keep:
                keep.add(el)
                el = el.getparent()
    return keep


def _text(unit: _Unit) -> str:
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


def _labelled_sections(node: etree._Element, units: list[_Unit], keep: set[etree._Element],
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


def _is_trailing_label(unit: _Unit) -> bool:
    """After the text: a label ("Share this", "Like this:", "Tags") or links, not a closing
    sentence such as "Thanks for reading!"."""
    if unit.link_share > TRAILING_MAX_LINK_SHARE or not unit.punct:
        return True
    return _text(unit).endswith((":", "："))


def _titles_prose(units: list[_Unit], i: int) -> bool:
    """A heading followed by prose titles that prose, linked or not (a review's "1. The Book
    by Its Author" linking to a shop)."""
    return units[i].block.tag in HEADING_TAGS and i + 1 < len(units) and \
        units[i + 1].is_prose()


def _describes(units: list[_Unit], i: int) -> bool:
    """A term (``dt``) followed by its description (``dd``) in words of its own: a reference
    page's member name ("WebSocket.send()", linked to its page) heads what it does."""
    if i + 1 >= len(units) or _term_item(units[i].block) != "dt":
        return False
    return _term_item(units[i + 1].block) == "dd" and \
        units[i + 1].link_share <= PRUNE_LINK_SHARE


def _linked_line_of_text(units: list[_Unit], i: int, prose_at: list[int]) -> bool:
    """A mostly linked line inside the text (between its first and last prose) with words of
    its own outside the links: a list entry naming a linked place ("Flagship hotels: <a>,
    <a>"), a sentence pointing to a source. A menu or a tag list has no words between its
    links, and a heading is a title (``_titles_prose`` decides those)."""
    unit = units[i]
    return bool(prose_at) and prose_at[0] < i < prose_at[-1] and \
        unit.block.tag not in HEADING_TAGS and \
        unit.chars - unit.link_chars >= LINKED_LINE_MIN_OWN_CHARS


def _is_anchored_heading(unit: _Unit) -> bool:
    """A heading whose link is its own anchor ("#instance_properties", for sharing the place):
    a section's title, not a link to another page."""
    return unit.block.tag in HEADING_TAGS and unit.block.find(".//a") is not None and \
        not _leads_elsewhere(unit.block)


def _term_item(block: etree._Element) -> str | None:
    """"dt" or "dd" when the block is (or sits in) that item of a description list."""
    for el in itertools.chain((block,), block.iterancestors()):
        if el.tag in ("dt", "dd"):
            return el.tag
        if el.tag == "dl":
            return None
    return None


def _is_glossary(dl: etree._Element, by_block: dict[etree._Element, _Unit]) -> bool:
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


def _own_cards(units: list[_Unit]) -> None:
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
    ``product``: the node is the page of an item on sale (``_product_region``). Its labels
    are the item's data, read as its content: name, price and options before the
    description, specifications (names and values, shipping and returns) after it; they
    stay. Its reviews go, as a story's comments do. ``memo``: as for ``_segment``."""
    units = _segment(node, memo)
    _mark_teasers(units)
    _own_cards(units)
    keep = _prose_ancestors(units)
    by_block: dict[etree._Element, _Unit] = {u.block: u for u in units}
    doomed: list[etree._Element] = _labelled_sections(node, units, keep, product)
    dropped: list[_Unit] = []
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
            _blank(unit)  # the block holds prose too: remove just this run
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


def _drop_repeats(node: etree._Element, *, product: bool = False,
                  memo: Measures | None = None) -> None:
    """Blank the runs of text that repeat earlier runs of at least ``REPEAT_MIN_WEIGHT`` when
    they add up to a second copy (``REPEAT_MIN_SHARE``), in place: a reader reads a story once,
    however many copies the markup holds. Code is left alone: examples repeat lines on purpose.
    ``product``: on an item's page every repeat of ``PRODUCT_REPEAT_MIN_WEIGHT`` goes.
    ``memo``: as for ``_segment``."""
    units = _segment(node, memo)
    code: set[etree._Element] = set()
    for pre in node.iter("pre"):
        code.update(pre.iter(etree.Element))
    seen: set[str] = set()
    repeats: list[_Unit] = []
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
            _blank(unit)


def _page_type(body: etree._Element, units: list[_Unit], runs: RecordRuns,
               main: etree._Element, main_prose: int, records: float,
               declared: str | None = None, posts: float = 0.0, grid: int = 0) -> str:
    """``records``: the record share of the whole cleaned body (before hinted containers
    went: a search page's results sit in a "search" container). ``declared``: the kind the
    page declares itself (schema.org, ``sitesift.fields.declared``), which wins. ``posts``:
    the share of whole posts under linked titles (``whole_posts_share``), same time: a
    blog's page of whole posts is a list of them however much prose it holds. ``grid``: the
    cards of its shop grid (``priced_grid``), same time: a shop's category page is a list
    whatever text (FAQ, SEO) surrounds the grid. ``runs``: the record runs of ``units``."""
    if declared is not None:
        return declared
    if posts >= POSTS_MIN_SHARE or grid:
        return "list"
    chars = sum(u.chars for u in units)
    links = sum(u.link_chars for u in units)
    if main_prose >= DETAIL_MIN_PROSE and not feed_box(body, units, main, runs=runs):
        # (A box of timed news flashes among the page's link lists is no article.) Not even
        # when records hold most of it: a listicle, a how-to's steps, a data table or a long
        # comment thread are records too (readability-meta, dates-dev). Unless the records
        # are a list's: short teasers each linking a headline to a page of one kind.
        scopes = (body, main) if main is not body else (body,)
        if linked_list_share(scopes, units, main, runs=runs) >= LINKED_LIST_MIN_SHARE or \
                truncated_teasers_share(body, units, runs=runs) >= TRUNCATED_MIN_PAGE_SHARE:
            return "list"  # (or teasers cut short, unlinked: cards linked by a script)
        return "detail"
    if chars and links / chars >= LIST_MIN_LINK_SHARE:
        paths = Counter(_signature(a.getparent()) for a in body.iter("a")
                        if a.getparent() is not None)
        if paths and paths.most_common(1)[0][1] >= LIST_MIN_ITEMS:
            return "list"
    # Without an article, the records may fill the page, what is left of it once the hinted
    # containers went, or the container chosen (whichever holds them most).
    scopes = (body, main) if main is not body else (body,)
    shares = ((run.share if (run := runs.heaviest(scope)) is not None else 0.0)
              for scope in scopes)
    if max(records, *shares) >= LIST_MIN_RECORD_SHARE:
        return "list"
    return "other"


def _list_items(body: etree._Element, units: list[_Unit], runs: RecordRuns,
                main: etree._Element, main_prose: int) -> etree._Element | None:
    """A list page's main content: its heaviest record run with the text that introduces it,
    the items kept whole (their linked titles are the content here), link lists around them
    (menus, pagination) removed. None when the records are too light to be the page, or when
    the container chosen is prose of its own beside them (a short story, a box of headlines)."""
    run = runs.heaviest(body)
    if run is None or run.share < LIST_ITEMS_MIN_SHARE:
        return None
    if main_prose >= LIST_MAX_OTHER_PROSE and not _within(main, run.parent):
        return None
    weight: Counter[etree._Element] = Counter()
    links: Counter[etree._Element] = Counter()
    for unit in units:
        el: etree._Element | None = unit.block
        while el is not None:
            weight[el] += unit.weight
            links[el] += unit.link_weight
            el = el.getparent()
    node = run.parent
    parent = node.getparent()
    while parent is not None and node is not body:
        # Climb while what the parent adds is a light, mostly unlinked introduction.
        added = weight[parent] - weight[node]
        added_links = links[parent] - links[node]
        if added > LIST_INTRO_MAX_SHARE * weight[node] or \
                (added and added_links > LIST_INTRO_MAX_LINK_SHARE * added):
            break
        node, parent = parent, parent.getparent()
    inside: set[etree._Element] = set()
    for record in run.records:
        inside.update(record.iter(etree.Element))
    doomed = [
        unit.block for unit in units
        if unit.block not in inside and unit.link_share > PRUNE_LINK_SHARE
        and not unit.is_prose() and _within(unit.block, node)
    ]
    for el in doomed:
        if el.getparent() is not None and el is not node and not (set(el.iter()) & inside):
            drop_keep_tail(el)
    return node


def _main_landmark(body: etree._Element) -> etree._Element | None:
    """The page's one ``<main>`` (or ``role=main``) element, where the author says its dominant
    content is; None when there is none or several."""
    found = [el for el in body.iter(etree.Element) if el.tag == "main" or el.get("role") == "main"]
    return found[0] if len(found) == 1 else None


def _landmark_of_sections(body: etree._Element, main: etree._Element,
                          prose: dict[etree._Element, int]) -> etree._Element:
    """The main landmark holding the block chosen, when that block holds less than
    ``SECTION_MAX_LANDMARK_SHARE`` of the landmark's prose: the author's main content is
    several sections (a service page's offer, its process, its cases), of which the block
    is one; else the block."""
    landmark = _main_landmark(body)
    if landmark is None or landmark is main or not _within(main, landmark):
        return main
    if prose.get(main, 0) >= SECTION_MAX_LANDMARK_SHARE * prose.get(landmark, 0):
        return main
    return landmark


def _landmark_of_other(body: etree._Element, main: etree._Element) -> etree._Element:
    """On a page of type "other" (no prose body, no list: a product's specifications, a
    shop's item page), the main landmark holding the block chosen, else that block. Without
    prose the choice is a small part of what the page shows (a shipping notice beside an
    item's details), and the author's landmark is the better statement of where the content
    is. On modern-dev this changes 5 pages, each for the better (mean page char F1 +0.11 on
    them; all in half b, none of half a's pages is such a page); the landmark on every page
    costs news precision (tried and dropped). An ``<article>`` around the block, inside the
    landmark, is the author's narrower statement (a composition of its own beside the
    landmark's asides): the block stands."""
    landmark = _main_landmark(body)
    if landmark is None or not _within(main, landmark):
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


def _sells_one_item(root: etree._Element) -> bool:
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


def _product_region(body: etree._Element, main: etree._Element) -> etree._Element:
    """On the page of an item on sale (declared: ``declared.PRODUCT_TYPES``), the main
    landmark, where the item's name, price, options, description and specifications sit
    together. Prose is no guide there: a description is a paragraph or two among data, and a
    newsletter's blurb or a reviews' summary can outweigh it (the block chosen may lie
    outside the landmark, or around it). The block chosen stands when there is no landmark,
    when the landmark holds less than ``PRODUCT_LANDMARK_MIN_WEIGHT`` (an empty shell a
    script fills), and when an ``<article>`` inside the landmark holds it
    (``_landmark_of_other``)."""
    landmark = _main_landmark(body)
    if landmark is None or text_weight(text_content(landmark)) < PRODUCT_LANDMARK_MIN_WEIGHT:
        return main
    if _within(main, landmark):
        return _landmark_of_other(body, main)
    return landmark


def _within(el: etree._Element, node: etree._Element) -> bool:
    while el is not None:
        if el is node:
            return True
        el = el.getparent()
    return False


def extract_content(
    root: lxml.html.HtmlElement, *, url: str | None = None,
    within: etree._Element | None = None,
) -> Content:
    """Main text of the page under ``root``, which is edited in place (the pipeline's own
    tree, read by metadata extraction before). ``url`` tells the site's own links (a page of
    whole posts links each title to its page); the rest relies on the DOM alone. ``within``:
    search only this element (a site template's known content container), which is cheaper
    than the whole page."""
    kind = declared_kind(root)  # (before cleaning: JSON-LD sits in scripts)
    declared = page_type_of(kind)
    product = kind == "product" or (kind is None and _sells_one_item(root))
    body = within if within is not None else root.find("body")
    if body is None:  # (a page swallowed by an unclosed <title> is mended by parse_html)
        body = root
    revealed = _clean(body)
    memo: Measures = {}  # (the page's texts, measured once for its several segmentations)
    units = _segment(body, memo)
    records = record_share(body, units)
    posts = whole_posts_share(body, units, url)
    grid = priced_grid(body)
    thread = find_thread(body, hidden=revealed)
    if thread is not None and posts < POSTS_MIN_SHARE:
        # A discussion seen alone: posts are its text (whole posts under linked titles are a
        # blog's list of them, no thread).
        return Content(page_type="thread", nodes=thread.bodies, posts=thread.posts)
    prose = _prose_weights(body, units)
    total = prose.get(body, 0)
    dropped, named = _drop_hinted(body, prose, total)
    if dropped:
        # (an untouched tree segments the same: a template's container)
        units = _segment(body, memo)
    _mark_teasers(units)
    main = _choose(body, units)
    weights = _prose_weights(body, units)
    main = _widen(main, body, weights, named)
    main_prose = weights.get(main, 0)
    runs = RecordRuns(body, units)  # (after the last edit before the items: ``_choose``'s)
    page_type = _page_type(body, units, runs, main, main_prose, records, declared, posts, grid)
    if page_type == "list":
        items = _list_items(body, units, runs, main, main_prose)
        if items is None:
            # Records too light to be the page (a grid of product cards, an index of names):
            # the page's own main landmark holds its items, the filters and the intro.
            landmark = _main_landmark(body)
            if landmark is not None and _within(main, landmark):
                items = landmark
        if items is not None:
            return Content(page_type=page_type, nodes=(items,))
    if product:
        main = _product_region(body, main)
    elif page_type == "other":
        main = _landmark_of_other(body, main)
    elif page_type == "detail":
        main = _landmark_of_sections(body, main, weights)
    prune(main, product=product, memo=memo)
    _drop_repeats(main, product=product, memo=memo)
    nodes = (main,)
    return Content(page_type=page_type, nodes=nodes, item=kind == "product")
