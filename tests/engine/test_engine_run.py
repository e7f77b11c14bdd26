"""End-to-end engine runs on tiny inputs with 2 workers, including its faults: a
worker killed mid-run, a batch that kills every worker, Ctrl-C, a corrupt WARC record."""

import gzip
import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from sitesift.engine import run
from sitesift.engine.parts import PartResult, PartSet
from sitesift.engine.task import BucketTask, run_bucket
from sitesift.input import iter_pages
from sitesift.options import Options
from sitesift.pipeline import Extractor
from sitesift.record import Page

Pages = Callable[..., list[Page]]
KILL_MARK = "SITESIFT_TEST_KILL_MARK"


def written(output: Path) -> list[dict]:
    """Every record in the parts of ``output``."""
    parts = PartSet(str(output), "jsonl")
    rows = []
    for path in parts.existing().values():
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            rows += [json.loads(line) for line in stream]
    return rows


def assert_each_page_once(output: Path, pages: list[Page]) -> list[dict]:
    rows = written(output)
    assert Counter(r["id"] for r in rows) == Counter(p.id for p in pages)
    assert not [p for p in output.parent.iterdir() if ".tmp-" in p.name or p.name.startswith(".")]
    return rows


def die_once(task: BucketTask) -> PartResult:
    """The first task to run kills its worker process (as the OOM killer would)."""
    mark = Path(os.environ[KILL_MARK])
    try:
        mark.touch(exist_ok=False)
    except FileExistsError:
        return run_bucket(task)
    os._exit(1)


def die_on_first_bucket(task: BucketTask) -> PartResult:
    """Every run of the first bucket kills its worker: a page that crashes the parser."""
    if task.index == 0:
        os._exit(1)
    return run_bucket(task)


@pytest.mark.parametrize("method", ["page", "template"])
def test_local_engine_writes_what_the_serial_run_gives(
    tmp_path: Path, site_pages: Pages, method: str
) -> None:
    pages = site_pages(sites=4, per_site=5)
    options = Options(method=method, batch_pages=6)
    output = tmp_path / "out.jsonl"
    summary = run(pages, str(output), options=options, workers=2)
    rows = assert_each_page_once(output, pages)
    serial = {r.id: r.to_dict() for r in Extractor(options).extract_many(pages)}
    assert {r["id"]: r for r in rows} == serial
    assert summary.pages == 20 and summary.errors == 0 and summary.methods == {method: 20}
    manifest = json.loads((tmp_path / "out.manifest.json").read_text())
    assert manifest["complete"] and sum(p["pages"] for p in manifest["parts"]) == 20


def test_a_killed_local_worker_is_replaced_and_its_batch_run_again(
    tmp_path: Path, site_pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KILL_MARK, str(tmp_path / "killed"))
    pages = site_pages(sites=3, per_site=4)
    output = tmp_path / "out" / "out.jsonl"
    summary = run(pages, str(output), options=Options(method="page", batch_pages=3),
                  workers=2, task_fn=die_once)
    assert (tmp_path / "killed").exists()
    rows = assert_each_page_once(output, pages)
    assert summary.errors == 0 and all(r["error"] is None for r in rows)


def test_a_batch_that_kills_every_worker_becomes_error_records(
    tmp_path: Path, site_pages: Pages
) -> None:
    pages = site_pages(sites=2, per_site=4)
    output = tmp_path / "out.jsonl"
    summary = run(pages, str(output), options=Options(method="page", batch_pages=3),
                  workers=2, task_fn=die_on_first_bucket)
    rows = assert_each_page_once(output, pages)
    failed = [r for r in rows if r["error"]]
    assert len(failed) == 3 and all(r["error"].startswith("engine:") for r in failed)
    assert summary.failed_batches == 1 and summary.errors == 3


class Interrupt:
    """A progress bar whose first update is a Ctrl-C."""

    total = 0

    def refresh(self) -> None: ...

    def update(self, n: int) -> None:
        raise KeyboardInterrupt


def test_ctrl_c_leaves_complete_parts_and_resume_writes_the_rest_once(
    tmp_path: Path, site_pages: Pages
) -> None:
    pages = site_pages(sites=4, per_site=5)
    output = tmp_path / "out.jsonl"
    options = Options(method="page", batch_pages=4)
    with pytest.raises(KeyboardInterrupt):
        run(pages, str(output), options=options, workers=2, progress=Interrupt())
    first = written(output)
    assert 4 <= len(first) < 20 and len(first) % 4 == 0  # whole parts only
    manifest = json.loads((tmp_path / "out.manifest.json").read_text())
    assert not manifest["complete"] and manifest["pages"] == len(first)

    summary = run(pages, str(output), options=options, workers=2, resume=True)
    assert summary.skipped == len(first) and summary.pages == 20
    assert_each_page_once(output, pages)
    assert json.loads((tmp_path / "out.manifest.json").read_text())["complete"]


def test_a_fresh_run_replaces_the_parts_of_an_earlier_one(
    tmp_path: Path, site_pages: Pages
) -> None:
    output = tmp_path / "out.jsonl"
    run(site_pages(sites=4, per_site=5), str(output), options=Options(batch_pages=3), workers=1)
    pages = site_pages(sites=1, per_site=2)
    run(pages, str(output), options=Options(batch_pages=3), workers=1)
    assert_each_page_once(output, pages)


def test_a_corrupt_warc_record_is_an_error_record(tmp_path: Path, site_pages: Pages) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    warc = tmp_path / "crawl.warc"
    with open(warc, "wb") as stream:
        writer = WARCWriter(stream, gzip=False)
        for page in site_pages(sites=1, per_site=3):
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                page.url, "response", payload=__import__("io").BytesIO(page.html.encode()),
                http_headers=http))
    data = warc.read_bytes()
    at = data.index(b"WARC/1", data.index(b"Story 1"))  # the third record's version line
    warc.write_bytes(data[:at] + b"GARBAGE/9" + data[at + 9:])

    output = tmp_path / "out" / "out.jsonl"
    summary = run(iter_pages([str(warc)]), str(output), options=Options(method="template"),
                  workers=2)
    rows = written(output)
    assert len(rows) == 3 and summary.errors == 1
    (bad,) = [r for r in rows if r["error"]]
    assert "unreadable WARC record" in bad["error"]


def test_a_worker_killed_in_a_dask_local_cluster_still_writes_every_page_once(
    tmp_path: Path, site_pages: Pages
) -> None:
    pytest.importorskip("distributed", reason="the dask engine needs sitesift[scale]")
    mark = tmp_path / "killed"

    def die_once_here(task: BucketTask) -> PartResult:  # pickled by value to the workers
        import os as _os
        from pathlib import Path as _Path

        try:
            _Path(str(mark)).touch(exist_ok=False)
        except FileExistsError:
            return run_bucket(task)
        _os._exit(1)

    pages = site_pages(sites=4, per_site=3)
    output = tmp_path / "out.jsonl"
    summary = run(pages, str(output), options=Options(method="template"), engine="dask",
                  workers=2, task_fn=die_once_here)
    assert mark.exists()
    assert_each_page_once(output, pages)
    assert summary.errors == 0 and summary.methods == {"template": 12}


def test_workers_save_every_sites_profile_in_the_shared_store(
    tmp_path: Path, site_pages: Pages
) -> None:
    from sitesift.profiles.store import ProfileStore

    pages = site_pages(sites=4, per_site=3)
    store = tmp_path / "profiles.db"
    summary = run(pages, str(tmp_path / "out.jsonl"), options=Options(method="template"),
                  workers=2, profiles=str(store))
    assert summary.errors == 0
    with ProfileStore(store) as saved:
        assert sorted(row["site"] for row in saved.sites()) == sorted({p.site for p in pages})


def test_the_page_time_limit_holds_in_dask_worker_threads(
    tmp_path: Path, site_pages: Pages
) -> None:
    """Dask runs tasks in worker threads (no SIGALRM there): a page that runs over
    ``page_timeout`` is still stopped (and read by its visible text instead, with a warning),
    and the other pages are extracted."""
    pytest.importorskip("distributed", reason="the dask engine needs sitesift[scale]")
    pages = site_pages(sites=1, per_site=3)
    slow_id = pages[1].id

    def slow_on_one_page(task: BucketTask) -> PartResult:  # pickled by value to the workers
        import threading as _threading
        import time as _time

        import sitesift.pipeline.base as _pipeline

        assert _threading.current_thread() is not _threading.main_thread()
        real = _pipeline.extract_content

        def spin(root, *args, **kwargs):  # type: ignore[no-untyped-def]
            if "Story 1 of site 0" in root.text_content():
                deadline = _time.monotonic() + 30
                while _time.monotonic() < deadline:
                    pass
            return real(root, *args, **kwargs)

        _pipeline.extract_content = spin
        try:
            return run_bucket(task)
        finally:
            _pipeline.extract_content = real

    output = tmp_path / "out.jsonl"
    summary = run(pages, str(output), options=Options(method="page", page_timeout=0.5),
                  engine="dask", workers=1, task_fn=slow_on_one_page)
    rows = {r["id"]: r for r in assert_each_page_once(output, pages)}
    assert summary.errors == 0
    assert rows[slow_id]["error"] is None and rows[slow_id]["method"] == "text"
    assert rows[slow_id]["warnings"][0].startswith("timeout: page took longer than 0.5 s; ")
    assert all(rows[p.id]["text"] for p in pages)
