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

What is learned, and how a page is read with it (the class rule, a post's frame and author,
``PostRule``), is ``fields.post_rules``: the page method reads a lone thread with it too.

Nothing here names an engine's classes or URLs: every selector comes from the pages.
"""

from __future__ import annotations

import logging
import math
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from lxml import etree

from sitesift.fields.post_rules import (
    DATETIME,
    DEFAULT_DEPTH,
    EN_DATETIME,
    ClassRule,
    PostRule,
    author_rule,
    class_owner,
    text_pieces,
)
from sitesift.parse.dom import cjk_count, text_weight

__all__ = [
    "KEYWORDS",
    "SAMPLES",
    "ContentSimilarRule",
    "DateLineRule",
    "ShortLineRule",
    "learn_post_rule",
    "tf_idf",
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

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)


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
        rest = EN_DATETIME.sub("", DATETIME.sub("", line))
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
    # (each line asked of the stop rules once: the template's lines are found among those
    # kept, then the kept lines that are not the template's are read)
    kept = [[(holder, line) for holder, line in s.pieces
             if not any(r.is_noise(line) for r in stop_rules)] for s in samples]
    template = similar.template_lines([[line for _, line in lines] for lines in kept])
    docs: list[list[tuple[etree._Element, list[str]]]] = [
        [(holder, tokenize(line)) for holder, line in lines if similar.key(line) not in template]
        for lines in kept]
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


def _learn_author(body: ClassRule, depth: int, roots: Iterable[etree._Element]) -> ClassRule | None:
    """The class rule of the first short text that (nearly) every post has, and whose text
    differs between posts: the poster's name."""
    return author_rule([body.select(root) for root in roots], depth)


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
