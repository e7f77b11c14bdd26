import multiprocessing as mp
import pickle
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from sitesift.errors import InputError
from sitesift.methods.template.istm import PageStructure
from sitesift.methods.template.profile import PROFILE_VERSION, SiteProfile
from sitesift.methods.template.template import TemplateModel
from sitesift.profiles.store import SCHEMA_VERSION, ProfileStore

# fork: children start in milliseconds; each opens its own store, as real workers do.
CTX = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
#: Seconds a child process may take before a test calls it hung.
JOIN_TIMEOUT_S = 60


def make_profile(site: str, k: int = 1) -> SiteProfile:
    """A profile whose parts all depend on ``k``, so a reader can tell a mixed one."""
    rng = np.random.default_rng(k)
    templates = tuple(
        TemplateModel(
            cluster=f"{site}/{i}",
            pages=k + 1,
            count=dict.fromkeys(rng.integers(0, 2**63, 50 * k, dtype=np.uint64).tolist(), k + 1),
            medoid=PageStructure(rng.integers(0, 2**63, 20 * k, dtype=np.uint64),
                                 np.full(20 * k, 1 / (20 * k))),
        )
        for i in range(k)
    )
    return SiteProfile(site=site, pages=k + 1, templates=templates, info={"k": k})


def check_profile(profile: SiteProfile, site: str) -> int:
    """``profile`` is whole (every part from the same ``k``); returns its k."""
    k = profile.info["k"]
    assert isinstance(k, int)
    assert profile.site == site and profile.pages == k + 1 and len(profile.templates) == k
    for t in profile.templates:
        assert t.pages == k + 1 and len(t.count) == 50 * k and set(t.count.values()) == {k + 1}
        assert len(t.medoid.paths) == 20 * k
    return k


def test_put_get_delete_and_summaries(tmp_path: Path) -> None:
    path = tmp_path / "new" / "folder" / "profiles.db"  # folders are created
    with ProfileStore(path) as store:
        assert store.get("a.com") is None and "a.com" not in store and store.sites() == []
        before = datetime.now(UTC) - timedelta(seconds=1)
        store.put(make_profile("a.com", 2))
        store.put(make_profile("b.org", 1))
        assert "a.com" in store and 7 not in store
        assert check_profile(store.get("a.com"), "a.com") == 2  # type: ignore[arg-type]
        listed = store.sites()
        assert [s["site"] for s in listed] == ["a.com", "b.org"]
        assert listed[0]["pages"] == 3 and listed[0]["templates"] == 2
        assert listed[0]["version"] == PROFILE_VERSION and listed[0]["bytes"] > 50 * 2 * 8
        updated = datetime.fromisoformat(listed[0]["updated"])
        assert updated.utcoffset() == timedelta(0) and before <= updated <= datetime.now(UTC)
        store.put(make_profile("a.com", 3))  # replaces
        assert check_profile(store.get("a.com"), "a.com") == 3  # type: ignore[arg-type]
        assert len(store.sites()) == 2
        assert store.delete("a.com") is True and store.delete("a.com") is False
        assert "a.com" not in store and store.get("a.com") is None
    with ProfileStore(path) as again:  # persisted
        assert [s["site"] for s in again.sites()] == ["b.org"]


def test_wal_journal_and_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    ProfileStore(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == str(
        SCHEMA_VERSION)
    conn.close()


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    ProfileStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION + 1),))
    conn.close()
    with pytest.raises(InputError, match=f"schema version {SCHEMA_VERSION + 1}, newer"):
        ProfileStore(path)


def test_files_that_are_not_stores_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("these are my notes, not a database\n" * 20)
    with pytest.raises(InputError, match="not an SQLite database"):
        ProfileStore(text)
    assert text.read_text().startswith("these are my notes")  # left untouched
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE customers (name TEXT)")
    conn.close()
    with pytest.raises(InputError, match=r"not a sitesift profile store.*customers"):
        ProfileStore(other)
    with pytest.raises(InputError, match="is a folder"):
        ProfileStore(tmp_path)
    with pytest.raises(InputError, match="cannot create the folder"):
        ProfileStore(text / "p.db")  # its folder would be a file


def test_a_profile_of_another_version_says_learn_again(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    with ProfileStore(path) as store:
        store.put(make_profile("a.com"))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE profiles SET version = 99")
    conn.close()
    with ProfileStore(path) as store:
        assert "a.com" in store and store.sites()[0]["version"] == 99
        with pytest.raises(InputError, match=r"'a\.com' is of format version 99.*learn the site"):
            store.get("a.com")
        store.put(make_profile("a.com"))  # learning again replaces it
        assert store.get("a.com") is not None


def test_corrupt_saved_bytes_give_input_error(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    with ProfileStore(path) as store:
        store.put(make_profile("a.com"))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE profiles SET data = substr(data, 1, 30)")
    conn.close()
    with ProfileStore(path) as store, pytest.raises(InputError, match=r"'a\.com'.*corrupt"):
        store.get("a.com")


def test_a_closed_store_refuses_use_and_closing_twice_is_harmless(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "p.db")
    store.close()
    store.close()
    with pytest.raises(ValueError, match="closed"):
        store.get("a.com")
    assert "closed" in repr(store)


def test_a_failed_write_leaves_the_previous_profile(tmp_path: Path) -> None:
    with ProfileStore(tmp_path / "p.db") as store:
        store.put(make_profile("a.com", 2))
        with pytest.raises(TypeError):
            store.put(SiteProfile("a.com", 1, info={"bad": object()}))
        assert check_profile(store.get("a.com"), "a.com") == 2  # type: ignore[arg-type]


def test_threads_share_one_store(tmp_path: Path) -> None:
    errors: list[BaseException] = []
    with ProfileStore(tmp_path / "p.db") as store:

        def work(n: int) -> None:
            try:
                for i in range(10):
                    store.put(make_profile(f"t{n}-{i}"))
                    check_profile(store.get(f"t{n}-{i}"), f"t{n}-{i}")  # type: ignore[arg-type]
            except BaseException as exc:  # reported by the main thread
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        assert len(store.sites()) == 40


def _put_sites(path: str, worker: int, sites: int, start: threading.Event) -> None:
    start.wait()
    with ProfileStore(path) as store:
        for i in range(sites):
            store.put(make_profile(f"w{worker}-{i}.com", 1 + i % 3))


def _run(processes: list) -> None:  # type: ignore[type-arg]
    for p in processes:
        p.start()


def _join(processes: list) -> None:  # type: ignore[type-arg]
    for p in processes:
        p.join(JOIN_TIMEOUT_S)
    assert [p.exitcode for p in processes] == [0] * len(processes)


def test_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    # The store file does not exist yet: the processes also race to create it.
    path = str(tmp_path / "p.db")
    workers, sites = 4, 15
    start = CTX.Event()
    processes = [CTX.Process(target=_put_sites, args=(path, w, sites, start))
                 for w in range(workers)]
    _run(processes)
    start.set()
    _join(processes)
    with ProfileStore(path) as store:
        assert len(store.sites()) == workers * sites
        for w in range(workers):
            for i in range(sites):
                site = f"w{w}-{i}.com"
                assert check_profile(store.get(site), site) == 1 + i % 3  # type: ignore[arg-type]


def _rewrite(path: str, rounds: int, started: threading.Event) -> None:
    with ProfileStore(path) as store:
        started.set()
        for r in range(rounds):
            store.put(make_profile("busy.com", 1 + r % 5))  # sizes differ from put to put


def test_a_reader_during_writes_never_sees_a_partial_profile(tmp_path: Path) -> None:
    path = str(tmp_path / "p.db")
    with ProfileStore(path) as store:
        store.put(make_profile("busy.com", 1))
        started = CTX.Event()
        writer = CTX.Process(target=_rewrite, args=(path, 150, started))
        writer.start()
        assert started.wait(JOIN_TIMEOUT_S)
        seen: set[int] = set()
        while writer.is_alive():
            seen.add(check_profile(store.get("busy.com"), "busy.com"))  # type: ignore[arg-type]
            (summary,) = store.sites()
            assert 1 <= summary["templates"] <= 5
        _join([writer])
        assert check_profile(store.get("busy.com"), "busy.com") == 1 + 149 % 5
    assert len(seen) >= 2  # the reads did overlap the writes


def _put_through_inherited(store: ProfileStore) -> None:
    store.put(make_profile("child.com"))
    store.close()  # closes the child's connection, not the parent's


def test_a_forked_child_opens_its_own_connection(tmp_path: Path) -> None:
    if "fork" not in mp.get_all_start_methods():
        pytest.skip("no fork on this platform")
    with ProfileStore(tmp_path / "p.db") as store:
        store.put(make_profile("parent.com"))
        child = mp.get_context("fork").Process(target=_put_through_inherited, args=(store,))
        child.start()
        _join([child])
        assert [s["site"] for s in store.sites()] == ["child.com", "parent.com"]


def test_a_store_pickles_as_its_path(tmp_path: Path) -> None:
    with ProfileStore(tmp_path / "p.db") as store:
        store.put(make_profile("a.com"))
        with pickle.loads(pickle.dumps(store)) as copy:
            assert copy.path == store.path and "a.com" in copy


def test_a_held_write_lock_makes_writers_wait_not_fail(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    with ProfileStore(path) as store:
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        done = threading.Event()

        def put() -> None:
            store.put(make_profile("late.com"))
            done.set()

        thread = threading.Thread(target=put)
        thread.start()
        assert not done.wait(0.3)  # waiting for the lock
        assert store.get("late.com") is None  # a get meanwhile does not wait
        started = time.perf_counter()
        with ProfileStore(path) as other:  # nor does opening an existing store
            assert other.sites() == []
        assert time.perf_counter() - started < 1.0 and not done.is_set()
        blocker.execute("COMMIT")
        blocker.close()
        thread.join(JOIN_TIMEOUT_S)
        assert done.is_set() and "late.com" in store
