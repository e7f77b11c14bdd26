"""WARC output of a crawl (warcio): per fetched URL a ``request`` and a ``response`` record with
their HTTP headers, and a ``metadata`` record saying how the crawl came to it.

Payloads are stored as the server sent them (content encoding kept: ``sitesift extract`` and
every WARC reader undo gzip/deflate), except that ``Transfer-Encoding`` is dropped because the
HTTP client has already undone the chunking; ``Content-Length`` then states the stored length.

The ``metadata`` record (``application/json``, ``WARC-Concurrent-To`` the response) carries the
page's depth, kind, the page that linked to it (``via``) with the anchor text there, and for a
list page its item links with their anchor texts: the list-page titles the title method reads.
``read_anchors`` collects them again.

Each record is its own gzip member, so the file can be cut at any record boundary: the crawler
cuts it back to the last committed length when it resumes (see ``sitesift.crawl.frontier``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from sitesift.errors import InputError

__all__ = ["Exchange", "WarcOutput", "iter_metadata", "read_anchors"]

#: Hop-by-hop or re-stated headers not stored as sent.
_DROPPED = frozenset({"transfer-encoding"})


@dataclass(frozen=True, slots=True)
class Exchange:
    """One HTTP request and the response to it, as they go into the WARC file."""

    url: str
    request_headers: Sequence[tuple[str, str]]
    status: int
    reason: str
    http_version: str
    response_headers: Sequence[tuple[str, str]]
    body: bytes
    #: When the response began to arrive: the records' ``WARC-Date`` (the page's crawl time,
    #: which ``sitesift extract`` reads relative dates against); None: when it is written.
    fetched: datetime | None = None


class WarcOutput:
    """A WARC file open for appending, cut to ``length`` bytes first (a resumed crawl)."""

    def __init__(self, path: str | Path, *, length: int, software: str) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not path.exists() or length == 0
        if not fresh and path.stat().st_size < length:
            raise InputError(
                f"{path} is shorter ({path.stat().st_size:,} bytes) than the crawl wrote to it "
                f"({length:,}): it was changed since; start the crawl anew"
            )
        self._fh: IO[bytes] = open(path, "wb" if fresh else "r+b")  # noqa: SIM115 - close()
        if not fresh:
            self._fh.truncate(length)
            self._fh.seek(length)
        self._writer = WARCWriter(self._fh, gzip=path.suffix == ".gz")
        if fresh:
            info = self._writer.create_warcinfo_record(
                path.name, {"software": software, "format": "WARC File Format 1.1"}
            )
            self._writer.write_record(info)

    def close(self) -> None:
        self._fh.close()

    def tell(self) -> int:
        """Bytes written so far, flushed to the operating system."""
        self._fh.flush()
        return self._fh.tell()

    def write(self, exchange: Exchange, metadata: dict[str, Any] | None = None) -> None:
        """Request, response and (if given) metadata records of one exchange."""
        writer = self._writer
        # WARC-Date is when the capture began (WARC 1.1, 5.4), written in UTC.
        stamp = {"WARC-Date": _warc_date(exchange.fetched)} if exchange.fetched else {}
        parts = urlsplit(exchange.url)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        request = writer.create_warc_record(
            exchange.url, "request", payload=BytesIO(b""), length=0, warc_headers_dict=stamp,
            http_headers=StatusAndHeaders(
                f"GET {target} HTTP/1.1", list(exchange.request_headers), is_http_request=True
            ),
        )
        headers = [
            (name, value) for name, value in exchange.response_headers
            if name.lower() not in _DROPPED and name.lower() != "content-length"
        ]
        headers.append(("Content-Length", str(len(exchange.body))))
        response = writer.create_warc_record(
            exchange.url, "response", payload=BytesIO(exchange.body),
            length=len(exchange.body), warc_headers_dict=stamp,
            http_headers=StatusAndHeaders(
                f"{exchange.status} {exchange.reason}".strip(), headers,
                protocol=exchange.http_version,
            ),
        )
        writer.write_request_response_pair(request, response)
        if metadata is not None:
            data = json.dumps(metadata, ensure_ascii=False).encode("utf-8")
            record = writer.create_warc_record(
                exchange.url, "metadata", payload=BytesIO(data), length=len(data),
                warc_content_type="application/json",
                warc_headers_dict={
                    "WARC-Concurrent-To": response.rec_headers.get_header("WARC-Record-ID")
                },
            )
            writer.write_record(record)


def _warc_date(moment: datetime) -> str:
    """``moment`` as a WARC-Date: UTC, ISO 8601 with ``Z`` (a naive moment is taken as UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


def iter_metadata(path: str | Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(URL, metadata) of every sitesift metadata record of the WARC file, in file order."""
    with open(path, "rb") as fh:
        for record in ArchiveIterator(fh):
            if record.rec_type != "metadata":
                continue
            if record.rec_headers.get_header("Content-Type") != "application/json":
                continue
            try:
                data = json.loads(record.content_stream().read())
            except ValueError:
                continue
            if isinstance(data, dict):
                yield record.rec_headers.get_header("WARC-Target-URI"), data


def read_anchors(path: str | Path) -> dict[str, list[dict[str, str]]]:
    """Item URL -> the anchors list pages of the crawl gave it: ``[{"text", "list"}]``."""
    anchors: dict[str, list[dict[str, str]]] = {}
    for url, data in iter_metadata(path):
        for link in data.get("items") or []:
            seen = anchors.setdefault(link["url"], [])
            entry = {"text": link["anchor"], "list": url}
            if entry not in seen:
                seen.append(entry)
    return anchors
