"""benchmarks/halves_noise.py: the reference split's halves and the spread of random splits."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
_spec = importlib.util.spec_from_file_location("halves_noise", _BENCH / "halves_noise.py")
assert _spec and _spec.loader
halves_noise = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(halves_noise)


def _reference_half(site: str) -> str:
    """The reference scorer's rule (../shared/bench/score.py ``half_of``)."""
    return "ab"[hashlib.md5(("half:" + site).encode("utf-8")).digest()[0] % 2]


def test_the_reference_split_is_the_scorers() -> None:
    sites = {f"site{i}.example": [i % 3 != 0] for i in range(60)}
    a, b = halves_noise.halves(sites, "half")
    for side, figure in (("a", a), ("b", b)):
        oks = [ok for s, v in sites.items() if _reference_half(s) == side for ok in v]
        assert figure == sum(oks) / len(oks)


def test_a_gap_the_split_itself_makes_is_in_the_tail() -> None:
    # Every page right: no split shows a gap. Right on half a only: the reference split's gap
    # is 1 and few random splits come near it.
    right = {f"site{i}.example": [True, True] for i in range(200)}
    even = halves_noise.report(right, 200)
    assert even["gap"] == 0 and even["within_tolerance"] == 1.0 and even["as_far"] == 1.0
    split = {s: [_reference_half(s) == "a"] * 2 for s in right}
    skewed = halves_noise.report(split, 200)
    assert skewed["gap"] == 1.0 and skewed["as_far"] < 0.05 and skewed["within_tolerance"] < 0.5


def test_outcomes_are_the_scorers_per_field(tmp_path: Path) -> None:
    (tmp_path / "pages.jsonl").write_text("\n".join(json.dumps(p) for p in [
        {"id": "1", "site": "a.example"}, {"id": "2", "site": "b.example"},
        {"id": "3", "site": "b.example"}]), encoding="utf-8")
    (tmp_path / "gold.jsonl").write_text("\n".join(json.dumps(g) for g in [
        {"id": "1", "title": "Tide Barrier", "date": "2026-11-18", "author": "UNKNOWN"},
        {"id": "2", "title": "Night market", "author": "Léa Dubois"},
        {"id": "3", "date": "2026-11-19"}]), encoding="utf-8")
    pred = tmp_path / "pred.jsonl"
    pred.write_text("\n".join(json.dumps(r) for r in [
        {"id": "1", "title": "tide  barrier", "published": "2026-11-18T07:00:00"},
        {"id": "2", "title": "Night market | Harbour News", "author": "Léa Dubois"}]),
        encoding="utf-8")
    assert halves_noise.site_outcomes(tmp_path, pred, "title") == {
        "a.example": [True], "b.example": [False]}
    assert halves_noise.site_outcomes(tmp_path, pred, "date") == {
        "a.example": [True], "b.example": [False]}  # (page 3 has no record)
    assert halves_noise.site_outcomes(tmp_path, pred, "author") == {"b.example": [True]}
