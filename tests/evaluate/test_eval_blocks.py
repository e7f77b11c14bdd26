"""The noise-block scorer: hand-made pages, nesting, the 80 % rule, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitesift import cli
from sitesift.errors import InputError
from sitesift.evaluate.blocks import page_blocks, score_blocks

GOLD = [
    {"label": "not-content", "text": "Home News Sport"},
    {"label": "headline", "text": "Ferry timetable changes"},
    {"label": "fulltext", "text": "A new winter timetable takes effect on Monday."},
    {"label": "comments", "text": "Great news! Posted by Ann"},
    {"label": "not-content", "text": "|"},
]


def pred(*labels: str) -> list[dict[str, str]]:
    texts = ["Home News Sport", "Ferry timetable changes",
             "A new winter timetable takes effect on Monday.", "Great news! Posted by Ann"]
    return [{"xpath": f"/x[{i}]", "text": t, "label": lab, "reason": ""}
            for i, (t, lab) in enumerate(zip(texts, labels, strict=True))]


def test_perfect_labels_count_every_block_right() -> None:
    counts = page_blocks(GOLD, pred("noise", "content", "content", "noise"))
    assert (counts["tp"], counts["fp"], counts["fn"], counts["tn"]) == (2, 0, 0, 2)
    assert counts["unscorable"] == 1  # "|" has no letter to locate it by


def test_errors_both_ways() -> None:
    counts = page_blocks(GOLD, pred("content", "noise", "content", "noise"))
    assert (counts["tp"], counts["fp"], counts["fn"], counts["tn"]) == (1, 1, 1, 1)
    assert page_blocks(GOLD, None)["fn"] == 2  # no predicted blocks: nothing is noise


def test_a_gold_block_needs_80_percent_of_its_characters_in_noise() -> None:
    gold = [{"label": "related", "text": "aaaa bbbb cccc dddd eeee"}]  # characters count
    four_of_five = [{"text": "aaaa bbbb cccc dddd", "label": "noise"},
                    {"text": "eeee", "label": "content"}]
    three_of_five = [{"text": "aaaa bbbb cccc", "label": "noise"},
                     {"text": "dddd eeee", "label": "content"}]
    assert page_blocks(gold, four_of_five)["tp"] == 1
    assert page_blocks(gold, three_of_five)["fn"] == 1


def test_nested_gold_blocks_are_each_located_and_damaged_characters_fold() -> None:
    gold = [{"label": "not-content", "text": "Email Article Print Version"},
            {"label": "not-content", "text": "Email Article"},
            {"label": "fulltext", "text": "Kosovo?s future is open."}]
    predicted = [{"text": "Email Article", "label": "noise"},
                 {"text": "Print Version", "label": "noise"},
                 {"text": "Kosovo’s future is open.", "label": "content"}]
    counts = page_blocks(gold, predicted)
    assert (counts["tp"], counts["tn"], counts["aligned"]) == (2, 1, counts["chars"])


def write_set(tmp_path: Path) -> Path:
    (tmp_path / "pages.jsonl").write_text("".join(
        json.dumps({"id": i, "url": None, "site": s, "file": f"pages/{i}.html"}) + "\n"
        for i, s in [("a", "x"), ("b", "x"), ("c", "y")]))
    (tmp_path / "gold.jsonl").write_text("".join(
        json.dumps({"id": i, "blocks": GOLD}) + "\n" for i in "abc"))
    return tmp_path


def test_score_blocks_keeps_sites_with_two_pages(tmp_path: Path) -> None:
    set_dir = write_set(tmp_path)
    preds = [{"id": "a", "blocks": pred("noise", "content", "content", "noise")},
             {"id": "b", "blocks": pred("noise", "noise", "content", "content")},
             {"id": "c", "blocks": pred("content", "content", "content", "content")}]
    metrics = score_blocks(set_dir, preds)
    assert metrics["pages"] == 2
    assert metrics["noise_precision"] == 0.75 and metrics["noise_recall"] == 0.75
    assert score_blocks(set_dir, preds, min_site_pages=1)["pages"] == 3
    with pytest.raises(InputError):
        score_blocks(set_dir, preds, min_site_pages=5)


def test_cli_eval_blocks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "set").mkdir()
    set_dir = write_set(tmp_path / "set")
    out = tmp_path / "pred.jsonl"
    out.write_text(json.dumps({"id": "a", "blocks": pred("noise", "content", "content",
                                                          "noise")}) + "\n")
    assert cli.main(["eval", str(set_dir), str(out), "--blocks", "--json"]) == 0
    metrics = json.loads(capsys.readouterr().out)
    assert metrics["noise_precision"] == 1.0 and metrics["noise_recall"] == 0.5


def test_manifest_lines_split_on_newline_only(tmp_path: Path) -> None:
    set_dir = write_set(tmp_path)
    manifest = set_dir / "pages.jsonl"
    rows = [json.loads(line) for line in manifest.read_text("utf-8").split("\n") if line]
    for row in rows:
        row["url"] = "http://x.test/a\x85b\u2028c\u2029"
    manifest.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    assert "\u2028" in manifest.read_text("utf-8")
    preds = [{"id": i, "blocks": pred("noise", "content", "content", "noise")} for i in "abc"]
    assert score_blocks(set_dir, preds)["pages"] == 2
