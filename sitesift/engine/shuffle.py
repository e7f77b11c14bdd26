"""The shuffle: pages spilled to on-disk buckets so each worker gets whole sites.

Site-level methods need all pages of a site in one place. The driver streams the input once
and appends each page to bucket ``hash(site) mod n`` (a gzip JSON-lines file), so memory holds
one page at a time whatever the input size; a bucket then goes to one worker as one task. With
the page method there is nothing to group: pages are cut into consecutive buckets of
``batch_pages``, each handed out as soon as it is full, so workers start while input is read.

Bucket files live in a work folder that every worker can read (a local folder for the local
engine and a LocalCluster; a shared file system for a multi-machine cluster).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from sitesift.input.sources import crawl_time
from sitesift.record import Page

__all__ = ["Bucket", "Shuffle", "page_from_line", "page_to_line", "read_bucket"]

#: gzip level of bucket files: they are read once, soon; speed matters more than size.
BUCKET_GZIP_LEVEL = 1


@dataclass(frozen=True, slots=True)
class Bucket:
    """A closed bucket file: ``index`` (fixes its part's name) and its page count."""

    index: int
    path: str
    pages: int


def page_to_line(page: Page) -> str:
    fields = asdict(page)
    if page.crawled is not None:  # ISO 8601: a day stays a day (``crawl_time`` reads it back)
        fields["crawled"] = page.crawled.isoformat()
    return json.dumps(fields, ensure_ascii=False) + "\n"


def page_from_line(line: str) -> Page:
    fields = json.loads(line)
    fields["crawled"] = crawl_time(fields.get("crawled"))
    return Page(**fields)


def read_bucket(path: str) -> Iterator[Page]:
    """The pages of a bucket file, in the order they were read."""
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        for line in stream:
            yield page_from_line(line)


def site_bucket(site: str | None, buckets: int) -> int:
    """A stable bucket number for ``site`` (the same in every process and run, unlike
    ``hash``). Pages without a site all go to bucket 0: site discovery needs them together."""
    if site is None:
        return 0
    return int.from_bytes(hashlib.blake2b(site.encode("utf-8"), digest_size=8).digest()) % buckets


class Shuffle:
    """Writes pages into bucket files under ``folder``. ``by_site``: bucket by site key (site
    methods), else consecutive buckets of ``batch_pages`` pages. ``first_index`` numbers the
    buckets (a resumed run continues after the parts already written)."""

    def __init__(
        self, folder: Path, *, by_site: bool, buckets: int, batch_pages: int, first_index: int = 0
    ) -> None:
        self.folder = folder
        self.by_site = by_site
        self.buckets = buckets
        self.batch_pages = batch_pages
        self.first_index = first_index
        self._open: dict[int, tuple[IO[str], str]] = {}
        self._counts: dict[int, int] = {}
        self._next = 0  # page mode: the bucket being filled
        folder.mkdir(parents=True, exist_ok=True)

    def add(self, page: Page) -> list[Bucket]:
        """Spill ``page``; returns the buckets this closed (page mode only, when one is full)."""
        number = site_bucket(page.site, self.buckets) if self.by_site else self._next
        stream = self._stream(number)
        stream.write(page_to_line(page))
        self._counts[number] = self._counts.get(number, 0) + 1
        if not self.by_site and self._counts[number] >= self.batch_pages:
            self._next += 1
            return [self._close(number)]
        return []

    def finish(self) -> list[Bucket]:
        """Close every open bucket; returns them (empty buckets are never created)."""
        return [self._close(number) for number in sorted(self._open)]

    def abort(self) -> None:
        """Close files without handing them out (an interrupted run)."""
        for stream, _ in self._open.values():
            stream.close()
        self._open.clear()

    def _stream(self, number: int) -> IO[str]:
        if number not in self._open:
            path = str(self.folder / f"bucket-{self.first_index + number:05d}.jsonl.gz")
            # Closed by _close or abort: a bucket stays open while the input is read.
            stream = gzip.open(  # noqa: SIM115
                path, "wt", encoding="utf-8", compresslevel=BUCKET_GZIP_LEVEL
            )
            self._open[number] = (stream, path)
        return self._open[number][0]

    def _close(self, number: int) -> Bucket:
        stream, path = self._open.pop(number)
        stream.close()
        return Bucket(index=self.first_index + number, path=path, pages=self._counts[number])
