#!/usr/bin/env python3
"""Measure saved site profiles: their size, and the speed of the profile store.

usage: python benchmarks/profiles.py [--data DIR] [--sets big9-2005 ...] [--repeat N] [--json OUT]

For every site of the given sets, the site is learned as ``sitesift learn`` does
(``sitesift.methods.template.site.learn_site``: ISTM clustering, a template per cluster of 2+
pages),
then its profile is measured: bytes saved (``serialize.profile_to_bytes``), bytes before zlib,
encode and decode time. All profiles then go through a fresh ``ProfileStore``: put time per
profile (one transaction each), get time per profile, and gets/s over ``--repeat`` rounds of
every site (what applying saved profiles to a crawl costs per site group). Printed as Markdown.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import zlib
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from sitesift.evaluate.score import read_jsonl
from sitesift.input.encoding import decode_html
from sitesift.methods.template.features import page_features
from sitesift.methods.template.profile import SiteProfile
from sitesift.methods.template.site import learn_site
from sitesift.parse import parse_html
from sitesift.profiles.serialize import profile_from_bytes, profile_to_bytes
from sitesift.profiles.store import ProfileStore

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"
#: Sets with many pages per site (the ones template learning is for).
DEFAULT_SETS = ("big9-2005", "big9-2009", "cleanportal")
#: Rounds of encode/decode per profile; the median is reported (timings under 1 ms are noisy).
CODEC_ROUNDS = 20
#: Prefix of the uncompressed body (magic, version, length) as serialize writes it.
PREFIX_BYTES = 14


def learn_sets(data: Path, sets: list[str]) -> list[tuple[str, SiteProfile]]:
    """(set, profile) for every site of ``sets``."""
    profiles = []
    for name in sets:
        folder = data / name
        by_site: dict[str, list[Path]] = defaultdict(list)
        for _, row in read_jsonl(folder / "pages.jsonl"):
            by_site[row["site"] or row["id"]].append(folder / row["file"])
        for site, files in sorted(by_site.items()):
            features = [page_features(parse_html(decode_html(f.read_bytes())[0]), strings=False)
                        for f in files]
            profiles.append((name, learn_site(site, features).profile))
    return profiles


def _median_ms(action: Any, rounds: int = CODEC_ROUNDS) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def measure_codec(profile: SiteProfile) -> dict[str, Any]:
    data = profile_to_bytes(profile)
    return {
        "site": profile.site,
        "pages": profile.pages,
        "templates": len(profile.templates),
        "signatures": sum(len(t.count) for t in profile.templates),
        "medoid_paths": sum(len(t.medoid.paths) for t in profile.templates),
        "bytes": len(data),
        "raw_bytes": len(zlib.decompress(data[PREFIX_BYTES:])),
        "encode_ms": _median_ms(lambda: profile_to_bytes(profile)),
        "decode_ms": _median_ms(lambda: profile_from_bytes(data)),
    }


def measure_store(profiles: list[SiteProfile], repeat: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        store = ProfileStore(Path(tmp) / "p.db")
        start = time.perf_counter()
        for profile in profiles:
            store.put(profile)
        put_s = time.perf_counter() - start
        sites = [p.site for p in profiles]
        start = time.perf_counter()
        for _ in range(repeat):
            for site in sites:
                store.get(site)
        get_s = time.perf_counter() - start
        start = time.perf_counter()
        listed = store.sites()
        list_ms = (time.perf_counter() - start) * 1e3
        store.close()  # the last connection's close folds the WAL into the file
        file_bytes = sum(f.stat().st_size for f in Path(tmp).iterdir())
    gets = repeat * len(sites)
    return {
        "profiles": len(profiles),
        "put_ms": put_s / len(profiles) * 1e3,
        "get_ms": get_s / gets * 1e3,
        "gets_per_s": gets / get_s,
        "sites_list_ms": list_ms,
        "listed": len(listed),
        "file_bytes": file_bytes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS))
    parser.add_argument("--repeat", type=int, default=20, help="rounds of gets over all sites")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    if not (args.data / args.sets[0] / "pages.jsonl").is_file():
        print(f"evaluation data not found under {args.data}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    learned = learn_sets(args.data, args.sets)
    print(f"learned {len(learned)} sites in {time.perf_counter() - start:.1f} s\n")
    rows = [{"set": name, **measure_codec(p)} for name, p in learned]
    print("| set | site | pages | templates | signatures | medoid paths | bytes | raw bytes "
          "| encode ms | decode ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['set']} | {r['site']} | {r['pages']} | {r['templates']} | "
              f"{r['signatures']} | {r['medoid_paths']} | {r['bytes']} | {r['raw_bytes']} | "
              f"{r['encode_ms']:.2f} | {r['decode_ms']:.2f} |")
    sizes = [r["bytes"] for r in rows]
    print(f"\nbytes per profile: median {statistics.median(sizes):.0f}, "
          f"min {min(sizes)}, max {max(sizes)}; per learning page: median "
          f"{statistics.median(r['bytes'] / r['pages'] for r in rows):.0f}")
    # Sets share site names (big9 2005 and 2009): stored under "set/site" so none replaces another.
    store = measure_store([replace(p, site=f"{name}/{p.site}") for name, p in learned], args.repeat)
    print(f"\nstore ({store['profiles']} profiles, file {store['file_bytes']} bytes): "
          f"put {store['put_ms']:.2f} ms/profile, get {store['get_ms']:.3f} ms/profile = "
          f"{store['gets_per_s']:.0f} profiles/s, sites() {store['sites_list_ms']:.2f} ms "
          f"({store['listed']} listed)")
    if args.json:
        args.json.write_text(json.dumps({"profiles": rows, "store": store}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
