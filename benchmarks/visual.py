#!/usr/bin/env python3
"""The visual method (paper 002) on evaluation sets, with peers, speed and peak memory.

usage: python benchmarks/visual.py [SET ...] [--concurrency N [N ...]] [--peers NAME ...]
                                   [--pictures N] [--json OUT]

For each SET under ../shared/data (default: zh-news-dev big9-2005 l3s-gn1): decode every page,
run ``--method visual`` (rendering in one Chromium with the pool, then segmentation) and score
it; then, in the same run and on the same decoded pages, sitesift's page method and the peers
(default trafilatura, readability-lxml, gne). Timing: the first page is rendered untimed (browser
launch and the POS dictionary are one-off costs), then the whole set is timed. Peak memory is
the largest sum of PSS (proportional set size, so Chromium's shared pages count once) over
this process and all its descendants (Playwright's driver, the browser and its tabs), sampled
every 0.1 s. ``--concurrency 1 2 4 8`` repeats the visual run at each pool size.
``--pictures N`` draws the decisions on the first N pages of zh-news-dev (MIT-licensed pages)
into docs/img/visual_<id>.png, shrunk to 800 pixels wide and cut at 1600 high.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"
IMG = REPO / "docs" / "img"
sys.path.insert(0, str(REPO / "benchmarks"))

from peers import make_peer  # noqa: E402
from run_peers import run_peer  # noqa: E402

from sitesift import Options  # noqa: E402
from sitesift.evaluate.bench import read_set_pages  # noqa: E402
from sitesift.evaluate.score import load_gold, load_predictions, score_pages  # noqa: E402
from sitesift.pipeline import Extractor  # noqa: E402

SETS = ("zh-news-dev", "big9-2005", "l3s-gn1")
#: Metrics shown per set (those its gold has).
SHOWN = ("char_f1", "char_p", "char_r", "shingle_f1", "title_char_f1", "date_acc")
#: Width of the pictures written into docs/img.
PICTURE_WIDTH = 800
#: Pictures are cut at this height (the top of a page holds most decisions).
PICTURE_HEIGHT = 1600


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, stack = [], [pid]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(children.get(current, []))
    return out


def _pss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total / 1024


class PeakMemory:
    """Samples the PSS of this process tree in a thread; ``peak`` in MB."""

    def __init__(self, interval: float = 0.1) -> None:
        self.interval, self.peak = interval, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _pss_mb(_descendants(os.getpid())))
            self._stop.wait(self.interval)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _visual(name: str, pages: list[Any], gold: dict[str, Any], concurrency: int) -> dict[str, Any]:
    options = Options(method="visual", render_concurrency=concurrency)
    with PeakMemory() as memory, Extractor(options) as extractor:
        extractor.extract(pages[0])  # untimed: browser launch, POS dictionary
        start = time.perf_counter()
        records = list(extractor.extract_many(pages))
        seconds = time.perf_counter() - start
    metrics = score_pages(gold, load_predictions(records))
    sources = [r.extra.get("visual", {}) for r in records]
    # The date as the page shows it, without the metadata fallback the record uses.
    shown = [{**r.to_dict(), "published": r.published if s.get("time") == "visual" else None}
             for r, s in zip(records, sources, strict=True)]
    date_shown = score_pages(gold, load_predictions(shown)).get("date_acc")
    return {
        "set": name, "extractor": f"sitesift-visual (pool {concurrency})", "metrics": metrics,
        "pages": len(pages), "seconds": round(seconds, 2),
        "pages_per_second": round(len(pages) / seconds, 2), "peak_mb": round(memory.peak),
        "errors": sum(bool(r.error) for r in records),
        "title_from_page": sum(s.get("title") == "visual" for s in sources),
        "time_from_page": sum(s.get("time") == "visual" for s in sources),
        "date_acc_page_time_only": date_shown,
    }


def _peer(name: str, peer_name: str, pages: list[Any], gold: dict[str, Any]) -> dict[str, Any]:
    peer = make_peer(peer_name)
    predictions, seconds, counts = run_peer(peer, pages)
    metrics = score_pages(gold, load_predictions(predictions))
    metrics = {k: v for k, v in metrics.items() if k in ("pages", "predicted", "body_pages")
               or any(k in keys for f, keys in _fields().items() if f in peer.fields)}
    return {"set": name, "extractor": peer.name, "metrics": metrics, "pages": len(pages),
            "seconds": round(seconds, 2), "pages_per_second": round(len(pages) / seconds, 2),
            "errors": counts["crashes"] + counts["timeouts"] + counts["error_records"]}


def _fields() -> dict[str, tuple[str, ...]]:
    from peers import FIELD_METRICS

    return FIELD_METRICS


def _pictures(count: int) -> list[str]:
    from PIL import Image

    from sitesift.methods.visual.draw import draw_segmentation
    from sitesift.methods.visual.segmenter import VisualSegmenter
    from sitesift.render.browser import BrowserPool

    pages = read_set_pages(DATA / "zh-news-dev")[:count]
    IMG.mkdir(parents=True, exist_ok=True)
    written = []
    segmenter = VisualSegmenter()
    with BrowserPool(concurrency=2) as pool:
        for page in pages:
            rendering = pool.render(page.html, screenshot=True)
            picture = draw_segmentation(rendering.screenshot or b"", segmenter.segment(rendering))
            image = Image.open(io.BytesIO(picture))
            height = round(image.height * PICTURE_WIDTH / image.width)
            path = IMG / f"visual_{page.id[:8]}.png"
            small = image.resize((PICTURE_WIDTH, height)).crop((0, 0, PICTURE_WIDTH,
                                                                min(height, PICTURE_HEIGHT)))
            small.quantize(colors=64).save(path, optimize=True)  # a few hundred KB at most
            written.append(str(path.relative_to(REPO)))
    return written


def _row(result: dict[str, Any]) -> str:
    m = result["metrics"]
    cells = [f"{m[k]:.3f}" if isinstance(m.get(k), int | float) else "–" for k in SHOWN]
    if result.get("date_acc_page_time_only") is not None:  # visual: the page's own time alone
        cells[SHOWN.index("date_acc")] += f" ({result['date_acc_page_time_only']:.3f})"
    mem = f"{result['peak_mb']}" if "peak_mb" in result else "–"
    return (f"| {result['set']} | {result['extractor']} | {' | '.join(cells)} | "
            f"{result['pages_per_second']:.2f} | {mem} | {result['errors']} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", default=list(SETS))
    parser.add_argument("--concurrency", type=int, nargs="+", default=[4])
    parser.add_argument("--peers", nargs="*",
                        default=["sitesift", "trafilatura", "readability-lxml", "gne"])
    parser.add_argument("--pictures", type=int, default=0)
    parser.add_argument("--json", metavar="OUT", help="write the results as JSON")
    args = parser.parse_args()

    results = []
    print(f"| set | extractor | {' | '.join(SHOWN)} | pages/s | peak MB | errors |")
    print("|---|---|" + "---:|" * (len(SHOWN) + 3))
    for name in args.sets:
        set_dir = DATA / name
        if not (set_dir / "gold.jsonl").is_file():
            print(f"skipped {name}: {set_dir} is absent", file=sys.stderr)
            continue
        gold, pages = load_gold(set_dir), read_set_pages(set_dir)
        for concurrency in args.concurrency:
            results.append(_visual(name, pages, gold, concurrency))
            print(_row(results[-1]), flush=True)
        for peer_name in args.peers:
            results.append(_peer(name, peer_name, pages, gold))
            print(_row(results[-1]), flush=True)
    if args.pictures:
        print("pictures:", *_pictures(args.pictures))
    if args.json:
        meta = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "cores": os.cpu_count(), "command": " ".join(["python", *sys.argv])}
        Path(args.json).write_text(json.dumps({"run": meta, "results": results}, indent=1,
                                              ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
