"""Clusters found by ``--method template --site-key none`` against the true sites.

    python benchmarks/clusters_ari.py big9-2005 big9-2009 cleanportal

Pages of the given sets are mixed and read without site or URL (as `--site-key none` does),
extracted with the template method, and the records' ``site`` (discovered site) and
``cluster`` (template inside it) are compared with the truth, set + site (a big9 site's 2005
and 2009 pages are archived years apart), by the adjusted Rand index (scikit-learn, a
benchmark-only dependency).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from sklearn.metrics import adjusted_rand_score

from sitesift import Extractor, Options
from sitesift.evaluate.score import read_jsonl
from sitesift.input import iter_pages

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def main(argv: list[str]) -> int:
    sets = argv or ["big9-2005", "big9-2009", "cleanportal"]
    pages, truth = [], []
    for name in sets:
        manifest = DATA / name / "pages.jsonl"
        site_of = {row["id"]: row["site"] for _, row in read_jsonl(manifest)}
        for page in iter_pages([str(manifest)], site_key="none"):
            pages.append(page)
            truth.append(f"{name}/{site_of[page.id]}")
    start = time.perf_counter()
    records = list(Extractor(Options(method="template", site_key="none")).extract_many(pages))
    seconds = time.perf_counter() - start
    sites = [r.site for r in records]
    clusters = [r.extra.get("cluster") for r in records]
    print(json.dumps({
        "sets": sets, "pages": len(pages), "true_sites": len(set(truth)),
        "sites_found": len(set(sites)), "clusters_found": len(set(clusters)),
        "ari_sites": round(adjusted_rand_score(truth, sites), 4),
        "ari_clusters": round(adjusted_rand_score(truth, clusters), 4),
        "methods": {m: sum(r.method == m for r in records) for m in {r.method for r in records}},
        "seconds": round(seconds, 1),
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
