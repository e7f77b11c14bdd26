"""The inspector end to end in headless Chromium (Playwright driving Debian's chromium): pick
a site, see its clusters and profile, open a page rendered without its scripts or remote
resources, with content marked and the record beside it."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from service_pages import BOILERPLATE, page_json

CHROMIUM = os.environ.get("SITESIFT_CHROMIUM", "/usr/bin/chromium")
#: Chromium flags for a quiet, offline headless run (see docs/guide/service.md).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SITE = "inspected.example"

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        pytest.skip(f"no chromium at {CHROMIUM} (apt install chromium, or set SITESIFT_CHROMIUM)")
    with sync_api.sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def site(live_server: tuple[str, str]) -> str:
    base, _ = live_server
    with httpx.Client(base_url=base, timeout=60) as client:
        for i in range(4):
            body = page_json(i, site=SITE, script=True)
            assert client.post("/extract", json=body).status_code == 200
    return base


def test_pick_a_site_see_clusters_open_a_page(browser: object, site: str) -> None:
    base = site
    page = browser.new_page(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    fetched: list[str] = []  # requests that left the inspector's origin and got an answer
    blocked: list[str] = []
    page.on("requestfinished", lambda r: None if r.url.startswith(base) else fetched.append(r.url))
    page.on("requestfailed", lambda r: blocked.append(r.failure or ""))
    page.goto(f"{base}/inspector")
    page.select_option("[data-testid=site-select]", SITE)

    clusters = page.locator("[data-testid=cluster]")
    clusters.first.wait_for()
    assert "#0" in clusters.first.locator("h3").inner_text()
    assert page.locator("[data-testid=template]").count() >= 1
    assert "/html/body" in page.locator("[data-testid=profile]").inner_text()

    page.locator("#clusters a").nth(2).click()
    page.wait_for_selector("body[data-marked]")
    assert int(page.locator("body").get_attribute("data-marked") or 0) > 0
    record = page.locator("[data-testid=record]")
    assert record.locator("[data-field=method]").inner_text() == "template"
    assert BOILERPLATE not in record.locator("[data-field=text]").inner_text()

    view = page.frame_locator("[data-testid=view]")
    assert view.locator("[data-sift=content]").count() > 0
    assert view.locator("h1").inner_text().endswith("news 2")
    # The page's own script did not run, its remote image was not fetched.
    assert view.locator("body").get_attribute("data-ran") is None
    assert fetched == [] and blocked and set(blocked) == {"csp"}
    # The template's decisions, with reasons: its shared line inside the story is noise.
    noise = view.locator("[data-sift=noise]", has_text=BOILERPLATE)
    assert noise.count() == 1 and "held by" in (noise.get_attribute("title") or "")
    assert "template" in page.locator("[data-testid=blocks]").inner_text()
    page.close()
