"""Scale-out: extract a crawl of any size on a process pool or a Dask cluster.

The driver streams the input once, spilling pages into buckets by site (``shuffle``); each
bucket becomes one task (``task``) that a worker turns into one part of output (``parts``),
written atomically. ``run`` ties them together and returns the run's summary::

    input --(driver: read, shuffle)--> bucket files --(workers: learn, extract)--> parts
                                                                        + manifest (driver)
"""

from __future__ import annotations

import shutil
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sitesift.engine.parts import PartResult, PartSet
from sitesift.engine.shuffle import Bucket, Shuffle
from sitesift.errors import UsageError
from sitesift.options import SITE_METHODS, Options
from sitesift.record import Page

if TYPE_CHECKING:  # (the task module loads the extraction stack and numpy: only run needs it)
    from sitesift.engine.task import BucketTask

__all__ = ["ENGINES", "RunSummary", "run"]

#: Where the work runs: ``local`` a process pool, ``dask`` a Dask cluster.
ENGINES = ("local", "dask")
#: Site buckets per worker: more buckets than workers keeps every worker busy to the end
#: even when sites differ in size.
BUCKETS_PER_WORKER = 4
#: Fewest site buckets of a run.
MIN_BUCKETS = 8
#: Most pages of a page-mode part (fewer when ``Options.batch_pages`` is lower). A part is the
#: unit a worker takes, so the last parts leave workers idle for up to one part's time: 1,004
#: pages on 2 workers ran 1.48x one worker with parts of 200 (5 full parts and a small one),
#: 1.85x with parts of 50 (benchmarks/throughput.py, docs/guide/scale-out.md).
PAGE_PART_PAGES = 50

Outcome = tuple["BucketTask", "PartResult | BaseException"]


class _Engine(Protocol):
    def submit(self, task: BucketTask) -> None: ...
    def completed(self, *, block: bool) -> Iterable[Outcome]: ...
    def close(self, *, interrupted: bool = False) -> None: ...


@dataclass(slots=True)
class RunSummary:
    """What a run wrote: pages, error records, pages per method, parts, seconds taken, pages
    skipped because an earlier run had written them (``resume``), batches that failed."""

    pages: int = 0
    errors: int = 0
    methods: dict[str, int] = field(default_factory=dict)
    parts: int = 0
    seconds: float = 0.0
    skipped: int = 0
    failed_batches: int = 0
    manifest: str = ""

    def line(self) -> str:
        methods = ", ".join(f"{name} {count}" for name, count in sorted(self.methods.items()))
        rate = self.pages / self.seconds if self.seconds else 0.0
        text = (f"{self.pages} page(s) in {self.parts} part(s), {self.errors} with an error; "
                f"methods: {methods or '-'}; {rate:.1f} pages/s")
        if self.skipped:
            text += f"; {self.skipped} skipped (already written)"
        return text


def run(
    pages: Iterable[Page],
    output: str,
    *,
    options: Options | None = None,
    engine: str = "local",
    workers: int = 2,
    scheduler: str | None = None,
    profiles: str | None = None,
    resume: bool = False,
    progress: Any = None,
    task_fn: Callable[[BucketTask], PartResult] | None = None,
) -> RunSummary:
    """Extract ``pages`` into parts named after ``output``; returns the summary.

    ``profiles``: path of the SQLite profile store shared by all workers. ``resume``: keep the
    parts already written and skip their pages. ``progress``: a tqdm-like bar (``update``,
    ``total``, ``refresh``) or None. ``task_fn`` runs one task (default
    ``engine.task.run_bucket``; tests swap it to kill workers).
    """
    from sitesift.engine.task import run_bucket

    options = options or Options()
    _check(options, engine, workers, resume)
    started = time.perf_counter()
    parts = PartSet(output, options.output_format)
    if resume:
        parts.remove_temporary()
        done, results = parts.scan()
    else:
        parts.clear()
        done, results = set(), []
    first = max((r.index for r in results), default=-1) + 1
    by_site = options.method in SITE_METHODS
    buckets = max(MIN_BUCKETS, BUCKETS_PER_WORKER * workers)
    part_pages = options.batch_pages if by_site else min(options.batch_pages, PAGE_PART_PAGES)
    workdir = parts.workdir / uuid.uuid4().hex[:8]
    shuffle = Shuffle(workdir, by_site=by_site, buckets=buckets,
                      batch_pages=part_pages, first_index=first)
    job = _Run(parts=parts, options=options, profiles=profiles, results=results,
               progress=progress, summary=RunSummary(manifest=str(parts.manifest)),
               workdir=workdir, runner=_make_engine(engine, workers, scheduler,
                                                    task_fn or run_bucket))
    manifest = job.run(pages, done, shuffle)
    summary = job.summary
    summary.pages, summary.errors = manifest["pages"], manifest["errors"]
    summary.methods = dict(Counter(manifest["methods"]))
    summary.parts = len(manifest["parts"])
    summary.seconds = time.perf_counter() - started
    return summary


def _check(options: Options, engine: str, workers: int, resume: bool) -> None:
    """A ``UsageError`` for arguments no run can honour, before anything is written."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if workers < 1:
        raise UsageError(f"workers must be at least 1, not {workers}")
    if resume and options.output_format == "markdown":
        raise UsageError("--resume needs --format jsonl or parquet (Markdown parts cannot be "
                         "read back page by page)")


@dataclass(slots=True)
class _Run:
    """One run's driver: pages in, buckets out to the engine, results back into the manifest."""

    parts: PartSet
    options: Options
    profiles: str | None
    results: list[PartResult]
    progress: Any
    summary: RunSummary
    workdir: Path
    runner: _Engine

    def run(self, pages: Iterable[Page], done: set[str], shuffle: Shuffle) -> dict[str, Any]:
        """Stream ``pages`` (those in ``done`` skipped) through ``shuffle`` to the engine; the
        manifest written at the end, complete or not (an interrupted run's parts on disk are
        the truth: some may have landed unreported)."""
        interrupted = True
        try:
            self._feed(pages, done, shuffle)
            for bucket in shuffle.finish():
                self.runner.submit(self._task(bucket))
            self._collect(block=True)
            interrupted = False
        finally:
            shuffle.abort()
            self.runner.close(interrupted=interrupted)
            self.parts.remove_temporary()
            shutil.rmtree(self.workdir, ignore_errors=True)
            if not any(self.parts.workdir.iterdir()):
                self.parts.workdir.rmdir()
            if interrupted and self.options.output_format != "markdown":
                self.results = self.parts.scan()[1]
            manifest = self.parts.write_manifest(self.results, complete=not interrupted)
        return manifest

    def _feed(self, pages: Iterable[Page], done: set[str], shuffle: Shuffle) -> None:
        read = 0
        for page in pages:
            if page.id in done:
                self.summary.skipped += 1
                continue
            read += 1
            if self.progress is not None:
                self.progress.total = read
                self.progress.refresh()
            for bucket in shuffle.add(page):
                self.runner.submit(self._task(bucket))
            self._collect(block=False)

    def _task(self, bucket: Bucket) -> BucketTask:
        from sitesift.engine.task import BucketTask

        return BucketTask(index=bucket.index, bucket=bucket.path,
                          part=self.parts.part_path(bucket.index), options=self.options,
                          profiles=self.profiles)

    def _collect(self, block: bool) -> None:
        from sitesift.engine.task import error_records

        for done_task, result in self.runner.completed(block=block):
            if isinstance(result, BaseException):
                self.summary.failed_batches += 1
                result = error_records(done_task, f"engine: batch failed: {result}")
            self.results.append(result)
            self.parts.write_manifest(self.results, complete=False)
            if self.progress is not None:
                self.progress.update(result.pages)


def _make_engine(
    engine: str, workers: int, scheduler: str | None,
    task_fn: Callable[[BucketTask], PartResult],
) -> _Engine:
    if engine == "dask":
        from sitesift.engine.dask_cluster import DaskEngine

        return DaskEngine(workers, task_fn, scheduler)
    from sitesift.engine.local import LocalEngine

    return LocalEngine(workers, task_fn)
