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

This module holds that loop and its bookkeeping (the frontier, the WARC file, the policy's
saved state); ``fetch.py`` the fetching (robots.txt, per-host slots, retries, redirects, sizes),
``links.py`` what of a fetched page or document is queued next.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from sitesift.crawl.archive import WarcOutput
from sitesift.crawl.fetch import DOCUMENT_KINDS, USER_AGENT, Fetcher, _describe, _Host, _Result
from sitesift.crawl.frontier import Entry, Frontier
from sitesift.crawl.links import LinkFollower, _host, _is_home, _origin
from sitesift.crawl.policy import (
    CrawlPolicy,
    normalize_url,
)
from sitesift.crawl.urlpolicy import UrlStructurePolicy
from sitesift.errors import UsageError
from sitesift.options import Options

__all__ = ["MAX_HOPS", "CrawlStats", "Crawler", "crawl"]

#: Redirects followed from one link before giving up (browsers allow about 20; loops end sooner
#: anyway because a known URL is never queued again).
MAX_HOPS = 10
#: Pages committed between two saves of the policy's state in the frontier (its evidence of
#: up to 1,000 URLs per host is some 50 kB of JSON: not once per page).
POLICY_SAVE_EVERY = 20


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
        # Per-run state (new for each run): the fetching side (robots.txt, per-host slots) and
        # the link following that reads the robots.txt parsers for their sitemaps.
        self._fetcher = Fetcher(self.options, transport)
        self._links = LinkFollower(self.options, self.policy, self._fetcher.robots)

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
        self._fetcher = Fetcher(self.options, self._transport)
        self._links = LinkFollower(self.options, self.policy, self._fetcher.robots)
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
                async with self._fetcher.client() as client:
                    await self._loop(client, frontier, out, scope, stats)
            finally:
                out.close()
                policy_state = self._policy_state()
                if policy_state is not None:
                    frontier.set_meta("policy", policy_state)
                stats.totals = frontier.counts()
        stats.seconds = time.monotonic() - started
        return stats

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
                    slot = self._fetcher.hosts.setdefault(host, _Host(delay=options.crawl_delay))
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
                        pending[asyncio.create_task(self._fetcher.fetch(client, entry))] = entry
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
                    self._fetcher.hosts[entry.host].active -= 1
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
            if (slot := self._fetcher.hosts.get(host)) is not None and slot.next_start > now
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
            new = self._links.document(entry, result.content, scope)
            if entry.kind == "sitemap" and new:  # the host's archives are listed there
                meta[f"sitemap {_origin(entry.url)}"] = "1"
        elif result.outcome == "page" and result.content is not None:
            key = f"discovered {_origin(entry.url)}"
            discover = _is_home(entry) and frontier.get_meta(key) is None
            # Posts at the depth limit give their archive links in a crawl of a site (its home
            # page discovered) that has read no sitemap of it (_follow).
            item_archives = not discover and frontier.get_meta(key) is not None \
                and frontier.get_meta(f"sitemap {_origin(entry.url)}") is None
            new = self._links.follow(entry, result, scope, metadata, discover=discover,
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

    def _tell(self, what: str, text: str) -> None:
        if self._progress is not None:
            self._progress(what, text)


def crawl(
    seeds: Sequence[str], warc: str | Path, options: Options | None = None, **kwargs: Any
) -> CrawlStats:
    """Crawl ``seeds`` into the WARC file ``warc``; see ``Crawler`` for the keyword arguments."""
    return Crawler(options, **kwargs).run(seeds, warc)
