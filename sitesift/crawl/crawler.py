"""The crawler: seeds in, a WARC file of what the extraction methods need out.

From each seed it fetches the page; a list page's item links are fetched next (paper 003 starts
from a list page and follows each article link), and with ``crawl_same_layer`` the same-layer
pages a seed links to (paper 004); ``crawl_depth`` bounds the link steps, ``crawl_max_pages`` the
URLs taken. What counts as a list page or an item link is a ``CrawlPolicy`` (``policy.py``;
the default, ``urlpolicy.UrlStructurePolicy``, learns each host's article URLs as it goes).
Discovery (``discovery.py``) adds, from a site's home page as seed, its sitemaps (robots.txt
``Sitemap:`` lines, else ``/sitemap.xml``) and the feeds its ``<head>`` links, whose URLs are
one step deeper; from every page parsed, its pagination (same depth: page 2 of a list is the
same list, and is read as one) and its category, tag and author links (one step deeper). Pages
at the depth limit are parsed only when they may be lists (not item links), for their
pagination alone, and items there, in a crawl from a home page, only while no sitemap of
their host was read, for their category, tag and author links (at the item's depth).

Politeness and robustness:

* robots.txt of each origin is read once (protego: RFC 9309 with ``*``/``$`` wildcards and
  longest-match precedence, which ``urllib.robotparser`` lacks; it is Scrapy's parser). A 4xx
  robots.txt allows all. While robots.txt is unreachable (DNS, connection, timeout) or answers
  5xx, nothing of the origin is fetched (RFC 9309, 2.3.1), but that is not a refusal: the URL is
  retried like a failed fetch, then ``deferred`` (queued again by the next run), never stored
  as disallowed. ``Crawl-delay`` for ``sitesift`` or ``*`` raises the host's delay.
* per host: at most ``crawl_host_concurrency`` requests at once, request starts
  ``crawl_delay`` seconds apart; the user agent names sitesift and its version.
* 5xx, 429, timeouts and connection errors are retried ``crawl_retries`` times after
  ``crawl_backoff * 2**attempt`` seconds (the URL goes back into the frontier: no worker waits).
* redirects are not followed inside the client: each 3xx is written to the WARC file and its
  target queued like a link (same depth), so every hop is recorded, a target already known is
  not fetched twice and a loop ends when it comes back to a known URL (at most ``MAX_HOPS``).
* each response has ``crawl_timeout`` seconds in all (headers and body) and
  ``crawl_max_bytes`` bytes (declared or streamed, and again after gzip/deflate is undone);
  2xx responses that are not HTML are skipped before their body is read.
* the charset stays in the stored Content-Type header, for ``sitesift extract`` to use.
* the frontier is SQLite (``frontier.py``): a stopped crawl run again with the same output
  resumes, and every page ends up in the WARC file exactly once.

One coroutine owns the frontier and the WARC file (fetches run as tasks and hand results back),
so there is no locking around either and a result is committed whole or not at all.
"""

from __future__ import annotations

import asyncio
import json
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx
from lxml import etree
from protego import Protego

from sitesift import __version__
from sitesift.crawl.archive import Exchange, WarcOutput
from sitesift.crawl.discovery import (
    archive_links,
    feed_links,
    pagination_links,
    parse_document,
)
from sitesift.crawl.frontier import Entry, Frontier
from sitesift.crawl.policy import (
    CrawlPolicy,
    Link,
    normalize_url,
    page_links,
    post_titles,
    same_layer_links,
)
from sitesift.crawl.urlpolicy import UrlStructurePolicy
from sitesift.errors import PageError, UsageError
from sitesift.input.encoding import decode_html
from sitesift.input.warc import HTML_TYPES
from sitesift.options import Options
from sitesift.parse.html import parse_html

__all__ = ["MAX_HOPS", "ROBOTS_TOKEN", "USER_AGENT", "CrawlStats", "Crawler", "crawl"]

#: The product token robots.txt groups are matched against.
ROBOTS_TOKEN = "sitesift"
USER_AGENT = f"sitesift/{__version__} (web page extraction; robots.txt token: sitesift)"
#: Redirects followed from one link before giving up (browsers allow about 20; loops end sooner
#: anyway because a known URL is never queued again).
MAX_HOPS = 10
#: robots.txt bytes read (RFC 9309 asks parsers to read at least 500 KiB).
ROBOTS_MAX_BYTES = 512 * 1024
#: Longest robots.txt Crawl-delay honoured, in seconds (a site asking for more gets this).
MAX_ROBOTS_DELAY = 60.0
#: Statuses worth another attempt.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
#: Content codings the crawler can undo for link parsing (what it asks the server for).
_ACCEPT_ENCODING = "gzip, deflate"
#: Pages committed between two saves of the policy's state in the frontier (its evidence of
#: up to 1,000 URLs per host is some 50 kB of JSON: not once per page).
POLICY_SAVE_EVERY = 20
#: Frontier kinds of discovery documents (sitemaps, feeds): read for their URLs, not pages.
DOCUMENT_KINDS = frozenset({"sitemap", "feed"})


@dataclass(slots=True)
class CrawlStats:
    """What one run did: URLs per outcome of this run, the frontier's totals, the time taken."""

    done: int = 0
    redirected: int = 0
    failed: int = 0
    skipped: int = 0
    deferred: int = 0
    retried: int = 0
    seconds: float = 0.0
    totals: dict[str, int] = field(default_factory=dict)

    @property
    def pages_per_second(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0


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


class Crawler:
    """One crawl into one WARC file; ``run`` may be called again to resume it.

    ``policy`` answers "list page?" and "item links?" (default: a new ``UrlStructurePolicy``,
    which learns each host's item URLs as the crawl goes);
    ``transport`` replaces httpx's network transport (tests, proxies); ``frontier`` is the
    SQLite file (default: the WARC path plus ``.frontier``). A policy with ``state()`` and
    ``restore(state)`` (the learned one) has its state saved in the frontier every
    ``POLICY_SAVE_EVERY`` pages and at the end of a run, and restored when a crawl resumes.
    """

    def __init__(
        self, options: Options | None = None, *, policy: CrawlPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None, frontier: str | Path | None = None,
        progress: Callable[[str, str], None] | None = None,
    ) -> None:
        self.options = options or Options()
        self.policy: CrawlPolicy = policy or UrlStructurePolicy()
        self._transport = transport
        self._frontier_path = frontier
        self._progress = progress
        # Per-run state (reset by run): robots parsers per origin, per-host slots, and origins
        # whose robots.txt was unreachable (what happened, and until when that answer holds).
        self._robots: dict[str, Protego | None] = {}
        self._robots_down: dict[str, tuple[str, float]] = {}
        self._robots_locks: dict[str, asyncio.Lock] = {}
        self._hosts: dict[str, _Host] = {}

    def frontier_path(self, warc: str | Path) -> Path:
        return Path(self._frontier_path or f"{warc}.frontier")

    def run(self, seeds: Sequence[str], warc: str | Path) -> CrawlStats:
        """Crawl from ``seeds`` (resuming the frontier of ``warc`` if there is one)."""
        return asyncio.run(self.run_async(seeds, warc))

    async def run_async(self, seeds: Sequence[str], warc: str | Path) -> CrawlStats:
        entries = []
        for seed in seeds:
            url = normalize_url(seed)
            if url is None:
                raise UsageError(f"not an http(s) URL: {seed!r}")
            entries.append(Entry(url=url, host=_host(url), depth=0, kind="seed"))
        self._robots, self._robots_locks, self._hosts, self._robots_down = {}, {}, {}, {}
        started = time.monotonic()
        stats = CrawlStats()
        with Frontier(self.frontier_path(warc)) as frontier:
            scope = set(json.loads(frontier.get_meta("scope") or "[]"))
            scope.update(entry.host for entry in entries)
            frontier.set_meta("scope", json.dumps(sorted(scope)))
            frontier.requeue_deferred()
            frontier.add(entries)
            saved = frontier.get_meta("policy")
            if saved and hasattr(self.policy, "restore"):
                self.policy.restore(json.loads(saved))
            out = WarcOutput(warc, length=frontier.warc_length, software=USER_AGENT)
            try:
                async with self._client() as client:
                    await self._loop(client, frontier, out, scope, stats)
            finally:
                out.close()
                policy_state = self._policy_state()
                if policy_state is not None:
                    frontier.set_meta("policy", policy_state)
                stats.totals = frontier.counts()
        stats.seconds = time.monotonic() - started
        return stats

    def _client(self) -> httpx.AsyncClient:
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

    # -- the loop ---------------------------------------------------------------------------
    async def _loop(
        self, client: httpx.AsyncClient, frontier: Frontier, out: WarcOutput, scope: set[str],
        stats: CrawlStats,
    ) -> None:
        options = self.options
        budget = options.crawl_max_pages - frontier.taken()
        work = set(frontier.due_hosts(float("inf")))  # hosts that may have queued URLs
        pending: dict[asyncio.Task[_Result], Entry] = {}
        try:
            while True:
                now = time.time()
                for host in sorted(work):
                    slot = self._hosts.setdefault(host, _Host(delay=options.crawl_delay))
                    free = options.crawl_host_concurrency - slot.active
                    if free <= 0 or slot.next_start > now:
                        continue
                    # Once the budget is spent, only retries of URLs already taken go on.
                    limit = 1 if slot.delay else free
                    claimed = frontier.claim([host], now, min(limit, budget) if budget > 0
                                             else limit, retries_only=budget <= 0)
                    budget -= sum(not entry.attempts for entry in claimed)
                    if not claimed and frontier.next_due_on(host) is None:
                        work.discard(host)
                    for entry in claimed:
                        slot.active += 1
                        slot.next_start = now + slot.delay
                        pending[asyncio.create_task(self._fetch(client, entry))] = entry
                wake = self._next_wake(frontier, work, now)
                if not pending:
                    if wake is None:
                        return
                    await asyncio.sleep(max(0.0, wake - time.time()))
                    continue
                timeout = None if wake is None else max(0.0, wake - time.time())
                done, _ = await asyncio.wait(
                    pending, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                for task in done:
                    entry = pending.pop(task)
                    self._hosts[entry.host].active -= 1
                    try:
                        result = task.result()
                    except Exception as exc:  # a bug: the URL fails, the crawl goes on
                        result = _Result(entry, "fail", note=f"internal: {_describe(exc)}")
                    work.update(self._record(result, frontier, out, scope, stats))
                    if result.outcome == "retry":
                        work.add(entry.host)
        finally:
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)

    def _next_wake(self, frontier: Frontier, work: set[str], now: float) -> float | None:
        """When a launch may next become possible (None: only a finishing fetch can help)."""
        times = [
            slot.next_start for host in work
            if (slot := self._hosts.get(host)) is not None and slot.next_start > now
            and slot.active < self.options.crawl_host_concurrency
        ]
        due = frontier.next_due(after=now)
        if due is not None:
            times.append(due)
        return min(times) if times else None

    # -- one result -------------------------------------------------------------------------
    def _record(
        self, result: _Result, frontier: Frontier, out: WarcOutput, scope: set[str],
        stats: CrawlStats,
    ) -> set[str]:
        """Write and commit one result; returns the hosts of the URLs it queued."""
        entry = result.entry
        for robots in result.robots:
            out.write(robots)
        if result.outcome == "retry":
            wait = self.options.crawl_backoff * 2 ** entry.attempts
            frontier.retry(entry.url, time.time() + wait, result.note or "")
            stats.retried += 1
            self._tell("retry", f"{entry.url} ({result.note}; again in {wait:g} s)")
            return {entry.host}
        new: list[Entry] = []
        metadata: dict[str, Any] = {"depth": entry.depth, "kind": entry.kind,
                                    "via": entry.parent, "anchor": entry.anchor}
        state = {"page": "done", "redirect": "redirected", "status": "failed",
                 "skip": "skipped", "fail": "failed", "defer": "deferred"}[result.outcome]
        meta: dict[str, str] = {}
        if entry.kind in DOCUMENT_KINDS and state == "failed":
            state = "skipped"  # a site without a sitemap at the probed place has not failed
        if result.outcome == "page" and result.content is not None \
                and entry.kind in DOCUMENT_KINDS:
            new = self._document(entry, result.content, scope)
            if entry.kind == "sitemap" and new:  # the host's archives are listed there
                meta[f"sitemap {_origin(entry.url)}"] = "1"
        elif result.outcome == "page" and result.content is not None:
            key = f"discovered {_origin(entry.url)}"
            discover = _is_home(entry) and frontier.get_meta(key) is None
            # Posts at the depth limit give their archive links in a crawl of a site (its home
            # page discovered) that has read no sitemap of it (_follow).
            item_archives = not discover and frontier.get_meta(key) is not None \
                and frontier.get_meta(f"sitemap {_origin(entry.url)}") is None
            new = self._follow(entry, result, scope, metadata, discover=discover,
                               item_archives=item_archives)
            if discover:
                meta[key] = "1"
        elif result.outcome == "redirect" and result.note:
            target = result.note.removeprefix("redirect to ")
            if entry.hops >= MAX_HOPS:
                result.note += f" (not followed: more than {MAX_HOPS} redirects)"
            elif frontier.known(target):
                result.note += " (already known, not fetched again)"
            else:
                new = [Entry(url=target, host=_host(target), depth=entry.depth, kind=entry.kind,
                             parent=entry.url, anchor=entry.anchor, hops=entry.hops + 1)]
            metadata["redirect"] = target
        if state == "done" and (stats.done + 1) % POLICY_SAVE_EVERY == 0:
            policy_state = self._policy_state()
            if policy_state is not None:
                meta["policy"] = policy_state
        if result.exchange is not None:
            out.write(result.exchange, metadata)
        status = result.exchange.status if result.exchange is not None else None
        frontier.finish(entry.url, state, status=status, note=result.note, new=new,
                        warc_length=out.tell(), meta=meta)
        setattr(stats, state, getattr(stats, state) + 1)
        self._tell(state, entry.url if not result.note else f"{entry.url} ({result.note})")
        return {link.host for link in new}

    def _policy_state(self) -> str | None:
        """The policy's state as JSON, if it has one to save."""
        state = getattr(self.policy, "state", None)
        return json.dumps(state()) if callable(state) else None

    def _document(self, entry: Entry, content: bytes, scope: set[str]) -> list[Entry]:
        """The URLs of a sitemap or feed to queue: nested sitemaps at its depth, pages one
        step deeper (while below the depth limit); at most ``crawl_max_pages`` of them."""
        pages, nested = parse_document(entry.url, content, self.options.crawl_max_pages,
                                       self.options.crawl_max_bytes)
        if entry.depth >= self.options.crawl_depth:
            pages = []
        return [
            Entry(url=url, host=_host(url), depth=entry.depth + (kind != "sitemap"), kind=kind,
                  parent=entry.url)
            for urls, kind in ((nested, "sitemap"), (pages, "listed"))
            for url in urls if _host(url) in scope
        ]

    def _discover(self, entry: Entry, root: etree._Element) -> list[Entry]:
        """A home page's sitemaps (robots.txt's, else /sitemap.xml) and its feeds."""
        origin = _origin(entry.url)
        robots = self._robots.get(origin)
        sitemaps = [url for raw in (robots.sitemaps if robots is not None else ())
                    if (url := normalize_url(urljoin(origin, raw))) is not None]
        found = [(url, "sitemap") for url in sitemaps or [f"{origin}/sitemap.xml"]]
        found += [(url, "feed") for url in feed_links(entry.url, root)]
        return [Entry(url=url, host=_host(url), depth=entry.depth, kind=kind, parent=entry.url)
                for url, kind in found]

    def _follow(
        self, entry: Entry, result: _Result, scope: set[str], metadata: dict[str, Any], *,
        discover: bool = False, item_archives: bool = False,
    ) -> list[Entry]:
        """The links of a fetched page to queue; fills the page's metadata. A page at the depth
        limit is parsed only if it may be a list (not an item), for its pagination; an item
        there only with ``item_archives`` (a site crawl without a sitemap), for its archive
        links (below)."""
        assert result.content is not None
        at_limit = entry.depth >= self.options.crawl_depth
        if at_limit and entry.kind == "item" and not item_archives:
            return []
        try:
            text, _ = decode_html(result.content, result.charset)
            root = parse_html(text)
        except PageError as exc:
            metadata["error"] = str(exc)
            return []
        archives: list[Entry] = []
        if at_limit and item_archives and entry.kind in ("item", "listed"):
            # A site without a sitemap may link its category, tag and author pages from its
            # articles alone (WordPress's block themes do: their home pages link none). They
            # are lists of the layer above the article: queued at its depth, fetched, and
            # parsed for their pagination alone.
            archives = [Entry(url=link.url, host=_host(link.url), depth=entry.depth,
                              kind="archive", parent=entry.url, anchor=link.anchor or None)
                        for link in archive_links(entry.url, None, root)
                        if _host(link.url) in scope]
            if entry.kind == "item":
                return archives
        links = [link for link in page_links(entry.url, root) if _host(link.url) in scope]
        paging = pagination_links(entry.url, links, root)
        if at_limit:
            return archives + [Entry(url=link.url, host=_host(link.url), depth=entry.depth,
                                     kind="pagination", parent=entry.url,
                                     anchor=link.anchor or None)
                               for link in paging]
        found = [e for e in self._discover(entry, root) if e.host in scope] if discover else []
        is_list, items = self._items(entry, links, root, metadata)
        metadata["list_page"] = is_list
        # Kind "pagination": the next pages of a list (lists themselves, above); "continued":
        # those of another page (an article in parts).
        pages = [Entry(url=link.url, host=_host(link.url), depth=entry.depth,
                       kind="pagination" if is_list else "continued", parent=entry.url,
                       anchor=link.anchor or None)
                 for link in paging]
        chosen = self._chosen(entry, links, root, items if is_list else None, metadata)
        paged = {page.url for page in pages}
        return found + pages + [
            Entry(url=url, host=_host(url), depth=entry.depth + 1, kind=kind, parent=entry.url,
                  anchor=link.anchor or None)
            for url, (kind, link) in chosen.items() if url != entry.url and url not in paged
        ]

    def _items(
        self, entry: Entry, links: list[Link], root: etree._Element, metadata: dict[str, Any],
    ) -> tuple[bool, list[Link]]:
        """Whether the page is a list, and its items (the crawl policy's answer)."""
        try:  # a plugged-in policy failing on one page must not end the crawl
            # The next page of a list is the same list, however few items it shows (the last
            # page of a blog's archive may show one post, too few to read as a list alone).
            is_list = self.policy.is_list_page(entry.url, links, root) \
                or entry.kind == "pagination"
            items = _unique(self.policy.item_links(entry.url, links, root)) if is_list else []
            if entry.kind == "pagination" and not items:  # its one post's linked title
                titles = set(post_titles(entry.url, root, min_titles=1))
                items = _unique([link for link in links if link.url in titles and link.anchor])
        except Exception as exc:
            metadata["error"] = f"internal: crawl policy failed: {_describe(exc)}"
            return False, []
        return is_list, items

    def _chosen(
        self, entry: Entry, links: list[Link], root: etree._Element, items: list[Link] | None,
        metadata: dict[str, Any],
    ) -> dict[str, tuple[str, Link]]:
        """The pages one level down, each with its kind: a list's ``items`` (None: the page is
        no list), the seed's same-layer pages, archives."""
        chosen: dict[str, tuple[str, Link]] = {}
        if items is not None:
            metadata["items"] = [{"url": link.url, "anchor": link.anchor} for link in items]
            chosen.update((link.url, ("item", link)) for link in items)
        if self.options.crawl_same_layer and entry.depth == 0:
            layer = getattr(self.policy, "same_layer_links", None)
            try:
                siblings = layer(entry.url, links) if layer else same_layer_links(entry.url, links)
            except Exception as exc:
                metadata["error"] = f"internal: crawl policy failed: {_describe(exc)}"
                siblings = []
            for link in siblings:
                chosen.setdefault(link.url, ("sibling", link))
        for link in archive_links(entry.url, links, root):
            chosen.setdefault(link.url, ("archive", link))
        return chosen

    def _tell(self, what: str, text: str) -> None:
        if self._progress is not None:
            self._progress(what, text)

    # -- fetching (runs as tasks) -----------------------------------------------------------
    async def _fetch(self, client: httpx.AsyncClient, entry: Entry) -> _Result:
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
            if origin in self._robots:
                return self._robots[origin], [], None
            down = self._robots_down.get(origin)
            if down is not None and down[1] > time.monotonic():
                return None, [], down[0]
            parser, exchanges, problem = await self._read_robots(client, origin)
            if problem is not None:
                self._robots_down[origin] = (problem,
                                             time.monotonic() + self.options.crawl_backoff)
                return None, exchanges, problem
            self._robots[origin] = parser
            if parser is not None:
                delay = parser.crawl_delay(ROBOTS_TOKEN)
                slot = self._hosts.setdefault(parts.netloc, _Host(delay=self.options.crawl_delay))
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


def crawl(
    seeds: Sequence[str], warc: str | Path, options: Options | None = None, **kwargs: Any
) -> CrawlStats:
    """Crawl ``seeds`` into the WARC file ``warc``; see ``Crawler`` for the keyword arguments."""
    return Crawler(options, **kwargs).run(seeds, warc)


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _host(url: str) -> str:
    return urlsplit(url).netloc


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _is_home(entry: Entry) -> bool:
    """A seed that is its site's home page (the user asked for the site: discover it)."""
    parts = urlsplit(entry.url)
    return entry.kind == "seed" and parts.path == "/" and not parts.query


def _raw(headers: Sequence[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers]


def _unique(links: Sequence[Link]) -> list[Link]:
    seen: dict[str, Link] = {}
    for link in links:
        seen.setdefault(link.url, link)
    return list(seen.values())


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
