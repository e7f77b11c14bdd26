"""The crawl frontier: every URL a crawl knows, in one SQLite file, so a stopped crawl resumes.

A URL is stored once (its normalised form is the key), so no page is queued twice however many
pages link to it. States: ``queued`` -> ``fetching`` -> one of ``done`` (an HTML page written to
the WARC file), ``redirected``, ``failed`` (an error status or no answer after the retries) or
``skipped`` (refused by robots.txt, not HTML, too large) or ``deferred`` (not fetched because
robots.txt was unreachable: ``requeue_deferred`` queues it again on the next run). A URL whose
retry is due later stays ``queued`` with ``not_before`` set.

Exactly once: the crawler writes a page's WARC records, then calls ``finish`` with the WARC
file's new length; state and length are committed in one transaction. On reopening, ``fetching``
rows (in flight when the crawl stopped) go back to ``queued`` and ``warc_length`` tells the
crawler where to cut the WARC file, so records of a page whose commit never happened are removed
and the page is fetched again, once.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sitesift.errors import InputError

__all__ = ["STATES", "Entry", "Frontier"]

STATES = ("queued", "fetching", "done", "redirected", "failed", "skipped", "deferred")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS url (
    id INTEGER PRIMARY KEY,
    url TEXT UNIQUE NOT NULL,
    host TEXT NOT NULL,
    depth INTEGER NOT NULL,
    kind TEXT NOT NULL,          -- seed, item, sibling, pagination, archive, sitemap, feed, listed
    parent TEXT,                 -- the page the link was found on
    anchor TEXT,                 -- its anchor text there (list-page titles for the title method)
    hops INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'queued',
    attempts INTEGER NOT NULL DEFAULT 0,
    not_before REAL NOT NULL DEFAULT 0,
    status INTEGER,
    note TEXT
);
CREATE INDEX IF NOT EXISTS url_queue ON url (state, depth, id);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True, slots=True)
class Entry:
    """One frontier URL as the crawler needs it to fetch and to write its records."""

    url: str
    host: str
    depth: int
    kind: str
    parent: str | None = None
    anchor: str | None = None
    hops: int = 0
    attempts: int = 0


class Frontier:
    """The SQLite frontier of one crawl; use as a context manager (commits and closes)."""

    def __init__(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None)
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise InputError(f"{path}: not a sitesift crawl frontier: {exc}") from exc
        # WAL + NORMAL: a commit survives a killed process (not a power cut) at a fraction of
        # the cost of FULL; the crawl commits once per page.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("UPDATE url SET state = 'queued' WHERE state = 'fetching'")

    def __enter__(self) -> Frontier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # -- meta -------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    @property
    def warc_length(self) -> int:
        """Bytes of the WARC file that belong to committed pages."""
        return int(self.get_meta("warc_length") or 0)

    # -- queue ------------------------------------------------------------------------------
    def add(self, entries: Iterable[Entry]) -> int:
        """Queue the URLs not seen before; returns how many were new."""
        rows = [(e.url, e.host, e.depth, e.kind, e.parent, e.anchor, e.hops) for e in entries]
        before = self._db.total_changes
        self._db.executemany(
            "INSERT OR IGNORE INTO url (url, host, depth, kind, parent, anchor, hops)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)", rows,
        )
        return self._db.total_changes - before

    def requeue_deferred(self) -> int:
        """Queue the deferred URLs again, as never tried (a new run: robots.txt may answer
        now); returns how many."""
        cursor = self._db.execute(
            "UPDATE url SET state = 'queued', attempts = 0, not_before = 0"
            " WHERE state = 'deferred'"
        )
        return cursor.rowcount

    def known(self, url: str) -> bool:
        return self._db.execute("SELECT 1 FROM url WHERE url = ?", (url,)).fetchone() is not None

    def claim(
        self, hosts: Sequence[str], now: float, limit: int, *, retries_only: bool = False
    ) -> list[Entry]:
        """Up to ``limit`` due URLs on ``hosts`` (shallowest first, then oldest), now
        ``fetching``; with ``retries_only``, only URLs tried before."""
        if not hosts or limit <= 0:
            return []
        marks = ",".join("?" * len(hosts))
        retries = " AND attempts > 0" if retries_only else ""
        rows = self._db.execute(
            "SELECT id, url, host, depth, kind, parent, anchor, hops, attempts FROM url"
            f" WHERE state = 'queued' AND not_before <= ? AND host IN ({marks}){retries}"
            " ORDER BY depth, id LIMIT ?", (now, *hosts, limit),
        ).fetchall()
        self._db.executemany(
            "UPDATE url SET state = 'fetching' WHERE id = ?", [(row[0],) for row in rows]
        )
        return [Entry(*row[1:]) for row in rows]

    def due_hosts(self, now: float) -> list[str]:
        """Hosts with a URL that may be fetched now."""
        rows = self._db.execute(
            "SELECT DISTINCT host FROM url WHERE state = 'queued' AND not_before <= ?", (now,)
        )
        return [row[0] for row in rows]

    def next_due(self, after: float = float("-inf")) -> float | None:
        """When the earliest queued URL due later than ``after`` becomes due (None: none)."""
        row = self._db.execute(
            "SELECT MIN(not_before) FROM url WHERE state = 'queued' AND not_before > ?", (after,)
        ).fetchone()
        return row[0]

    def next_due_on(self, host: str) -> float | None:
        """When the earliest queued URL of ``host`` becomes due (None: none queued)."""
        row = self._db.execute(
            "SELECT MIN(not_before) FROM url WHERE state = 'queued' AND host = ?", (host,)
        ).fetchone()
        return row[0]

    def taken(self) -> int:
        """URLs taken from the queue so far, over all runs of this crawl (counts for max_pages)."""
        row = self._db.execute(
            "SELECT COUNT(*) FROM url WHERE state != 'queued' OR attempts > 0"
        ).fetchone()
        return int(row[0])

    # -- outcomes ---------------------------------------------------------------------------
    def retry(self, url: str, when: float, note: str) -> None:
        """Put ``url`` back, due at ``when``, one attempt more."""
        self._db.execute(
            "UPDATE url SET state = 'queued', attempts = attempts + 1, not_before = ?, note = ?"
            " WHERE url = ?", (when, note, url),
        )

    def finish(
        self, url: str, state: str, *, status: int | None = None, note: str | None = None,
        new: Iterable[Entry] = (), warc_length: int | None = None,
        meta: dict[str, str] | None = None,
    ) -> None:
        """Record the outcome of ``url``, queue the links found on it and the WARC file's new
        length and ``meta`` values, all in one transaction (the crawl's unit of resumption)."""
        if state not in STATES[2:]:
            raise ValueError(f"not a final state: {state!r}")
        self._db.execute("BEGIN")
        try:
            self._db.execute(
                "UPDATE url SET state = ?, status = ?, note = ?, attempts = attempts + 1"
                " WHERE url = ?", (state, status, note, url),
            )
            self.add(new)
            if warc_length is not None:
                self.set_meta("warc_length", str(warc_length))
            for key, value in (meta or {}).items():
                self.set_meta(key, value)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def counts(self) -> dict[str, int]:
        """URLs per state."""
        rows = self._db.execute("SELECT state, COUNT(*) FROM url GROUP BY state")
        return {state: n for state, n in rows}

    def rows(self) -> list[dict[str, object]]:
        """Every URL with its outcome, in discovery order (for reports and tests)."""
        cursor = self._db.execute(
            "SELECT url, depth, kind, parent, anchor, state, status, attempts, note FROM url"
            " ORDER BY id"
        )
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]


def now() -> float:
    """The frontier's clock (monotonic time does not survive a restart; wall time does)."""
    return time.time()
