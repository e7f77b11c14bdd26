"""The site-profile store: learned profiles kept in one SQLite file, shared by processes.

Why SQLite: one file to copy or delete, no server, and its locking already does what many
workers writing profiles at once need. The file is put in WAL mode, so readers never wait for a
writer and never see a write half done: every read is one statement, hence one snapshot. Each
write is one ``BEGIN IMMEDIATE`` transaction, which takes the write lock up front; a second
writer waits for it (``BUSY_TIMEOUT_S``) instead of failing, so puts from many processes are
serialised and none is lost.

Tables::

    meta(key TEXT PRIMARY KEY, value TEXT)          ("schema", SCHEMA_VERSION)
    profiles(site TEXT PRIMARY KEY, version INT, pages INT, templates INT,
             updated TEXT  -- ISO 8601, UTC
             data BLOB)    -- sitesift.profiles.serialize bytes

The summary columns let ``sites()`` list a store without decoding any profile. A profile of
another format version stays in the store (a newer sitesift may share the file) but ``get``
refuses it: the site must be learned again, and ``put`` then replaces it.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from sitesift.errors import InputError, ProfileError
from sitesift.methods.template.profile import PROFILE_VERSION, SiteProfile
from sitesift.profiles.serialize import profile_from_bytes, profile_to_bytes

__all__ = ["BUSY_TIMEOUT_S", "SCHEMA_VERSION", "ProfileStore"]

#: Version of the tables above. A store of a newer schema is refused (its layout is unknown);
#: an older one would be migrated here when there is one.
SCHEMA_VERSION = 1
#: How long a write waits for another connection's write to finish. Puts take milliseconds,
#: so this is only reached when a writer hangs, or a very busy store: then the put fails
#: loudly rather than forever.
BUSY_TIMEOUT_S = 30.0
#: Pause between tries to switch a store being created by several processes to WAL.
WAL_RETRY_S = 0.05

_TABLES = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    (
        "CREATE TABLE profiles (site TEXT PRIMARY KEY, version INTEGER NOT NULL, "
        "pages INTEGER NOT NULL, templates INTEGER NOT NULL, updated TEXT NOT NULL, "
        "data BLOB NOT NULL)"
    ),
)
_READ, _WRITE = "read", "write"
_UPSERT = (
    "INSERT INTO profiles (site, version, pages, templates, updated, data) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (site) DO UPDATE SET version = excluded.version, "
    "pages = excluded.pages, templates = excluded.templates, updated = excluded.updated, "
    "data = excluded.data"
)


class ProfileStore:
    """Site profiles in the SQLite file ``path`` (created, with its folder, when absent).

    One object may be shared by threads and passed to other processes (it pickles as its
    path; a forked child opens connections of its own, since an SQLite connection must not
    cross a fork). It holds two connections, each behind its own lock: one for reads, one for
    writes, so that a put waiting for another process's write lock never holds up this
    object's gets. Raises ``InputError`` when ``path`` is not a profile store or is of a
    newer schema."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._locks = {_READ: threading.Lock(), _WRITE: threading.Lock()}
        self._closed = False
        # role -> (connection, id of the process that opened it); the reader opens on first use
        self._conns: dict[str, tuple[sqlite3.Connection, int]] = {
            _WRITE: (self._open(), os.getpid())
        }
        # Connections inherited through fork: kept referenced, never used nor closed (closing
        # one in the child could disturb the parent's locks and WAL).
        self._inherited: list[sqlite3.Connection] = []

    # -- opening ---------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if self.path.is_dir():
            raise InputError(f"profile store {self.path} is a folder, not a file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the folder of profile store {self.path}: {exc}") \
                from exc
        try:
            # isolation_level=None: no implicit transactions, each write says BEGIN itself.
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False)
        except sqlite3.Error as exc:
            raise InputError(f"cannot open profile store {self.path}: {exc}") from exc
        try:
            self._enable_wal(conn)
            # In WAL mode NORMAL cannot corrupt the file; a power cut may lose the last puts,
            # which are only learned again.
            conn.execute("PRAGMA synchronous = NORMAL")
            self._check_schema(conn)
        except sqlite3.Error as exc:
            conn.close()
            if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_NOTADB:
                raise InputError(
                    f"{self.path} is not a sitesift profile store (not an SQLite database)"
                ) from exc
            raise InputError(f"cannot open profile store {self.path}: {exc}") from exc
        except BaseException:
            conn.close()
            raise
        return conn

    @staticmethod
    def _enable_wal(conn: sqlite3.Connection) -> None:
        """Switch to WAL. The switch needs an exclusive lock and SQLite does not wait on its
        busy handler for it, so processes opening a new store at once retry here."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(WAL_RETRY_S)

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Refuse a newer or foreign schema; create the tables in a new file. Reads first, so
        that opening an existing store takes no write lock."""
        if self._schema(conn) is not None:
            return
        conn.execute("BEGIN IMMEDIATE")  # another process may be creating it right now
        try:
            if self._schema(conn) is None:
                for statement in _TABLES:
                    conn.execute(statement)
                conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _schema(self, conn: sqlite3.Connection) -> int | None:
        """The file's schema version; None for an empty file."""
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if not tables:
            return None
        if not {"meta", "profiles"} <= tables:
            raise InputError(f"{self.path} is an SQLite database but not a sitesift profile "
                             f"store (tables: {', '.join(sorted(tables))})")
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        try:
            schema = int(row[0])
        except (TypeError, ValueError):
            raise InputError(f"profile store {self.path} has no valid schema version") from None
        if schema > SCHEMA_VERSION:
            raise InputError(
                f"profile store {self.path} has schema version {schema}, newer than this "
                f"sitesift reads ({SCHEMA_VERSION}): upgrade sitesift or use another store"
            )
        return schema

    # -- connection use --------------------------------------------------------------------

    @contextmanager
    def _connection(self, role: str = _READ) -> Iterator[sqlite3.Connection]:
        """The connection for ``role``, under its lock; SQLite errors become ``InputError``."""
        with self._locks[role]:
            if self._closed:
                raise ValueError(f"profile store {self.path} is closed")
            conn, pid = self._conns.get(role) or (None, None)
            if conn is None or pid != os.getpid():  # not yet open, or forked from a parent
                if conn is not None:
                    self._inherited.append(conn)
                conn = self._open()
                self._conns[role] = (conn, os.getpid())
            try:
                yield conn
            except sqlite3.Error as exc:
                raise InputError(f"profile store {self.path}: {exc}") from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: the write lock taken at BEGIN, committed or rolled back."""
        with self._connection(_WRITE) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:  # SQLite may have rolled back already (disk full)
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # -- the store's interface -------------------------------------------------------------

    def get(self, site: str) -> SiteProfile | None:
        """The saved profile of ``site``, None when there is none. Raises ``InputError`` when
        it is of another format version (learn the site again) or corrupt."""
        with self._connection() as conn:
            row = conn.execute(
                "SELECT version, data FROM profiles WHERE site = ?", (site,)
            ).fetchone()
        if row is None:
            return None
        version, data = row
        if version != PROFILE_VERSION:
            raise ProfileError(f"the saved profile of site {site!r} is of format version "
                             f"{version}, this sitesift reads {PROFILE_VERSION}; learn the "
                             f"site again")
        if not isinstance(data, bytes):
            raise ProfileError(f"the saved profile of site {site!r} is corrupt: no bytes")
        try:
            return profile_from_bytes(data)
        except ProfileError as exc:
            raise ProfileError(f"the saved profile of site {site!r}: {exc}") from exc

    def put(self, profile: SiteProfile) -> None:
        """Save ``profile``, replacing the site's previous one, atomically."""
        data = profile_to_bytes(profile)  # before the lock: other writers need not wait
        updated = datetime.now(UTC).isoformat(timespec="seconds")
        with self._write() as conn:
            conn.execute(_UPSERT, (profile.site, profile.version, profile.pages,
                                   len(profile.templates), updated, data))

    def delete(self, site: str) -> bool:
        """Remove the profile of ``site``; False when there was none."""
        with self._write() as conn:
            return conn.execute("DELETE FROM profiles WHERE site = ?", (site,)).rowcount > 0

    def sites(self) -> list[dict[str, Any]]:
        """A summary of every saved profile, by site: site, version, pages, templates,
        updated (ISO 8601 UTC) and bytes (size of the saved profile)."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT site, version, pages, templates, updated, length(data) FROM profiles "
                "ORDER BY site"
            ).fetchall()
        keys = ("site", "version", "pages", "templates", "updated", "bytes")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def __contains__(self, site: object) -> bool:
        if not isinstance(site, str):
            return False
        with self._connection() as conn:
            row = conn.execute("SELECT 1 FROM profiles WHERE site = ?", (site,)).fetchone()
        return row is not None

    def close(self) -> None:
        """Close the connection (again: no effect). A forked child's copy closes nothing of the
        parent's."""
        with self._locks[_WRITE], self._locks[_READ]:  # the one place taking both: this order
            self._closed = True
            conns, self._conns = self._conns, {}
        for conn, pid in conns.values():
            if pid == os.getpid():
                conn.close()

    def __enter__(self) -> ProfileStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __reduce__(self) -> tuple[type[ProfileStore], tuple[str]]:
        """Pickled as its path: the receiving process opens its own connection."""
        return (ProfileStore, (str(self.path),))

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"ProfileStore({str(self.path)!r}, {state})"
