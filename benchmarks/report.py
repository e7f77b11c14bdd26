#!/usr/bin/env python3
"""Write docs/results.md: sitesift's methods and its peers on every evaluation set, in one run.

usage: python benchmarks/report.py [--sets SET ...] [--extractors NAME ...] [--quick]
                                   [--data DIR] [--out docs/results.md] [--keep DIR]
       python benchmarks/report.py --render-only      # the page again from the last run's JSON
       python benchmarks/report.py --make-rs-venv --rs-python python3.12 [--rs-wheel WHL]

Every set's pages are read and decoded once; each extractor (``peers.py``: sitesift's page,
template, siblings and auto methods, rs-trafilatura, trafilatura, readability-lxml, GNE,
goose3, Resiliparse, htmldate) runs over them in turn (``run_peers.run_peer``: timed, each page
guarded) and its predictions are scored by the reference scorer's code
(``sitesift.evaluate.score``) on the whole set and on each half split by site
(``--half a|b``): a figure is only as good as its worse half. Sets with WCXB's page kinds get
body F1 by kind. The page names the date, machine, command and package versions of the run;
every figure on it comes from that one run (``--sets`` limits the run, and the page then shows
only those sets). The raw figures go to benchmarks/results/report.json, the plot of body F1
against pages/s to docs/img/accuracy_vs_speed.png.

rs-trafilatura runs in a Python 3.12 venv of its own (``peers.RS_VENV``, or the
``SITESIFT_RS_VENV`` environment variable); ``--make-rs-venv`` creates it (the binary wheel
only). Without it, the run goes on and the page says it was skipped. A full run over every set
takes about half an hour on an idle 2-core machine; ``--quick`` (two small sets, sitesift's
page and auto methods and the two trafilaturas) checks in a minute or two that everything runs.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from peers import FIELD_METRICS, PEERS, RS_VENV, make_rs_venv
from run_peers import (
    DATA,
    PLOT,
    REPO,
    RESULTS,
    SETS,
    _scored_fields,
    available_peers,
    environment,
    plot,
    run_peer,
)

from sitesift.evaluate.bench import BenchResult, read_set_pages
from sitesift.evaluate.score import gold_half, load_gold, load_predictions, score_pages

OUT = REPO / "docs" / "results.md"
JSON_OUT = RESULTS / "report.json"
#: ``--quick``: two small sets (a Chinese news set, and a set of whole sites for the
#: site-level methods) and the extractors whose figures matter most.
QUICK_SETS = ("zh-news-dev", "cleanportal")
QUICK_EXTRACTORS = ("sitesift", "sitesift-auto", "rs-trafilatura", "trafilatura")
#: Matrices of the page: (heading, metric key, what the cell shows). Body figures also show the
#: worse half in brackets.
MATRICES: tuple[tuple[str, str, str], ...] = (
    ("Main text: character F1", "char_f1",
     "LCS of the texts without white space; F1 of mean precision and mean recall."),
    ("Main text: word F1", "word_f1", "WCXB's metric: F1 of the bags of lower-cased words."),
    ("Main text: 4-gram shingle F1", "shingle_f1", "The Zyte benchmark's metric."),
    ("Title", "title_exact", "Share of titles equal to the gold after folding."),
    ("Publication date", "date_acc", "Share of pages with the gold's day."),
    ("Author", "author_exact", "Share of authors equal to the gold after folding."),
    ("Page type", "page_type_acc", "list, detail, thread or other, as the gold says."),
    ("Page kind", "kind_acc", "WCXB's seven kinds (article, forum, product, ...)."),
    ("Forum posts: count", "posts_count_acc", "Thread pages whose number of posts is right."),
    ("Forum posts: text", "posts_char_f1", "Character F1 of each post, paired by position."),
)
HALVED = frozenset({"char_f1", "word_f1", "shingle_f1", "title_exact", "date_acc",
                    "author_exact", "page_type_acc", "kind_acc"})


def score_set(set_dir: Path, gold: Mapping[str, Mapping[str, Any]],
              predictions: list[dict[str, Any]]) -> dict[str, Any]:
    """Metrics on the whole set, on each half split by site, and by gold ``kind``."""
    by_id = load_predictions(predictions)
    out: dict[str, Any] = {"all": score_pages(gold, by_id)}
    for half in ("a", "b"):
        out[half] = score_pages(gold_half(set_dir, gold, half), by_id)
    kinds = sorted({g["kind"] for g in gold.values() if g.get("kind")})
    out["kinds"] = {
        kind: score_pages({k: g for k, g in gold.items() if g.get("kind") == kind}, by_id)
        for kind in kinds
    }
    return out


def run(args: argparse.Namespace, argv: Sequence[str]) -> dict[str, Any]:
    env = environment(argv)
    env["command"] = " ".join(["python", "benchmarks/report.py", *argv])
    env["load"] = round(os.getloadavg()[0], 1)  # speeds mean little on a busy machine
    peers = available_peers(args.extractors)
    skipped = [n for n in args.extractors if n not in {p.name for p in peers}]
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for set_name in args.sets:
        set_dir = args.data / set_name
        if not (set_dir / "gold.jsonl").exists():
            print(f"{set_name}: no {set_dir}/gold.jsonl, skipped", file=sys.stderr)
            continue
        gold = load_gold(set_dir)
        pages = read_set_pages(set_dir)
        wanted = _scored_fields(gold)
        print(f"{set_name} ({len(pages)} pages):", flush=True)
        for peer in peers:
            if not peer.fields & wanted:
                continue
            predictions, seconds, counts = run_peer(peer, pages)
            if args.keep:
                keep = args.keep / set_name / f"{peer.name}.jsonl"
                keep.parent.mkdir(parents=True, exist_ok=True)
                keep.write_text("".join(json.dumps(p, ensure_ascii=False, default=str) + "\n"
                                        for p in predictions), "utf-8")
            scores = score_set(set_dir, gold, predictions)
            rows.append({"set": set_name, "extractor": peer.name, "fields": sorted(peer.fields),
                         "pages": len(pages), "seconds": round(seconds, 3),
                         "failures": sum(counts.values()), **scores})
            print(f"  {peer.name:<18} {len(pages) / max(seconds, 1e-9):8.1f} pages/s  "
                  f"char F1 {scores['all'].get('char_f1', '–')}", flush=True)
    env["minutes"] = round((time.perf_counter() - started) / 60, 1)
    return {"environment": env, "skipped": skipped, "rows": rows}


def _value(row: Mapping[str, Any], key: str, part: str = "all") -> float | None:
    field = next((f for f, keys in FIELD_METRICS.items() if key in keys), None)
    if field is not None and field not in row["fields"]:
        return None  # the extractor does not produce this field: no figure, not a zero
    value = row[part].get(key)
    return value if isinstance(value, int | float) else None


def _cell(row: Mapping[str, Any] | None, key: str) -> str:
    if row is None:
        return ""
    value = _value(row, key)
    if value is None:
        return "–"
    if key not in HALVED:
        return f"{value:.3f}"
    halves = [v for v in (_value(row, key, "a"), _value(row, key, "b")) if v is not None]
    return f"{value:.3f} [{min(halves):.3f}]" if halves else f"{value:.3f}"


def _table(header: Sequence[str], lines: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" if i == 0 else "--:" for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(line) + " |" for line in lines]
    return out


def _matrix(rows: Sequence[Mapping[str, Any]], key: str) -> list[str]:
    """Sets down, extractors across: the metric of each, "–" where it does not apply."""
    sets = list(dict.fromkeys(r["set"] for r in rows if _value(r, key) is not None))
    if not sets:
        return []
    names = [n for n in PEERS if any(r["extractor"] == n and r["set"] in sets
                                     and _value(r, key) is not None for r in rows)]
    index = {(r["set"], r["extractor"]): r for r in rows}
    pages_key = {"char_f1": "body_pages", "word_f1": "body_pages", "shingle_f1": "body_pages",
                 "title_exact": "title_pages", "date_acc": "date_pages",
                 "author_exact": "author_pages", "page_type_acc": "page_type_pages",
                 "kind_acc": "kind_pages"}.get(key, "thread_pages")
    lines = []
    for s in sets:
        counted = next((r["all"].get(pages_key) for r in rows if r["set"] == s
                        and r["all"].get(pages_key)), "")
        lines.append([s, str(counted), *(_cell(index.get((s, n)), key) for n in names)])
    return _table(["set", "pages", *names], lines)


def _headline(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Per set with body gold: sitesift's best method against the best peer, by char F1."""
    lines = []
    for s in dict.fromkeys(r["set"] for r in rows):
        scored = [r for r in rows if r["set"] == s and _value(r, "char_f1") is not None]
        ours = [r for r in scored if r["extractor"].startswith("sitesift")]
        theirs = [r for r in scored if not r["extractor"].startswith("sitesift")]
        if not ours:
            continue
        best = max(ours, key=lambda r: _value(r, "char_f1") or 0.0)
        auto = next((r for r in ours if r["extractor"] == "sitesift-auto"), None)
        peer = max(theirs, key=lambda r: _value(r, "char_f1") or 0.0) if theirs else None
        lines.append([
            s, str(best["all"].get("body_pages", "")),
            _cell(auto, "char_f1") if auto else "–",
            f"{best['extractor']}: {_cell(best, 'char_f1')}",
            f"{peer['extractor']}: {_cell(peer, 'char_f1')}" if peer else "–",
        ])
    return _table(["set", "pages", "sitesift (auto, the default)", "sitesift's best method",
                   "best peer"], lines)


def _by_kind(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    out: list[str] = []
    for s in dict.fromkeys(r["set"] for r in rows if r.get("kinds")):
        scored = [r for r in rows if r["set"] == s and r.get("kinds")
                  and _value(r, "char_f1") is not None]
        kinds = sorted(scored[0]["kinds"], key=lambda k: -scored[0]["kinds"][k]["pages"])
        lines = [[kind, str(scored[0]["kinds"][kind]["pages"]),
                  *(f"{r['kinds'][kind].get('char_f1', 0.0):.3f}" for r in scored)]
                 for kind in kinds]
        out += [f"**{s}**, body character F1 by the gold's page kind:", "",
                *_table(["kind", "pages", *(r["extractor"] for r in scored)], lines), ""]
    return out


def _speed(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    sets = list(dict.fromkeys(r["set"] for r in rows))
    names = [n for n in PEERS if any(r["extractor"] == n for r in rows)]
    index = {(r["set"], r["extractor"]): r for r in rows}

    def cell(r: Mapping[str, Any] | None) -> str:
        if r is None:
            return ""
        rate = r["pages"] / r["seconds"] if r["seconds"] else float("inf")
        return f"{rate:.1f}" + (f" ({r['failures']} failed)" if r["failures"] else "")

    return _table(["set", "pages", *names],
                  [[s, str(next(r["pages"] for r in rows if r["set"] == s)),
                    *(cell(index.get((s, n))) for n in names)] for s in sets])


def render(report: Mapping[str, Any]) -> str:
    env, rows = report["environment"], report["rows"]
    pkgs = ", ".join(f"{k} {v}" for k, v in env["packages"].items() if v)
    sets = list(dict.fromkeys(r["set"] for r in rows))
    load = f" (load average {env['load']} at the start)" if "load" in env else ""
    lines = [
        "# Results",
        "",
        "<!-- written by `python benchmarks/report.py`: run it, do not edit this page -->",
        "",
        (f"Run on {env['date']} with `{env['command']}` ({env['minutes']} minutes), on "
         f"{env['machine']}, {env['cpu']}, {env['cores']} cores{load}, Python {env['python']}, "
         f"sitesift commit {env['commit']}; {pkgs}."),
        "",
        (f"Sets: {', '.join(sets)} (../shared/data; `design/evaluation.md` says what each "
        "holds). Every figure below comes from this one run. Each extractor runs with the "
        "settings its documentation presents as normal use; sitesift's `auto` is the default "
        "method, `sitesift` is the page method alone. In brackets: the worse of the two halves "
        "of the set split by site (`sitesift eval --half a|b`). \"–\": no gold for it, or the "
        "extractor does not produce that field."),
    ]
    if report["skipped"]:
        lines += ["", (f"Not run here: {', '.join(report['skipped'])} (not installed; "
                  "`python benchmarks/report.py --help` says how).")]
    lines += ["", "## Headline: main text", "", *_headline(rows), "",
              f"![body F1 against pages per second]({PLOT.relative_to(OUT.parent).as_posix()})",
              ""]
    for heading, key, what in MATRICES:
        table = _matrix(rows, key)
        if table:
            lines += [f"## {heading}", "", what, "", *table, ""]
    kinds = _by_kind(rows)
    if kinds:
        lines += ["## Main text by page kind", "", *kinds]
    lines += ["## Speed", "",
              ("Pages per second, extraction only, one process (pages read and decoded "
               "beforehand; site-level methods include learning the site). On a shared machine "
               "speeds compare within a row only. End-to-end speed through the command line, "
               "by CPU time against trafilatura: `benchmarks/end_to_end.py`."), "",
              *_speed(rows), ""]
    return "\n".join(lines)


def write(report: Mapping[str, Any], out: Path, with_plot: bool) -> None:
    out.write_text(render(report), "utf-8")
    print(f"wrote {out}")
    if with_plot:
        plot([BenchResult(set_name=r["set"], method=r["extractor"],
                          metrics={"shingle_f1": _value(r, "shingle_f1")}
                          if _value(r, "shingle_f1") is not None else {},
                          pages_per_second=r["pages"] / r["seconds"] if r["seconds"] else 0.0,
                          pages=r["pages"], errors=r["failures"]) for r in report["rows"]],
             PLOT)
        print(f"wrote {PLOT}")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Default sets: " + " ".join(SETS),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", nargs="+", metavar="SET", help="only these sets")
    parser.add_argument("--extractors", nargs="+", choices=list(PEERS), metavar="NAME",
                        help=f"only these (default: all: {' '.join(PEERS)})")
    parser.add_argument("--quick", action="store_true",
                        help=f"a check that it runs: {' '.join(QUICK_SETS)} with "
                             f"{' '.join(QUICK_EXTRACTORS)}")
    parser.add_argument("--data", type=Path, default=DATA, help="folder holding the sets")
    parser.add_argument("--out", type=Path, default=OUT, help="the page (docs/results.md)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="write every prediction file to DIR/SET/EXTRACTOR.jsonl")
    parser.add_argument("--no-plot", action="store_true", help="leave the plot alone")
    parser.add_argument("--render-only", action="store_true",
                        help=f"write the page from {JSON_OUT.relative_to(REPO)}, run nothing")
    parser.add_argument("--make-rs-venv", action="store_true",
                        help=f"create rs-trafilatura's venv at {RS_VENV} and stop")
    parser.add_argument("--rs-python", default="python3.12",
                        help="the Python 3.12 executable for --make-rs-venv (with pyenv: "
                             "~/.pyenv/versions/3.12.1/bin/python)")
    parser.add_argument("--rs-wheel", type=Path, metavar="WHL",
                        help="for --make-rs-venv: install this rs-trafilatura wheel instead of "
                             "downloading it")
    args = parser.parse_args(argv)
    args.sets = args.sets or list(QUICK_SETS if args.quick else SETS)
    args.extractors = args.extractors or list(QUICK_EXTRACTORS if args.quick else PEERS)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    if args.make_rs_venv:
        print(f"made {make_rs_venv(args.rs_python, wheel=args.rs_wheel)}")
        return 0
    if args.render_only:
        write(json.loads(JSON_OUT.read_text("utf-8")), args.out, not args.no_plot)
        return 0
    logging.disable(logging.WARNING)  # peers log a warning for every page they discard
    warnings.simplefilter("ignore")
    report = run(args, argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    JSON_OUT.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", "utf-8")
    write(report, args.out, not args.no_plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
