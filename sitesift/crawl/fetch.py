"""Fetching, for the crawler's loop (``crawler``): one URL at a time as an asyncio task, with
robots.txt read once per origin and per-host slots (delay, concurrency), handing back a
``_Result`` for the loop to record. Politeness and robustness are listed in ``crawler``'s
docstring; this module holds the robots.txt, retry, redirect, size and content-coding rules."""

from __future__ import annotations

import asyncio
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urljoin, urlsplit

import httpx
from protego import Protego

from sitesift import __version__
from sitesift.crawl.archive import Exchange
from sitesift.crawl.frontier import Entry
from sitesift.crawl.policy import (
    normalize_url,
)
from sitesift.input.warc import HTML_TYPES
from sitesift.options import Options

__all__ = ["DOCUMENT_KINDS", "ROBOTS_TOKEN", "USER_AGENT", "Fetcher"]

#: The product token robots.txt groups are matched against.
ROBOTS_TOKEN = "sitesift"
USER_AGENT = f"sitesift/{__version__} (web page extraction; robots.txt token: sitesift)"
#: robots.txt bytes read (RFC 9309 asks parsers to read at least 500 KiB).
ROBOTS_MAX_BYTES = 512 * 1024
#: Longest robots.txt Crawl-delay honoured, in seconds (a site asking for more gets this).
MAX_ROBOTS_DELAY = 60.0
#: Statuses worth another attempt.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
#: Content codings the crawler can undo for link parsing (what it asks the server for).
_ACCEPT_ENCODING = "gzip, deflate"
#: Frontier kinds of discovery documents (sitemaps, feeds): read for their URLs, not pages.
DOCUMENT_KINDS = frozenset({"sitemap", "feed"})


@dataclass(slots=True)
class _Result:
    """What a fetch task hands back to the loop: an outcome, and the exchanges to write."""

    entry: Entry
    outcome: str  # page, redirect, status, retry, skip, fail, defer
    exchange: Exchange | None = None
    note: str | None = None
    charset: str | None = None
    content: bytes | None = None  # the body with content coding undone (pages)
    robots: list[Exchange] = field(default_factory=list)


@dataclass(slots=True)
class _Host:
    active: int = 0
    next_start: float = 0.0
    delay: float = 0.0


class Fetcher:
    """The fetching side of one crawl run: robots.txt parsers per origin (``robots``), per-host
    slots (``hosts``: requests under way, next start, delay) and the HTTP client's settings.
    A new one per run (the crawler's loop owns the frontier; this owns no shared state)."""

    def __init__(self, options: Options, transport: httpx.AsyncBaseTransport | None) -> None:
        self.options = options
        self._transport = transport
        # Robots parsers per origin, per-host slots, and origins whose robots.txt was
        # unreachable (what happened, and until when that answer holds).
        self.robots: dict[str, Protego | None] = {}
        self._robots_down: dict[str, tuple[str, float]] = {}
        self._robots_locks: dict[str, asyncio.Lock] = {}
        self.hosts: dict[str, _Host] = {}

    def client(self) -> httpx.AsyncClient:
        per_host = self.options.crawl_host_concurrency
        return httpx.AsyncClient(
            headers={"User-Agent": USER_AGENT, "Accept": _ACCEPT,
                     "Accept-Encoding": _ACCEPT_ENCODING},
            timeout=httpx.Timeout(self.options.crawl_timeout),
            follow_redirects=False,
            limits=httpx.Limits(max_connections=max(100, per_host * 10),
                                max_keepalive_connections=max(20, per_host * 4)),
            transport=self._transport,
        )

    # -- fetching (runs as tasks) -----------------------------------------------------------
    async def fetch(self, client: httpx.AsyncClient, entry: Entry) -> _Result:
        retry_left = entry.attempts < self.options.crawl_retries
        robots, exchanges, down = await self._robots_for(client, entry.url)
        if down is not None:  # not a refusal: try again, later in this run or on the next
            if retry_left:
                return _Result(entry, "retry", note=f"robots.txt unreachable: {down}",
                               robots=exchanges)
            return _Result(entry, "defer", note=f"robots.txt unreachable: {down}; queued again"
                           " on the next run", robots=exchanges)
        if robots is not None and not robots.can_fetch(entry.url, ROBOTS_TOKEN):
            return _Result(entry, "skip", note="disallowed by robots.txt", robots=exchanges)
        try:
            async with asyncio.timeout(self.options.crawl_timeout):
                result = await self._get(client, entry)
        except (TimeoutError, httpx.TimeoutException) as exc:
            note = f"timeout after {self.options.crawl_timeout:g} s ({type(exc).__name__})"
            result = _Result(entry, "retry" if retry_left else "fail", note=note)
        except httpx.TransportError as exc:
            note = f"{type(exc).__name__}: {exc}"[:300]
            result = _Result(entry, "retry" if retry_left else "fail", note=note)
        except httpx.HTTPError as exc:  # invalid URL and the like: no point trying again
            result = _Result(entry, "fail", note=f"{type(exc).__name__}: {exc}"[:300])
        if result.outcome == "status" and result.exchange is not None and retry_left \
                and result.exchange.status in RETRY_STATUSES:
            result.outcome, result.exchange = "retry", None
        result.robots = exchanges
        return result

    async def _get(self, client: httpx.AsyncClient, entry: Entry) -> _Result:
        limit = self.options.crawl_max_bytes
        async with client.stream("GET", entry.url) as response:
            fetched = datetime.now(UTC)  # the crawl time the WARC records carry
            status = response.status_code
            media = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if entry.kind in DOCUMENT_KINDS:  # sitemaps and feeds: XML, text or gzip
                if 200 <= status < 300 and media in HTML_TYPES:
                    return _Result(entry, "skip", note=f"not a {entry.kind} ({media})")
            elif 200 <= status < 300 and media and media not in HTML_TYPES:
                return _Result(entry, "skip", note=f"not HTML ({media})")
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > limit:
                return _Result(entry, "skip", note=f"larger than {limit:,} bytes (declared)")
            chunks, size = [], 0
            async for chunk in response.aiter_raw():
                size += len(chunk)
                if size > limit:
                    return _Result(entry, "skip", note=f"larger than {limit:,} bytes")
                chunks.append(chunk)
            body = b"".join(chunks)
            exchange = Exchange(
                url=entry.url, request_headers=_raw(response.request.headers.raw),
                status=status, reason=response.reason_phrase, http_version=response.http_version,
                response_headers=_raw(response.headers.raw), body=body, fetched=fetched,
            )
            if 300 <= status < 400 and "location" in response.headers:
                target = normalize_url(urljoin(entry.url, response.headers["location"]))
                if target is None:
                    return _Result(entry, "status", exchange, note="redirect to a non-http URL")
                return _Result(entry, "redirect", exchange, note=f"redirect to {target}")
            if not 200 <= status < 300:
                return _Result(entry, "status", exchange, note=f"HTTP {status}")
            try:
                content = _undo_coding(body, response.headers.get("content-encoding", ""), limit)
            except (zlib.error, ValueError) as exc:
                return _Result(entry, "skip", note=f"undecodable body: {exc}")
            if content is None:
                return _Result(entry, "skip", note=f"larger than {limit:,} bytes (decoded)")
            return _Result(entry, "page", exchange, charset=response.charset_encoding,
                           content=content)

    async def _robots_for(
        self, client: httpx.AsyncClient, url: str
    ) -> tuple[Protego | None, list[Exchange], str | None]:
        """The origin's robots.txt parser (None: all allowed), the first time the exchange that
        fetched it (to be written to the WARC file), and what went wrong if it is unreachable
        (an answer kept for ``crawl_backoff`` seconds, so the URLs of a dead host do not each
        ask again at once; then it is asked again)."""
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        lock = self._robots_locks.setdefault(origin, asyncio.Lock())
        async with lock:
            if origin in self.robots:
                return self.robots[origin], [], None
            down = self._robots_down.get(origin)
            if down is not None and down[1] > time.monotonic():
                return None, [], down[0]
            parser, exchanges, problem = await self._read_robots(client, origin)
            if problem is not None:
                self._robots_down[origin] = (problem,
                                             time.monotonic() + self.options.crawl_backoff)
                return None, exchanges, problem
            self.robots[origin] = parser
            if parser is not None:
                delay = parser.crawl_delay(ROBOTS_TOKEN)
                slot = self.hosts.setdefault(parts.netloc, _Host(delay=self.options.crawl_delay))
                if delay:
                    slot.delay = max(slot.delay, min(float(delay), MAX_ROBOTS_DELAY))
            return parser, exchanges, None

    async def _read_robots(
        self, client: httpx.AsyncClient, origin: str
    ) -> tuple[Protego | None, list[Exchange], str | None]:
        """Parser (None: all allowed), exchanges, and the problem when it is unreachable."""
        url = f"{origin}/robots.txt"
        try:
            async with asyncio.timeout(self.options.crawl_timeout):
                response = await client.get(url, follow_redirects=True)
        except httpx.TooManyRedirects:
            return None, [], None  # "unavailable" like a 4xx (RFC 9309, 2.3.1.2)
        except TimeoutError:
            return None, [], f"timeout after {self.options.crawl_timeout:g} s"
        except httpx.HTTPError as exc:  # DNS, refused connection, reset...
            return None, [], _describe(exc)
        body = response.content[:ROBOTS_MAX_BYTES]
        exchange = Exchange(
            url=str(response.url), request_headers=_raw(response.request.headers.raw),
            status=response.status_code, reason=response.reason_phrase,
            http_version=response.http_version,
            response_headers=[(k, v) for k, v in _raw(response.headers.raw)
                              if k.lower() != "content-encoding"],
            body=body,
        )
        if response.status_code >= 500:
            return None, [exchange], f"HTTP {response.status_code}"
        if response.status_code >= 400:
            return None, [exchange], None
        return Protego.parse(body.decode("utf-8", "replace")), [exchange], None


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _raw(headers: Sequence[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers]


def _undo_coding(body: bytes, codings: str, limit: int) -> bytes | None:
    """``body`` with its gzip/deflate content codings undone; None if that exceeds ``limit``."""
    for coding in reversed([c.strip().lower() for c in codings.split(",") if c.strip()]):
        if coding == "identity":
            continue
        if coding in ("gzip", "x-gzip"):
            decoder = zlib.decompressobj(wbits=31)
        elif coding == "deflate":  # zlib-wrapped as the RFC says, or raw as some servers send
            decoder = zlib.decompressobj(wbits=15 if body[:1] == b"\x78" else -15)
        else:
            raise ValueError(f"unsupported content coding {coding!r}")
        body = decoder.decompress(body, limit + 1)
        if len(body) > limit:
            return None
    return body
