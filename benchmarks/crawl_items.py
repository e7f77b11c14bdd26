"""Item links of real list pages: page cues (``DefaultPolicy``) against learned URL rules
(``UrlStructurePolicy``, learning from that one page), on the list-detail set.

    PYTHONPATH=$PWD python benchmarks/crawl_items.py [--set ../shared/data/list-detail]

The set has no URLs: each list page's host is taken from its first absolute link, and only
links on that host count. For each list page: the links each policy picks, and how many of the
set's detail pages of that site the picks reach (found by the id in the file name, as the
title method finds them; many detail pages are not reachable this way, so the figure is a
floor). One list page per site, no page fetched: the rules learn from repeated items only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sitesift.crawl.policy import DefaultPolicy, page_links
from sitesift.crawl.urlpolicy import UrlStructurePolicy
from sitesift.fields.link_keys import link_keys, page_keys
from sitesift.input import iter_pages
from sitesift.parse.html import parse_html


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default=str(Path(__file__).resolve().parents[1].parent
                                             / "shared" / "data" / "list-detail"))
    args = parser.parse_args()
    folder = Path(args.set)
    with open(folder / "gold.jsonl", encoding="utf-8") as lines:
        gold = [json.loads(line) for line in lines]
    totals = {"cues": [0, 0], "learned": [0, 0]}
    details_total = 0
    for page in iter_pages([str(folder / "pages.jsonl")]):
        if not page.id.startswith("list") or page.error:
            continue
        details = [g for g in gold if g.get("list_id")
                   and page.id.startswith(g["list_id"].removeprefix("test-"))]
        root = parse_html(page.html)
        url = next((a.get("href") for a in root.iter("a")
                    if (a.get("href") or "").startswith("http")), None)
        if url is None or not details:
            continue
        host = url.split("/")[2]
        links = [link for link in page_links(url, root) if link.url.split("/")[2] == host]
        details_total += len(details)
        row = []
        for name, policy in (("cues", DefaultPolicy()), ("learned", UrlStructurePolicy())):
            policy.is_list_page(url, links, root)
            picked = {link.url for link in policy.item_links(url, links, root)}
            keys = {key for target in picked for key in link_keys(target)}
            reached = sum(any(k in keys for k in page_keys(None, d["id"])) for d in details)
            totals[name][0] += len(picked)
            totals[name][1] += reached
            row.append(f"{name} {len(picked):3d} links, reach {reached}/{len(details)}")
        print(f"{page.id:36s} {' | '.join(row)}")
    for name, (picked, reached) in totals.items():
        print(f"{name}: {picked} links picked, {reached}/{details_total} detail pages reached")


if __name__ == "__main__":
    main()
