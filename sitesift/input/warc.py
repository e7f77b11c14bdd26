"""HTML pages out of WARC files, one record at a time (warcio; gzip per record or plain).

Kept: ``response`` records with HTTP status 2xx whose payload is ``text/html`` or
``application/xhtml+xml`` (or has no Content-Type and starts like HTML), and ``resource``
records of those types. Skipped: requests, metadata, revisits, non-HTML payloads, and 1xx/3xx/
4xx/5xx responses (redirect stubs and error pages are not the pages a crawl is read for).

Payloads are returned as sent minus transfer and content encoding: warcio undoes chunking and
gzip/deflate/br (br needs the ``brotli`` module; otherwise the page becomes a decode error), since
a compressed payload would only become a decode error otherwise.

A file that stops mid-record (a truncated download) or a record warcio cannot parse yields one
error entry, id ``<file>#<byte offset>``, and ends that file; the next input is read as usual.

The HTTP header of a response is parsed here, not by warcio (which parses it only when the
target URI starts with ``http:``/``https:`` and otherwise hands back the whole HTTP message as
the payload, so a page at a relative URI was skipped without a word). An HTML response whose
target URI is missing or not an absolute http(s) URL, or whose HTTP header cannot be read,
becomes an error entry: every HTML response gives one entry.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import ChunkedDataException
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecord
from warcio.statusandheaders import (
    StatusAndHeaders,
    StatusAndHeadersParser,
    StatusAndHeadersParserException,
)

from sitesift.input.sitekey import url_problem

__all__ = ["HTML_TYPES", "WarcPage", "iter_warc"]

#: Media types read as HTML pages.
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: Bytes read at a time when skipping the rest of a record.
_CHUNK = 64 * 1024
#: Bytes of a payload without Content-Type looked at to decide whether it is HTML.
_SNIFF_BYTES = 1024
_LOOKS_HTML = re.compile(rb"^(?:\xef\xbb\xbf)?\s*<(?:!doctype\s+html|html\b)", re.IGNORECASE)
_CHARSET = re.compile(r"""charset\s*=\s*["']?\s*([^"';\s]+)""", re.IGNORECASE)
#: The WARC Content-Type of a record holding an HTTP message.
_HTTP_MESSAGE = "application/http"
#: An HTTP status line's protocol and code, as HTTP/1.0, 1.1 and 2 crawlers write them.
_HTTP_PROTOCOL = re.compile(r"HTTP/\d(?:\.\d)?\Z")
_STATUS_CODE = re.compile(r"\d{3}\Z")
_SCHEME = re.compile(r"([a-z][a-z0-9+.-]*):", re.IGNORECASE)
_ABSOLUTE_HTTP = re.compile(r"https?://[^/?#\s]+", re.IGNORECASE)

#: What warcio raises on damaged files: bad headers, truncated gzip members, bad lengths, and
#: AttributeError/TypeError where a required header is missing (a response without
#: WARC-Target-URI). Only warcio calls run under this catch, so it hides no sitesift bug.
_ARCHIVE_ERRORS: tuple[type[BaseException], ...] = (
    ArchiveLoadFailed, StatusAndHeadersParserException, EOFError, OSError, ValueError,
    zlib.error, IndexError, KeyError, AttributeError, TypeError,
)
#: What undoing a payload's transfer or content encoding raises on damaged data.
_PAYLOAD_ERRORS: tuple[type[BaseException], ...] = (
    ChunkedDataException, EOFError, OSError, ValueError, zlib.error,
)
try:  # brotli is optional; warcio decodes br payloads only when it is installed
    import brotli

    _PAYLOAD_ERRORS = (*_PAYLOAD_ERRORS, brotli.error)
except ImportError:  # pragma: no cover - depends on the environment
    pass


@dataclass(frozen=True, slots=True)
class WarcPage:
    """One HTML payload (``data`` set) or one failure (``error`` set) read from a WARC file."""

    id: str
    url: str | None = None
    data: bytes | None = None
    #: The charset parameter of the HTTP Content-Type header, if any.
    charset: str | None = None
    error: str | None = None
    #: The record's ``WARC-Date`` as written (when the payload was captured), if any.
    date: str | None = None


def iter_warc(path: str, *, max_bytes: int) -> Iterator[WarcPage]:
    """HTML pages of the WARC file at ``path`` in file order, read one record at a time.

    Payloads over ``max_bytes`` become error entries without being held in memory.
    """
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed by the with block below
    except OSError as exc:
        yield WarcPage(id=f"{path}#0", error=f"input: cannot open WARC file: {exc}")
        return
    with fh:
        # HTTP headers are parsed by ``_http_headers``, for every response record.
        records = ArchiveIterator(fh, no_record_parse=True)
        while True:
            try:
                record = next(records)
            except StopIteration:
                return
            except _ARCHIVE_ERRORS as exc:
                offset = getattr(records, "offset", 0)
                yield WarcPage(
                    id=f"{path}#{offset}",
                    error=f"input: unreadable WARC record at byte {offset}: {_describe(exc)}",
                )
                return
            offset = getattr(records, "offset", 0)
            if record.length is None:  # WARC requires it: without it the next record is lost
                yield WarcPage(id=f"{path}#{offset}", error=f"input: unreadable WARC record at "
                               f"byte {offset}: no Content-Length (truncated or damaged)")
                return
            page = _html_page(record, path, offset, max_bytes)
            if _drain(record):
                yield WarcPage(
                    id=page.id if page else f"{path}#{offset}",
                    url=page.url if page else None,
                    error=f"input: WARC file ends inside the record at byte {offset} (truncated)",
                )
                return
            if page is not None:
                yield page


def _html_page(record: ArcWarcRecord, path: str, offset: int, max_bytes: int) -> WarcPage | None:
    """The record as a page if it is an HTML page, else None (the payload is left unread)."""
    record_id = record.rec_headers.get_header("WARC-Record-ID") or f"{path}#{offset}"
    url = record.rec_headers.get_header("WARC-Target-URI") or None
    if record.rec_type == "response":
        http = _http_headers(record, url)
        if isinstance(http, str):
            return WarcPage(id=record_id, error=f"input: {http}")
        if http is None or not http.get_statuscode().startswith("2"):
            return None
        record.http_headers = http  # warcio undoes the payload's encodings by these
        content_type = http.get_header("Content-Type")
    elif record.rec_type == "resource":
        content_type = record.rec_headers.get_header("Content-Type")
    else:
        return None
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    if content_type and media_type not in HTML_TYPES:
        return None
    try:
        data = record.content_stream().read(max_bytes + 1)
    except _PAYLOAD_ERRORS as exc:
        message = f"decode: cannot undo the payload's encoding: {_describe(exc)}"
        return WarcPage(id=record_id, url=url, error=message)
    if not content_type and not _LOOKS_HTML.match(data[:_SNIFF_BYTES]):
        return None
    if record.rec_type == "response" and not (url and _ABSOLUTE_HTTP.match(url)):
        problem = (f"WARC-Target-URI {url!r} is not an absolute http(s) URL" if url
                   else "response record without WARC-Target-URI")
        return WarcPage(id=record_id, error=f"input: {problem}")
    if problem := url_problem(url):
        return WarcPage(id=record_id, error=f"input: {problem}")
    if len(data) > max_bytes:
        return WarcPage(
            id=record_id, url=url,
            error=f"input: payload exceeds the limit of {max_bytes:,} bytes (max_page_bytes)",
        )
    charset = None
    if content_type:
        match = _CHARSET.search(content_type)
        charset = match.group(1) if match else None
    return WarcPage(id=record_id, url=url, data=data, charset=charset,
                    date=record.rec_headers.get_header("WARC-Date") or None)


def _http_headers(record: ArcWarcRecord, url: str | None) -> StatusAndHeaders | str | None:
    """The HTTP status and headers a response record starts with; None when the record holds
    no HTTP message (a ``dns:`` lookup); a message when it should and they cannot be read."""
    kind = (record.rec_headers.get_header("Content-Type") or "").split(";", 1)[0].strip().lower()
    scheme = _SCHEME.match(url or "")
    http_uri = scheme is not None and scheme.group(1).lower() in ("http", "https")
    # As warcio: an http(s) target URI means an HTTP message; so does a relative or missing
    # one unless the record's Content-Type says otherwise (``dns:`` lookups are text/dns).
    if not (kind == _HTTP_MESSAGE or http_uri or (not kind and scheme is None)):
        return None
    try:
        http = StatusAndHeadersParser([], verify=False).parse(record.raw_stream)
    except (*_ARCHIVE_ERRORS, UnicodeError) as exc:
        problem = _describe(exc)
    else:
        problem = f"status line {http.protocol[:40]!r}"
        if _HTTP_PROTOCOL.match(http.protocol) and _STATUS_CODE.match(http.get_statuscode()):
            return http
    return f"unreadable HTTP header in the response record ({problem})"


def _drain(record: ArcWarcRecord) -> bool:
    """Read the rest of the record; True if the file ended before its declared length."""
    stream = record.raw_stream
    try:
        while stream.read(_CHUNK):
            pass
    except _ARCHIVE_ERRORS:
        return True
    # warcio bounds each record by its Content-Length; a shortfall means the file was cut.
    return getattr(stream, "limit", 0) > 0


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
