"""Page types for the pages of one site (list, detail, thread, other), from URL clusters plus DOM
cues, and the forum's posts.

How it works (``learn_site_types`` then ``ForumSite.page_types``):

1. DOM cue per page (``post_groups``): the most elements of one class rule that each hold a
   few words of unlinked text: posts repeat, article pages have one body, lists hold links.
   Pages with ``POST_MIN_REPEATS`` such elements are thread candidates.
2. KSF (``sitesift.fields.posts``) learns the post-body rule from the candidates; it counts
   only when its bodies repeat on most candidates (a real forum), else the site is no forum.
3. When pages have URLs, the URLs of the pages and of their in-site links are clustered by
   structure (``sitesift.methods.forum.urls``, paper 001). The thread cluster is the URL cluster
   holding most pages with two posts or more; its resolver rule is the thread-URL rule.
4. Types. Thread: the page has posts and, when a thread rule exists and the page has a URL,
   its URL fits the rule (a single-post thread is known by its URL); without URLs two posts
   are needed (one post alone is as often a private message or an announcement) and the
   page must not be a compose form. List: its URL cluster is one where at least
   ``LIST_CLUSTER_SHARE`` of the pages link to ``LIST_MIN_THREAD_LINKS`` threads or more, or
   (no URL cluster) the single-page method says list. A page alone in its URL cluster takes
   the type of the nearest typed cluster (smallest D; ties: the larger cluster). Anything
   else keeps the single-page type, with ``detail`` read as ``other`` on a forum (a forum's
   pages that are neither lists nor threads are profiles, forms, notices).
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from lxml import etree

from sitesift.fields.date_forms import MonthFirst, votes_month_first
from sitesift.fields.post_rules import ClassRule, PostRule, class_owner, text_pieces
from sitesift.fields.posts import learn_post_rule
from sitesift.methods.forum.urls import Clustering, Resolver, cluster_urls, structure_vectors
from sitesift.methods.interface import Decision
from sitesift.methods.page.own_posts import own_post_lists
from sitesift.methods.page.units import weighted_length
from sitesift.methods.page.whole_posts import (
    POSTS_MIN_SHARE,
    post_titles,
    titled_posts_share,
    unlinked_headings,
)
from sitesift.parse.dom import text_weight
from sitesift.parse.links import page_links
from sitesift.record import Record

__all__ = [
    "LIST_CLUSTER_SHARE",
    "LIST_MIN_THREAD_LINKS",
    "POST_MIN_CHARS",
    "POST_MIN_REPEATS",
    "ForumSite",
    "learn_site_types",
    "post_groups",
]

#: DOM cue: an element counts as a post-like block with this much unlinked text.
POST_MIN_CHARS = 20
#: ... and a page is a thread candidate with this many such blocks of one class rule.
POST_MIN_REPEATS = 2
#: KSF needs at least this many candidates to learn from.
MIN_CANDIDATES = 2
#: The learned rule must find two posts or more on this share of the candidates.
RULE_MIN_REPEAT_SHARE = 0.5
#: A story before the posts (``_story_first``): a block of at least this much unlinked text
#: (weighted characters, an article body's worth: the page extractor's article line)...
STORY_MIN_WEIGHT = 400
#: ...and at least this many median posts (the page method's ``thread.STORY_MIN_RATIO`` is 2
#: for one page; over a site's candidates a story as heavy as its typical comment will do:
#: no forum set's thread shows any prose before its first post).
STORY_MIN_POSTS = 1.0
#: Post bodies hold at most this share of link text (lists of teasers repeat too).
MAX_LINK_SHARE = 0.5
#: A page links to threads when it holds this many distinct thread URLs...
LIST_MIN_THREAD_LINKS = 3
#: ...and a URL cluster is a list cluster when this share of its pages does (filtered or
#: empty board views share the cluster of full ones; forum-dz: 30 of 115 list pages link to
#: threads, no page of another cluster does).
LIST_CLUSTER_SHARE = 0.2
#: Without URLs, a kind group (pages with the same kind tokens) is typed from this many pages.
KIND_MIN_PAGES = 2
#: Only this many characters of a page's source are searched for its root tags.
ROOT_TAG_SCAN = 200_000
#: The URL population is cut to this many URLs before clustering (O(n^2): 3,000 URLs take
#: about 2 s and 150 MB); the pages' own URLs are always kept.
MAX_URLS = 3000
#: Between two posts of a thread's text: a blank line, as between paragraphs, so the posts stay
#: apart in Markdown and in the text's own paragraph split.
THREAD_TEXT_JOIN = "\n\n"


def post_groups(root: etree._Element,
                pieces: list[tuple[etree._Element, str]] | None = None) -> int:
    """DOM cue: the largest number of elements of one class rule that each own at least
    ``POST_MIN_CHARS`` characters of unlinked text. ``pieces``: ``text_pieces(root)`` when
    the caller has them."""
    owned: dict[etree._Element, int] = defaultdict(int)
    # A holder's text and its children's tails are several pieces: one answer per holder.
    owners: dict[etree._Element, etree._Element | None] = {}
    for holder, line in text_pieces(root) if pieces is None else pieces:
        if holder in owners:
            owner = owners[holder]
        else:
            linked = holder.tag == "a" or next(holder.iterancestors("a"), None) is not None
            owner = owners[holder] = None if linked else class_owner(holder)
        if owner is not None:
            owned[owner] += len(line) - line.count(" ")  # (``text_weight`` of a folded line)
    groups: Counter[ClassRule] = Counter(
        ClassRule.of(el) for el, chars in owned.items() if chars >= POST_MIN_CHARS)
    return max(groups.values(), default=0)


def in_site_links(root: etree._Element, url: str | None) -> set[str]:
    """Absolute URLs of the page's links on its own host (fragments dropped)."""
    if not url:
        return set()
    host = urlsplit(url).netloc
    out = set()
    for link in page_links(root, url):
        try:
            if urlsplit(link.url).netloc == host:
                out.add(link.url)
        except ValueError:
            continue
    return out


def _story_first(root: etree._Element, bodies: Sequence[etree._Element]) -> bool:
    """Whether one block of text before the first post outweighs ``STORY_MIN_WEIGHT`` and
    ``STORY_MIN_POSTS`` median posts: an article whose comments the posts are (a blog's post
    with its comment list), where a thread's first post is one of its posts and nothing
    before it holds prose."""
    inside = {el for body in bodies for el in body.iter()}
    weights: Counter[etree._Element] = Counter()
    for holder, line in text_pieces(root):
        if holder in inside:
            break  # (the first post's text: the pieces come in page order)
        owner = class_owner(holder)
        if owner is not None and not any(a.tag == "a" for a in holder.iterancestors()) \
                and holder.tag != "a":
            weights[owner] += weighted_length(line)
    if not weights:
        return False
    posts = sorted(sum(weighted_length(line) for _, line in text_pieces(b)) for b in bodies)
    story = max(weights.values())
    return story >= STORY_MIN_WEIGHT and story >= STORY_MIN_POSTS * posts[len(posts) // 2]


def _is_post_rule(rule: PostRule, candidates: Sequence[etree._Element]) -> bool:
    """A forum's post rule: its bodies repeat on most candidates, hold mostly unlinked text
    (not teaser titles), and every post shows its poster (an author rule was found: article
    paragraphs or comment counts have none). The bodies' text is read only for a rule whose
    bodies repeat (an article's body, one a page, fails on the count alone)."""
    if rule.author is None:
        return False
    # (the candidates read until the count can no longer reach the share: an article's
    # body, one a page, fails half-way)
    need = RULE_MIN_REPEAT_SHARE * len(candidates)
    found, repeating = [], 0
    for k, root in enumerate(candidates):
        bodies = rule.body.select(root)
        found.append(bodies)
        repeating += len(bodies) >= 2
        if repeating + len(candidates) - k - 1 < need:
            return False
    if sum(_story_first(root, bodies) for root, bodies in zip(candidates, found, strict=False)
           if len(bodies) >= 2) * 2 > repeating:
        return False  # comments under articles: the site is no forum
    chars = links = 0
    for bodies in found:
        for body in bodies:
            for holder, line in text_pieces(body):
                weight = text_weight(line)
                chars += weight
                if holder.tag == "a" or next(holder.iterancestors("a"), None) is not None:
                    links += weight
    return links <= MAX_LINK_SHARE * chars


#: The start tags of ``<html>`` and ``<body>`` in the source, and their class and id values.
_ROOT_TAG = re.compile(r"<(html|body)\b([^>]*)>", re.IGNORECASE)
_KIND_ATTR = re.compile(r"""\b(?:class|id)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""",
                        re.IGNORECASE)


def kind_tokens(root: etree._Element, html: str | None = None) -> frozenset[str]:
    """Words of the class and id of ``<html>`` and ``<body>``: many sites name the kind of
    page there (the script or template that made it). Words with digits are ids of the
    page's own thread or board, not kinds. ``html``: the source, read too because libxml2
    drops the attributes of a ``<body>`` tag that comes after content it already put in an
    implied body."""
    values = [el.get(name) or "" for el in (root, root.find("body")) if el is not None
              for name in ("class", "id")]
    if html:
        seen: set[str] = set()  # the first tag of each name: later ones sit in scripts
        for tag in _ROOT_TAG.finditer(html, 0, ROOT_TAG_SCAN):
            name = tag.group(1).lower()
            if name not in seen:
                seen.add(name)
                values += ["".join(m) for m in _KIND_ATTR.findall(tag.group(2))]
    return frozenset(w for value in values for w in value.lower().split()
                     if not any(c.isdigit() for c in w))


def _is_compose_form(root: etree._Element) -> bool:
    """A page for writing a post (a form with a text area): it may quote posts but is none."""
    return any(True for form in root.iter("form") for _ in form.iter("textarea"))


@dataclass(slots=True)
class ForumSite:
    """What one site's pages say about their types; see the module docstring."""

    urls: list[str | None]
    posts: list[list[dict[str, str | None]]]
    #: Per page, its in-site links and whether it is a compose form (empty when the site is
    #: no forum: only a forum's page types read them).
    links: list[set[str]]
    compose: list[bool]
    post_rule: PostRule | None = None
    #: Per page, the kind tokens of its root elements (``kind_tokens``; empty when no forum).
    kinds: list[frozenset[str]] = field(default_factory=list)
    thread_rule: Resolver | None = None
    clustering: Clustering | None = None
    info: dict[str, object] = field(default_factory=dict)
    #: Per page, whether it lists the site's posts: an archive of one post
    #: (``archives_of_one``) or a page of several (``own_post_lists``).
    archives: list[bool] = field(default_factory=list)
    #: Per page, whether it is a post's own page that archives list (``archives_of_one``).
    own_posts: list[bool] = field(default_factory=list)
    #: Post rules of the site's other thread templates (``other_post_rules``).
    more_rules: tuple[PostRule, ...] = ()
    _labels: dict[int, int] | None = field(default=None, repr=False)

    @property
    def is_forum(self) -> bool:
        return self.post_rule is not None

    def is_thread(self, i: int) -> bool:
        if not self.posts[i]:
            return False
        url = self.urls[i]
        if self.thread_rule is not None and url:
            return self.thread_rule.match(url)
        return len(self.posts[i]) >= 2 and not self.compose[i]

    def page_types(self, dom_types: Sequence[str | None]) -> list[str | None]:
        """The type of every page, given the single-page method's types."""
        types: list[str | None] = [
            "thread" if self.is_thread(i) else None for i in range(len(self.urls))]
        cluster_type = self._cluster_types()
        label_of = self._page_labels()
        for i, dom in enumerate(dom_types):
            if types[i] is not None:
                continue
            if self.archives and self.archives[i]:
                types[i] = "list"
                continue
            typed = cluster_type.get(label_of.get(i, -1)) if label_of else None
            if typed == "thread" and not self.posts[i]:
                # A page without posts in the threads' cluster (an index whose URL is the
                # threads' script without parameters): what it links says what it is.
                typed = "list" if self._links_threads(i) else None
            if typed is not None:
                types[i] = typed
            elif self.is_forum and (dom == "detail" or self.posts[i] or self.compose[i]):
                # Neither a thread nor a list of threads: a post shown alone or quoted
                # under a compose form, a compose form (its smiley and icon tables are no
                # list), a profile, a notice (repeated posts are no list either).
                types[i] = "other"
            elif dom == "other" and self.own_posts and self.own_posts[i]:
                types[i] = "detail"  # (a post too short for the single-page reading)
            else:
                types[i] = dom
        if self.is_forum and not cluster_type:
            types = self._by_kind(types)
        return types

    def _by_kind(self, types: list[str | None]) -> list[str | None]:
        """Without URL clusters, the pages' kind tokens (``kind_tokens``) stand in for them.
        Pages with the same kind tokens (less those on every page) form a kind group, typed
        as URL clusters are: thread when most of its pages are threads, list when
        ``LIST_CLUSTER_SHARE`` of them are lists (empty or filtered board views are not),
        else other. A page alone in its kind typed thread or list that shares no token with
        any group of that type is other (a board of bookmarks, an announcement shown as
        posts, a table of bans)."""
        if len(self.kinds) != len(types):
            return types
        known = [k for k in self.kinds if k]
        everywhere = frozenset.intersection(*known) if known else frozenset()
        keys = [kind - everywhere for kind in self.kinds]
        groups: dict[frozenset[str], list[int]] = defaultdict(list)
        for i, key in enumerate(keys):
            if key:
                groups[key].append(i)
        typed: dict[frozenset[str], str] = {}
        for key, pages in groups.items():
            if len(pages) < KIND_MIN_PAGES:
                continue
            if sum(types[i] == "thread" for i in pages) * 2 > len(pages):
                typed[key] = "thread"
            elif sum(types[i] == "list" for i in pages) >= LIST_CLUSTER_SHARE * len(pages):
                typed[key] = "list"
            else:
                typed[key] = "other"
        out = list(types)
        for i, key in enumerate(keys):
            if key in typed:
                out[i] = typed[key]
            elif key and types[i] in ("thread", "list"):
                marks = [k for k, t in typed.items() if t == types[i]]
                if marks and not any(key & k for k in marks):
                    out[i] = "other"
        return out

    def decide(self, records: Sequence[Record]) -> list[Decision | None]:
        """Page types (all pages) and posts (threads) for the page method's records.

        A thread's text is the whole discussion, every post's text in page order (what a
        reader of the thread reads, and what the gold of every forum set holds); ``posts``
        splits it. Its author is the first post's, the thread starter's; its time the page's
        own (``_thread_time``), else the first post's, read in the site's date order
        (``site_month_first``)."""
        types = self.page_types([r.page_type for r in records])
        decisions: list[Decision | None] = []
        for i, record in enumerate(records):
            if record.error:
                decisions.append(None)
                continue
            if types[i] == "thread" and self.posts[i]:
                first = self.posts[i][0]
                decisions.append(Decision(
                    page_type=types[i], credit=self.is_forum, posts=self.posts[i],
                    text=THREAD_TEXT_JOIN.join(p["text"] for p in self.posts[i] if p["text"]),
                    author=first["author"] or None,
                    published=_thread_time(record.published, first["published"])))
            else:
                decisions.append(Decision(page_type=types[i], credit=self.is_forum))
        return decisions

    def rules(self) -> dict[str, object]:
        """This site's forum rules as a profile keeps them (``SiteProfile.forum``): the post
        rule and the thread-URL rule."""
        assert self.post_rule is not None
        rules: dict[str, object] = dict(self.post_rule.to_dict())
        if self.more_rules:
            rules["more_rules"] = [rule.to_dict() for rule in self.more_rules]
        if self.thread_rule is not None:
            rules["thread_regex"] = self.thread_rule.regex
        return rules

    # -- URL clusters --------------------------------------------------------------------------

    def _page_labels(self) -> dict[int, int]:
        """URL cluster of each page with a URL; pages outside the clustered sample join the
        largest cluster whose rule they fit (Alg. 3: rules applied to all URLs)."""
        if self.clustering is None:
            return {}
        if self._labels is not None:
            return self._labels
        clustering = self.clustering
        index = {u: k for k, u in enumerate(clustering.vectors.urls)}
        labels = {i: int(clustering.labels[index[u]])
                  for i, u in enumerate(self.urls) if u and u in index}
        rest = [i for i, u in enumerate(self.urls) if u and i not in labels]
        if rest:
            rules = [(label, clustering.resolver(label))
                     for label, _ in clustering.sizes().most_common()]
            for i in rest:
                label = next((lab for lab, rule in rules if rule.match(self.urls[i])), None)  # type: ignore[arg-type]
                if label is not None:
                    labels[i] = label
        self._labels = labels
        return labels

    def _cluster_types(self) -> dict[int, str]:
        """list / thread for URL clusters that are such; pages alone in their cluster take
        the type of the nearest typed cluster."""
        if self.clustering is None or self.thread_rule is None:
            return {}
        labels = self._page_labels()
        members: dict[int, list[int]] = defaultdict(list)
        for i, label in labels.items():
            members[label].append(i)
        out: dict[int, str] = {}
        for label, pages in members.items():
            threads = sum(self.is_thread(i) for i in pages)
            linking = sum(self._links_threads(i) for i in pages)
            if threads * 2 > len(pages):
                out[label] = "thread"
            elif linking >= max(1, LIST_CLUSTER_SHARE * len(pages)):
                out[label] = "list"
            elif len(pages) > 1:
                out[label] = "other"
        lone = [label for label, pages in members.items() if len(pages) == 1 and label not in out]
        typed = [label for label in out if len(members[label]) > 1]
        lists = [self.clustering.resolver(label) for label in typed if out[label] == "list"]
        for label in lone:
            page = members[label][0]
            if not self.posts[page] and any(
                    sum(rule.match(u) for u in self.links[page]) >= LIST_MIN_THREAD_LINKS
                    for rule in lists):
                # What it links says what it is: a page of links to several lists (a
                # forum's index, its boards) is a list, whatever URL it is nearest.
                out[label] = "list"
                continue
            nearest = self._nearest(page, typed, members)
            if nearest is not None and out[nearest] != "thread":
                out[label] = out[nearest]
        return out

    def _links_threads(self, i: int) -> bool:
        """Whether page ``i`` links ``LIST_MIN_THREAD_LINKS`` thread URLs or more."""
        rule = self.thread_rule
        return rule is not None and \
            sum(rule.match(u) for u in self.links[i]) >= LIST_MIN_THREAD_LINKS

    def _nearest(self, i: int, typed: list[int], members: dict[int, list[int]]) -> int | None:
        """The typed cluster with a page URL closest to page ``i``'s (smallest D = N!/Ns!,
        i.e. the latest first difference; ties: more pages)."""
        if not typed:
            return None
        candidates = [(label, k) for label in typed for k in members[label]]
        vec = structure_vectors([self.urls[i]] + [self.urls[k] for _, k in candidates])  # type: ignore[list-item]
        codes = vec.codes
        differs = codes[1:] != codes[0]
        first = [int(row.argmax()) if row.any() else math.inf for row in differs]
        best = max(range(len(candidates)),
                   key=lambda j: (first[j], len(members[candidates[j][0]])))
        return candidates[best][0]


def archives_of_one(
    roots: Sequence[etree._Element], urls: Sequence[str | None],
    pieces: Sequence[list[tuple[etree._Element, str]] | None] = (),
) -> tuple[list[bool], list[bool]]:
    """Per page, whether it is an archive of one post, and whether it is a post's own page.

    An archive of one post (a category, tag or author with one post; the last page of a
    pagination) shows one post under a title linking that post's own page, which is among
    the pages and shows the same title unlinked. On the page alone it reads as the post
    itself; a story whose headline links elsewhere has no such page (its headline's target
    shows the headline linked, or is no page of the input). A post's own page is the target
    of such a title, one post's or one of a page of posts': a post too short for the
    single-page reading (WordPress's "Hello world!", 85 characters) is still the article its
    archives list. ``pieces``: per page, ``text_pieces(root)`` where the caller has them."""
    index = {u.rstrip("/"): k for k, u in enumerate(urls) if u}

    def other_page(i: int) -> Callable[[str], bool]:
        # (a title's target must be another of the pages: the groups linking none are not
        # measured)
        return lambda target: index.get(target.split("#")[0].rstrip("/"), i) != i

    archives = [False] * len(roots)
    own = [False] * len(roots)
    headings: dict[int, set[str]] = {}
    for i, (root, url) in enumerate(zip(roots, urls, strict=True)):
        lines = pieces[i] if i < len(pieces) else None
        for group in post_titles(root, url, pieces=lines, targets=other_page(i)) if url else ():
            for title, target in group:
                k = index.get(target.split("#")[0].rstrip("/"))
                if k is None or k == i:
                    continue
                if k not in headings:
                    headings[k] = unlinked_headings(roots[k])
                if title in headings[k]:
                    own[k] = True
                    archives[i] = archives[i] or len(group) == 1
    return archives, own


def _thread_time(page: str | None, post: str | None) -> str | None:
    """The thread's time to set over the page's own ``page`` (None: keep it): the first
    post's ``post`` where the page has none, or where the page read the post's day with day
    and month swapped ("08-12-2025" alone reads day-first; the site's order says 12 August).
    A page's declared date otherwise stands (a question's first frame may show when it was
    edited before when it was asked)."""
    if not post:
        return None
    if not page:
        return post
    y, m, d = page[:4], page[5:7], page[8:10]
    return post if post[:10] == f"{y}-{d}-{m}" and m != d else None


def site_month_first(
    roots: Sequence[etree._Element],
    pieces: Sequence[list[tuple[etree._Element, str]] | None] = (),
) -> MonthFirst:
    """How the site's ambiguous numeric dates read: every date of its pages that shows an
    order (a number above 12; a day also printed with its month's name) votes
    (``date_forms.votes_month_first``); a forum
    printing "08-13-2025" on one page reads "08-12-2025" on another as 12 August. Without
    votes, US usage (slashes month-first). ``pieces``: per page, ``text_pieces(root)`` where
    the caller has them."""
    texts = []
    for k, root in enumerate(roots):
        lines = pieces[k] if k < len(pieces) else None
        texts.append(" ".join(line for _, line in (
            lines if lines is not None else text_pieces(root))))
    return votes_month_first(texts, True)


def other_post_rules(rule: PostRule, candidates: Sequence[etree._Element],
                     pieces: Sequence[list[tuple[etree._Element, str]]],
                     seed: int = 0) -> tuple[PostRule, ...]:
    """The post rule of a second thread template: KSF again over the candidates where
    ``rule`` finds no post, when ``MIN_CANDIDATES`` of them are left and their rule passes
    as a forum's (``_is_post_rule``). A forum may show each topic twice, in its full page
    and in a text-only archive copy of other markup; both are threads."""
    rest = [k for k, root in enumerate(candidates) if not rule.body.select(root)]
    if len(rest) < MIN_CANDIDATES:
        return ()
    roots = [candidates[k] for k in rest]
    other = learn_post_rule(roots, seed=seed, pieces=[pieces[k] for k in rest])
    if other is None or other.body == rule.body or not _is_post_rule(other, roots):
        return ()
    return (other,)


def learn_site_types(
    roots: Sequence[etree._Element], urls: Sequence[str | None], *, seed: int = 0,
    post_rule: PostRule | None = None, thread_regex: str | None = None,
    htmls: Sequence[str] | None = None, more_rules: Sequence[PostRule] | None = None,
) -> ForumSite:
    """Steps 1-3 over the untouched trees of one site's pages (read, never changed). A saved
    ``post_rule`` / ``thread_regex`` (from the site profile) skips learning them."""
    info: dict[str, object] = {}
    seen_pieces: list[list[tuple[etree._Element, str]] | None] = [None] * len(roots)
    for k, root in enumerate(roots):  # (the cues below read these lines)
        seen_pieces[k] = text_pieces(root)
    # A page listing the site's own posts under their titles (a blog's home, tag, category
    # pages of summaries) is a list whatever it reads as alone, and no thread.
    listing = own_post_lists(roots, urls, seen_pieces)
    info["own_post_lists"] = sum(listing)
    if post_rule is None:
        # (A page of posts under linked titles, whole or excerpts, a blog's archive, is a list
        # of articles: its posts repeat with authors and times, as a thread's do.)
        candidates, lines = [], []
        for k, (root, url) in enumerate(zip(roots, urls, strict=True)):
            pieces = seen_pieces[k]
            if not listing[k] and post_groups(root, pieces) >= POST_MIN_REPEATS and \
                    titled_posts_share(root, url, pieces=pieces) < POSTS_MIN_SHARE:
                candidates.append(root)
                lines.append(pieces)
        info["thread_candidates"] = len(candidates)
        if len(candidates) >= MIN_CANDIDATES:
            post_rule = learn_post_rule(candidates, seed=seed, pieces=lines)
            if post_rule is not None and not _is_post_rule(post_rule, candidates):
                info["rejected_rule"] = post_rule.body.css
                post_rule = None
            if post_rule is not None and more_rules is None:
                more_rules = other_post_rules(post_rule, candidates, lines, seed)
    archives, own_posts = archives_of_one(roots, urls, seen_pieces)
    archives = [one or many for one, many in zip(archives, listing, strict=True)]
    if post_rule is None:
        # No forum: no page has posts, and only a forum's page types read the pages' in-site
        # links, compose forms and kind tokens (``is_forum`` guards each read), so they are
        # not gathered (the same types; the walk and join of every page's links was a third
        # of this step on a news site).
        return ForumSite(list(urls), [[] for _ in roots], [], [], None, info=info,
                         archives=archives, own_posts=own_posts)
    links = [in_site_links(root, url) for root, url in zip(roots, urls, strict=True)]
    compose = [_is_compose_form(root) for root in roots]
    month_first = site_month_first(roots, seen_pieces)
    info["month_first"] = month_first
    rules = (post_rule, *(more_rules or ()))
    posts, template = [], []  # (template: which rule read the page's posts)
    for root in roots:
        which, found = next(((k, found) for k, rule in enumerate(rules)
                             if (found := rule.posts(root, month_first))), (0, []))
        posts.append(found)
        template.append(which)
    site = ForumSite(list(urls), posts, links, compose, post_rule, more_rules=tuple(rules[1:]),
                     kinds=[kind_tokens(root, htmls[k] if htmls else None)
                            for k, root in enumerate(roots)], info=info,
                     archives=archives, own_posts=own_posts)
    if thread_regex is not None:
        site.thread_rule = Resolver.from_regex(thread_regex)
    population = sorted({u for u in urls if u} | set().union(*links))
    if len(population) > MAX_URLS:  # Alg. 3 line 2: cluster a sample, apply rules to all
        population = sorted(random.Random(seed).sample(population, MAX_URLS))
    if len([u for u in urls if u]) >= 2 and len(population) >= 2:
        site.clustering = cluster_urls(population)
        if site.thread_rule is None:
            labels = site._page_labels()
            votes = Counter(labels[i] for i in labels if len(posts[i]) >= 2 and not compose[i])
            if votes and votes.most_common(1)[0][1] >= 2:
                site.thread_rule = site.clustering.resolver(votes.most_common(1)[0][0])
                sizes = Counter(labels.values())
                second = Counter(labels[i] for i in labels
                                 if len(posts[i]) >= 2 and template[i] > 0 and not compose[i])
                more = [site.clustering.resolver(label) for label, n in second.most_common()
                        if n >= 2 and n * 2 > sizes[label]
                        and label != votes.most_common(1)[0][0]]
                if more:
                    # A second template of threads (a text-only archive copy of each topic,
                    # read by a rule of its own) is threads too, under URLs of its own: one
                    # rule for all of them.
                    site.thread_rule = Resolver.from_regex("|".join(
                        f"(?:{rule.regex})" for rule in (site.thread_rule, *more)))
    return site
