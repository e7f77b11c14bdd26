"""bench / run_bench / run_eval / format_table on a small hand-made set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitesift.evaluate.bench import (
    EXIT_INPUT,
    EXIT_OK,
    BenchResult,
    bench,
    format_table,
    run_bench,
    run_eval,
)
from sitesift.options import Options

ARTICLE = (
    "The council voted on Tuesday to rebuild the old bridge over the river. "
    "Work starts in spring and should take two years, the mayor said after the meeting."
)


def _make_set(root: Path) -> Path:
    """Two pages: an article, and a page in a legacy encoding (checks decoding reaches bench)."""
    (root / "pages").mkdir(parents=True)
    (root / "pages" / "a.html").write_text(
        f"<html><head><title>Bridge</title></head><body><p>{ARTICLE}</p></body></html>", "utf-8"
    )
    (root / "pages" / "b.html").write_bytes(
        '<html><head><meta charset="windows-1252"><title>Café</title></head>'
        "<body><p>Le café est fermé.</p></body></html>".encode("cp1252")
    )
    manifest = [{"id": i, "url": None, "site": "example.org", "file": f"pages/{i}.html"}
                for i in ("a", "b")]
    (root / "pages.jsonl").write_text("".join(json.dumps(m) + "\n" for m in manifest), "utf-8")
    gold = [{"id": "a", "body": ARTICLE, "title": "Bridge"},
            {"id": "b", "body": "Le café est fermé."}]
    (root / "gold.jsonl").write_text(
        "".join(json.dumps(g, ensure_ascii=False) + "\n" for g in gold), "utf-8"
    )
    return root


def test_bench_extracts_times_and_scores(tmp_path: Path) -> None:
    set_dir = _make_set(tmp_path / "tiny")
    metrics, speed, records = bench(set_dir, options=Options())
    assert [r.id for r in records] == ["a", "b"]
    assert not any(r.error for r in records)
    assert speed > 0
    assert metrics["pages"] == metrics["predicted"] == metrics["body_pages"] == 2
    # Body recall needs the decoded text of both pages, accents included.
    assert "café est fermé" in (records[1].text or "")
    assert metrics["char_r"] > 0.9


def test_run_bench_prints_a_table_or_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_dir = _make_set(tmp_path / "tiny")
    assert run_bench([set_dir], Options(), as_json=False) == EXIT_OK
    table = capsys.readouterr().out
    assert "| tiny " in table and "pages/s" in table
    assert run_bench([set_dir], Options(), as_json=True) == EXIT_OK
    (result,) = json.loads(capsys.readouterr().out)
    assert result["set_name"] == "tiny" and result["pages"] == 2 and result["errors"] == 0
    assert result["metrics"]["body_pages"] == 2


def test_run_bench_reports_a_missing_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_bench([tmp_path / "absent"], Options(), as_json=False) == EXIT_INPUT
    assert "error" in capsys.readouterr().err


def test_run_eval(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    set_dir = _make_set(tmp_path / "tiny")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": "a", "text": ARTICLE, "title": "Bridge"}) + "\n", "utf-8")
    assert run_eval(set_dir, pred, as_json=True) == EXIT_OK
    metrics = json.loads(capsys.readouterr().out)
    assert metrics["predicted"] == 1 and metrics["title_exact"] == 1.0
    assert run_eval(set_dir, pred, as_json=False) == EXIT_OK
    assert "title_exact" in capsys.readouterr().out
    assert run_eval(set_dir, tmp_path / "missing.jsonl", as_json=False) == EXIT_INPUT
    assert "missing.jsonl" in capsys.readouterr().err


def test_format_table_marks_absent_metrics() -> None:
    results = [
        BenchResult("s1", "page", {"shingle_f1": 0.91234, "date_acc": 0.5}, 123.456, 10, 1),
        BenchResult("s2", "trafilatura", {}, 7.0, 3),
    ]
    lines = format_table(results).splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("| set") and set(lines[1]) <= {"|", "-", ":"}
    assert "0.912" in lines[2] and "123.5" in lines[2] and "–" in lines[2]
    # Every row has the same width, so the table lines up in a terminal.
    assert len({len(line) for line in lines}) == 1
