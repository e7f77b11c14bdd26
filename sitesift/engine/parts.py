"""Output in parts: one file per bucket, written atomically, plus a manifest of the parts.

``-o out.jsonl`` gives ``out-00000.jsonl.gz``, ``out-00001.jsonl.gz``, ... (``.md.gz`` for
Markdown, ``.parquet`` for Parquet) and ``out.manifest.json``. A part is written to a temporary
name and renamed when complete, so a part on disk under its final name is always whole: a
worker killed mid-part, or Ctrl-C, leaves only temporary files, which the next run deletes. A
retried task rewrites the same part name with the same pages, so every page is written exactly
once. The parts on disk are the truth: ``--resume`` reads the ids they hold and skips those
pages; the manifest is rebuilt from them.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitesift.output.writers import open_writer
from sitesift.record import RECORD_FIELDS, Record

__all__ = ["PartResult", "PartSet", "write_part"]

#: File name ending of a part, by output format.
PART_SUFFIX = {"jsonl": ".jsonl.gz", "markdown": ".md.gz", "parquet": ".parquet"}
_OUTPUT_SUFFIXES = (".jsonl.gz", ".jsonl", ".md.gz", ".md", ".parquet", ".json")
#: Marks a part being written; such files are never read and are removed by the next run.
TMP_MARK = ".tmp-"


@dataclass(slots=True)
class PartResult:
    """What one part holds: its file, page and error counts, pages per method used."""

    index: int
    file: str
    pages: int = 0
    errors: int = 0
    methods: dict[str, int] = field(default_factory=dict)

    def add(self, record: Record) -> None:
        self.pages += 1
        self.errors += record.error is not None
        key = record.method or "none"
        self.methods[key] = self.methods.get(key, 0) + 1


def write_part(path: str, output_format: str, records: Iterable[Record], index: int) -> PartResult:
    """Write ``records`` to the part ``path`` atomically (temporary file, then rename)."""
    result = PartResult(index=index, file=os.path.basename(path))
    tmp = f"{path}{TMP_MARK}{uuid.uuid4().hex}"
    try:
        if output_format == "parquet":
            _write_parquet(tmp, records, result)
        else:
            with gzip.open(tmp, "wt", encoding="utf-8", newline="\n") as stream:
                writer = open_writer(stream, output_format)
                for record in records:
                    writer.write(record)
                    result.add(record)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return result


def _write_parquet(path: str, records: Iterable[Record], result: PartResult) -> None:
    """One Parquet table: the core fields as string columns, ``extra`` as a JSON string."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = []
    for record in records:
        row: dict[str, Any] = {name: getattr(record, name) for name in RECORD_FIELDS}
        row["extra"] = json.dumps(record.extra, ensure_ascii=False) if record.extra else None
        rows.append(row)
        result.add(record)
    schema = pa.schema([(name, pa.string()) for name in (*RECORD_FIELDS, "extra")])
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)


class PartSet:
    """The parts of one output name: ``out.jsonl`` -> ``out-NNNNN.jsonl.gz`` + manifest."""

    def __init__(self, output: str, output_format: str) -> None:
        path = Path(output)
        name = path.name
        for suffix in _OUTPUT_SUFFIXES:
            if name.endswith(suffix) and name != suffix:
                name = name[: -len(suffix)]
                break
        self.folder = path.parent
        self.stem = name
        self.format = output_format
        self.suffix = PART_SUFFIX[output_format]
        self.manifest = self.folder / f"{name}.manifest.json"
        self.workdir = self.folder / f".{name}.work"
        self._pattern = re.compile(re.escape(name) + r"-(\d{5,})" + re.escape(self.suffix) + "$")

    def part_path(self, index: int) -> str:
        return str(self.folder / f"{self.stem}-{index:05d}{self.suffix}")

    def existing(self) -> dict[int, Path]:
        """Complete parts on disk, by index (temporary files are not parts)."""
        if not self.folder.is_dir():
            return {}
        found = {}
        for path in self.folder.iterdir():
            match = self._pattern.match(path.name)
            if match:
                found[int(match.group(1))] = path
        return dict(sorted(found.items()))

    def clear(self) -> None:
        """Remove parts, temporary parts and the manifest of an earlier run (a fresh run)."""
        for path in self.existing().values():
            path.unlink()
        self.remove_temporary()
        self.manifest.unlink(missing_ok=True)

    def remove_temporary(self) -> None:
        if self.folder.is_dir():
            for path in self.folder.glob(f"{self.stem}-*{TMP_MARK}*"):
                path.unlink(missing_ok=True)

    def scan(self) -> tuple[set[str], list[PartResult]]:
        """Ids of the pages the parts on disk hold, and a summary of each part (``--resume``;
        JSON lines and Parquet only: Markdown documents cannot be split back without doubt)."""
        ids: set[str] = set()
        results = []
        for index, path in self.existing().items():
            result = PartResult(index=index, file=path.name)
            for row in self._rows(path):
                ids.add(row["id"])
                result.pages += 1
                result.errors += row.get("error") is not None
                key = row.get("method") or "none"
                result.methods[key] = result.methods.get(key, 0) + 1
            results.append(result)
        return ids, results

    def _rows(self, path: Path) -> Iterator[dict[str, Any]]:
        if self.format == "parquet":
            import pyarrow.parquet as pq

            yield from pq.read_table(path, columns=["id", "method", "error"]).to_pylist()
        else:
            with gzip.open(path, "rt", encoding="utf-8") as stream:
                for line in stream:
                    yield json.loads(line)

    def write_manifest(self, results: Iterable[PartResult], *, complete: bool) -> dict[str, Any]:
        """Write the manifest atomically; returns it."""
        parts = sorted(results, key=lambda r: r.index)
        methods: Counter[str] = Counter()
        for part in parts:
            methods.update(part.methods)
        manifest = {
            "format": self.format,
            "complete": complete,
            "pages": sum(p.pages for p in parts),
            "errors": sum(p.errors for p in parts),
            "methods": dict(methods),
            "parts": [
                {"file": p.file, "pages": p.pages, "errors": p.errors, "methods": p.methods}
                for p in parts
            ],
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = f"{self.manifest}{TMP_MARK}{uuid.uuid4().hex}"
        with open(tmp, "w", encoding="utf-8") as stream:
            json.dump(manifest, stream, ensure_ascii=False, indent=1)
        os.replace(tmp, self.manifest)
        return manifest
