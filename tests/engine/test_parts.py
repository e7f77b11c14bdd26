import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitesift.engine.parts import PartSet, write_part
from sitesift.record import Record


def records(n: int) -> list[Record]:
    return [Record(id=f"r{i}", method="page", error="x" if i == 0 else None) for i in range(n)]


@pytest.mark.parametrize(("output", "stem"), [("out.jsonl", "out"), ("out", "out"),
                                              ("a.b.jsonl.gz", "a.b")])
def test_parts_are_named_after_the_output(tmp_path: Path, output: str, stem: str) -> None:
    parts = PartSet(str(tmp_path / output), "jsonl")
    assert parts.part_path(3) == str(tmp_path / f"{stem}-00003.jsonl.gz")
    assert parts.manifest == tmp_path / f"{stem}.manifest.json"


def test_a_part_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    parts = PartSet(str(tmp_path / "out.jsonl"), "jsonl")

    def dying() -> Iterator[Record]:
        yield Record(id="a")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_part(parts.part_path(0), "jsonl", dying(), 0)
    assert list(tmp_path.iterdir()) == []  # neither the part nor its temporary file

    result = write_part(parts.part_path(1), "jsonl", records(3), 1)
    assert (result.pages, result.errors, result.methods) == (3, 1, {"page": 3})
    with gzip.open(parts.part_path(1), "rt") as stream:
        assert [json.loads(line)["id"] for line in stream] == ["r0", "r1", "r2"]


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_scan_reads_back_the_ids_and_the_manifest_sums_parts(tmp_path: Path, fmt: str) -> None:
    parts = PartSet(str(tmp_path / "out.jsonl"), fmt)
    write_part(parts.part_path(0), fmt, records(2), 0)
    write_part(parts.part_path(1), fmt, records(3)[2:], 1)
    (tmp_path / f"out-00002{parts.suffix}.tmp-abc").write_text("half")  # not a part
    ids, results = parts.scan()
    assert ids == {"r0", "r1", "r2"} and [r.index for r in results] == [0, 1]
    manifest = parts.write_manifest(results, complete=True)
    assert (manifest["pages"], manifest["errors"], manifest["complete"]) == (3, 1, True)
    assert json.loads(parts.manifest.read_text()) == manifest
    parts.clear()
    assert list(tmp_path.iterdir()) == []
