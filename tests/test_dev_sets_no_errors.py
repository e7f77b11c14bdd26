"""No page of any dev set is an error record, with the page method and with ``auto``.

Every page of ``../shared/data`` is a real page with text: an error record there (a size
guard refusing it, a bug on its shape) loses a page that other extractors read. Skips with a
message where the data is absent.

Cost: the page method runs every page of every set; ``auto`` runs the pages of sites with two
or more pages (and those without a site key, which are grouped by clustering), since on a
site of one page ``auto`` is the page method. Without a time limit: a time-out on the shared
machine is load, not the page (the CLI's time-outs take the cheap path anyway).
"""

from __future__ import annotations

from collections import Counter

import pytest
from shared_data import DATA

from sitesift import Extractor, Options
from sitesift.input.sources import iter_pages

SETS = sorted(p.parent.name for p in DATA.glob("*/pages.jsonl")) or ["(absent)"]


@pytest.mark.parametrize("method", ["page", "auto"])
@pytest.mark.parametrize("name", SETS)
def test_no_page_of_a_dev_set_is_an_error_record(name: str, method: str) -> None:
    manifest = DATA / name / "pages.jsonl"
    if not manifest.is_file():
        pytest.skip(f"evaluation data {DATA} is absent (needs ../shared/data next to the repo)")
    pages = list(iter_pages([str(manifest)]))
    if method == "auto":
        sizes = Counter(p.site for p in pages)
        pages = [p for p in pages if p.site is None or sizes[p.site] >= 2]
        if not pages:
            pytest.skip(f"{name}: no site of two or more pages (auto is the page method)")
    records = list(Extractor(Options(method=method, page_timeout=None)).extract_many(pages))
    assert len(records) == len(pages)
    errors = {r.id: r.error for r in records if r.error}
    assert not errors, f"{name} --method {method}: {len(errors)} error record(s): {errors}"
