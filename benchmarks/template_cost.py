"""Cost of the template method on a large site, as ratios to the page method in the same run.

    python benchmarks/template_cost.py [--set big9-2005 --site forbes] [--pages 1000]

A site of N pages is made from the real pages of one site of a set: copy k of a page gets
"[k]" at the start of every paragraph, so each copy has content of its own while the template
stays the same, as on a real site. Measured in one process, one core:
- learn: parse + features + ISTM matrix + clustering + templates of all N pages (seconds,
  peak memory of the learning step by tracemalloc, and the process's peak RSS);
- apply: extraction of N pages with the saved profile (pages/s), against the page method on
  the same N pages (pages/s), and the template method learning on the fly.
Ratios are given by wall time and by CPU time of the process (``apply_vs_page_cpu``): on a
busy machine the CPU-time ratio is the steadier of the two.

    python benchmarks/template_cost.py --apply-only --set big9-2005 --site cnn forbes ...

measures only the apply/page ratio, for each of several sites of a set.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from sitesift import Extractor, Options, Page
from sitesift.input import iter_pages
from sitesift.profiles.store import ProfileStore

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
#: Alternating rounds of page method and saved-profile extraction.
ROUNDS = 2
_PARAGRAPH = re.compile(r"(<p(?:\s[^>]*)?>)", re.IGNORECASE)


def make_site(set_name: str, site: str, n: int) -> list[Page]:
    pages = [p for p in iter_pages([str(DATA / set_name / "pages.jsonl")]) if p.site == site]
    if not pages:
        raise SystemExit(f"no pages of site {site!r} in {set_name}")
    out = []
    for k in range(n):
        base = pages[k % len(pages)]
        html = _PARAGRAPH.sub(lambda m, k=k: f"{m.group(1)}[{k}] ", base.html)
        out.append(Page(id=f"{base.id}#{k}", site=site, html=html))
    return out


def timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def timed_cpu(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start[0], time.process_time() - start[1]


def apply_ratio(set_name: str, site: str, n: int) -> dict[str, object]:
    """Page method against a saved profile on one site: best of ROUNDS alternating runs."""
    pages = make_site(set_name, site, n)
    with tempfile.TemporaryDirectory() as tmp:
        store = ProfileStore(Path(tmp) / "profiles.db")
        Extractor(Options(method="template"), profiles=store).learn(pages)
        page = apply = (float("inf"), float("inf"))
        for _ in range(ROUNDS):
            t = timed_cpu(lambda: list(Extractor(Options(method="page")).extract_many(pages)))
            page = (min(page[0], t[0]), min(page[1], t[1]))
            t = timed_cpu(lambda: list(Extractor(Options(method="template"), profiles=store)
                                       .extract_many(pages)))
            apply = (min(apply[0], t[0]), min(apply[1], t[1]))
        store.close()
    return {"site": f"{set_name}/{site}", "pages": n,
            "page_pages_per_s": round(n / page[0], 1), "apply_pages_per_s": round(n / apply[0], 1),
            "apply_vs_page": round(page[0] / apply[0], 2),
            "apply_vs_page_cpu": round(page[1] / apply[1], 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", default="big9-2005")
    parser.add_argument("--site", nargs="+", default=["forbes"])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--apply-only", action="store_true",
                        help="only the apply/page ratio, for each --site")
    args = parser.parse_args(argv)
    if args.apply_only:
        rows = [apply_ratio(args.set, site, args.pages) for site in args.site]
        print(json.dumps(rows, indent=2))
        return 0
    args.site = args.site[0]
    pages = make_site(args.set, args.site, args.pages)
    n = len(pages)

    with tempfile.TemporaryDirectory() as tmp:
        store = ProfileStore(Path(tmp) / "profiles.db")
        profiles, learn_s = timed(
            lambda: Extractor(Options(method="template"), profiles=store).learn(pages))
        # Page method and saved profile alternate, best of ROUNDS each: run order and the
        # memory left by the previous step move a single timing by up to 30 %.
        page_s = apply_s = float("inf")
        for _ in range(ROUNDS):
            _, seconds = timed(
                lambda: list(Extractor(Options(method="page")).extract_many(pages)))
            page_s = min(page_s, seconds)
            applied, seconds = timed(
                lambda: list(Extractor(Options(method="template"), profiles=store)
                             .extract_many(pages)))
            apply_s = min(apply_s, seconds)
        _, fly_s = timed(
            lambda: list(Extractor(Options(method="template")).extract_many(pages)))
        # Memory of learning, in a run of its own: tracemalloc slows Python code down.
        tracemalloc.start()
        Extractor(Options(method="template")).learn(pages)
        learn_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        store.close()

    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result = {
        "site": f"{args.set}/{args.site}", "pages": n,
        "templates": sum(len(p.templates) for p in profiles),
        "learn_seconds": round(learn_s, 2), "learn_peak_traced_mb": round(learn_peak / 2**20, 1),
        "process_peak_rss_mb": round(rss_mb, 1),
        "page_pages_per_s": round(n / page_s, 1),
        "apply_profile_pages_per_s": round(n / apply_s, 1),
        "template_on_the_fly_pages_per_s": round(n / fly_s, 1),
        "apply_vs_page": round(page_s / apply_s, 2),
        "learn_vs_page_time": round(learn_s / page_s, 2),
        "applied_methods": sorted({r.method or "error" for r in applied}),
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
