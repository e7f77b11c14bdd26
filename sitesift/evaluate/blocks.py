"""Noise-block precision and recall against gold blocks (l3s-gn1), as paper 004 reports them.

Gold blocks are labelled text blocks in page order. Gold noise = ``not-content``, ``related``,
``comments``; gold content = ``headline``, ``fulltext``, ``supplemental``. Predicted blocks are
the ``blocks`` of a record (``sitesift extract --blocks``), each labelled ``noise`` or
``content``. The two segmentations differ, so they are aligned on text: a gold block counts as
predicted noise when at least ``NOISE_SHARE`` (80 %) of its characters fall in predicted
noise blocks. Then, over all gold blocks: precision = gold noise predicted noise / all
predicted noise, recall = gold noise predicted noise / all gold noise.

Alignment is over words weighted by their length, each gold block located on its own (gold
blocks nest: see ``page_blocks``); words are folded to lower-case letters and digits, since
l3s gold lost non-ASCII characters to "?" (``Kosovo?s``) where the page has ``Kosovo’s``. A
gold block's characters that align with no predicted word (text the blocks do not have) count
as not predicted noise; a gold block without a letter or digit ("|", "»") cannot be located
and is left out (counted as ``unscorable_blocks``).
"""

from __future__ import annotations

import bisect
import json
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rapidfuzz.distance import LCSseq

from sitesift.errors import InputError
from sitesift.evaluate.bench import EXIT_INPUT, EXIT_OK
from sitesift.evaluate.score import (
    DECIMALS,
    Predictions,
    load_gold,
    load_predictions,
    read_jsonl,
)

__all__ = ["GOLD_CONTENT", "GOLD_NOISE", "NOISE_SHARE", "page_blocks", "run_blocks_eval",
           "score_blocks"]

GOLD_NOISE = frozenset({"not-content", "related", "comments"})
GOLD_CONTENT = frozenset({"headline", "fulltext", "supplemental"})
#: Share of a gold block's characters that must fall in predicted noise for it to count as
#: predicted noise.
NOISE_SHARE = 0.8
#: Pages whose site has at least this many pages in the set (sibling methods need siblings).
MIN_SITE_PAGES = 2

#: Predicted words after the cursor an unfound gold block is aligned with: twice its length
#: plus this many.
WINDOW_SLACK = 50

_WORD = re.compile(r"\S+")
_FOLD = re.compile(r"[^a-z0-9]+")


def _words(text: str) -> list[tuple[str, int]]:
    """(folded word, characters) of each word that keeps a letter or digit when folded."""
    out = []
    for word in _WORD.findall(text):
        folded = _FOLD.sub("", word.lower())
        if folded:
            out.append((folded, len(folded)))
    return out


class _Predicted:
    """A page's predicted words, searchable: the folded words joined by a separator, with
    each word's offset in the joined string and whether it lies in a noise block."""

    def __init__(self, blocks: Sequence[Mapping[str, Any]]) -> None:
        self.words: list[str] = []
        self.noise: list[bool] = []
        for block in blocks:
            noise = block.get("label") == "noise"
            for word, _ in _words(str(block.get("text") or "")):
                self.words.append(word)
                self.noise.append(noise)
        self.offsets = []
        at = 0
        for word in self.words:
            self.offsets.append(at)
            at += len(word) + 1
        self.joined = "".join(f"\x00{w}" for w in self.words) + "\x00"

    def find(self, words: list[str], cursor: int) -> int | None:
        """Index of the first occurrence of ``words`` at or after word ``cursor``."""
        if not words or cursor >= len(self.words):
            return None
        at = self.joined.find("\x00" + "\x00".join(words) + "\x00", self.offsets[cursor])
        return None if at < 0 else bisect.bisect_left(self.offsets, at)

    def align(self, words: list[str], cursor: int) -> list[tuple[int, int]]:
        """(gold word, predicted word) pairs of an LCS of ``words`` with a window after
        ``cursor`` (for blocks whose text is not found as it is)."""
        stop = min(len(self.words), cursor + 2 * len(words) + WINDOW_SLACK)
        if cursor >= stop:
            return []
        pairs = []
        for op in LCSseq.opcodes(words, self.words[cursor:stop]):
            if op.tag == "equal":
                pairs += [(op.src_start + k, cursor + op.dest_start + k)
                          for k in range(op.src_end - op.src_start)]
        return pairs


def page_blocks(
    gold_blocks: Sequence[Mapping[str, Any]], predicted: Sequence[Mapping[str, Any]] | None
) -> Counter[str]:
    """tp / fp / fn / tn counts of one page's gold blocks (blocks labelled neither way left
    out), plus ``chars`` and ``aligned`` (gold characters, and those found in predictions).

    Gold blocks may nest (l3s-gn1 lists every annotated element, an element and its parts
    alike), so each is located on its own: its words as they are, at or after where the
    previous block was found (blocks come in document order of their starts), else anywhere,
    else by an LCS with the predicted words that follow."""
    pred = _Predicted(predicted or ())
    counts: Counter[str] = Counter()
    cursor = 0
    for block in gold_blocks:
        label = block.get("label")
        if label not in GOLD_NOISE and label not in GOLD_CONTENT:
            continue
        items = _words(str(block.get("text") or ""))
        words = [w for w, _ in items]
        size = sum(n for _, n in items)
        if not size:  # no letter or digit ("|", "»"): nothing to locate it by
            counts["unscorable"] += 1
            continue
        at = pred.find(words, cursor)
        if at is not None:
            cursor = at
        else:  # out of order (nesting): anywhere, else approximately after the cursor
            at = pred.find(words, 0)
        pairs = [(k, at + k) for k in range(len(words))] if at is not None else pred.align(
            words, cursor)
        in_noise = sum(items[g][1] for g, p in pairs if pred.noise[p])
        predicted_noise = size > 0 and in_noise >= NOISE_SHARE * size
        gold_noise = label in GOLD_NOISE
        key = {(True, True): "tp", (False, True): "fp", (True, False): "fn",
               (False, False): "tn"}[(gold_noise, predicted_noise)]
        counts[key] += 1
        counts["chars"] += size
        counts["aligned"] += sum(items[g][1] for g, _ in pairs)
    return counts


def score_blocks(
    set_dir: str | Path, predictions: Predictions, *, min_site_pages: int = MIN_SITE_PAGES
) -> dict[str, Any]:
    """Noise-block precision / recall over the pages of ``set_dir`` whose site has at least
    ``min_site_pages`` pages in the set (sites from pages.jsonl; every page without one)."""
    set_dir = Path(set_dir)
    gold = load_gold(set_dir)
    preds = load_predictions(predictions)
    sites: dict[str, str | None] = {}
    manifest = set_dir / "pages.jsonl"
    if manifest.exists():
        for _, obj in read_jsonl(manifest):
            sites[str(obj.get("id"))] = obj.get("site")
    per_site = Counter(sites.values())
    total: Counter[str] = Counter()
    pages = without = 0
    for page_id, answer in gold.items():
        if "blocks" not in answer:
            continue
        site = sites.get(page_id)
        if min_site_pages > 1 and (site is None or per_site[site] < min_site_pages):
            continue
        predicted = preds.get(page_id, {}).get("blocks")
        if predicted is None:
            without += 1
        total += page_blocks(answer["blocks"], predicted)
        pages += 1
    if not pages:
        raise InputError(f"{set_dir}: no gold blocks on pages of sites with "
                         f">= {min_site_pages} pages")
    tp, fp, fn = total["tp"], total["fp"], total["fn"]
    return {
        "pages": pages,
        "pages_without_blocks": without,
        "gold_blocks": tp + fp + fn + total["tn"],
        "gold_noise": tp + fn,
        "unscorable_blocks": total["unscorable"],
        "noise_precision": round(tp / (tp + fp), DECIMALS) if tp + fp else None,
        "noise_recall": round(tp / (tp + fn), DECIMALS) if tp + fn else None,
        "aligned_chars": round(total["aligned"] / total["chars"], DECIMALS)
        if total["chars"] else None,
    }


def run_blocks_eval(
    set_dir: str | Path, pred_path: str | Path, *, as_json: bool,
    min_site_pages: int = MIN_SITE_PAGES,
) -> int:
    """``sitesift eval --blocks``: print noise-block precision and recall."""
    try:
        metrics = score_blocks(set_dir, Path(pred_path), min_site_pages=min_site_pages)
    except InputError as exc:
        print(f"sitesift eval: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    if as_json:
        print(json.dumps(metrics))
    else:
        for key, value in metrics.items():
            print(f"{key:22} {value}")
    return EXIT_OK
