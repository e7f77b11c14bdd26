#!/usr/bin/env python3
"""Train the page-kind model (``sitesift/methods/page/kind/kind_model.json``) and print its
cross-validated figures.

usage: PYTHONPATH=$PWD python benchmarks/train_kind.py [--data DIR] [--C 0.1] [--check]

Reads the pages of modern-dev (``../shared/data/modern-dev``: WCXB's seven kinds in its gold),
reads each page's features as the page extractor does (``kind_features`` on the untouched tree,
then ``PageSignals`` of ``extract_content``), and prints:

- accuracy (of the kind held to the page's type, as the page extractor gives it; and free of
  it, ``cv_free_of_page_type``) cross-validated by site (``GroupKFold``, 5 folds; sites
  grouped without a leading "www."), fold by fold, on the whole set and on each half of the
  reference split (``score.py --half``);
- half a -> half b and half b -> half a: trained on one half, tested on the other;
- the confusion matrix of the cross-validated predictions.

Then fits the model on every page and writes it to the package (``--check``: prints only).
Needs scikit-learn (a test dependency); the package reads the model with numpy alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold
from sklearn.preprocessing import StandardScaler

from sitesift.evaluate.bench import read_set_pages
from sitesift.evaluate.score import half_of, load_gold
from sitesift.methods.page.content import extract_content
from sitesift.methods.page.kind import (
    KINDS,
    TYPE_KINDS,
    KindModel,
    kind_features,
    signal_features,
)
from sitesift.methods.page.kind.model import MODEL_FILE
from sitesift.parse import parse_html

ROOT = Path(__file__).resolve().parents[1]
MODEL_PATH = ROOT / "sitesift" / "methods" / "page" / "kind" / MODEL_FILE
#: L2 strength of the logistic regression (inverse). Cross-validated by site on modern-dev
#: (features of this version): C 0.03 / 0.1 / 0.3 -> 0.853 / 0.858 / 0.852.
DEFAULT_C = 0.1
FOLDS = 5


def page_rows(set_dir: Path) -> list[dict[str, Any]]:
    """Per page: id, site, half, gold kind and features (as the page extractor reads them)."""
    gold = load_gold(set_dir)
    rows = []
    for page in read_set_pages(set_dir):
        kind = gold.get(page.id, {}).get("kind")
        if kind not in KINDS:
            continue
        root = parse_html(page.html)
        seen = kind_features(root, page.url)
        content = extract_content(root, url=page.url)
        signals = signal_features(content.signals) if content.signals is not None else {}
        rows.append({"id": page.id, "site": (page.site or page.id).removeprefix("www."),
                     "page_type": content.page_type,
                     "half": half_of({"site": page.site, "id": page.id}), "kind": kind,
                     "features": {**seen, **signals}})
    return rows


def fit(x: np.ndarray, y: np.ndarray, names: list[str], c: float) -> KindModel:
    scaler = StandardScaler().fit(x)
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    model = LogisticRegression(C=c, max_iter=5000).fit((x - scaler.mean_) / scale, y)
    order = [list(model.classes_).index(k) for k in KINDS if k in model.classes_]
    return KindModel.from_data({
        "kinds": [model.classes_[i] for i in order], "features": names,
        "mean": list(scaler.mean_), "scale": list(scale),
        "coef": [list(row) for row in model.coef_[order]],
        "intercept": list(model.intercept_[order])})


def predict(model: KindModel, x: np.ndarray, types: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The kinds the model gives, free and held to each page's type (``TYPE_KINDS``, as the
    page extractor decides them). The model's data is rounded as shipped: the figures are
    those of the shipped form."""
    shipped = KindModel.from_data(model.to_data())
    z = (x - np.array(shipped.mean)) / np.array(shipped.scale)
    scores = z @ np.array(shipped.coef).T + np.array(shipped.intercept)
    kinds = np.array(shipped.kinds)
    allowed = np.array([[k in TYPE_KINDS.get(t or "", KINDS) for k in kinds] for t in types])
    return kinds[np.argmax(scores, axis=1)], kinds[np.argmax(np.where(allowed, scores, -np.inf),
                                                                axis=1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/modern-dev")
    parser.add_argument("--C", type=float, default=DEFAULT_C)
    parser.add_argument("--check", action="store_true", help="print figures, write nothing")
    args = parser.parse_args(argv)
    if not (args.data / "gold.jsonl").exists():
        print(f"no gold at {args.data}", file=sys.stderr)
        return 2
    rows = page_rows(args.data)
    names = sorted({name for row in rows for name in row["features"]})
    x = np.array([[row["features"].get(n, 0.0) for n in names] for row in rows])
    y = np.array([row["kind"] for row in rows])
    sites = np.array([row["site"] for row in rows])
    half = np.array([row["half"] for row in rows])
    types = np.array([row["page_type"] for row in rows], dtype=object)
    free, cv = np.empty(len(y), dtype=object), np.empty(len(y), dtype=object)
    folds = []
    for train, test in GroupKFold(n_splits=FOLDS).split(x, y, sites):
        free[test], cv[test] = predict(fit(x[train], y[train], names, args.C), x[test],
                                       types[test])
        folds.append(float(np.mean(cv[test] == y[test])))
    ok = cv == y
    figures: dict[str, Any] = {
        "pages": len(y), "sites": len(set(sites)), "C": args.C,
        "cv_by_site": round(float(ok.mean()), 4),
        "cv_folds": [round(f, 4) for f in folds],
        "cv_half_a": round(float(ok[half == "a"].mean()), 4),
        "cv_half_b": round(float(ok[half == "b"].mean()), 4),
        "cv_free_of_page_type": round(float(np.mean(free == y)), 4),
    }
    for a, b in (("a", "b"), ("b", "a")):
        model = fit(x[half == a], y[half == a], names, args.C)
        held = predict(model, x[half == b], types[half == b])[1]
        figures[f"half_{a}_to_{b}"] = round(float(np.mean(held == y[half == b])), 4)
    print(json.dumps(figures, indent=1))
    kinds = [k for k in KINDS if k in set(y)]
    print("\ncross-validated predictions: gold (rows) by predicted (columns)")
    print(f"{'':14s}" + "".join(f"{k[:6]:>7s}" for k in kinds))
    for g in kinds:
        print(f"{g:14s}" + "".join(f"{int(np.sum((y == g) & (cv == p))):7d}" for p in kinds))
    if args.check:
        return 0
    data = fit(x, y, names, args.C).to_data()
    data["trained"] = {"set": args.data.name, **figures}
    MODEL_PATH.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"\nwrote {MODEL_PATH.relative_to(ROOT)} ({MODEL_PATH.stat().st_size:,} bytes, "
          f"{len(names)} features)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
