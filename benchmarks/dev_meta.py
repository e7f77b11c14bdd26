#!/usr/bin/env python3
"""Dev loop for the metadata extractors: predict title/author/published on data sets and score.

usage: python benchmarks/dev_meta.py [--out DIR] [--show N] SET [SET ...]

SET is a folder name under ../shared/data (next to the repo) or a path. For each set it decodes
every page, runs ``extract_metadata(parse_html(html), url=url)``, writes predictions
``{"id","title","author","published"}`` to DIR/<set>.jsonl, runs the reference scorer and prints
its figures with pages/s (decode excluded, parse included). ``--show N`` prints up to N misses
per field to inspect.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from sitesift.fields.metadata import extract_metadata
from sitesift.parse import parse_html

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"
SCORER = REPO / ".." / "shared" / "bench" / "score.py"

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)""", re.IGNORECASE)


def _fallback_decode(data: bytes) -> str:
    """BOM, meta charset, then charset_normalizer: used until sitesift.input.encoding lands."""
    boms = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
    for bom, enc in boms:
        if data.startswith(bom):
            return data[len(bom):].decode(enc, "replace")
    m = _META_CHARSET.search(data[:4096])
    if m:
        enc = m.group(1).decode("ascii", "replace").lower()
        if enc in ("gb2312", "gbk"):
            enc = "gb18030"
        try:
            return data.decode(enc)
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    import charset_normalizer

    best = charset_normalizer.from_bytes(data).best()
    return str(best) if best is not None else data.decode("utf-8", "replace")


def decode(data: bytes) -> str:
    """Project decoder when present, else the local fallback."""
    try:
        from sitesift.input.encoding import decode_html  # type: ignore[import-not-found]
    except ImportError:
        return _fallback_decode(data)
    return decode_html(data)[0]


def _day(s: str | None) -> str | None:
    m = re.search(r"(\d{4})\D{1,3}(\d{1,2})\D{1,3}(\d{1,2})", s or "")
    return f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}" if m else None


def _gold_title(g: dict) -> str | None:
    if g.get("title"):
        return g["title"]
    if g.get("body_includes_title") and g.get("body"):
        return g["body"].strip().split("\n", 1)[0].strip()
    return None


def _read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run_set(folder: Path, out_dir: Path, show: int) -> None:
    pages = _read_jsonl(folder / "pages.jsonl")
    gold = {g["id"]: g for g in _read_jsonl(folder / "gold.jsonl")}
    htmls = [(p, decode((folder / p["file"]).read_bytes())) for p in pages]
    preds = []
    start = time.perf_counter()
    for p, html in htmls:
        meta = extract_metadata(parse_html(html), url=p.get("url"))
        preds.append({"id": p["id"], "title": meta.title, "author": meta.author,
                      "published": meta.published})
    elapsed = time.perf_counter() - start
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{folder.name}.jsonl"
    with open(out, "w", encoding="utf-8") as fh:
        for r in preds:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"== {folder.name}: {len(preds)} pages, {len(preds) / elapsed:.1f} pages/s (parse+meta)")
    res = subprocess.run([sys.executable, str(SCORER), str(folder), str(out), "--json"],
                         capture_output=True, text=True, check=True)
    scores = json.loads(res.stdout)
    keep = ("title_exact", "title_char_f1", "title_pages", "date_acc", "date_pages",
            "author_exact", "author_pages")
    print("   " + "  ".join(f"{k}={scores[k]}" for k in keep if k in scores))
    if show:
        _show_misses(preds, gold, show)


def _show_misses(preds: list[dict], gold: dict, show: int) -> None:
    sys.path.insert(0, str(SCORER.parent))
    from score import fold  # type: ignore[import-not-found]

    misses: dict[str, list[str]] = {"title": [], "date": [], "author": []}
    for r in preds:
        g = gold.get(r["id"], {})
        gt = _gold_title(g)
        if gt and fold(gt) != fold(r["title"]):
            misses["title"].append(f"{r['id']}: {r['title']!r}  gold={gt!r}")
        if _day(g.get("date")) and _day(g["date"]) != _day(r["published"]):
            misses["date"].append(f"{r['id']}: {r['published']!r}  gold={g['date']!r}")
        ga = g.get("author")
        if ga and ga not in ("UNKNOWN", "unknown") and fold(ga) != fold(r["author"]):
            misses["author"].append(f"{r['id']}: {r['author']!r}  gold={ga!r}")
    for field, lines in misses.items():
        for line in lines[:show]:
            print(f"   miss {field} {line}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--out", type=Path, default=Path("/tmp/sitesift-dev-meta"))
    ap.add_argument("--show", type=int, default=0)
    args = ap.parse_args(argv)
    for name in args.sets:
        folder = Path(name) if Path(name).is_dir() else DATA / name
        if not (folder / "pages.jsonl").exists():
            sys.exit(f"no data set at {folder} (expected ../shared/data/<set>/pages.jsonl)")
        run_set(folder.resolve(), args.out, args.show)


if __name__ == "__main__":
    main()
