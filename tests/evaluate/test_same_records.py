"""benchmarks/same_records.py: the record diff names exactly the pages that differ."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "same_records.py"
_spec = importlib.util.spec_from_file_location("same_records", _SCRIPT)
assert _spec and _spec.loader
same_records = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("same_records", same_records)  # dataclasses look their module up
_spec.loader.exec_module(same_records)


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return path


def test_identical_files_are_the_same(tmp_path: Path) -> None:
    records = [{"id": "a", "text": "x"}, {"id": "b", "text": "y"}]
    diff = same_records.diff_records(_write(tmp_path / "1", records),
                                     _write(tmp_path / "2", records))
    assert not diff and diff.count() == 0


def test_changed_missing_and_extra_pages_are_named(tmp_path: Path) -> None:
    ours = [{"id": "a", "text": "x"}, {"id": "b", "text": "y"}, {"id": "c", "text": "z"}]
    theirs = [{"id": "a", "text": "x"}, {"id": "b", "text": "y "}, {"id": "d", "text": "z"}]
    diff = same_records.diff_records(_write(tmp_path / "1", ours), _write(tmp_path / "2", theirs))
    assert diff.changed == ["b"]
    assert diff.only_ours == ["c"] and diff.only_theirs == ["d"]
    assert diff.count() == 3


def test_a_byte_difference_that_json_hides_counts(tmp_path: Path) -> None:
    # The same value written two ways (key order): equal as JSON, not as bytes.
    (tmp_path / "1").write_text('{"id": "a", "t": 1, "u": 2}\n', encoding="utf-8")
    (tmp_path / "2").write_text('{"id": "a", "u": 2, "t": 1}\n', encoding="utf-8")
    assert same_records.diff_records(tmp_path / "1", tmp_path / "2").changed == ["a"]


def test_reordered_records_are_a_difference(tmp_path: Path) -> None:
    records = [{"id": "a"}, {"id": "b"}]
    diff = same_records.diff_records(_write(tmp_path / "1", records),
                                     _write(tmp_path / "2", records[::-1]))
    assert diff.order and diff.count() == 1
