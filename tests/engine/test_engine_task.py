import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

import sitesift.methods.template.site
from sitesift.engine.parts import PartSet
from sitesift.engine.shuffle import Shuffle
from sitesift.engine.task import BucketTask, run_bucket
from sitesift.options import Options
from sitesift.profiles.store import ProfileStore
from sitesift.record import Page

Pages = Callable[..., list[Page]]


def bucket_task(tmp_path: Path, pages: list[Page], options: Options,
                profiles: str | None = None) -> BucketTask:
    shuffle = Shuffle(tmp_path / "work", by_site=True, buckets=1, batch_pages=99)
    for page in pages:
        shuffle.add(page)
    (bucket,) = shuffle.finish()
    part = PartSet(str(tmp_path / "out.jsonl"), "jsonl").part_path(bucket.index)
    return BucketTask(index=bucket.index, bucket=bucket.path, part=part, options=options,
                      profiles=profiles)


def test_a_big_site_is_learned_from_a_sample_then_streamed_through_its_profile(
    tmp_path: Path, site_pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    learned: list[int] = []
    learn = sitesift.methods.template.site.learn_site

    def counting(site: str, features: list) -> object:
        learned.append(len(features))
        return learn(site, features)

    monkeypatch.setattr(sitesift.methods.template.site, "learn_site", counting)
    pages = site_pages(sites=1, per_site=11) + site_pages(sites=2, per_site=2)[1::2]
    options = Options(method="template", site_sample=4, batch_pages=3)
    task = bucket_task(tmp_path, pages, options)
    local = tmp_path / "local"
    local.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(local))
    result = run_bucket(task)

    # The 11-page site is learned once, from 4 pages; the 2-page site on its own.
    assert sorted(learned) == [2, 4]
    assert result.pages == 13 and result.errors == 0 and result.methods == {"template": 13}
    ids, _ = PartSet(str(tmp_path / "out.jsonl"), "jsonl").scan()
    assert ids == {p.id for p in pages}
    # The worker's own profile store and site index (on its local disk) are gone.
    assert list(local.iterdir()) == []


def test_a_big_site_saves_its_profile_in_the_runs_store(tmp_path: Path, site_pages: Pages) -> None:
    store = tmp_path / "profiles.db"
    options = Options(method="template", site_sample=3, batch_pages=2)
    result = run_bucket(bucket_task(tmp_path, site_pages(sites=1, per_site=7), options,
                                    profiles=str(store)))
    assert result.pages == 7 and result.errors == 0
    with ProfileStore(store) as saved:
        assert [row["site"] for row in saved.sites()] == ["site0.example"]


def test_pages_without_a_site_are_clustered_together(tmp_path: Path, site_pages: Pages) -> None:
    pages = [Page(id=p.id, html=p.html) for p in site_pages(sites=2, per_site=3)]
    result = run_bucket(bucket_task(tmp_path, pages, Options(method="template")))
    assert result.pages == 6 and result.errors == 0
