"""Keyword Scoring Filter (KSF, paper 001, Alg. 4-5): learn a forum's post-body rule from a few
thread pages, then cut every thread page of the forum into posts.

Read top to bottom, it is the paper's Algorithm 5:

1. ``learn_post_rule`` samples ``SAMPLES`` thread pages (Alg. 5 line 2) and reads each one's
   text lines with the element that owns them: the nearest element with a class attribute,
   since the rule to learn is class-based. Noise never read: scripts, styles, hidden parts.
2. Duplicate samples (same lines) are dropped; *stop rules* drop noise lines (too short,
   no letters); the *content-similar rule* drops lines whose first characters recur on
   several samples (dates, "reply", signatures, user panels: made by the template). All
   three are plain objects with one method, so callers can pass their own (the paper's
   "user-extensible" rules).
3. Lines are segmented (jieba for Chinese, a word pattern otherwise) and weighted by TF-IDF
   over the samples (Eq. 9-11): ``TF(f,w) = N(f,w) / sum_w N(f,w)``,
   ``IDF(w) = log(|F| / (1 + sum_f P(f,w)))``, ``W = TF x IDF``. A sample's keywords are its
   ``KEYWORDS`` heaviest words.
4. Scoring (Alg. 4): each element owning lines scores the weights of the keywords in them;
   each sample's best element votes for its class rule (tag + classes); the rule with most
   votes wins (ties: higher total score). That is the *extraction rule*, a CSS selector such
   as ``td.message``.
5. ``PostRule`` also learns, from the same samples, how far up from a post body its post
   reaches (the largest ancestor holding one body only) and where the author sits (the first
   short text that recurs in every post at the same class and differs between posts). Applied
   to a page it yields ``posts``: ``{"author", "published", "text"}`` in page order.

Nothing here names an engine's classes or URLs: every selector comes from the pages.
"""

from __future__ import annotations

import logging
import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from lxml import etree

from sitesift.output.render import to_text
from sitesift.parse.dom import SKIP_TAGS, cjk_count, is_hidden, normalize_space, text_weight

__all__ = [
    "KEYWORDS",
    "SAMPLES",
    "ClassRule",
    "ContentSimilarRule",
    "DateLineRule",
    "PostRule",
    "ShortLineRule",
    "author_rule",
    "class_owner",
    "learn_post_rule",
    "text_pieces",
    "tokenize",
]

log = logging.getLogger(__name__)

#: Thread pages sampled per forum (the paper's experiment: 5).
SAMPLES = 5
#: Keywords kept per sample (the heaviest TF-IDF words).
KEYWORDS = 20
#: Stop rule: lines lighter than this (characters without spaces, CJK counted once) are noise.
MIN_LINE_CHARS = 4
#: Content-similar rule: lines whose first this many characters recur on another sample are
#: template.
SIMILAR_PREFIX = 6
#: Content-similar rule: a line start seen this many times on one page is template.
SIMILAR_REPEATS = 3
#: Words never taken as keywords (function words; the paper's stop-word list).
_STOP_WORDS_TEXT = """
the and for are but not you your all any can had her was one our out has have him his how
its may new now old see two way who did get got let put say she too use that with this from
they will would there their what when which were been into more than then them some could
other about just like also only very even well want much many most such here where these
those because while after before again over under being does doing should might must shall
yeah yes really think know going gonna make made thing things people something anything
我们 你们 他们 这个 那个 一个 没有 什么 因为 所以 但是 如果 已经 可以 就是 还是 而且 以及
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
#: Author: the longest name-like text (characters without spaces).
AUTHOR_MAX_CHARS = 40
#: Author: the share of posts that must have the author element (forum-awful: 0.76, some
#: names sit in nested elements with classes of their own).
AUTHOR_MIN_COVERAGE = 0.6
#: Post container depth when no sample has two posts (bodies sit this many levels below).
DEFAULT_DEPTH = 3

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_ID = re.compile(r"\d{3,}")
_DATETIME = re.compile(
    r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?\s*(\d{1,2}):(\d{2})")
_EN_DATETIME = re.compile(
    r"\b([A-Z][a-z]{2,8})\.? (\d{1,2}), (\d{4}),? (\d{1,2}):(\d{2})\s*([AaPp][Mm])?")
#: A clock time ("09:03 AM", "16:26"): a post's time stamp in any of its forms, never a name.
_CLOCK = re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?![\d:])")
_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}


# -- extraction rule --------------------------------------------------------------------------

def _stable_classes(el: etree._Element) -> tuple[str, ...]:
    """Class tokens that can name every post alike: per-item tokens carrying ids
    (``post-123``, ``userid-4567``) are dropped."""
    return tuple(sorted({c for c in (el.get("class") or "").split() if not _ID.search(c)}))


@dataclass(frozen=True, slots=True)
class ClassRule:
    """A class-based selector (tag + classes), the paper's extraction rule."""

    tag: str
    classes: tuple[str, ...]

    @classmethod
    def of(cls, el: etree._Element) -> ClassRule:
        return cls(el.tag if isinstance(el.tag, str) else "*", _stable_classes(el))

    @property
    def css(self) -> str:
        return self.tag + "".join("." + c for c in self.classes)

    @property
    def xpath(self) -> str:
        tests = "".join(
            f"[contains(concat(' ', normalize-space(@class), ' '), ' {c} ')]"
            for c in self.classes if "'" not in c)
        return f".//{self.tag}{tests}"

    def matches(self, el: etree._Element) -> bool:
        return el.tag == self.tag and set(self.classes) <= set((el.get("class") or "").split())

    def select(self, root: etree._Element) -> list[etree._Element]:
        """Matching elements in document order, outermost only (a match inside a match is
        part of it)."""
        found = root.xpath(self.xpath)
        chosen = set()
        out = []
        for el in found:
            if any(a in chosen for a in el.iterancestors()):
                continue
            chosen.add(el)
            out.append(el)
        return out


# -- stop, content-similar rules --------------------------------------------------------------

class StopRule(Protocol):
    """Says whether one line of text is noise on its own."""

    def is_noise(self, line: str) -> bool: ...


class SimilarRule(Protocol):
    """Finds lines made by the template, given each sample's lines: ``template_lines``
    returns the keys of such lines, ``key`` the key of one line."""

    def key(self, line: str) -> str: ...

    def template_lines(self, samples: Sequence[Sequence[str]]) -> set[str]: ...


@dataclass(frozen=True, slots=True)
class ShortLineRule:
    """Lines lighter than ``min_chars`` or without any letter are noise."""

    min_chars: int = MIN_LINE_CHARS

    def is_noise(self, line: str) -> bool:
        return text_weight(line) < self.min_chars or not any(ch.isalpha() for ch in line)


@dataclass(frozen=True, slots=True)
class DateLineRule:
    """A line that is mostly a date or time (post stamps) is noise: its month names and
    numbers would pass for keywords."""

    max_other_chars: int = 12

    def is_noise(self, line: str) -> bool:
        rest = _EN_DATETIME.sub("", _DATETIME.sub("", line))
        return rest != line and text_weight(rest) <= self.max_other_chars


@dataclass(frozen=True, slots=True)
class ContentSimilarRule:
    """Lines whose first ``prefix`` characters occur on two samples or more, or
    ``repeats`` times on one page (a label under every post), are template."""

    prefix: int = SIMILAR_PREFIX
    repeats: int = SIMILAR_REPEATS

    def key(self, line: str) -> str:
        return line.replace(" ", "")[: self.prefix]

    def template_lines(self, samples: Sequence[Sequence[str]]) -> set[str]:
        pages: Counter[str] = Counter()
        template: set[str] = set()
        for lines in samples:
            keys = Counter(self.key(line) for line in lines)
            pages.update(keys.keys())
            template.update(k for k, n in keys.items() if n >= self.repeats)
        return template | {k for k, n in pages.items() if n >= 2}


# -- reading a page ---------------------------------------------------------------------------

def class_owner(el: etree._Element) -> etree._Element | None:
    """Nearest element (``el`` or above) with a stable class: who a line belongs to."""
    node: etree._Element | None = el
    while node is not None:
        if isinstance(node.tag, str) and _stable_classes(node):
            return node
        node = node.getparent()
    return None


def text_pieces(root: etree._Element) -> list[tuple[etree._Element, str]]:
    """(holder, line) pairs in document order: an element's text belongs to it, its tail to
    its parent. Skipped and hidden subtrees give nothing but their tails. (lxml's own walk,
    in C: a comment or processing instruction comes as one event, its tail the parent's.)"""
    out: list[tuple[etree._Element, str]] = []
    walker = etree.iterwalk(root, events=("start", "end", "comment", "pi"))
    for event, el in walker:
        if event == "start":
            if el.tag in SKIP_TAGS or is_hidden(el):
                walker.skip_subtree()
            else:
                text = el.text
                if text and text.strip():
                    out.append((el, normalize_space(text)))
            continue
        if el is not root:
            tail = el.tail
            if tail and tail.strip():
                parent = el.getparent()
                if parent is not None:
                    out.append((parent, normalize_space(tail)))
    return out


# -- segmentation and TF-IDF -----------------------------------------------------------------

def tokenize(text: str) -> list[str]:
    """Words of ``text``: jieba for Chinese runs, a letter pattern (3+ letters) otherwise;
    lower-cased; single Chinese characters and numbers are dropped."""
    words = [w.lower() for w in _WORD.findall(_CJK.sub(" ", text))]
    words = [w for w in words if w not in STOP_WORDS]
    if cjk_count(text):
        import jieba

        jieba.setLogLevel(logging.WARNING)
        chinese = " ".join(_CJK_RUNS.findall(text))
        words += [w for w in jieba.lcut(chinese)
                  if len(w) >= 2 and _CJK.match(w) and w not in STOP_WORDS]
    return words


_CJK_RUNS = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def tf_idf(docs: Sequence[Sequence[str]]) -> list[dict[str, float]]:
    """W(f,w) = TF(f,w) x IDF(w) (Eq. 9-11) for every word of every document."""
    df: Counter[str] = Counter()
    for words in docs:
        df.update(set(words))
    n = len(docs)
    out = []
    for words in docs:
        counts = Counter(words)
        total = sum(counts.values()) or 1
        out.append({w: (c / total) * math.log(n / (1 + df[w])) for w, c in counts.items()})
    return out


# -- learning ---------------------------------------------------------------------------------

@dataclass(slots=True)
class _Sample:
    root: etree._Element
    pieces: list[tuple[etree._Element, str]]


def _vote(samples: list[_Sample], stop_rules: Sequence[StopRule],
          similar: SimilarRule) -> tuple[ClassRule | None, int, dict[str, Any]]:
    """Steps 2-4: clean lines, weigh keywords, score owners, vote (Alg. 4)."""
    kept_lines = [[line for _, line in s.pieces if not any(r.is_noise(line) for r in stop_rules)]
                  for s in samples]
    template = similar.template_lines(kept_lines)
    docs: list[list[tuple[etree._Element, list[str]]]] = []
    for s in samples:
        rows = []
        for holder, line in s.pieces:
            if any(r.is_noise(line) for r in stop_rules) or similar.key(line) in template:
                continue
            rows.append((holder, tokenize(line)))
        docs.append(rows)
    weights = tf_idf([[w for _, words in rows for w in words] for rows in docs])
    votes: Counter[ClassRule] = Counter()
    totals: Counter[ClassRule] = Counter()
    for rows, weight in zip(docs, weights, strict=True):
        keywords = {w for w, v in sorted(weight.items(), key=lambda kv: -kv[1])[:KEYWORDS]
                    if v > 0}
        scores: Counter[ClassRule] = Counter()
        for holder, words in rows:
            owner = class_owner(holder)
            if owner is None:
                continue
            gain = sum(weight[w] for w in words if w in keywords)
            if gain > 0:
                scores[ClassRule.of(owner)] += gain
        if scores:
            best, score = scores.most_common(1)[0]
            votes[best] += 1
            totals[best] += score
    if not votes:
        return None, 0, {}
    winner = max(votes, key=lambda r: (votes[r], totals[r]))
    return winner, votes[winner], {r.css: n for r, n in votes.most_common()}


def _depth(body: ClassRule, roots: Iterable[etree._Element]) -> int:
    """Levels from a post body up to its post: the largest ancestor that holds one body
    only, measured on pages with several posts (median)."""
    depths = []
    for root in roots:
        bodies = body.select(root)
        if len(bodies) < 2:
            continue
        # Bodies are outermost matches, so an element holds as many bodies as have it above.
        above: Counter[etree._Element] = Counter()
        for b in bodies:
            above.update(b.iterancestors())
        for b in bodies:
            level, node = 0, b
            while (parent := node.getparent()) is not None and above[parent] <= 1:
                node, level = parent, level + 1
            depths.append(level)
    if not depths:
        return DEFAULT_DEPTH
    depths.sort()
    return depths[len(depths) // 2]


def _container(body: etree._Element, depth: int) -> etree._Element:
    node = body
    for _ in range(depth):
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node


def _outside(container: etree._Element, body: etree._Element) -> list[tuple[etree._Element, str]]:
    """Text pieces of ``container`` outside ``body`` (the post's frame: author, date...)."""
    inside = set(body.iter())
    return [(h, line) for h, line in text_pieces(container) if h not in inside]


def _is_name(line: str) -> bool:
    return 0 < text_weight(line) <= AUTHOR_MAX_CHARS and not _DATETIME.search(line) \
        and not _EN_DATETIME.search(line) and not _CLOCK.search(line) \
        and any(ch.isalpha() for ch in line)


def _name_owner(holder: etree._Element, container: etree._Element) -> etree._Element | None:
    """The classed element a frame text belongs to, inside the post (a name in a bare
    ``<b>`` belongs to its classed parent); None when only the post itself has a class."""
    owner = class_owner(holder)
    if owner is None or owner is container:
        return None
    return owner if any(a is container for a in owner.iterancestors()) else None


def _lead_name(container: etree._Element, body: etree._Element) -> str | None:
    """A post without the author element (a guest's or an anonymous post shows a bare name,
    "匿名", where members' names are links): the first name-like text of its frame before
    its body, where every post shows its poster."""
    inside = set(body.iter())
    for holder, line in text_pieces(container):
        if holder in inside:
            return None
        if _is_name(line):
            return line
    return None


def _learn_author(body: ClassRule, depth: int, roots: Iterable[etree._Element]) -> ClassRule | None:
    """The class rule of the first short text that (nearly) every post has, and whose text
    differs between posts: the poster's name."""
    return author_rule([body.select(root) for root in roots], depth)


def author_rule(pages: Iterable[Sequence[etree._Element]], depth: int) -> ClassRule | None:
    """``_learn_author`` over given post bodies (per page), ``depth`` levels below their
    posts."""
    first_seen: dict[ClassRule, list[int]] = defaultdict(list)
    texts: dict[ClassRule, set[str]] = defaultdict(set)
    posts = 0
    for bodies in pages:
        for b in bodies:
            posts += 1
            seen: set[ClassRule] = set()
            container = _container(b, depth)
            for rank, (holder, line) in enumerate(_outside(container, b)):
                owner = _name_owner(holder, container)
                if owner is None or not _is_name(line):
                    continue
                # One candidate per class token: variants ("author", "author vip") still
                # share the token that names them all.
                for token in _stable_classes(owner):
                    rule = ClassRule(owner.tag, (token,))
                    if rule in seen:
                        continue
                    seen.add(rule)
                    first_seen[rule].append(rank)
                    texts[rule].add(line)
    if not posts:
        return None
    candidates = [
        (sorted(ranks)[len(ranks) // 2], rule) for rule, ranks in first_seen.items()
        if len(ranks) >= AUTHOR_MIN_COVERAGE * posts and (len(texts[rule]) >= 2 or posts == 1)
    ]
    return min(candidates, key=lambda c: c[0])[1] if candidates else None


@dataclass(frozen=True, slots=True)
class PostRule:
    """What KSF learned about one forum: the post-body rule, how far a post reaches above its
    body, and the author's rule. Stored in the site profile as a plain dict."""

    body: ClassRule
    depth: int = DEFAULT_DEPTH
    author: ClassRule | None = None
    #: Samples whose vote went to ``body``, and samples used.
    votes: int = 0
    samples: int = 0
    info: dict[str, Any] = field(default_factory=dict, compare=False)

    def posts(self, root: etree._Element) -> list[dict[str, str | None]]:
        """The page's posts in page order: author, published ("YYYY-MM-DD HH:MM" as the
        forum shows it) and text. Empty when the rule finds no post body."""
        return [post for body in self.body.select(root) if (post := self.post(body))]

    def post(self, body: etree._Element) -> dict[str, str | None] | None:
        """The post whose body is ``body`` (None when it holds no text)."""
        container = _container(body, self.depth)
        frame = _outside(container, body)
        author = None
        if self.author is not None:
            author = next((line for h, line in frame if _is_name(line) and
                           (o := _name_owner(h, container)) is not None and
                           self.author.matches(o)), None) or _lead_name(container, body)
        text = to_text([body])
        if not text.strip():
            return None
        return {"author": author, "published": _published(frame), "text": text}

    def to_dict(self) -> dict[str, Any]:
        return {
            "body": [self.body.tag, list(self.body.classes)], "depth": self.depth,
            "author": [self.author.tag, list(self.author.classes)] if self.author else None,
            "votes": self.votes, "samples": self.samples,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PostRule:
        author = data.get("author")
        return cls(
            body=ClassRule(data["body"][0], tuple(data["body"][1])),
            depth=int(data["depth"]),
            author=ClassRule(author[0], tuple(author[1])) if author else None,
            votes=int(data.get("votes", 0)), samples=int(data.get("samples", 0)),
        )


def _published(frame: list[tuple[etree._Element, str]]) -> str | None:
    for _, line in frame:
        m = _DATETIME.search(line)
        if m:
            y, mo, d, h, mi = (int(x) for x in m.groups())
            return f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}"
        m = _EN_DATETIME.search(line)
        if m and m.group(1)[:3].lower() in _MONTHS:
            mon, d, y, h, mi = (_MONTHS[m.group(1)[:3].lower()], int(m.group(2)),
                                int(m.group(3)), int(m.group(4)), int(m.group(5)))
            if m.group(6):
                h = h % 12 + (12 if m.group(6).lower() == "pm" else 0)
            return f"{y:04d}-{mon:02d}-{d:02d} {h:02d}:{mi:02d}"
    return None


def learn_post_rule(
    roots: Sequence[etree._Element],
    *,
    samples: int = SAMPLES,
    seed: int = 0,
    stop_rules: Sequence[StopRule] = (ShortLineRule(), DateLineRule()),
    similar: SimilarRule | None = None,
    pieces: Sequence[list[tuple[etree._Element, str]]] | None = None,
) -> PostRule | None:
    """KSF (Alg. 5) over the thread pages ``roots`` of one forum; None when no element wins a
    vote. ``seed`` fixes the sample (the benchmark repeats with ten seeds). The trees are
    read, never changed. ``pieces``: each root's ``text_pieces``, when the caller has them."""
    if not roots:
        return None
    picked = random.Random(seed).sample(range(len(roots)), min(samples, len(roots)))
    chosen: list[_Sample] = []
    seen: set[tuple[str, ...]] = set()
    for i in sorted(picked):
        lines = text_pieces(roots[i]) if pieces is None else pieces[i]
        fingerprint = tuple(line for _, line in lines)
        if fingerprint in seen:  # duplicate sample (the same page crawled twice)
            continue
        seen.add(fingerprint)
        chosen.append(_Sample(roots[i], lines))
    body, votes, tally = _vote(chosen, stop_rules, similar or ContentSimilarRule())
    if body is None:
        return None
    sample_roots = [s.root for s in chosen]
    depth = _depth(body, sample_roots)
    author = _learn_author(body, depth, sample_roots)
    return PostRule(body, depth, author, votes, len(chosen), {"votes": tally})
