"""The page's type (``detail``, ``list``, ``other``) and a list page's records, from the same
unit measures as the main block.

``type_of_page``: a prose body of ``DETAIL_MIN_PROSE`` means ``detail`` unless most of it
sits in repeated records (``sitesift.methods.page.records``: teaser cards, feed entries);
without such a body, mostly link text with many same-styled links, or mostly repeated records,
means ``list``; anything else is ``other``. ``list_items`` gives a list page's records as its
main content when they hold most of its text.
"""

from __future__ import annotations

from collections import Counter

from lxml import etree

from sitesift.methods.page.choose import is_within
from sitesift.methods.page.clean import DETAIL_MIN_PROSE
from sitesift.methods.page.linked import (
    TRUNCATED_MIN_PAGE_SHARE,
    feed_box,
    linked_list_share,
    truncated_teasers_share,
)
from sitesift.methods.page.prune import PRUNE_LINK_SHARE
from sitesift.methods.page.records import LIST_MIN_RECORD_SHARE, RecordRuns
from sitesift.methods.page.units import Unit, signature
from sitesift.methods.page.whole_posts import POSTS_MIN_SHARE
from sitesift.parse.dom import (
    drop_keep_tail,
)

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


def type_of_page(body: etree._Element, units: list[Unit], runs: RecordRuns,
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
        paths = Counter(signature(a.getparent()) for a in body.iter("a")
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


def list_items(body: etree._Element, units: list[Unit], runs: RecordRuns,
                main: etree._Element, main_prose: int) -> etree._Element | None:
    """A list page's main content: its heaviest record run with the text that introduces it,
    the items kept whole (their linked titles are the content here), link lists around them
    (menus, pagination) removed. None when the records are too light to be the page, or when
    the container chosen is prose of its own beside them (a short story, a box of headlines)."""
    run = runs.heaviest(body)
    if run is None or run.share < LIST_ITEMS_MIN_SHARE:
        return None
    if main_prose >= LIST_MAX_OTHER_PROSE and not is_within(main, run.parent):
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
        and not unit.is_prose() and is_within(unit.block, node)
    ]
    for el in doomed:
        if el.getparent() is not None and el is not node and not (set(el.iter()) & inside):
            drop_keep_tail(el)
    return node
