#!/usr/bin/env python3
"""Dev loop for the main-content extractor: score sitesift on evaluation sets, plus speed.

usage: python benchmarks/dev_body.py SET [SET ...] [--peer trafilatura] [--keep DIR]
                                      [--worst N]

For each SET under ../shared/data: decode every page, run ``Extractor().extract``, write
predictions JSONL to a temporary folder (or ``--keep DIR``), print the reference scorer's
figures and pages/s. ``--peer trafilatura`` times trafilatura on the same decoded pages in
the same run (speed is machine-dependent, so compare only within one run).
``--worst N`` lists the N pages with the lowest body F1 (for inspection).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"
SCORER = REPO / ".." / "shared" / "bench" / "score.py"
#: Sets whose gold compares characters (Chinese); the others compare word shingles.
CHAR_METRIC_SETS = {"zh-news-dev", "cleanportal", "zh-sites", "list-detail"}

_META_CHARSET = re.compile(
    rb"""<(?:meta|text)[^>]+(?:charset|encoding)\s*=\s*["']?\s*([\w:.-]+)""", re.IGNORECASE
)


def _fallback_decode(data: bytes) -> tuple[str, str]:
    """BOM, then meta charset, then charset_normalizer; used until sitesift.input.encoding."""
    for bom, enc in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"),
                     (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(enc, "replace"), enc
    match = _META_CHARSET.search(data[:4096])
    if match:
        enc = match.group(1).decode("ascii", "replace").lower()
        if enc in ("gb2312", "gbk"):
            enc = "gb18030"
        try:
            return data.decode(enc), enc
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    import charset_normalizer

    best = charset_normalizer.from_bytes(data).best()
    if best is not None:
        return str(best), best.encoding
    return data.decode("utf-8", "replace"), "utf-8"


def _decoder():  # type: ignore[no-untyped-def]
    if importlib.util.find_spec("sitesift.input.encoding") is not None:
        from sitesift.input.encoding import decode_html

        return lambda data: decode_html(data)
    return _fallback_decode


def _load_scorer():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("score", SCORER)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def run_set(name: str, out_dir: Path, peer: str | None, worst: int) -> None:
    from sitesift.pipeline import Extractor
    from sitesift.record import Page

    folder = DATA / name
    decode = _decoder()
    with open(folder / "pages.jsonl", encoding="utf-8") as fh:
        manifest = [json.loads(line) for line in fh]
    pages = []
    for entry in manifest:
        data = (folder / entry["file"]).read_bytes()
        html, enc = decode(data)
        pages.append(Page(id=entry["id"], url=entry.get("url"), site=entry.get("site"),
                          html=html, encoding=enc))
    extractor = Extractor()
    pred_path = out_dir / f"{name}.jsonl"
    start = time.perf_counter()
    records = [extractor.extract(page) for page in pages]
    elapsed = time.perf_counter() - start
    with open(pred_path, "w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
    errors = [r for r in records if r.error]
    # The content extractor alone (parse + extract_content), and the parser alone, on the
    # same pages: which part of the pipeline's time is ours.
    from sitesift.methods.page.content import extract_content
    from sitesift.parse import parse_html

    start = time.perf_counter()
    for page in pages:
        parse_html(page.html)
    parse_rate = len(pages) / (time.perf_counter() - start)
    start = time.perf_counter()
    for page in pages:
        extract_content(parse_html(page.html), url=page.url)
    content_rate = len(pages) / (time.perf_counter() - start)
    scorer = _load_scorer()
    res = scorer.score(str(folder), str(pred_path))
    metric = "char_f1" if name in CHAR_METRIC_SETS else "shingle_f1"
    keys = ("shingle_p", "shingle_r", "shingle_f1", "char_p", "char_r", "char_f1",
            "page_type_acc", "title_char_f1")
    figures = "  ".join(f"{k}={res[k]}" for k in keys if res.get(k) is not None)
    print(f"{name:14s} [{metric}={res.get(metric)}] {figures}  "
          f"pages/s={len(pages) / elapsed:.1f} (parse+content {content_rate:.1f}, "
          f"parse {parse_rate:.1f}) errors={len(errors)}")
    for record in errors[:5]:
        print(f"    error {record.id}: {record.error}")
    if peer == "trafilatura":
        import trafilatura

        start = time.perf_counter()
        for page in pages:
            trafilatura.extract(page.html, url=page.url)
        peer_rate = len(pages) / (time.perf_counter() - start)
        print(f"{'':14s} trafilatura pages/s={peer_rate:.1f} (same run, same decoded pages)")
    if worst:
        with open(folder / "gold.jsonl", encoding="utf-8") as fh:
            gold = {g["id"]: g for g in map(json.loads, fh)}
        rows = []
        for record in records:
            g = gold.get(record.id, {})
            if not g.get("body"):
                continue
            text = record.text or ""
            if g.get("body_includes_title") and record.title:
                text = record.title + "\n" + text
            if metric == "char_f1":
                p, r = scorer.char_prf(g["body"], text)
            else:
                p, r = scorer.shingle_prf(g["body"], text)
            rows.append((scorer.f1(p, r), p, r, record.id))
        rows.sort()
        for f, p, r, ident in rows[:worst]:
            print(f"    F1={f:.3f} P={p:.3f} R={r:.3f}  {ident}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+")
    parser.add_argument("--peer", choices=["trafilatura"], default=None)
    parser.add_argument("--keep", type=Path, default=None, help="write predictions here")
    parser.add_argument("--worst", type=int, default=0)
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"no evaluation data at {DATA}", file=sys.stderr)
        return 2
    sys.path.insert(0, str(REPO))
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.keep or Path(tmp)
        out_dir.mkdir(parents=True, exist_ok=True)
        for name in args.sets:
            run_set(name, out_dir, args.peer, args.worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
