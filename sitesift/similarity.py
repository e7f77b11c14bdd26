"""How alike two texts are: the body measures of the reference scorer.

Character agreement (longest common subsequence, white space removed) and shingle agreement
(word 4-grams, each CJK character a word), as ``sitesift.evaluate.score`` computes them. Kept
here, below every layer, because the methods measure themselves with them too (a wrapper
against the full template method, the auto policy between candidates, a thread against the
page's text), and a method must not import the evaluation package, which runs the whole
pipeline (docs/design/architecture.md).
"""

from __future__ import annotations

import functools
import re
from collections import Counter

from rapidfuzz.distance import LCSseq

__all__ = ["SHINGLE_SIZE", "char_prf", "f1", "shingle_prf", "squash"]

_SPACE = re.compile(r"\s+")

#: Shingle length in tokens (the Zyte benchmark's value).
SHINGLE_SIZE = 4
# Hiragana/katakana, CJK ideographs (with extension A and compatibility forms), Hangul.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"


@functools.cache
def _token_pattern() -> re.Pattern[str]:
    """A token: one CJK character or a run of other word characters. Compiled on first use
    (its character classes take 4 ms to compile; applying a saved profile never asks)."""
    return re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")


def squash(text: str | None) -> str:
    """``text`` with all white space removed (None: empty)."""
    return _SPACE.sub("", text or "")


def char_prf(gold: str | None, pred: str | None) -> tuple[float, float]:
    """(LCS/len(pred), LCS/len(gold)) with white space removed; two empty texts agree."""
    g, p = squash(gold), squash(pred)
    if not g and not p:
        return 1.0, 1.0
    common = LCSseq.similarity(g, p) if g and p else 0
    return (common / len(p) if p else 0.0), (common / len(g) if g else 0.0)


def f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _tokens(text: str | None) -> list[str]:
    return _token_pattern().findall((text or "").lower())


def _shingles(text: str | None) -> Counter[tuple[str, ...]]:
    """Multiset of token n-grams; a text shorter than n tokens is one shingle of all of them."""
    toks = _tokens(text)
    if not toks:
        return Counter()
    if len(toks) < SHINGLE_SIZE:
        return Counter([tuple(toks)])
    return Counter(
        tuple(toks[i:i + SHINGLE_SIZE]) for i in range(len(toks) - SHINGLE_SIZE + 1)
    )


def shingle_prf(gold: str | None, pred: str | None) -> tuple[float, float]:
    """(precision, recall) of ``pred``'s shingles against ``gold``'s; two empty texts agree."""
    g, p = _shingles(gold), _shingles(pred)
    tp = sum((g & p).values())
    fp = sum((p - g).values())
    fn = sum((g - p).values())
    if fp == fn == 0:
        return 1.0, 1.0
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall
