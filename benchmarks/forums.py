#!/usr/bin/env python3
"""Forum figures of paper 001: URL structure clustering, page types, KSF, posts.

usage: PYTHONPATH=$PWD python benchmarks/forums.py [--data DIR] [--no-plots]

Prints Markdown tables and writes benchmarks/results/forums.json and, unless --no-plots, the
decision graphs docs/img/forums_decision_<forum>.png (shown in docs/design/forum.md).

- USC: thread URLs identified from URL structure alone. forum-dz: its urls.tsv (every in-site
  URL of the crawl, typed by script and ``mod``). forum-awful has no page URLs; its URL
  population is every in-site link of its 48 pages, typed by script name as its gold is
  (showthread = thread). Rule = the resolver of the cluster of a given topic URL (the paper's
  Alg. 3: the first thread URL of the population), and, without any given URL, the rule the
  forum method learns itself (the cluster holding most pages with two posts or more).
- Applying a rule: URLs/s of ``Resolver.filter`` over the population repeated to 200,000,
  best of 5 rounds, next to ``urllib.parse.urlsplit`` over the same URLs in the same run.
- Page types and posts: ``sitesift bench`` figures of the page, forum and auto methods, and of
  auto over forum-dz with its URLs taken away (DOM cues and kind tokens only, as on
  forum-awful).
- KSF: 10 repetitions with 5 random thread pages each (seeds 0-9); the right rule is the gold
  ``post_selector`` (forum-dz) or the element holding each post's text on forum-awful
  (``td.postbody``, checked by reading the pages; the evaluation only, never the library).
"""

from __future__ import annotations

import argparse
import html
import json
import math
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sitesift import Options
from sitesift.evaluate.bench import bench, read_set_pages
from sitesift.evaluate.score import load_gold, load_predictions, score_pages
from sitesift.fields.posts import learn_post_rule
from sitesift.methods.forum.site import learn_site_types
from sitesift.methods.forum.urls import Clustering, cluster_urls
from sitesift.parse import parse_html
from sitesift.pipeline import Extractor

ROOT = Path(__file__).resolve().parents[1]
AWFUL_HOST = "https://forums.somethingawful.com"
AWFUL_RULE = "td.postbody"
REPEATS = 10
RATE_URLS = 200_000
RATE_ROUNDS = 5


def dz_urls(data: Path) -> tuple[list[str], list[str]]:
    text = (data / "forum-dz" / "urls.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line.strip()]
    return [r[0] for r in rows], [r[1] for r in rows]


def awful_urls(data: Path) -> tuple[list[str], list[str]]:
    found = set()
    for path in sorted((data / "forum-awful" / "pages").glob("*.html")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for href in re.findall(r'href="(/[a-z0-9_]+\.php[^"#]*)"', text):
            found.add(AWFUL_HOST + html.unescape(href))
    urls = sorted(found)
    kinds = ["thread" if u[len(AWFUL_HOST):].startswith("/showthread.php") else "other"
             for u in urls]
    return urls, kinds


def read_gold(set_dir: Path) -> list[dict[str, Any]]:
    text = (set_dir / "gold.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line.strip()]


def prf(predicted: list[bool], kinds: list[str]) -> dict[str, float]:
    tp = sum(p and k == "thread" for p, k in zip(predicted, kinds, strict=True))
    npred, ngold = sum(predicted), kinds.count("thread")
    p = tp / npred if npred else 0.0
    r = tp / ngold if ngold else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4),
            "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0,
            "extracted": npred, "threads": ngold}


def cluster_table(clustering: Clustering, kinds: list[str], limit: int = 12) -> str:
    lines = ["| cluster | URLs | gold types | rule |", "|---:|---:|---|---|"]
    sizes = clustering.sizes().most_common()
    for label, size in sizes[:limit]:
        members = clustering.members(label)
        types = ", ".join(f"{k} {n}" for k, n in Counter(kinds[i] for i in members).most_common())
        rule = clustering.resolver(label).describe().replace("|", "\\|")
        if len(rule) > 110:
            rule = rule[:107] + "..."
        lines.append(f"| {label} | {size} | {types} | `{rule}` |")
    if len(sizes) > limit:
        rest = sizes[limit:]
        types = Counter(kinds[i] for label, _ in rest for i in clustering.members(label))
        lines.append(f"| {len(rest)} more | {sum(n for _, n in rest)} | "
                     + ", ".join(f"{k} {n}" for k, n in types.most_common()) + " | |")
    return "\n".join(lines)


def decision_graph(clustering: Clustering, kinds: list[str], name: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, (ax, curve) = plt.subplots(1, 2, figsize=(10, 4.2), dpi=110,
                                    gridspec_kw={"width_ratios": [3, 2]})
    rng = np.random.default_rng(0)
    # Many URLs share exact (rho, delta) values: a little horizontal jitter shows them.
    rho = clustering.rho + rng.uniform(-0.006, 0.006, len(kinds))
    delta = np.maximum(clustering.delta, 1e-12)
    colors = {"other": "tab:gray", "list": "tab:blue", "thread": "tab:red"}
    for kind, color in colors.items():
        idx = [i for i, k in enumerate(kinds) if k == kind]
        if idx:
            ax.scatter(rho[idx], delta[idx], s=10, c=color, alpha=0.6, label=f"{kind} URL")
    centres = clustering.centres
    ax.scatter(rho[centres], delta[centres], s=60, facecolors="none", edgecolors="black",
               label=f"centre ({len(centres)})")
    ax.axhline(clustering.threshold, color="black", linestyle="--", linewidth=0.8,
               label="automatic threshold")
    ax.set_yscale("log")
    ax.set_xlabel("rho (K-nearest-neighbour density, jittered)")
    ax.set_ylabel("delta = 1/Ns! (log; 0 drawn at 1e-12)")
    ax.set_title(f"decision graph, {name} ({len(kinds)} URLs, K={clustering.k})")
    ax.legend(loc="lower left", fontsize=8)
    levels = [round(1 / t) for t, _ in clustering.curve]
    ns = [next(n for n in range(1, 200) if math.factorial(n) >= lv) for lv in levels]
    counts = [c for _, c in clustering.curve]
    curve.plot(ns, counts, marker="o", color="black")
    chosen = [n for n, (t, _) in zip(ns, clustering.curve, strict=True)
              if t == clustering.threshold]
    for n in chosen:
        curve.axvline(n, color="tab:red", linestyle="--", linewidth=0.8,
                      label="chosen level (before the largest jump)")
    curve.axhline(math.sqrt(len(kinds)), color="gray", linestyle=":", linewidth=0.8,
                  label="sqrt(n) cap")
    curve.set_yscale("log")
    curve.set_xlabel("level Ns (centres: delta >= 1/Ns!)")
    curve.set_ylabel("number of centres")
    curve.set_title("curve analysis")
    curve.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def best_time(run: Callable[[], object]) -> float:
    times = []
    for _ in range(RATE_ROUNDS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def usc(name: str, urls: list[str], kinds: list[str], data: Path, plots: bool) -> dict[str, Any]:
    start = time.perf_counter()
    clustering = cluster_urls(urls)
    seconds = time.perf_counter() - start
    topic = urls[kinds.index("thread")]
    rule = clustering.resolver(clustering.label_of(topic))  # type: ignore[arg-type]
    result: dict[str, Any] = {
        "urls": len(urls), "clusters": len(clustering.centres),
        "cluster_seconds": round(seconds, 2), "topic": topic, "regex": rule.regex,
        "given_topic": prf([rule.match(u) for u in urls], kinds),
    }
    big = (urls * (RATE_URLS // len(urls) + 1))[:RATE_URLS]
    # Best of RATE_ROUNDS (as timeit does: the box is shared, the fastest round is the one
    # least disturbed), with urllib's urlsplit over the same URLs as the same-run baseline.
    result["rule_urls_per_s"] = round(len(big) / best_time(lambda: rule.filter(big)))
    result["urlsplit_urls_per_s"] = round(
        len(big) / best_time(lambda: [urlsplit(u) for u in big]))
    result["table"] = cluster_table(clustering, kinds)
    if plots:
        path = ROOT / "docs" / "img" / f"forums_decision_{name}.png"
        decision_graph(clustering, kinds, name, path)
        result["plot"] = str(path.relative_to(ROOT))
    return result


def learned_rule(set_dir: Path, urls: list[str], kinds: list[str]) -> dict[str, Any] | None:
    """The thread rule the forum method learns from the pages alone (no topic given)."""
    pages = read_set_pages(set_dir, Options(method="forum"))
    site = learn_site_types([parse_html(p.html) for p in pages], [p.url for p in pages])
    if site.thread_rule is None:
        return None
    return prf([site.thread_rule.match(u) for u in urls], kinds)


def ksf_repeats(set_dir: Path, truth: str) -> dict[str, Any]:
    gold = {g["id"]: g for g in read_gold(set_dir)}
    pages = [p for p in read_set_pages(set_dir, Options()) if gold[p.id]["page_type"] == "thread"]
    roots = [parse_html(p.html) for p in pages]
    found, seconds = [], []
    for seed in range(REPEATS):
        start = time.perf_counter()
        rule = learn_post_rule(roots, seed=seed)
        seconds.append(time.perf_counter() - start)
        found.append(rule.body.css if rule else None)
    return {"truth": truth, "right": sum(f == truth for f in found), "repeats": REPEATS,
            "rules": dict(Counter(str(f) for f in found)),
            "mean_seconds": round(sum(seconds) / len(seconds), 2), "thread_pages": len(pages)}


def bench_without_urls(set_dir: Path) -> tuple[dict[str, Any], float, object]:
    """``bench`` of ``auto`` over the set's pages with their URLs taken away."""
    pages = [replace(page, url=None) for page in read_set_pages(set_dir)]
    start = time.perf_counter()
    records = list(Extractor(Options(method="auto")).extract_many(pages))
    rate = len(pages) / (time.perf_counter() - start)
    return score_pages(load_gold(set_dir), load_predictions(records)), rate, records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--no-plots", action="store_true")
    args = parser.parse_args(argv)
    data = Path(args.data)
    out: dict[str, Any] = {"date": time.strftime("%Y-%m-%d"), "machine": "2-core shared box"}

    for name, (urls, kinds) in (("forum-dz", dz_urls(data)), ("forum-awful", awful_urls(data))):
        res = usc(name.split("-")[1], urls, kinds, data, not args.no_plots)
        res["learned_rule"] = learned_rule(data / name, urls, kinds)
        out[f"usc_{name}"] = res
        g, learned = res["given_topic"], res["learned_rule"]
        print(f"## URL clusters, {name}: {res['urls']} URLs, {res['clusters']} clusters in "
              f"{res['cluster_seconds']} s\n")
        print(f"Thread URLs, rule of the topic URL's cluster: P {g['precision']} R "
              f"{g['recall']} F1 {g['f1']} ({g['extracted']} extracted, {g['threads']} threads)")
        if learned:
            print(f"Thread URLs, rule learned by the forum method without a topic URL: P "
                  f"{learned['precision']} R {learned['recall']} F1 {learned['f1']}")
        print(f"Rule applied at {res['rule_urls_per_s']:,} URLs/s (best of {RATE_ROUNDS}; "
              f"urllib's urlsplit alone: {res['urlsplit_urls_per_s']:,} URLs/s in the same "
              "run)\n")
        print(res["table"] + "\n")

    for name, truth in (("forum-dz", None), ("forum-awful", AWFUL_RULE)):
        set_dir = data / name
        if truth is None:
            selectors = {g.get("post_selector") for g in read_gold(set_dir)} - {None}
            truth = selectors.pop()
        ksf = ksf_repeats(set_dir, truth)
        out[f"ksf_{name}"] = ksf
        print(f"KSF {name}: right rule ({truth}) in {ksf['right']} of {ksf['repeats']} "
              f"repetitions; rules found {ksf['rules']}; {ksf['mean_seconds']} s each\n")

    rows = [("| set | method | page type | posts: count | post char F1 | post author | "
             "first-post char F1 | pages/s |"), "|---|---|---:|---:|---:|---:|---:|---:|"]
    runs: list[tuple[str, str, Callable[[], tuple[dict[str, Any], float, object]]]] = [
        (name, method, lambda name=name, method=method: bench(
            data / name, options=Options(method=method)))
        for name in ("forum-dz", "forum-awful", "list-detail")
        for method in ("page", "forum", "auto")]
    # A forum crawled without its URLs: only DOM cues and kind tokens type the pages.
    runs.append(("forum-dz without URLs", "auto", lambda: bench_without_urls(data / "forum-dz")))
    for name, method, run in runs:
        metrics, rate, _ = run()
        out[f"bench_{name}_{method}"] = {"metrics": metrics, "pages_per_s": round(rate, 1)}

        def cell(key: str, metrics: dict[str, Any] = metrics) -> str:
            value = metrics.get(key)
            return "–" if value is None else f"{value:.3f}"

        rows.append(f"| {name} | {method} | {cell('page_type_acc')} | "
                    f"{cell('posts_count_acc')} | {cell('posts_char_f1')} | "
                    f"{cell('posts_author_acc')} | {cell('char_f1')} | {rate:.1f} |")
    print("\n".join(rows))
    (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
    (ROOT / "benchmarks" / "results" / "forums.json").write_text(
        json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
