"""One task: a bucket of pages in, one part of records out. Runs in a worker process.

With a site method the bucket is first indexed by site in a SQLite file on local disk, so the
worker can read one site at a time in input order without holding the bucket in memory. A
site of at most ``Options.site_sample`` pages is extracted in one go (learned on the fly, or its
saved profile applied). A bigger site is learned from its first ``site_sample`` pages; the
profile is saved (to the run's store, or a store of this task only) and the rest of the site
streams through it ``batch_pages`` at a time, so a worker holds at most ``site_sample`` parsed
pages whatever a site's size. Pages without a site key (``--site-key none``) are found sites by
clustering, which needs them together: they are clustered ``site_sample`` at a time.
Records come out site by site (in order of each site's first page), not in input order.
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
import json
import os
import sqlite3
import tempfile
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sitesift.engine.parts import PartResult, write_part
from sitesift.engine.shuffle import page_from_line, read_bucket
from sitesift.options import SITE_METHODS, Options
from sitesift.pipeline import Extractor
from sitesift.profiles.store import ProfileStore
from sitesift.record import Page, Record

__all__ = ["BucketTask", "error_records", "run_bucket"]


@dataclass(frozen=True, slots=True)
class BucketTask:
    """Everything a worker needs, picklable: the bucket file, the part to write, the options,
    and the path of the run's profile store (None: profiles live for this task only)."""

    index: int
    bucket: str
    part: str
    options: Options
    profiles: str | None = None


def run_bucket(task: BucketTask) -> PartResult:
    """Extract the bucket's pages and write them as the task's part; returns its summary."""
    return write_part(task.part, task.options.output_format, _records(task), task.index)


def error_records(task: BucketTask, message: str) -> PartResult:
    """Write the bucket's pages as error records (a bucket that kept killing its workers), so
    that its pages are still written, once."""
    records = (Record(id=p.id, url=p.url, site=p.site, error=message)
               for p in read_bucket(task.bucket))
    return write_part(task.part, task.options.output_format, records, task.index)


def _records(task: BucketTask) -> Iterator[Record]:
    options = task.options
    if options.method not in SITE_METHODS:
        extractor = Extractor(options)
        for chunk in _batched(read_bucket(task.bucket), options.batch_pages):
            yield from extractor.extract_many(chunk)
        return
    # Both on the worker's own disk (SQLite must not live on a network file system): the
    # bucket's site index, and big sites' profiles when the run has no store.
    local = os.path.join(tempfile.gettempdir(), f"sitesift-{uuid.uuid4().hex}")
    index_path, own_path = f"{local}.sites.db", f"{local}.profiles.db"
    try:
        with contextlib.ExitStack() as stack:
            sites = stack.enter_context(_SiteIndex(index_path, task.bucket))
            run_store = stack.enter_context(ProfileStore(task.profiles)) if task.profiles else None
            extractor = Extractor(options, profiles=run_store)
            for site, count in sites.sites():
                if run_store is None and site is not None and count > options.site_sample:
                    store = stack.enter_context(ProfileStore(own_path))
                    yield from _site_records(Extractor(options, profiles=store), site, count,
                                             sites.pages(site), options)
                else:
                    yield from _site_records(extractor, site, count, sites.pages(site), options)
    finally:
        for path in (index_path, own_path):
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(path + suffix).unlink(missing_ok=True)


def _site_records(
    extractor: Extractor, site: str | None, count: int, pages: Iterable[Page], options: Options
) -> Iterator[Record]:
    chunks = _batched(pages, options.site_sample)
    if site is None or count <= options.site_sample:
        for chunk in chunks:
            yield from extractor.extract_many(chunk)
        return
    # A big site: the first chunk is learned (or its saved profile applied) and saved; every
    # later chunk finds the profile in the store and is only assigned to its templates.
    yield from extractor.extract_many(next(chunks))
    for chunk in _batched(itertools.chain.from_iterable(chunks), options.batch_pages):
        yield from extractor.extract_many(chunk)


def _batched(items: Iterable[Page], size: int) -> Iterator[list[Page]]:
    """Consecutive lists of ``size`` items (``itertools.batched`` is Python 3.12+)."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


class _SiteIndex:
    """A bucket's pages in a SQLite file, read back site by site in input order."""

    def __init__(self, path: str, bucket: str) -> None:
        self._conn = sqlite3.connect(path)
        self._conn.execute("PRAGMA journal_mode=OFF")
        self._conn.execute("PRAGMA synchronous=OFF")
        self._conn.execute("CREATE TABLE pages (seq INTEGER PRIMARY KEY, site TEXT, line TEXT)")
        with self._conn, gzip.open(bucket, "rt", encoding="utf-8") as lines:
            self._conn.executemany(
                "INSERT INTO pages (site, line) VALUES (?, ?)",
                ((json.loads(line)["site"], line) for line in lines),
            )
        self._conn.execute("CREATE INDEX by_site ON pages (site, seq)")

    def sites(self) -> list[tuple[str | None, int]]:
        """(site, page count), in order of each site's first page."""
        return self._conn.execute(
            "SELECT site, COUNT(*) FROM pages GROUP BY site ORDER BY MIN(seq)"
        ).fetchall()

    def pages(self, site: str | None) -> Iterator[Page]:
        cursor = self._conn.execute(
            "SELECT line FROM pages WHERE site IS ? ORDER BY seq", (site,)
        )
        for (line,) in cursor:
            yield page_from_line(line)

    def __enter__(self) -> _SiteIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self._conn.close()
