"""Speed as a user sees it: the command line end to end against trafilatura and the parse limit.

    python benchmarks/end_to_end.py [--sets big9-2005 big9-2009 cleanportal] [--repeat 1]
                                    [--rounds 2] [--modes page auto profiles]
                                    [--baseline DIR]

Every run is a fresh process over the same files (written nowhere but /tmp): interpreter
start-up, imports, reading and decoding the files, extraction, writing JSONL. Rounds
interleave the runs (the box is shared: only ratios within one run mean anything); each
figure is the best of ``--rounds``. Runs:

- ``parse_limit``: read each file's bytes and parse them with ``lxml.html.document_fromstring``
  (no decoding, no output): the speed no lxml-based extractor can pass;
- ``trafilatura``: ``trafilatura.bare_extraction(bytes, with_metadata=True)`` over the same
  bytes in one process, its title, author, date and text written as a JSON line a page (its
  fastest path to the same record: ``extract(..., output_format="json")`` adds a conversion);
- ``startup``: ``python -m sitesift extract`` on a manifest of one page (its time is the
  floor every sitesift run pays);
- ``page`` / ``auto``: ``python -m sitesift extract MANIFEST --method page|auto``;
- ``profiles``: ``extract MANIFEST --profiles p.db`` with profiles learned beforehand by
  ``sitesift learn`` on the same pages (the learning is timed once, apart).

``--baseline DIR`` also runs each mode with the code of another checkout (e.g. ``git archive
COMMIT | tar -x -C DIR``), in the same rounds: ``<mode>@baseline``.

Bytecode: a user's installed package starts from compiled modules (``pip install`` byte-compiles
a wheel; an editable install writes ``__pycache__`` on first import), but a box that sets
``PYTHONDONTWRITEBYTECODE=1`` (as this one does) compiles every sitesift module at every start.
So each checkout's package is byte-compiled once before the rounds (``compileall``, what the
wheel install does), and ``startup_source`` (and with ``--source`` every mode, as
``<mode>_source``) runs a copy of the package without bytecode under
``PYTHONDONTWRITEBYTECODE=1``: the cost of compiling at each start, reported apart.

``--repeat k`` lists every page k times in the manifest (ids ``<id>#<n>``, same site), as a
site's many pages of one template would come. Each figure: pages/s on the wall clock, the
ratio to trafilatura and the share of the parse limit; the same again from CPU seconds
(``*_cpu``: the child's user + system time, steadier than the wall clock on a shared box),
with the load average at the end of the run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
ROOT = Path(__file__).resolve().parents[1]

#: The peers' programs: argv[1] a manifest, argv[2] the output file.
_PARSE = """
import json, sys
import lxml.html
for line in open(sys.argv[1], encoding="utf-8"):
    with open(json.loads(line)["file"], "rb") as f:
        lxml.html.document_fromstring(f.read())
"""
_TRAFILATURA = """
import json, sys
import trafilatura
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for line in open(sys.argv[1], encoding="utf-8"):
        page = json.loads(line)
        with open(page["file"], "rb") as f:
            doc = trafilatura.bare_extraction(f.read(), url=page.get("url"),
                                              with_metadata=True)
        record = {k: getattr(doc, k, None) for k in ("title", "author", "date", "text")}
        out.write(json.dumps({"id": page["id"], **record}) + "\\n")
"""


def write_manifest(sets: list[str], repeat: int, path: Path) -> int:
    """A manifest of every page of ``sets`` (absolute file paths), each ``repeat`` times."""
    lines = []
    for name in sets:
        folder = DATA / name
        manifest = folder / "pages.jsonl"
        if not manifest.is_file():
            raise SystemExit(f"{manifest} is absent: the benchmark needs ../shared/data")
        for line in manifest.read_text(encoding="utf-8").splitlines():
            page = json.loads(line)
            page["file"] = str(folder / page["file"])
            for n in range(repeat):
                lines.append({**page, "id": f"{name}/{page['id']}" + (f"#{n}" if n else "")})
    path.write_text("".join(json.dumps(p) + "\n" for p in lines), encoding="utf-8")
    return len(lines)


def timed(argv: list[str], cwd: Path = ROOT,
          env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (the child's user + system time: what the run itself cost, which
    a shared box's other load barely moves) of ``argv`` run from ``cwd`` (``python -m
    sitesift`` imports the code there); a failing run stops the benchmark."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    after = os.times()
    if done.returncode not in (0, 1):  # (1: some page is an error record, the run went on)
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    return seconds, cpu


def compiled_and_source(code: Path, tmp: Path, tag: str) -> Path:
    """Byte-compile ``code``'s package in place (as a wheel install does) and return a folder
    holding a copy of it without bytecode (runs from there compile every module)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(code / "sitesift")],
                   check=True, capture_output=True)
    source = tmp / f"source{tag.replace('@', '_')}"
    shutil.copytree(code / "sitesift", source / "sitesift",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return source


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=["big9-2005", "big9-2009", "cleanportal"])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--modes", nargs="+", default=["page", "auto", "profiles"],
                        choices=["page", "auto", "profiles"])
    parser.add_argument("--baseline", type=Path, help="a checkout whose code also runs each mode")
    parser.add_argument("--source", action="store_true",
                        help="also run every mode without bytecode (<mode>_source)")
    args = parser.parse_args(argv)
    py = sys.executable
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        manifest = Path(tmp) / "pages.jsonl"
        pages = write_manifest(args.sets, args.repeat, manifest)
        one = Path(tmp) / "one.jsonl"
        one.write_text(manifest.read_text(encoding="utf-8").splitlines()[0] + "\n")
        extract = [py, "-m", "sitesift", "extract", "-q"]
        results: dict[str, object] = {"sets": args.sets, "repeat": args.repeat,
                                      "pages": pages, "rounds": args.rounds}
        runs: dict[str, tuple[list[str], Path]] = {
            "parse_limit": ([py, "-c", _PARSE, str(manifest)], ROOT),
            "trafilatura": ([py, "-c", _TRAFILATURA, str(manifest), f"{tmp}/t.jsonl"], ROOT),
        }
        codes = {"": ROOT, **({"@baseline": args.baseline.resolve()} if args.baseline else {})}
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        for tag, code in codes.items():
            source = compiled_and_source(code, Path(tmp), tag)
            db = f"{tmp}/p{tag}.db"
            if "profiles" in args.modes:
                wall, cpu = timed(
                    [py, "-m", "sitesift", "learn", str(manifest), "--profiles", db, "-q"], code)
                results[f"learn_seconds{tag}"] = round(wall, 2)
                results[f"learn_cpu_seconds{tag}"] = round(cpu, 2)
            runs[f"startup{tag}"] = ([*extract, str(one), "--method", "page",
                                      "-o", f"{tmp}/one{tag}.out"], code)
            runs[f"startup_source{tag}"] = ([*extract, str(one), "--method", "page",
                                             "-o", f"{tmp}/one{tag}.out"], source)
            for mode in args.modes:
                how = ["--profiles", db] if mode == "profiles" else ["--method", mode]
                runs[f"{mode}{tag}"] = ([*extract, str(manifest), *how,
                                         "-o", f"{tmp}/{mode}{tag}.jsonl"], code)
                if args.source:
                    runs[f"{mode}_source{tag}"] = ([*extract, str(manifest), *how, "-o",
                                                    f"{tmp}/{mode}{tag}.jsonl"], source)
        best = dict.fromkeys(runs, float("inf"))
        best_cpu = dict.fromkeys(runs, float("inf"))
        for _ in range(args.rounds):
            for name, (run, code) in runs.items():
                wall, cpu = timed(run, code, env)
                best[name], best_cpu[name] = min(best[name], wall), min(best_cpu[name], cpu)
    results["load_average"] = [round(x, 2) for x in os.getloadavg()]  # (at the end)
    results["seconds"] = {k: round(v, 2) for k, v in best.items()}
    results["cpu_seconds"] = {k: round(v, 2) for k, v in best_cpu.items()}
    for key, times in (("", best), ("_cpu", best_cpu)):
        rate = {k: pages / v for k, v in times.items() if not k.startswith("startup")}
        results[f"pages_per_s{key}"] = {k: round(v, 1) for k, v in rate.items()}
        results[f"x_trafilatura{key}"] = {k: round(v / rate["trafilatura"], 2)
                                          for k, v in rate.items()}
        results[f"share_of_parse_limit{key}"] = {k: round(v / rate["parse_limit"], 3)
                                                 for k, v in rate.items()}
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
