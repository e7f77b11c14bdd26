"""Whole posts under linked titles: a blog's home page and its archives are lists too.

Every record there holds an article's worth of prose, so ``linked``'s teaser test passes them
for an article; but each post's heading is one link, its title, to the post's own page, and
every post shows its date. A listicle's linked headings link elsewhere (a product, a source,
an anchor of the page), hold little of its text and show no dates; a thread's linked headings
are its posters' names. The forum step reads the same groups to find a site's archives and
their posts' titles (``post_titles``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from lxml import etree

from sitesift.fields.post_rules import text_pieces
from sitesift.methods.page.linked import (
    HEADLINE_MIN_WEIGHT,
    LINKED_MIN_SHARE,
    TEASER_MAX_PROSE,
    owners,
)
from sitesift.methods.page.records import TextUnit
from sitesift.methods.page.thread import TIMED_MIN_SHARE, has_time
from sitesift.methods.page.units import weighted_length
from sitesift.parse.dom import normalize_space, text_content
from sitesift.parse.links import document_base, join_url

__all__ = [
    "POSTS_MIN_SHARE", "post_titles", "titled_posts_share", "unlinked_headings",
    "whole_posts_share",
]

#: Whole posts: at least this many headings of one tag path, each one link to a distinct page.
POSTS_MIN = 2
#: ...holding at least this share of the page's text weight. Chosen on six WordPress sites of
#: the three default themes (``benchmarks/crawl.py --sites``): archives of 2-10 whole posts
#: 0.47-0.82 of the raw page text; no modern-dev detail page above 0.3 with title-like linked
#: headings.
POSTS_MIN_SHARE = 0.4
#: ...this share of them dated, as a blog shows every post's date (``thread.TIMED_MIN_SHARE``:
#: the share a thread's posts need); a listicle's entries show none.
POSTS_TIMED_SHARE = TIMED_MIN_SHARE
#: ...no one post holding more than this share of them (an article whose own linked title
#: heads the whole story, beside one other linked heading, is no page of posts; l3s-gn1).
POSTS_MAX_ONE_SHARE = 0.75
#: The headings for a page whose every heading level holds records.
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _title_target(heading: etree._Element, base: str | None, host: str,
                  own: str | None) -> str | None:
    """The page a heading links as its title: the heading's text is all one link's, to
    another page of the site (not an anchor of this one, which a post's permalink in a
    thread is)."""
    anchors = [a for a in heading.iter("a") if (a.get("href") or "").strip()]
    if len(anchors) != 1:
        return None
    href = anchors[0].get("href", "").strip()
    text = normalize_space(text_content(heading))
    if not text or "#" in href or href.startswith(("javascript:", "mailto:")) or \
            normalize_space(text_content(anchors[0])) != text:
        return None
    target = join_url(base, href) if base else href
    try:
        parts = urlsplit(target)
    except ValueError:
        return None
    if parts.netloc != host or target.rstrip("/") == (own or "").rstrip("/"):
        return None
    return target


@dataclass(frozen=True, slots=True)
class _Piece:
    """A line of an untouched tree's text, as a text unit (all of it counted as prose)."""

    block: etree._Element
    weight: int

    def is_prose(self) -> bool:
        return True


def whole_posts_share(body: etree._Element, units: Sequence[TextUnit] | None,
                      url: str | None, *,
                      pieces: Sequence[tuple[etree._Element, str]] | None = None) -> float:
    """The share of the page's text held by whole posts under linked titles (see the module
    docstring): headings of one tag path (classes left out: blogs give each post's element
    its own), at least ``POSTS_MIN``, titles (``HEADLINE_MIN_WEIGHT`` at the median) each
    linking a distinct page of the site; a post is the largest element holding one of them
    and no other; most posts show a time; their prose is more than teasers'. 0 without such
    posts. ``units``: the page extractor's text units; None on a tree it has not cleaned (its
    lines count then; ``pieces``: ``text_pieces(body)`` when the caller has them)."""
    return max((share for share, _ in _whole_posts(body, units, url, POSTS_MIN, pieces=pieces)),
               default=0.0)


def titled_posts_share(body: etree._Element, url: str | None, *,
                       pieces: Sequence[tuple[etree._Element, str]] | None = None) -> float:
    """``whole_posts_share`` with teasers too: the share of an untouched page's text held by
    ``POSTS_MIN`` posts or more under linked titles (``HEADLINE_MIN_WEIGHT`` at the median:
    titles, not posters' names), each linking a distinct page of the site, most of them
    dated, whatever their prose. A blog's archive of excerpts (55
    characters a post where its language does not space words: WordPress's Chinese
    translation) is a list of articles as much as an archive of whole posts; a thread's
    posts link no other page by their headings (their permalinks are anchors)."""
    return max((share for share, _ in _whole_posts(body, None, url, POSTS_MIN, prose=False,
                                                   pieces=pieces)), default=0.0)


def post_titles(body: etree._Element, url: str | None, *,
                pieces: Sequence[tuple[etree._Element, str]] | None = None,
                targets: Callable[[str], bool] | None = None,
                ) -> list[list[tuple[str, str]]]:
    """Per group of posts under linked titles of one tag path that holds ``POSTS_MIN_SHARE``
    of an untouched page, its (title, URL) pairs: whole posts or teasers, under titles as
    short as a post's may be. A group of one is an archive of one post, or, on the page
    alone, a story whose headline links elsewhere, or a site's name linking its home page:
    the caller must confirm each title on its target's page. ``pieces``:
    ``text_pieces(body)`` when the caller has them; ``targets``: only the groups linking a
    page it accepts (each group's share is its own, so the others' are not measured)."""
    return [titles for share, titles in _whole_posts(body, None, url, 1, whole=False,
                                                     pieces=pieces, targets=targets)
            if share >= POSTS_MIN_SHARE]


def unlinked_headings(body: etree._Element) -> set[str]:
    """Texts of the page's headings that are no links and hold none (a post's own title on
    its own page)."""
    return {normalize_space(text_content(h)) for h in body.iter(*_HEADINGS)
            if not any(True for _ in h.iter("a")) and
            not any(a.tag == "a" for a in h.iterancestors())}


def _whole_posts(body: etree._Element, units: Sequence[TextUnit] | None, url: str | None,
                 least: int, *, whole: bool = True, prose: bool = True,
                 pieces: Sequence[tuple[etree._Element, str]] | None = None,
                 targets: Callable[[str], bool] | None = None,
                 ) -> list[tuple[float, list[tuple[str, str]]]]:
    """Per group of at least ``least`` posts (``whole_posts_share``): its share of the page's
    text and its (title, URL) pairs. ``whole`` False: teasers and short titles too (no
    prose or title line: the caller confirms each title on its target's page); ``prose``
    False: the title line holds, teasers too. ``targets``:
    only the groups with a title linking a page it accepts."""
    groups = _title_groups(body, url, targets)
    if not groups:
        return []
    # The page's text is weighed at the first group that passes the cheaper tests (most
    # pages have none: the forum's cue asks every page of a site).
    measured = units
    total: float | None = None
    out: list[tuple[float, list[tuple[str, str]]]] = []
    for group in groups.values():
        linked = {t for _, t in group}
        if len(linked) < max(least, LINKED_MIN_SHARE * len(group)):
            continue
        titles = sorted(weighted_length(text_content(h)) for h, _ in group)
        if whole and titles[len(titles) // 2] < HEADLINE_MIN_WEIGHT:
            continue
        posts = _post_extents(body, [heading for heading, _ in group])
        if sum(has_time(post, heading) for post, (heading, _) in zip(posts, group, strict=True)) \
                < POSTS_TIMED_SHARE * len(posts):
            continue
        if total is None:
            if measured is None:
                measured = [_Piece(holder, weighted_length(line)) for holder, line
                            in (text_pieces(body) if pieces is None else pieces)]
            total = sum(u.weight for u in measured)
        owner = owners(posts)
        weights = [0] * len(posts)
        weight_of_prose = 0
        for unit in measured:
            k = owner.get(unit.block)
            if k is not None:
                weights[k] += unit.weight
                weight_of_prose += unit.weight if unit.is_prose() else 0
        held = sum(weights)
        if not total or not held or (len(posts) > 1 and max(weights) > POSTS_MAX_ONE_SHARE
                                     * held) or (whole and prose and
                                                 weight_of_prose <= TEASER_MAX_PROSE * len(posts)):
            continue
        out.append((held / total, [(normalize_space(text_content(h)), t) for h, t in group]))
    return out


def _title_groups(body: etree._Element, url: str | None,
                  targets: Callable[[str], bool] | None,
                  ) -> dict[str, list[tuple[etree._Element, str]]]:
    """The headings whose title links a page of the site, grouped by their tag path (one
    group per repeated template slot); ``targets``: only groups linking a page it accepts."""
    base = document_base(body.getroottree().getroot(), url)
    try:
        host = urlsplit(url or "").netloc
    except ValueError:
        return {}
    groups: dict[str, list[tuple[etree._Element, str]]] = {}
    for heading in body.iter(*_HEADINGS):
        target = _title_target(heading, base, host, url)
        if target is not None:
            path = "/".join(el.tag for el in reversed([heading, *heading.iterancestors()]))
            groups.setdefault(path, []).append((heading, target))
    if targets is not None:
        groups = {path: group for path, group in groups.items()
                  if any(targets(target) for _, target in group)}
    return groups


def _post_extents(body: etree._Element, headings: Sequence[etree._Element],
                  ) -> list[etree._Element]:
    """Each heading's post: its highest ancestor below ``body`` holding no other heading."""
    # How many of the group's headings each element holds (itself included), by one walk up
    # from each heading: counting them in each ancestor's subtree on the way up walked the
    # page's big containers once per heading.
    held_headings: dict[etree._Element, int] = defaultdict(int)
    for heading in headings:
        up: etree._Element | None = heading
        while up is not None:
            held_headings[up] += 1
            up = up.getparent()
    posts = []
    for heading in headings:
        post = heading
        while (parent := post.getparent()) is not None and parent is not body and \
                held_headings[parent] == 1:
            post = parent
        posts.append(post)
    return posts
