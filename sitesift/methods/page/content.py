"""Single-page main-content extraction: sitesift's own text-and-link density method.

How it works (``extract_content`` below runs the stages, each in a module of its own):

1. ``clean.py``: ``clean`` drops what is never main text (scripts, form controls, hidden
   elements); ``drop_hinted`` drops containers whose class/id says boilerplate (nav, share,
   comments, related, ads ...) unless they hold most of the page's prose.
2. ``units.py``: ``segment`` cuts the page into *units*, runs of inline text between block
   boundaries, and measures each: characters without white space (so Chinese and English
   compare; CJK counts ``CJK_WEIGHT`` times), characters inside links, sentence punctuation
   (ASCII and CJK). ``teasers.py``: ``mark_teasers`` flags summaries of other pages (repeated
   cards with linked headlines, excerpts cut off with an ellipsis).
3. ``choose.py``: ``choose`` scores every element ``good - penalties`` summed over its units
   (prose counts for, link text and labels against) and takes the best; a run of sibling
   elements may win when the article sits in a page-wide cell. A split article wins through
   its parent when its parts outweigh what lies between them (``widen``); the page's
   landmarks and an item on sale's region are taken where they hold.
4. ``prune.py``: ``prune`` removes, inside the winner, link lists, teasers, sections announced
   by a label ("Comments", "Related stories") and the labels before and after the prose
   (headline, byline, "Share this").
5. Render text and Markdown from the pruned subtree (``sitesift.output.render``).

``types.py``: the page type uses the same measures: a prose body of ``DETAIL_MIN_PROSE``
means ``detail`` unless most of it sits in repeated records (``sitesift.methods.page.records``:
teaser cards, feed entries); without such a body, mostly link text with many same-styled
links, or mostly repeated records, means ``list``; anything else is ``other``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import lxml.html
from lxml import etree

from sitesift.fields.declared import declared_kind, page_type_of
from sitesift.methods.page.choose import (
    choose,
    is_within,
    landmark_of_other,
    landmark_of_sections,
    main_landmark,
    product_region,
    sells_one_item,
    widen,
)
from sitesift.methods.page.clean import clean, drop_hinted
from sitesift.methods.page.kind import PageSignals, decide_kind, kind_features
from sitesift.methods.page.linked import priced_grid
from sitesift.methods.page.prune import drop_repeats, prune
from sitesift.methods.page.records import RecordRuns, record_share
from sitesift.methods.page.teasers import mark_teasers
from sitesift.methods.page.thread import find_thread
from sitesift.methods.page.types import list_items, type_of_page
from sitesift.methods.page.units import Measures, prose_weights, segment
from sitesift.methods.page.whole_posts import POSTS_MIN_SHARE, whole_posts_share
from sitesift.output.render import to_markdown, to_text

__all__ = ["Content", "extract_content"]


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
    #: The page's kind, one of ``kind.KINDS`` (article, forum, product, collection, listing,
    #: documentation, service), decided once from the untouched tree and ``signals``.
    kind: str | None = None
    #: What the extractor measured on the page that tells its kind (``kind.PageSignals``).
    signals: PageSignals | None = field(default=None, repr=False)

    @property
    def text(self) -> str:
        """The content as plain text, paragraphs on lines of their own."""
        return to_text(self.nodes)

    @property
    def markdown(self) -> str:
        """The content as Markdown, rendered on demand (most runs write plain text only)."""
        return to_markdown(self.nodes)


def extract_content(
    root: lxml.html.HtmlElement, *, url: str | None = None,
    within: etree._Element | None = None,
) -> Content:
    """Main text of the page under ``root``, which is edited in place (the pipeline's own
    tree, read by metadata extraction before). ``url`` tells the site's own links (a page of
    whole posts links each title to its page); the rest relies on the DOM alone. ``within``:
    search only this element (a site template's known content container), which is cheaper
    than the whole page."""
    body = within if within is not None else root.find("body")
    if body is None:  # (a page swallowed by an unclosed <title> is mended by parse_html)
        body = root
    # The Python proxy of every element under ``body``, made once and held until the page is
    # read. lxml makes an element's proxy when a walk reaches it and frees it when nothing
    # holds it, so each of the stages' dozen walks made and freed most of them again (the
    # elements a stage keeps, units' blocks, only live as long as that stage's data); a
    # held proxy is found, not made. Proxies are lxml's cache of its C nodes: which proxy
    # stands for an element changes, never what a walk or lookup finds (a removed subtree
    # stays readable while any of its elements has a proxy, as the doomed lists' do anyway).
    # Over the 251 pages of big9-2005, big9-2009 and cleanportal: 2.42-2.45 -> 2.20-2.29 s.
    held = list(body.iter())
    content = _content(root, body, url)
    del held
    return content


def _content(root: lxml.html.HtmlElement, body: etree._Element, url: str | None) -> Content:
    """``extract_content`` of ``body`` under ``root`` (its proxies held by the caller)."""
    kind = declared_kind(root)  # (before cleaning: JSON-LD sits in scripts)
    declared = page_type_of(kind)
    product = kind == "product" or (kind is None and sells_one_item(root))
    seen = kind_features(root, url)  # (the page's kind: its tree's part, read untouched)
    revealed = clean(body)
    memo: Measures = {}  # (the page's texts, measured once for its several segmentations)
    units = segment(body, memo)
    records = record_share(body, units)
    posts = whole_posts_share(body, units, url)
    grid = priced_grid(body)
    thread = find_thread(body, hidden=revealed, units=units, measures=memo)
    if thread is not None and posts < POSTS_MIN_SHARE:
        # A discussion seen alone: posts are its text (whole posts under linked titles are a
        # blog's list of them, no thread).
        signals = PageSignals(page_type="thread", records=records, posts=posts, grid=grid,
                              item=product)
        return Content(page_type="thread", nodes=thread.bodies, posts=thread.posts,
                       kind=decide_kind(seen, signals), signals=signals)
    prose = prose_weights(body, units)
    total = prose.get(body, 0)
    dropped, named = drop_hinted(body, prose, total)
    if dropped:
        # (an untouched tree segments the same: a template's container)
        units = segment(body, memo)
    mark_teasers(units)
    main = choose(body, units)
    weights = prose_weights(body, units)
    main = widen(main, body, weights, named)
    main_prose = weights.get(main, 0)
    runs = RecordRuns(body, units)  # (after the last edit before the items: ``choose``'s)
    page_type = type_of_page(body, units, runs, main, main_prose, records, declared, posts, grid)
    signals = PageSignals(page_type=page_type, records=records, posts=posts, grid=grid,
                          prose=main_prose, total=weights.get(body, 0), item=product)
    page_kind = decide_kind(seen, signals)
    if page_type == "list":
        items = list_items(body, units, runs, main, main_prose)
        if items is None:
            # Records too light to be the page (a grid of product cards, an index of names):
            # the page's own main landmark holds its items, the filters and the intro.
            landmark = main_landmark(body)
            if landmark is not None and is_within(main, landmark):
                items = landmark
        if items is not None:
            return Content(page_type=page_type, nodes=(items,), kind=page_kind,
                           signals=signals)
    if product:
        main = product_region(body, main)
    elif page_type == "other":
        main = landmark_of_other(body, main)
    elif page_type == "detail":
        main = landmark_of_sections(body, main, weights)
    prune(main, product=product, memo=memo)
    drop_repeats(main, product=product, memo=memo)
    nodes = (main,)
    return Content(page_type=page_type, nodes=nodes, item=kind == "product", kind=page_kind,
                   signals=signals)
