"""Lists of a site's own posts, known across the site: a page whose repeated headings are the
titles of other pages of the same site, each heading beside a link to the page it names.

On its own a blog's home, tag, category or archive page of summaries reads as an article
(the summaries add up to an article's worth of prose, and many themes print no date there)
or as a thread (the summaries repeat under a linked name, as posts do under their posters'
names). What the site's other pages say is stronger than either reading: each summary's
heading is the unlinked heading of the page its link goes to (the post's own page), so the
page lists the site's posts. Themes put that link in the heading (``h2 > a``), around it
(``a > h2``), or beside it (an overlay link or a "Read more" link in the summary): the link
is looked for in the heading's whole post, the largest element holding it and no other
heading of its slot. Some themes print the title as a link alone, in no heading (Butterfly's
``a.article-title``): a slot of links outside headings counts too, less the template's links
(on most pages: a menu names its pages as their headings do). A thread's post headings are
its posters' names or anchors of the page itself, a news story's related headlines hold
little of the story's text: neither passes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from lxml import etree

from sitesift.fields.post_rules import text_pieces
from sitesift.methods.page.whole_posts import (
    _HEADINGS,
    POSTS_MIN,
    POSTS_MIN_SHARE,
    _post_extents,
    unlinked_headings,
)
from sitesift.parse.dom import normalize_space, text_content, text_weight
from sitesift.parse.links import document_base, join_url, page_key

__all__ = ["OWN_POSTS_MIN_SHARE", "TEMPLATE_SHARE", "own_post_lists"]

#: At least this share of a slot's headings must be confirmed as the titles of other pages of
#: the site (a list's last card may name a page the crawl did not keep). On zoo-blogs-dev's
#: list pages every heading of the summary slot is confirmed.
OWN_POSTS_MIN_SHARE = 0.5


#: A link on this share of the site's pages (of this many or more) is the template's.
TEMPLATE_SHARE = 0.5
TEMPLATE_MIN_PAGES = 4


def own_post_lists(
    roots: Sequence[etree._Element], urls: Sequence[str | None],
    pieces: Sequence[list[tuple[etree._Element, str]] | None] = (),
) -> list[bool]:
    """Per page, whether it lists the site's own posts (see the module docstring): one slot
    of headings (one tag path) of at least ``POSTS_MIN`` headings, ``OWN_POSTS_MIN_SHARE``
    of which are each the unlinked heading of another of the pages, linked from the
    heading's post; the posts hold ``POSTS_MIN_SHARE`` of the page's text weight.
    ``pieces``: per page, ``text_pieces(root)`` where the caller has them."""
    index = {page_key(u): k for k, u in enumerate(urls) if u}
    headings: dict[int, set[str]] = {}

    def titled(k: int) -> set[str]:
        if k not in headings:
            headings[k] = unlinked_headings(roots[k])
        return headings[k]

    # The links most pages hold are the template's (a menu names its pages as their
    # headings do): no post's title.
    links = [_anchors(root, url) if url else [] for root, url in zip(roots, urls, strict=True)]
    counts = Counter(key for found in links for key in {key for _, key in found})
    template = {key for key, count in counts.items()
                if len(roots) >= TEMPLATE_MIN_PAGES and count >= TEMPLATE_SHARE * len(roots)}
    out = [False] * len(roots)
    for i, (root, url) in enumerate(zip(roots, urls, strict=True)):
        if not url:
            continue
        lines = pieces[i] if i < len(pieces) else None
        anchors = [a for a, key in links[i] if key not in template]
        out[i] = _lists_own_posts(root, url, i, index, titled, lines, anchors)
    return out


def _anchors(root: etree._Element, url: str) -> list[tuple[etree._Element, tuple[str, str]]]:
    """The page's title-like links: outside any heading and holding none (a heading's own
    link is read with the heading), each with its (text, target) key."""
    base = document_base(root.getroottree().getroot(), url)
    out = []
    for anchor in root.iter("a"):
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")) or \
                next(anchor.iter(*_HEADINGS), None) is not None or \
                any(el.tag in _HEADINGS for el in anchor.iterancestors()):
            continue
        text = normalize_space(text_content(anchor))
        if text:
            out.append((anchor, (text, page_key(join_url(base, href) if base else href))))
    return out


def _lists_own_posts(
    root: etree._Element, url: str, i: int, index: dict[str, int],
    titled: Callable[[int], set[str]],
    pieces: list[tuple[etree._Element, str]] | None,
    anchors: Sequence[etree._Element] = (),
) -> bool:
    body = root.find("body")
    body = root if body is None else body
    slots: dict[str, list[etree._Element]] = {}
    for holder in [*body.iter(*_HEADINGS), *anchors]:
        path = "/".join(el.tag for el in reversed([holder, *holder.iterancestors()]))
        if holder.tag == "a":  # (a card's title link and its author's share a tag path)
            path += "." + ".".join(sorted((holder.get("class") or "").split()))
        slots.setdefault(path, []).append(holder)
    slots = {path: found for path, found in slots.items() if len(found) >= POSTS_MIN}
    if not slots:
        return False
    base = document_base(root.getroottree().getroot(), url)
    try:
        host = urlsplit(url).netloc
    except ValueError:
        return False
    total: int | None = None
    for found in slots.values():
        posts = _post_extents(body, found)
        confirmed = [post for heading, post in zip(found, posts, strict=True)
                     if _confirmed(heading, post, base, host, i, index, titled)]
        if len(confirmed) < max(POSTS_MIN, OWN_POSTS_MIN_SHARE * len(found)):
            continue
        if total is None:
            total = sum(text_weight(line) for _, line in
                        (text_pieces(root) if pieces is None else pieces))
        held = sum(text_weight(line) for post in posts for _, line in text_pieces(post))
        if total and held >= POSTS_MIN_SHARE * total:
            return True
    return False


def _names(anchor: etree._Element, heading: etree._Element, text: str) -> bool:
    """Whether ``anchor`` is the heading's own link: inside it, around it, or a link of the
    post that names it (its text, or its ``aria-label`` / ``title``, holds the heading's
    text: an overlay link over a summary card). A widget's label heading ("Categories")
    sits above links that name other things."""
    if anchor in heading.iter("a") or heading in anchor.iter(*_HEADINGS):
        return True
    named = " ".join([normalize_space(text_content(anchor)), anchor.get("aria-label") or "",
                      anchor.get("title") or ""])
    return text in named


def _confirmed(
    heading: etree._Element, post: etree._Element, base: str | None, host: str, i: int,
    index: dict[str, int], titled: Callable[[int], set[str]],
) -> bool:
    """Whether ``heading``'s text is the unlinked heading of another page that a link in its
    ``post`` (or around it) goes to."""
    text = normalize_space(text_content(heading))
    if not text:
        return False
    anchors = [*post.iter("a"), *(a for a in heading.iterancestors("a"))]
    for anchor in anchors:
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")) or \
                not _names(anchor, heading, text):
            continue
        target = join_url(base, href) if base else href
        try:
            if urlsplit(target).netloc != host:
                continue
        except ValueError:
            continue
        k = index.get(page_key(target))
        if k is not None and k != i and text in titled(k):
            return True
    return False
