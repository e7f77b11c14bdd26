"""Killed runs: ``sitesift extract --engine local|dask`` killed (SIGKILL, the whole process
group, as the OOM killer or a lost machine would) at a random point, then run again with
``--resume``: every page is written exactly once, the manifest is complete."""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from killing import kill_at_random

from sitesift.record import Page

REPO = Path(__file__).resolve().parents[2]


def write_manifest(folder: Path, pages: list[Page]) -> list[str]:
    """A manifest of inline pages; their ids in order."""
    (folder / "pages.jsonl").write_text("".join(
        json.dumps({"id": p.id, "url": p.url, "site": p.site, "html": p.html}) + "\n"
        for p in pages), "utf-8")
    return [p.id for p in pages]


def command(folder: Path, engine: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "sitesift", "extract", str(folder / "pages.jsonl"),
            "--engine", engine, "--workers", "2",
            "-o", str(folder / "out" / "out.jsonl"), "-q", *extra]


def written(out: Path) -> Counter[str]:
    ids: Counter[str] = Counter()
    for part in sorted(out.glob("out-*.jsonl.gz")):
        with gzip.open(part, "rt", encoding="utf-8") as stream:
            ids.update(json.loads(line)["id"] for line in stream)
    return ids


@pytest.mark.parametrize(("engine", "seed"), [("local", 1), ("local", 2), ("dask", 3)])
def test_a_killed_run_resumed_writes_every_page_once(
    tmp_path: Path, site_pages: Callable[..., list[Page]], engine: str, seed: int,
) -> None:
    if engine == "dask":
        pytest.importorskip("distributed", reason="the dask engine needs sitesift[scale]")
    ids = write_manifest(tmp_path, site_pages(sites=6, per_site=40))
    out = tmp_path / "out"
    killed = kill_at_random(command(tmp_path, engine), random.Random(seed),
                            lambda: len(list(out.glob("out-*.jsonl.gz"))))
    assert killed  # (0 to 3 of its parts written: the run was not over)
    done = subprocess.run(command(tmp_path, engine, "--resume"), cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert written(out) == Counter(ids)
    manifest = json.loads((out / "out.manifest.json").read_text())
    assert manifest["complete"] and manifest["pages"] == len(ids)
    assert not [p.name for p in out.iterdir() if ".tmp" in p.name]
