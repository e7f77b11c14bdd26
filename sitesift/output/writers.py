"""Record writers. Each writes one record as soon as it is ready, so a long run can be followed
(and an interrupted run keeps every complete record written so far)."""

from __future__ import annotations

import json
from typing import IO, Protocol

from sitesift.record import Record

__all__ = ["JsonlWriter", "MarkdownWriter", "RecordWriter", "open_writer"]


class RecordWriter(Protocol):
    def write(self, record: Record) -> None: ...


class JsonlWriter:
    """One JSON object a line, UTF-8, non-ASCII kept as is."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, record: Record) -> None:
        self._stream.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
        self._stream.flush()


class MarkdownWriter:
    """One Markdown document a record: a front-matter block with the record's fields, then the
    headline and the main content as Markdown (headings, lists, tables and code kept). Documents
    are separated by the front-matter fences, so the stream splits back into records."""

    #: Front-matter keys, in order; ``text`` and ``markdown`` go in the document body instead.
    META_KEYS = (
        "id", "url", "site", "title", "author", "published", "page_type", "kind", "method",
        "error",
    )

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self._first = True

    def write(self, record: Record) -> None:
        fields = record.to_dict()
        lines = ["---"]
        for key in self.META_KEYS:
            value = fields.get(key)
            if value is not None:
                lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
        lines.append("---")
        body = fields.get("markdown") or fields.get("text") or ""
        if record.title:
            lines += ["", f"# {record.title}"]
        if body:
            lines += ["", body.strip()]
        if not self._first:
            self._stream.write("\n")
        self._first = False
        self._stream.write("\n".join(lines) + "\n")
        self._stream.flush()


def open_writer(stream: IO[str], output_format: str) -> RecordWriter:
    """The writer for ``output_format`` (validated by ``Options``)."""
    return MarkdownWriter(stream) if output_format == "markdown" else JsonlWriter(stream)
