r"""Score predicted records against a data set's gold answers.

The figures are those of the project's reference scorer (``../shared/bench/score.py``): same
keys, same values, same rounding, so numbers quoted anywhere in the project compare directly.
This module is the readable, typed version, and it checks the gold before scoring (a silently
broken gold file gives plausible but wrong figures).

Metrics (each macro-averaged over the pages whose gold has the field):

* body, ``shingle_*``: 4-gram shingles of word tokens (each CJK character is one token) as in
  the Zyte article-extraction benchmark; F1 is the F1 of mean precision and mean recall.
* body, ``char_*``: longest common subsequence of the two texts with all white space removed;
  precision ``LCS/len(pred)``, recall ``LCS/len(gold)``; F1 again of the means.
* body, ``word_f1``: WCXB's metric (its ``evaluate.py``): F1 of the multisets of lower-cased
  ``\w+`` tokens of text and gold, per page, averaged over pages.
* ``with_found`` / ``without_absent``: share of gold snippets found in / absent from the text.
* ``title_exact`` (after folding case, width, dashes, quotes, spaces) and ``title_char_f1``.
* ``date_acc`` on the YYYY-MM-DD day, ``author_exact`` folded, ``page_type_acc`` ("article"
  counts as "detail"), ``kind_acc`` (WCXB's seven page kinds, exact), ``posts_*`` on thread pages
  (posts paired by position).

``half="a"`` or ``"b"`` scores one half of the set split by site (the reference scorer's
``--half``): rules are chosen on one half and reported on the other.

When the gold says ``body_includes_title``, the predicted title is put before the predicted text.
"""

from __future__ import annotations

import hashlib
import json
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz.distance import LCSseq

from sitesift.errors import InputError
from sitesift.record import Record
from sitesift.similarity import char_prf, f1, shingle_prf, squash

__all__ = [
    "GOLD_FIELDS",
    "char_prf",
    "day",
    "f1",
    "field_outcomes",
    "fold",
    "half_of",
    "load_gold",
    "load_predictions",
    "score",
    "score_pages",
    "shingle_prf",
    "word_f1",
]

#: Every field a gold line may carry (see ../shared/data/README.md). Anything else is a typo or
#: a format change the scorer does not know about, and is refused.
GOLD_FIELDS = frozenset({
    "id", "title", "date", "author", "body", "body_includes_title", "with", "without",
    "page_type", "blocks", "posts", "list_id", "post_selector", "lang", "site_name",
    # WCXB's seven page kinds (article, forum, product, collection, listing, documentation,
    # service), scored as ``kind_acc``; the main content as Markdown, described, not scored.
    "kind", "body_markdown",
})
#: Gold page types; predictions may use the aliases of ``PAGE_TYPE_ALIASES``.
PAGE_TYPES = frozenset({"list", "detail", "thread", "other"})
PAGE_TYPE_ALIASES = {
    "article": "detail", "forum_thread": "thread", "forum-thread": "thread",
    "forum thread": "thread",
}
#: Gold author values that mean "nobody is named" and are left out of the author metric.
UNKNOWN_AUTHORS = ("UNKNOWN", "unknown")

#: Metrics are means rounded to this many decimals, as in the reference scorer (the F1 figures
#: are computed from the rounded means, so rounding here keeps the values identical).
DECIMALS = 4

_DAY = re.compile(r"(\d{4})\D{1,3}(\d{1,2})\D{1,3}(\d{1,2})")
_PUNCT = str.maketrans({
    "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'",
    "\u201c": '"', "\u201d": '"', "\u00a0": " ",
})


# --- text measures ------------------------------------------------------------------------------
# (char_prf, shingle_prf and f1 are in sitesift.similarity: the methods measure with them too)

def _char_f1(a: str | None, b: str | None) -> float:
    """2*LCS/(len a + len b) on white-space-free strings (Indel similarity); 1.0 if both empty."""
    a, b = squash(a), squash(b)
    return 2 * LCSseq.similarity(a, b) / (len(a) + len(b)) if a or b else 1.0


_WORD = re.compile(r"\w+")


def word_f1(gold: str | None, pred: str | None) -> float:
    """WCXB's word F1: F1 of the multisets of lower-cased ``\\w+`` tokens; 1.0 when both have
    none, 0.0 when only the prediction has some."""
    g = Counter(_WORD.findall((gold or "").lower()))
    p = Counter(_WORD.findall((pred or "").lower()))
    if not g:
        return 1.0 if not p else 0.0
    overlap = sum((g & p).values())
    return 2 * overlap / (g.total() + p.total()) if overlap else 0.0


def half_of(page: Mapping[str, Any]) -> str:
    """``"a"`` or ``"b"``: the half of a split by site that a pages.jsonl row belongs to (md5 of
    the site, or of the id where the site is unknown), as the reference scorer splits."""
    key = page.get("site") or str(page.get("id"))
    return "ab"[hashlib.md5(("half:" + key).encode("utf-8")).digest()[0] % 2]


def fold(value: Any) -> str:
    """Case, width, dash, quote and white-space differences do not count; lists are joined."""
    if isinstance(value, list | tuple):
        value = ", ".join(map(str, value))
    text = unicodedata.normalize("NFKC", value or "").translate(_PUNCT)
    return " ".join(text.split()).casefold()


def day(value: Any) -> str | None:
    """The first year-month-day in ``value`` as YYYY-MM-DD, whatever the separators."""
    m = _DAY.search(value if isinstance(value, str) else "")
    return f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}" if m else None


# --- loading ------------------------------------------------------------------------------------

def read_jsonl(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line; a malformed line is an ``InputError``.

    Lines end at "\n" only: ``str.splitlines`` also breaks at U+0085, U+2028 and U+2029,
    which JSON strings hold unescaped (``json.dumps(..., ensure_ascii=False)``) when page text
    has them, and would cut such a line in two."""
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{number}: not JSON: {exc}") from exc
        if not isinstance(obj, dict):
            raise InputError(f"{path}:{number}: expected a JSON object")
        out.append((number, obj))
    return out


def _check_gold_line(where: str, gold: Mapping[str, Any]) -> None:
    unknown = set(gold) - GOLD_FIELDS
    if unknown:
        raise InputError(f"{where}: unknown gold fields {sorted(unknown)}")
    for key in ("title", "date", "body", "kind", "body_markdown"):
        if gold.get(key) is not None and not isinstance(gold[key], str):
            raise InputError(f"{where}: {key!r} must be a string")
    if "body_includes_title" in gold and not isinstance(gold["body_includes_title"], bool):
        raise InputError(f"{where}: 'body_includes_title' must be true or false")
    if gold.get("page_type") is not None and gold["page_type"] not in PAGE_TYPES:
        raise InputError(
            f"{where}: page_type {gold['page_type']!r} is not one of {sorted(PAGE_TYPES)}"
        )
    for key in ("with", "without"):
        if gold.get(key) is not None and not (
            isinstance(gold[key], list) and all(isinstance(s, str) for s in gold[key])
        ):
            raise InputError(f"{where}: {key!r} must be a list of strings")
    posts = gold.get("posts")
    if posts is not None and not (
        isinstance(posts, list)
        and all(isinstance(p, dict) and isinstance(p.get("text"), str) for p in posts)
    ):
        raise InputError(f"{where}: 'posts' must be a list of objects with a 'text' string")


def load_gold(set_dir: str | Path) -> dict[str, dict[str, Any]]:
    """The set's gold answers by page id, checked: every line has a string id, no id twice, no
    unknown field, field types as documented, and (when the set has a pages.jsonl manifest) the
    same ids as the manifest. Any violation is an ``InputError`` naming the line."""
    set_dir = Path(set_dir)
    path = set_dir / "gold.jsonl"
    gold: dict[str, dict[str, Any]] = {}
    for number, obj in read_jsonl(path):
        where = f"{path}:{number}"
        page_id = obj.get("id")
        if not isinstance(page_id, str) or not page_id:
            raise InputError(f"{where}: gold line without a string 'id'")
        if page_id in gold:
            raise InputError(f"{where}: duplicate gold id {page_id!r}")
        _check_gold_line(where, obj)
        gold[page_id] = obj
    manifest = set_dir / "pages.jsonl"
    if manifest.exists():
        pages = {str(obj.get("id")) for _, obj in read_jsonl(manifest)}
        missing, extra = sorted(pages - gold.keys()), sorted(gold.keys() - pages)
        if missing:
            raise InputError(
                f"{path}: {len(missing)} page(s) of pages.jsonl have no gold line, "
                f"e.g. {missing[0]!r}"
            )
        if extra:
            raise InputError(
                f"{path}: {len(extra)} gold id(s) are not in pages.jsonl, e.g. {extra[0]!r}"
            )
    return gold


Predictions = str | Path | Iterable[Mapping[str, Any] | Record]


def load_predictions(predictions: Predictions) -> dict[str, Mapping[str, Any]]:
    """Predicted records by id, from a JSONL path or an iterable of dicts or ``Record`` objects.

    A later record with the same id replaces an earlier one; a record without an id is ignored
    (it can match no page).
    """
    if isinstance(predictions, str | Path):
        items: Iterable[Mapping[str, Any] | Record] = (
            obj for _, obj in read_jsonl(Path(predictions))
        )
    else:
        items = predictions
    out: dict[str, Mapping[str, Any]] = {}
    for item in items:
        rec = item.to_dict() if isinstance(item, Record) else item
        if rec.get("id") is not None:
            out[str(rec["id"])] = rec
    return out


# --- scoring ------------------------------------------------------------------------------------

def _mean(values: list[float] | list[bool]) -> float | None:
    return round(statistics.mean(values), DECIMALS) if values else None


def _f1_of_means(precisions: list[float], recalls: list[float]) -> float:
    return round(f1(_mean(precisions) or 0.0, _mean(recalls) or 0.0), DECIMALS)


def field_outcomes(g: Mapping[str, Any], p: Mapping[str, Any]) -> dict[str, bool]:
    """Whether the prediction ``p`` gets the title (exact, folded), the date (its day) and the
    author (exact, folded) of the gold ``g`` right, for each of them the gold has: the per-page
    outcomes whose means are ``title_exact``, ``date_acc`` and ``author_exact``."""
    out: dict[str, bool] = {}
    if g.get("title"):
        out["title"] = fold(p.get("title")) == fold(g["title"])
    if day(g.get("date")):
        out["date"] = day(p.get("published")) == day(g["date"])
    if g.get("author") and g["author"] not in UNKNOWN_AUTHORS:
        out["author"] = fold(p.get("author")) == fold(g["author"])
    return out


@dataclass(slots=True)
class _Tally:
    """Per-page (or per-snippet, per-post) outcomes, averaged at the end."""

    shingle_p: list[float] = field(default_factory=list)
    shingle_r: list[float] = field(default_factory=list)
    char_p: list[float] = field(default_factory=list)
    char_r: list[float] = field(default_factory=list)
    word_f1: list[float] = field(default_factory=list)
    with_found: list[bool] = field(default_factory=list)
    without_absent: list[bool] = field(default_factory=list)
    title_exact: list[bool] = field(default_factory=list)
    title_char: list[float] = field(default_factory=list)
    date_ok: list[bool] = field(default_factory=list)
    author_ok: list[bool] = field(default_factory=list)
    type_ok: list[bool] = field(default_factory=list)
    kind_ok: list[bool] = field(default_factory=list)
    posts_count: list[bool] = field(default_factory=list)
    posts_text: list[float] = field(default_factory=list)
    posts_author: list[bool] = field(default_factory=list)

    def add_body(self, g: Mapping[str, Any], p: Mapping[str, Any]) -> None:
        """Main text: shingle and character overlap, snippets found or absent."""
        text = p.get("text") or ""
        if g.get("body_includes_title") and p.get("title"):
            text = p["title"] + "\n" + text
        if g.get("body"):
            precision, recall = shingle_prf(g["body"], text)
            self.shingle_p.append(precision)
            self.shingle_r.append(recall)
            precision, recall = char_prf(g["body"], text)
            self.char_p.append(precision)
            self.char_r.append(recall)
            self.word_f1.append(word_f1(g["body"], text))
        folded_text = fold(text)
        self.with_found += [fold(s) in folded_text for s in g.get("with") or []]
        self.without_absent += [fold(s) not in folded_text for s in g.get("without") or []]

    def add_fields(self, g: Mapping[str, Any], p: Mapping[str, Any]) -> None:
        """Title, date, posts, page type and author, each where the gold has it."""
        ok = field_outcomes(g, p)
        if "title" in ok:
            self.title_exact.append(ok["title"])
            self.title_char.append(_char_f1(p.get("title"), g["title"]))
        if "date" in ok:
            self.date_ok.append(ok["date"])
        if g.get("posts"):
            gold_posts, pred_posts = g["posts"], p.get("posts") or []
            self.posts_count.append(len(gold_posts) == len(pred_posts))
            for i, post in enumerate(gold_posts):
                q = pred_posts[i] if i < len(pred_posts) else {}
                self.posts_text.append(f1(*char_prf(post["text"], q.get("text") or "")))
                self.posts_author.append(fold(q.get("author")) == fold(post.get("author")))
        if g.get("page_type"):
            kind = p.get("page_type")
            if isinstance(kind, str):
                kind = PAGE_TYPE_ALIASES.get(kind, kind)
            self.type_ok.append(kind == g["page_type"])
        if g.get("kind"):
            self.kind_ok.append(p.get("kind") == g["kind"])
        if "author" in ok:
            self.author_ok.append(ok["author"])

    def metrics(self) -> dict[str, Any]:
        """The means, keyed in the reference scorer's order; a metric without gold is left
        out."""
        out: dict[str, Any] = {}
        if self.shingle_p:
            out.update(
                shingle_p=_mean(self.shingle_p), shingle_r=_mean(self.shingle_r),
                shingle_f1=_f1_of_means(self.shingle_p, self.shingle_r),
                char_p=_mean(self.char_p), char_r=_mean(self.char_r),
                char_f1=_f1_of_means(self.char_p, self.char_r), word_f1=_mean(self.word_f1),
                body_pages=len(self.shingle_p),
            )
        if self.with_found or self.without_absent:
            out.update(
                with_found=_mean(self.with_found), without_absent=_mean(self.without_absent),
                snippet_f1=(
                    _f1_of_means(self.with_found, self.without_absent)
                    if self.with_found and self.without_absent else None
                ),
            )
        if self.title_exact:
            out.update(title_exact=_mean(self.title_exact),
                       title_char_f1=_mean(self.title_char), title_pages=len(self.title_exact))
        if self.date_ok:
            out.update(date_acc=_mean(self.date_ok), date_pages=len(self.date_ok))
        if self.author_ok:
            out.update(author_exact=_mean(self.author_ok), author_pages=len(self.author_ok))
        if self.posts_count:
            out.update(
                posts_count_acc=_mean(self.posts_count), posts_char_f1=_mean(self.posts_text),
                posts_author_acc=_mean(self.posts_author), thread_pages=len(self.posts_count),
            )
        if self.type_ok:
            out.update(page_type_acc=_mean(self.type_ok), page_type_pages=len(self.type_ok))
        if self.kind_ok:
            out.update(kind_acc=_mean(self.kind_ok), kind_pages=len(self.kind_ok))
        return out


def score_pages(
    gold: Mapping[str, Mapping[str, Any]], predictions: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """Metrics of ``predictions`` (by id) against ``gold`` (by id); see the module docstring.

    Keys appear only for metrics the gold supports, in the reference scorer's order.
    """
    tally = _Tally()
    for page_id, g in gold.items():
        p = predictions.get(page_id, {})
        tally.add_body(g, p)
        tally.add_fields(g, p)
    return {
        "pages": len(gold),
        "predicted": sum(1 for page_id in gold if page_id in predictions),
        **tally.metrics(),
    }


def gold_half(set_dir: str | Path, gold: Mapping[str, Mapping[str, Any]], half: str | None
              ) -> dict[str, Mapping[str, Any]]:
    """``gold`` restricted to one half of the set split by site (``half_of`` on the rows of
    ``set_dir/pages.jsonl``); all of it when ``half`` is None."""
    if half is None:
        return dict(gold)
    if half not in ("a", "b"):
        raise InputError(f"half must be 'a' or 'b', not {half!r}")
    manifest = Path(set_dir) / "pages.jsonl"
    if not manifest.exists():
        raise InputError(f"{manifest}: needed to split the set by site")
    keep = {str(row.get("id")) for _, row in read_jsonl(manifest) if half_of(row) == half}
    return {k: v for k, v in gold.items() if k in keep}


def score(set_dir: str | Path, predictions: Predictions, half: str | None = None
          ) -> dict[str, Any]:
    """Metrics of ``predictions`` (a JSONL path, or dicts / ``Record`` objects) on the data set
    in ``set_dir`` (on one half of it split by site with ``half="a"`` or ``"b"``); raises
    ``InputError`` if the gold or the predictions cannot be read."""
    gold = gold_half(set_dir, load_gold(set_dir), half)
    return score_pages(gold, load_predictions(predictions))
