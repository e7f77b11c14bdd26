#!/usr/bin/env python3
"""Screenshots of the inspector's main views for docs/service.md, from real pages.

usage: PYTHONPATH=$PWD python benchmarks/inspector_screenshots.py [--set big9-2005]
       [--site SITE] [--page N] [--out docs/img]

Starts ``sitesift serve`` on loopback (as ``service_load.py`` does), sends the site's pages
one by one to POST /extract (the site is learned as they arrive), then drives the inspector
in headless Chromium (Debian's /usr/bin/chromium through Playwright): the site view
(clusters and learned profile) and a page view (rendered page with marks, record, blocks).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright
from service_load import DATA, REPO, running_server

from sitesift.evaluate.bench import read_set_pages

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--set", default="big9-2005")
    parser.add_argument("--site")
    parser.add_argument("--page", type=int, default=5, help="which recent page to open")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img")
    args = parser.parse_args(argv)
    pages = read_set_pages(args.data / args.set)
    site = args.site or pages[0].site
    mine = [p for p in pages if p.site == site]
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, running_server(str(Path(tmp) / "p.db")) as base:
        for page in mine:
            body = {"id": page.id, "url": page.url, "site": page.site, "html": page.html}
            httpx.post(f"{base}/extract", json=body, timeout=120).raise_for_status()
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            view = browser.new_page(viewport={"width": 1500, "height": 950})
            view.goto(f"{base}/inspector")
            view.select_option("[data-testid=site-select]", site)
            view.locator("[data-testid=template]").first.wait_for()
            view.screenshot(path=str(args.out / "inspector-site.png"))
            view.locator("#clusters a").nth(args.page).click()
            view.wait_for_selector("body[data-marked]")
            view.wait_for_timeout(300)
            view.screenshot(path=str(args.out / "inspector-page.png"))
            browser.close()
    print(f"wrote {args.out}/inspector-site.png and inspector-page.png ({site}, "
          f"{len(mine)} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
