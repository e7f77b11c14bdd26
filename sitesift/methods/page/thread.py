"""A discussion seen alone: the single-page thread reader.

A forum thread, a question with its answers, a comment page is *repeated posts*: elements
of one class rule that each hold a body of unlinked text, framed by the poster's name and a
time (``sitesift.fields.posts`` learns the same from many pages of one forum; here the page
has to do on its own). ``read_thread`` finds the heaviest such run on one page:

1. Body rules: the class rules (tag + stable classes) of elements owning at least
   ``POST_BODY_MIN_CHARS`` of unlinked text, two or more of them on the page; the
   ``MAX_RULES`` heaviest are tried.
2. A rule's post reaches up from each body to the largest ancestor holding one body only
   (``fields.posts._depth``); that frame must show a time (a ``<time>``, a ``datetime`` or
   date-valued attribute, or a short date or "3 days ago" text) on ``TIMED_MIN_SHARE`` of the
   posts, and a poster: a short text at one class rule in (nearly) every post whose value
   differs between posts (``fields.posts._learn_author``).
3. Not teasers: a list's cards have dates and authors too, but each links its own headline
   (a heading with a link outside the body); bodies hold at most as much link text as text.

``is_thread`` then tells a thread from an article with comments by *dominance*: an article has
one dominant prose block outside the posts (its story); a thread has none, its posts hold the
page. Engines and themes are never named: every rule comes from the page.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from lxml import etree

from sitesift.fields.post_rules import (
    ClassRule,
    PostRule,
    author_rule,
    has_stable_class,
    page_month_first,
    post_container,
    text_pieces,
)
from sitesift.methods.page.units import Measures, Unit, weighted_length
from sitesift.parse.dom import SKIP_TAGS, is_hidden, text_content, text_weight

__all__ = ["Thread", "find_thread", "has_time", "is_thread", "read_thread"]

#: An element owning this much unlinked text (characters without spaces) may be a post body.
POST_BODY_MIN_CHARS = 20
#: A thread shows at least this many posts (a question and one answer).
MIN_POSTS = 2
#: Body rules tried per page, heaviest first (the cost of a page stays a few tree walks).
MAX_RULES = 8
#: A poster's name weighs at most this (40 Latin letters, 13 CJK characters).
NAME_MAX_WEIGHT = 40
#: Share of posts that must name their poster.
POSTER_MIN_SHARE = 0.6
#: Share of posts whose frame must show a time.
TIMED_MIN_SHARE = 0.6
#: Posts whose frame links a heading (a teaser card) make the run a list, from this share.
TEASER_MAX_SHARE = 0.5
#: A link outside a post's body this long (weighted characters) that is no time stamp
#: is a headline: the card of a list links its own page (a poster's name is shorter).
TEASER_MIN_HEADLINE = 25
#: ...and a linked heading this long (a heading may hold the poster's name, shorter).
HEADING_MIN_HEADLINE = 15
#: Teasers' headlines differ: at least this share of them distinct.
TEASER_DISTINCT_SHARE = 0.8
#: A leading body without a poster heavier than this many median posts is a story with its
#: comments (scrapinghub's one such page: 4.4; modern-dev's thread with a hidden preview
#: first: under 1).
STORY_MIN_RATIO = 2.0
#: Posts without times (``_articles``) name at most this many distinct posters a post
#: (modern-dev half a: a script-less thread view 0.55; a listicle of 47 articles, its entry
#: titles and repeated photo credits read as posters, 0.94).
UNTIMED_MAX_DISTINCT = 0.8
#: A date text in a post frame is at most this long (a time stamp, not a sentence).
DATE_MAX_CHARS = 60

#: The posts hold at least this share of the page's unlinked text (modern-dev half a: thread
#: pages 0.46-0.99 where the run is the posts, articles with comments 0.02-0.36 but for one
#: with 59 comments, 0.73).
THREAD_MIN_SHARE = 0.4
#: No element outside the posts owns more than this many times the heaviest post's text
#: (half a: threads 0-0.25, that article with 59 comments 2.4, other articles 2.6-118).
OUTSIDE_MAX_RATIO = 1.0

_DATE = re.compile(
    r"\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}|\b\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}\b|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2}\b|'\d\d)|"
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
    r"\b\d+\s*(?:s|sec|second|m|min|minute|h|hr|hour|d|day|w|week|wk|mo|month|y|yr|year)s?"
    r"\s+ago\b|\d+\s*(?:秒|分钟|小时|天|周|个月|年)前|昨天|前天|今天|\byesterday\b|\btoday\b|"
    r"\b\d{1,2}:\d{2}\s*[ap]\.?m\b",
    re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
#: Attributes that carry a post's time as a value (a tooltip, a data attribute).
_TIME_ATTRS = ("title", "data-time", "data-timestamp", "data-date", "data-datetime")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


@dataclass(frozen=True, slots=True)
class Thread:
    """The heaviest run of posts on a page: each post's body and frame (``containers``),
    the posts as records, and the weights ``is_thread`` compares."""

    rule: PostRule
    bodies: tuple[etree._Element, ...]
    containers: tuple[etree._Element, ...]
    posts: tuple[dict[str, str | None], ...]
    #: Unlinked text in the bodies, all posts together and the heaviest post.
    weight: int
    heaviest: int
    #: The heaviest unlinked text owned by one element outside every post (an article's
    #: story, a sidebar) and the page's unlinked text in all.
    outside: int
    page: int


def _in_links(root: etree._Element) -> set[etree._Element]:
    """Every element at or under a link of ``root`` (whose text is link text)."""
    return {el for a in root.iter("a") for el in a.iter()}


def has_time(container: etree._Element, body: etree._Element) -> bool:
    """Whether the post's frame (``container`` outside ``body``) shows a time (also read by
    ``sitesift.methods.page.linked``: a blog's posts show theirs)."""
    inside = set(body.iter())
    for el in container.iter(etree.Element):
        if el in inside:
            continue
        if el.tag == "time" or el.get("datetime"):
            return True
        for name in _TIME_ATTRS:
            value = el.get(name)
            if value and (_ISO.search(value) or _DATE.search(value)):
                return True
        for text in (el.text, el.tail if el is not container else None):
            if text and len(text) <= 2 * DATE_MAX_CHARS and _DATE.search(text) \
                    and text_weight(text) <= DATE_MAX_CHARS:
                return True
    return False


def _timed(pairs: list[tuple[etree._Element, etree._Element]]) -> bool:
    """Whether ``TIMED_MIN_SHARE`` of the posts show a time (stops once they cannot)."""
    allowed = len(pairs) - TIMED_MIN_SHARE * len(pairs)
    missing = 0
    for container, body in pairs:
        if not has_time(container, body):
            missing += 1
            if missing > allowed:
                return False
    return True


def _articles(containers: list[etree._Element]) -> bool:
    """Whether ``TIMED_MIN_SHARE`` of the posts are each an ``<article>`` of their own (the
    post's frame is one or lies in one holding no other post): HTML's own word for a post
    of a forum or a comment, which a page may show without its time (a script-less view)."""
    own: list[etree._Element] = []
    for container in containers:
        article = next((el for el in (container, *container.iterancestors())
                        if el.tag == "article"), None)
        if article is not None:
            own.append(article)
    counts = Counter(own)
    return sum(counts[a] == 1 for a in own) >= TIMED_MIN_SHARE * len(containers)


def _counted(names: list[str]) -> bool:
    """Whether half the names or more are one label numbered ("1. By", "2. By", "#3"): they
    differ by their digits alone, as a counter does and posters' names hardly do."""
    labels = Counter(_DIGITS.sub("", n) for n in names)
    label, count = labels.most_common(1)[0]
    return 2 * count >= len(names) and len({n for n in names if _DIGITS.sub("", n) == label}) \
        == count > 1


def _headline(container: etree._Element, body: etree._Element) -> str | None:
    """The headline a card links before its body: a linked heading of
    ``HEADING_MIN_HEADLINE`` characters or a link of ``TEASER_MIN_HEADLINE`` (no time stamp;
    a poster's name in a heading is shorter)."""
    for a in container.iter():
        if a is body:
            break  # a card's headline comes before its summary (not "liked by ..." after)
        if a.tag != "a":
            continue
        text = " ".join(text_content(a).split())
        if _DATE.search(text):
            continue
        parent = a.getparent()
        in_heading = (parent is not None and parent.tag in _HEADINGS) \
            or next(a.iter(*_HEADINGS), None) is not None
        weight = weighted_length(text)
        if weight >= TEASER_MIN_HEADLINE or (in_heading and weight >= HEADING_MIN_HEADLINE):
            return text
    return None


def _are_teasers(pairs: list[tuple[etree._Element, etree._Element]]) -> bool:
    """Cards of a list: most link a headline of their own, and the headlines differ (a
    thread's posts may link their subject, "Re: ..." the same on every post)."""
    lines = [h for c, b in pairs if (h := _headline(c, b)) is not None]
    return len(lines) >= TEASER_MAX_SHARE * len(pairs) and \
        len(set(lines)) >= TEASER_DISTINCT_SHARE * len(lines)


def _iso_time(container: etree._Element) -> str | None:
    """A post's time from the first machine-readable stamp in its frame, as
    "YYYY-MM-DD HH:MM" (the forum method's form)."""
    for el in container.iter(etree.Element):
        for value in (el.get("datetime"), *(el.get(n) for n in _TIME_ATTRS)):
            m = _ISO.search(value or "")
            if m:
                return m.group(0).replace("T", " ")
    return None


def read_thread(root: etree._Element) -> Thread | None:
    """The heaviest run of posts under ``root`` (read, never changed), or None."""
    return _heaviest_run(root, only_threads=False)


def find_thread(root: etree._Element, *,
                hidden: Iterable[etree._Element] | None = None,
                units: Sequence[Unit] | None = None,
                measures: Measures | None = None) -> Thread | None:
    """``read_thread(root)`` when ``is_thread`` holds for it, else None: the same answer,
    cheaper, since a run whose bodies hold less than ``THREAD_MIN_SHARE`` of the page can be
    neither a thread nor (being lighter) hide one; such runs are dropped before their posts
    are read (most pages: every run). ``hidden``: when the caller knows them, every element
    under ``root`` (``root`` aside) that is hidden or of a tag in ``SKIP_TAGS`` (after the
    page extractor's clean-up, the hidden blocks it keeps for a reader to open), so that
    the elements need not be asked one by one. ``units`` and ``measures`` (with ``hidden``):
    ``segment(root, measures)``'s units of the tree as it stands, whose pieces are the
    page's texts, so that no walk is needed to find them (``_unit_pieces``)."""
    if hidden is not None and units is not None and measures is not None:
        pieces = _unit_pieces(root, hidden, units, measures)
    else:
        pieces = None
    thread = _heaviest_run(root, only_threads=True, hidden=hidden, pieces=pieces)
    return thread if is_thread(thread) else None


def _heaviest_run(root: etree._Element, *, only_threads: bool,
                  hidden: Iterable[etree._Element] | None = None,
                  pieces: list[tuple[etree._Element, int]] | None = None) -> Thread | None:
    owned: dict[etree._Element, int] = defaultdict(int)
    page = 0
    links = _in_links(root)
    own: dict[etree._Element, list[int]] = defaultdict(lambda: [0, 0])
    owners: dict[etree._Element, etree._Element | None] = {}
    if pieces is None:
        pieces = _piece_weights(root, hidden) if hidden is not None else [
            (holder, len(line) - line.count(" "))  # (``text_weight`` of a line)
            for holder, line in text_pieces(root)]
    for holder, weight in pieces:
        if holder in links:
            own[holder][1] += weight
            continue
        own[holder][0] += weight
        page += weight
        owner = _class_owner(holder, owners)
        if owner is not None:
            owned[owner] += weight
    texts = _subtree_sums(root, own)
    counts: Counter[ClassRule] = Counter()
    weights: Counter[ClassRule] = Counter()
    for owner, weight in owned.items():
        if weight >= POST_BODY_MIN_CHARS:
            rule = ClassRule.of(owner)
            counts[rule] += 1
            weights[rule] += weight
    best: Thread | None = None
    for rule, _ in weights.most_common(MAX_RULES):
        if counts[rule] < MIN_POSTS:
            continue
        found = _run(root, rule, owned, page, texts,
                     min_weight=THREAD_MIN_SHARE * page if only_threads else 0.0)
        if found is not None and (best is None or found.weight > best.weight):
            best = found
    return best


def _piece_weights(root: etree._Element,
                   hidden: Iterable[etree._Element]) -> list[tuple[etree._Element, int]]:
    """``(holder, text_weight(line))`` of ``text_pieces(root)``'s pairs, in its order, by the
    same walk, skipping the subtrees of ``hidden`` (and ``root``'s if it is hidden) rather
    than asking every element whether it is hidden."""
    skipped = set(hidden)
    if root.tag in SKIP_TAGS or is_hidden(root):
        skipped.add(root)
    out: list[tuple[etree._Element, int]] = []
    walker = etree.iterwalk(root, events=("start", "end", "comment", "pi"))
    for event, el in walker:
        if event == "start":
            if el in skipped:
                walker.skip_subtree()
            else:
                text = el.text
                if text and (weight := text_weight(text)):
                    out.append((el, weight))
            continue
        if el is not root:
            tail = el.tail
            if tail and (weight := text_weight(tail)):
                parent = el.getparent()
                if parent is not None:
                    out.append((parent, weight))
    return out


def _unit_pieces(root: etree._Element, hidden: Iterable[etree._Element],
                 units: Sequence[Unit], measures: Measures) -> list[tuple[etree._Element, int]]:
    """``_piece_weights(root, hidden)`` read off the units ``segment(root, measures)`` made
    of the tree as it stands. Exact: a unit's pieces are the texts and tails of its run with
    characters other than white space (``text_weight`` > 0: what ``_piece_weights`` keeps),
    each with its slot (element, is a tail), and the units in ``seq`` order hold every such
    text under ``root`` once, in document order (a run's pieces are consecutive, and its
    ``seq`` is taken after the last block before its first piece); ``root``'s own tail is in
    neither. A text is left out where ``_piece_weights`` skips it: inside a hidden subtree
    (its element there), or a tail whose parent is (the hidden element's own tail stays).
    The weight is the piece's measure, ``text_weight`` of the same string."""
    if root.tag in SKIP_TAGS or is_hidden(root):
        return []
    inside = {el for top in hidden for el in top.iter()}
    out: list[tuple[etree._Element, int]] = []
    for unit in units:
        for text, (el, is_tail) in zip(unit.pieces, unit.slots, strict=True):
            holder = el.getparent() if is_tail else el
            if holder is not None and holder not in inside:
                out.append((holder, measures[text][0]))
    return out


def _class_owner(el: etree._Element,
                 known: dict[etree._Element, etree._Element | None]) -> etree._Element | None:
    """``fields.post_rules.class_owner(el)``, remembering every element passed on the way up in
    ``known`` (the lines of one block share their owner, and its siblings their parent's)."""
    passed = []
    node: etree._Element | None = el
    found = None
    while node is not None:
        if node in known:
            found = known[node]
            break
        if isinstance(node.tag, str) and has_stable_class(node):
            found = known[node] = node
            break
        passed.append(node)
        node = node.getparent()
    for node in passed:
        known[node] = found
    return found


def _unlinked(el: etree._Element, texts: dict[etree._Element, tuple[int, int]]) -> int:
    return texts.get(el, (0, 0))[0]


def _subtree_sums(root: etree._Element,
                 own: dict[etree._Element, list[int]]) -> dict[etree._Element, tuple[int, int]]:
    """(unlinked, linked) text weight under every element, from each holder's own text (one
    bottom-up pass: children before parents)."""
    sums: dict[etree._Element, tuple[int, int]] = {}
    for el in reversed(list(root.iter(etree.Element))):
        text, linked = own.get(el, (0, 0))
        for child in el:
            if child in sums:
                text, linked = text + sums[child][0], linked + sums[child][1]
        if text or linked:
            sums[el] = (text, linked)
    return sums


def _shows_poster(bodies: list[etree._Element], author: ClassRule) -> bool:
    """Whether the first post's own frame (its largest ancestor holding no other body) shows
    a poster: a story whose text shares its comments' class has a byline, not the
    commenters' name element, and is no post."""
    above: Counter[etree._Element] = Counter()
    for b in bodies:
        above.update(b.iterancestors())
    node = bodies[0]
    while (parent := node.getparent()) is not None and above[parent] <= 1:
        node = parent
    return any(author.matches(el) for el in node.iter(etree.Element))


def _posts_only(bodies: list[etree._Element],
                texts: dict[etree._Element, tuple[int, int]]) -> tuple[list[etree._Element], int]:
    """The bodies that are posts, and their depth: a poster's signature may share the class
    of the posts' bodies, inside the post's frame. The bodies sitting where the heaviest sit
    (same parent rule) give the depth; others are kept unless a post's frame holds them (a
    question's body has a parent of its own beside its answers')."""
    places: dict[ClassRule, list[etree._Element]] = defaultdict(list)
    for b in bodies:
        parent = b.getparent()
        places[ClassRule.of(parent) if parent is not None else ClassRule("*", ())].append(b)
    main = max(places.values(), key=lambda group: sum(_unlinked(b, texts) for b in group))
    if len(places) == 1 or len(main) < MIN_POSTS:
        return bodies, _post_depth(bodies)
    depth = _post_depth(main)
    frames = {post_container(b, depth) for b in main}
    kept = [b for b in bodies if b in main or not any(a in frames for a in b.iterancestors())]
    return kept, depth


def _post_depth(bodies: list[etree._Element]) -> int:
    """Levels from a body up to its post (KSF's measure over these bodies): the median of
    each body's largest ancestor holding no other body."""
    above: Counter[etree._Element] = Counter()
    for b in bodies:
        above.update(b.iterancestors())
    depths = []
    for b in bodies:
        level, node = 0, b
        while (parent := node.getparent()) is not None and above[parent] <= 1:
            node, level = parent, level + 1
        depths.append(level)
    return sorted(depths)[len(depths) // 2]


def _bound(rule: ClassRule, owned: dict[etree._Element, int],
           texts: dict[etree._Element, tuple[int, int]]) -> int:
    """At least the unlinked text under the bodies ``_run`` selects, from the elements that
    own text alone (no selector run over the page): each body selected owns text and bears
    the rule's tag and every class the selector tests (``ClassRule.xpath``: those without a
    quote), each then a substring of its class attribute."""
    classes = [c for c in rule.classes if "'" not in c]
    total = 0
    for el, weight in owned.items():
        if weight and (rule.tag == "*" or el.tag == rule.tag):
            names = el.get("class") or ""
            if all(c in names for c in classes):
                total += _unlinked(el, texts)
    return total


def _run(root: etree._Element, rule: ClassRule, owned: dict[etree._Element, int],
         page: int, texts: dict[etree._Element, tuple[int, int]], *,
         min_weight: float = 0.0) -> Thread | None:
    if min_weight and _bound(rule, owned, texts) < min_weight:
        return None  # (before selecting: most runs of most pages end here)
    # An element of the rule owning no unlinked text is no body (a row of buttons in a cell
    # of the bodies' class, a cell framing classed parts): counted, it would narrow every
    # post's frame to the body alone.
    selected = [b for b in rule.select(root) if owned.get(b)]
    # The run's weight sums the text of some of these bodies: it cannot exceed all of it.
    # (Fewer bodies than a run's posts, none at all when the rule's outermost elements own
    # no text, make no run: the posts are a subset of them.)
    if len(selected) < MIN_POSTS or sum(_unlinked(b, texts) for b in selected) < min_weight:
        return None
    bodies, depth = _posts_only(selected, texts)
    if len(bodies) < MIN_POSTS:
        return None
    containers = [post_container(b, depth) for b in bodies]
    pairs = list(zip(containers, bodies, strict=True))
    timed = _timed(pairs)
    if not timed and not _articles(containers):
        return None
    if _are_teasers(pairs):
        return None
    author = author_rule([bodies], depth)
    if author is None or (author.tag == rule.tag and set(author.classes) <= set(rule.classes)):
        return None  # (a "poster" of the bodies' own class is a label among the bodies)
    if not _shows_poster(bodies, author):
        # A leading body without a poster: a story whose text shares its comments' class (it
        # is no post), or a hidden preview. Heavier than a typical post, it is the story.
        lead = _unlinked(bodies[0], texts)
        weights = sorted(_unlinked(b, texts) for b in bodies[1:])
        if lead > STORY_MIN_RATIO * weights[len(weights) // 2]:
            return None
        bodies, containers = bodies[1:], containers[1:]
    per_post = [texts.get(b, (0, 0)) for b in bodies]
    weight = sum(own for own, _ in per_post)
    if sum(linked for _, linked in per_post) > weight:
        return None
    post_rule = PostRule(rule, depth, author)
    order = page_month_first(root)  # (the page's own unambiguous dates set its order)
    found = [(post, b, c) for b, c in zip(bodies, containers, strict=True)
             if (post := post_rule.post(b, order)) is not None]
    if len(found) < MIN_POSTS:
        return None
    if len({post["text"] for post, _, _ in found}) < MIN_POSTS:
        return None  # one text shown twice (a page's desktop and mobile copies) is no thread
    posts = [post for post, _, _ in found]
    bodies = [b for _, b, _ in found]
    containers = [c for _, _, c in found]
    if not _posters(posts, timed=timed):
        return None
    for post, container in zip(posts, containers, strict=True):
        post["published"] = post["published"] or _iso_time(container)
    inside: set[etree._Element] = set()
    for c in containers:
        inside.update(c.iter(etree.Element))
    # (An ancestor of the posts owns only its own text: the posts' text has owners inside.)
    outside = max((w for el, w in owned.items() if el not in inside), default=0)
    return Thread(post_rule, tuple(bodies), tuple(containers), tuple(posts), weight,
                  max(own for own, _ in per_post), outside, page)


def _posters(posts: list[dict[str, Any]], *, timed: bool) -> bool:
    """Whether the posts' posters read as people: most posts name one, a name (not a time
    stamp, not a numbered label), and untimed posts' names come back."""
    names = [p["author"] for p in posts if p["author"]
             and weighted_length(p["author"]) <= NAME_MAX_WEIGHT]
    if len(names) < POSTER_MIN_SHARE * len(posts):
        # Posts show their poster, a name (dates-dev: an article's two boxes, one "named";
        # list-detail: a feed whose "poster" is each entry's unlinked headline).
        return False
    if sum(bool(_DATE.search(n)) for n in names) * 2 >= len(names):
        return False  # the "poster" is the time stamp itself: a dated list
    if _counted(names):
        return False  # the "poster" is a numbered label ("1. By", "2. By"): comments counted
    # Untimed articles: a discussion is posters taking turns, coming back; a listicle's
    # entries (articles too, headed by their titles) hardly repeat.
    return timed or len(set(names)) <= UNTIMED_MAX_DISTINCT * len(names)


def is_thread(thread: Thread | None) -> bool:
    """Whether the run of posts is the page: its bodies hold ``THREAD_MIN_SHARE`` of the
    page's unlinked text, and no element outside the posts owns more text than the heaviest
    post (an article's story beside its comments)."""
    return thread is not None and thread.weight >= THREAD_MIN_SHARE * thread.page \
        and thread.outside <= OUTSIDE_MAX_RATIO * thread.heaviest
