#!/usr/bin/env python3
"""Clustering of pages into templates and sites: the curves that chose linkage and cut, the
figures reached, and the cost at 1,000 pages.

usage: python benchmarks/clustering.py curves   # ARI against cut, per linkage; plots
       python benchmarks/clustering.py final    # discover_sites / discover_templates figures
       python benchmarks/clustering.py cost [--pages 1000] [--site cleanportal:bbc.co.uk]

Reads ../shared/data (never copied into the repository). ARI is scikit-learn's
adjusted_rand_score (a benchmark-only dependency). Plots go to docs/img/clustering_*.png.
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import lxml.html
import numpy as np
from lxml import etree
from sklearn.metrics import adjusted_rand_score

from sitesift.evaluate.score import read_jsonl
from sitesift.input.encoding import decode_html
from sitesift.methods.template.cluster import (
    SITE_CUT,
    SITE_LINKAGE,
    TEMPLATE_CUT,
    TEMPLATE_LINKAGE,
    cluster_pages,
    discover_sites,
    discover_templates,
    string_similarity,
)
from sitesift.methods.template.features import PageFeatures, page_features, page_strings
from sitesift.methods.template.istm import page_structure, similarity_matrix
from sitesift.parse import parse_html

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"
IMG = REPO / "docs" / "img"
LINKAGES = ("average", "complete", "single", "weighted")
CUTS = np.round(np.arange(0.05, 1.0, 0.025), 3)
#: Mixes for site discovery: name -> sets whose pages are mixed; truth is set + site.
SITE_MIXES = {
    "big9-2005+big9-2009+cleanportal": ("big9-2005", "big9-2009", "cleanportal"),
    "zh-sites": ("zh-sites",),
    "list-detail": ("list-detail",),
    "l3s-gn1": ("l3s-gn1",),
}


@dataclass(frozen=True, slots=True)
class Page:
    set: str
    id: str
    site: str
    page_type: str | None
    features: PageFeatures


def load(name: str) -> list[Page]:
    """Features of every page of set ``name`` (trees are dropped after use)."""
    folder = DATA / name
    gold = {}
    for _, row in read_jsonl(folder / "gold.jsonl"):
        gold[row["id"]] = row
    pages = []
    for _, row in read_jsonl(folder / "pages.jsonl"):
        text, _ = decode_html((folder / row["file"]).read_bytes())
        feats = page_features(parse_html(text), signatures=False)
        pages.append(Page(name, row["id"], row["site"] or "", gold.get(row["id"], {})
                          .get("page_type"), feats))
    return pages


def registrable(host: str) -> str:
    """Registrable domain of a host (l3s-gn1 sites are hosts: uk.reuters.com, reuters.com)."""
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList().privatesuffix(host) or host


def ari_curve(sim: np.ndarray, truth: Sequence[str], linkage: str) -> list[float]:
    return [adjusted_rand_score(truth, cluster_pages(sim, linkage=linkage, threshold=t))
            for t in CUTS]


def within_curve(groups: list[list[Page]], truth: Callable[[Page], str],
                 linkage: str) -> np.ndarray:
    """ARI over all pages of template clustering run inside each group (the second stage when
    the sites are known): cluster and truth labels are both prefixed by the group."""
    labels: list[list[str]] = [[] for _ in CUTS]
    truths: list[str] = []
    for g, group in enumerate(groups):
        sim = similarity_matrix([p.features.structure for p in group], relaxed=True)
        for k, cut in enumerate(CUTS):
            local = cluster_pages(sim, linkage=linkage, threshold=cut)
            labels[k] += [f"{g}/{x}" for x in local]
        truths += [f"{g}/{truth(p)}" for p in group]
    return np.array([adjusted_rand_score(truths, lab) for lab in labels])


def _groups(pages: list[Page], key: Callable[[Page], str]) -> list[list[Page]]:
    by: dict[str, list[Page]] = collections.defaultdict(list)
    for p in pages:
        by[key(p)].append(p)
    return [g for g in by.values() if len(g) > 1]


def _plot(curves: dict[str, dict[str, np.ndarray]], title: str, chosen: tuple[str, float],
          path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(3, len(curves))
    rows = -(-len(curves) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.4 * cols, 3.4 * rows), sharey=True,
                             squeeze=False)
    for ax in axes.ravel()[len(curves):]:
        ax.set_visible(False)
    for ax, (check, by_linkage) in zip(axes.ravel(), curves.items(), strict=False):
        for linkage, values in by_linkage.items():
            ax.plot(CUTS, values, label=linkage, lw=2 if linkage == chosen[0] else 1)
        ax.axvline(chosen[1], color="grey", ls="--", lw=1)
        ax.set_title(check, fontsize=9)
        ax.set_xlabel("cut (distance = 1 - similarity)")
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("adjusted Rand index")
    axes[0, 0].legend(fontsize=8)
    fig.suptitle(f"{title}; chosen: {chosen[0]} at {chosen[1]}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _table(curves: dict[str, dict[str, np.ndarray]]) -> str:
    shown = [k for k, c in enumerate(CUTS) if 0.2 <= c <= 0.95 and round(c * 20, 6) % 1 == 0]
    lines = ["| check | linkage | " + " | ".join(f"{CUTS[k]:.2f}" for k in shown) + " | best |",
             "|---|---|" + "---|" * (len(shown) + 1)]
    for check, by_linkage in curves.items():
        for linkage, values in by_linkage.items():
            best = int(np.argmax(values))
            lines.append(f"| {check} | {linkage} | "
                         + " | ".join(f"{values[k]:.3f}" for k in shown)
                         + f" | {values[best]:.3f} at {CUTS[best]:.3f} |")
    return "\n".join(lines)


def curves(sets: dict[str, list[Page]]) -> None:
    big9 = sets["big9-2005"] + sets["big9-2009"]
    mix3 = big9 + sets["cleanportal"]
    template_checks = {
        "big9+cleanportal by structure (truth set+site)": None,
        "big9, inside each site: 2005 vs 2009": (_groups(big9, lambda p: p.site),
                                                   lambda p: p.set),
        "list-detail, inside each site: list vs detail": (_groups(sets["list-detail"],
                                                          lambda p: p.site),
                                                  lambda p: p.page_type or ""),
    }
    tcurves: dict[str, dict[str, np.ndarray]] = {}
    for check, spec in template_checks.items():
        if spec is None:
            sim = similarity_matrix([p.features.structure for p in mix3], relaxed=True)
            truth = [f"{p.set}/{p.site}" for p in mix3]
            tcurves[check] = {lk: np.array(ari_curve(sim, truth, lk)) for lk in LINKAGES}
        else:
            tcurves[check] = {lk: within_curve(spec[0], spec[1], lk) for lk in LINKAGES}
    _plot(tcurves, "Templates: relaxed ISTM", (TEMPLATE_LINKAGE, TEMPLATE_CUT),
          IMG / "clustering_templates.png")
    print("## Template clustering (relaxed ISTM)\n")
    print(_table(tcurves))
    scurves: dict[str, dict[str, np.ndarray]] = {}
    for name, members in SITE_MIXES.items():
        pages = [p for s in members for p in sets[s]]
        sim = string_similarity([p.features.strings for p in pages])
        truth = [f"{p.set}/{p.site}" for p in pages]
        scurves[name] = {lk: np.array(ari_curve(sim, truth, lk)) for lk in LINKAGES[:3]}
        if name == "l3s-gn1":
            dom = [registrable(p.site) for p in pages]
            scurves["l3s-gn1 (truth: registrable domain)"] = {
                lk: np.array(ari_curve(sim, dom, lk)) for lk in LINKAGES[:3]}
    _plot(scurves, "Sites: repeated short strings", (SITE_LINKAGE, SITE_CUT),
          IMG / "clustering_sites.png")
    print("\n## Site discovery (string similarity)\n")
    print(_table(scurves))


def final(sets: dict[str, list[Page]]) -> None:
    print("| mix | pages | true sites | sites found | ARI sites | templates found | "
          "ARI templates vs sites | ARI relaxed ISTM alone |")
    print("|---|---|---|---|---|---|---|---|")
    for name, members in SITE_MIXES.items():
        pages = [p for s in members for p in sets[s]]
        feats = [p.features for p in pages]
        truth = [f"{p.set}/{p.site}" for p in pages]
        sites, templates = discover_templates(feats)
        istm = cluster_pages(similarity_matrix([f.structure for f in feats], relaxed=True),
                             linkage="average", threshold=0.5)
        rows = [(name, truth)]
        if name == "l3s-gn1":
            rows.append((name + " (registrable domain)", [registrable(p.site) for p in pages]))
        for label, t in rows:
            print(f"| {label} | {len(pages)} | {len(set(t))} | {sites.max() + 1} | "
                  f"{adjusted_rand_score(t, sites):.3f} | {templates.max() + 1} | "
                  f"{adjusted_rand_score(t, templates):.3f} | "
                  f"{adjusted_rand_score(t, istm):.3f} |")
    assert (discover_sites([p.features for p in sets["zh-sites"]]) >= 0).all()


def _perturb(base: str, rng: random.Random) -> str:
    """A light variant of a page: a few texts changed, maybe a block added or removed."""
    root = lxml.html.document_fromstring(base)
    texts = [el for el in root.iter() if isinstance(el.tag, str) and (el.text or "").strip()]
    for el in rng.sample(texts, max(1, len(texts) // 20)):
        el.text = " ".join(rng.choice(("alpha", "beta", "gamma", "delta", "news", "story"))
                           for _ in range(rng.randint(1, 12)))
    blocks = [el for el in root.iter("div", "p", "li", "td")]
    if blocks and rng.random() < 0.3:
        host = rng.choice(blocks)
        extra = etree.SubElement(host, "div", {"class": "promo"})
        extra.text = f"promotion {rng.randint(0, 10**6)}"
    if len(blocks) > 1 and rng.random() < 0.3:
        victim = rng.choice(blocks[1:])
        if victim.getparent() is not None:
            victim.getparent().remove(victim)
    return lxml.html.tostring(root, encoding="unicode")


def cost(n: int, spec: str) -> None:
    name, site = spec.split(":", 1)
    folder = DATA / name
    bases = []
    for _, row in read_jsonl(folder / "pages.jsonl"):
        if row["site"] == site:
            bases.append(decode_html((folder / row["file"]).read_bytes())[0])
    rng = random.Random(0)
    htmls = [_perturb(bases[i % len(bases)], rng) for i in range(n)]
    size = sum(len(h) for h in htmls) / n / 1024
    t0 = time.perf_counter()
    roots = [parse_html(h) for h in htmls]
    t1 = time.perf_counter()
    structures = [page_structure(r, relaxed=True) for r in roots]
    t1b = time.perf_counter()
    feats = [PageFeatures(structure=st, strings=page_strings(r))
             for st, r in zip(structures, roots, strict=True)]
    t2 = time.perf_counter()
    del roots
    istm = similarity_matrix([f.structure for f in feats], relaxed=True)
    strings = string_similarity([f.strings for f in feats])
    t3 = time.perf_counter()
    labels = cluster_pages(istm)
    sites, templates = discover_templates(feats)
    t4 = time.perf_counter()
    held = sum(f.structure.paths.nbytes + f.structure.weights.nbytes + f.strings.nbytes
               for f in feats) / n
    # Memory in a second pass: tracemalloc slows Python code down several times. lxml trees
    # live in C memory that tracemalloc does not see (max RSS below covers them).
    tracemalloc.start()
    feature_peaks = []
    for h in htmls[:20]:
        root = parse_html(h)
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        page_features(root, signatures=False)
        feature_peaks.append(tracemalloc.get_traced_memory()[1] - before)
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    similarity_matrix([f.structure for f in feats], relaxed=True)
    string_similarity([f.strings for f in feats])
    discover_templates(feats)
    peak_pairs = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"- {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"- `python benchmarks/clustering.py cost --pages {n} --site {spec}`: {n} pages "
          f"replicated from {len(bases)} real pages, {size:.0f} KB of HTML each on average")
    print("\n| step | seconds | memory |\n|---|---|---|")
    print(f"| parse (lxml, not part of clustering) | {t1 - t0:.2f} | |")
    print(f"| features: relaxed ISTM leaf paths (`istm.page_structure`) | {t1b - t1:.2f} | |")
    print(f"| features: short-string hashes (`cluster.page_strings`) | {t2 - t1b:.2f} | |")
    print(f"| features, both ({n / (t2 - t1):.0f} pages/s) | {t2 - t1:.2f} | "
          f"{held / 1024:.0f} KB kept per page |")
    print(f"| all-pairs similarity: relaxed ISTM + strings ({n * (n - 1) // 2} pairs) | "
          f"{t3 - t2:.2f} | peak {peak_pairs / 2**20:.0f} MB with clustering |")
    print(f"| clustering: templates, then two-stage discovery | {t4 - t3:.2f} | |")
    print(f"| features + similarity + clustering | {t4 - t1:.2f} | process max RSS "
          f"{rss:.0f} MB (all {n} trees held at once) |")
    print(f"\nfeatures of one page while built: peak {max(feature_peaks) / 2**20:.1f} MB "
          f"traced (Python objects). templates found: {labels.max() + 1}; "
          f"discover_templates: {sites.max() + 1} "
          f"site(s), {templates.max() + 1} template(s); mean string similarity "
          f"{strings[np.triu_indices(n, 1)].mean():.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("curves", "final", "cost"))
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--site", default="cleanportal:bbc.co.uk", help="SET:SITE to replicate")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"no evaluation data at {DATA}", file=sys.stderr)
        return 2
    if args.command == "cost":
        cost(args.pages, args.site)
        return 0
    needed = {s for members in SITE_MIXES.values() for s in members}
    sets = {s: load(s) for s in sorted(needed)}
    curves(sets) if args.command == "curves" else final(sets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
