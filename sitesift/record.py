"""The two data types every stage shares: a ``Page`` read from input, a ``Record`` written out."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

__all__ = ["RECORD_FIELDS", "Page", "Record"]

#: Keys every output record has, in output order.
RECORD_FIELDS = (
    "id", "url", "site", "title", "author", "published", "text", "page_type", "kind", "method",
    "error",
)


@dataclass(frozen=True, slots=True)
class Page:
    """One input page, decoded. ``error`` is set when reading or decoding it failed, so the page
    still reaches the output as an error record instead of vanishing."""

    id: str
    url: str | None = None
    site: str | None = None
    html: str = ""
    #: Encoding the bytes were decoded with (None for text input).
    encoding: str | None = None
    #: Where the page came from (manifest, folder, WARC file or "-"); the last site-key fallback.
    source: str | None = None
    error: str | None = None
    #: When the page was fetched, where the input says so (a WARC record's ``WARC-Date``, a
    #: manifest's ``fetched``/``crawled``, the caller): relative dates ("3 hours ago") are read
    #: against it. A ``date`` when only the day is known; None: unknown, and relative dates
    #: are not read (the clock of the run is not the page's).
    crawled: datetime | date | None = None


@dataclass(slots=True)
class Record:
    """One output record. Core fields always appear; ``extra`` carries method-specific keys
    (``markdown``; later ``cluster``, ``posts``, ``blocks``, ``links``), written after them."""

    id: str
    url: str | None = None
    site: str | None = None
    title: str | None = None
    author: str | None = None
    published: str | None = None
    text: str | None = None
    page_type: str | None = None
    #: The page's kind, one of WCXB's seven (article, forum, product, collection, listing,
    #: documentation, service): ``sitesift.methods.page.kind``. It agrees with ``page_type``
    #: (docs/design/kinds.md).
    kind: str | None = None
    method: str | None = None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: getattr(self, name) for name in RECORD_FIELDS}
        out.update(self.extra)
        return out
