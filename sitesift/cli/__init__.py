"""The ``sitesift`` command. ``parse_args`` (``parser``) builds and validates; ``main`` runs and
returns the exit code: 0 every page extracted, 1 some pages failed, 2 usage or input error.
The commands run in ``commands`` and in their own packages (crawl, service, evaluate, engine).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence

from sitesift.cli.commands import (
    EXIT_OK,
    EXIT_PAGE_ERRORS,
    EXIT_USAGE,
    run_extract,
    run_learn,
    run_profiles,
    run_render,
    run_urls,
)
from sitesift.cli.parser import build_parser, options_from_args, parse_args
from sitesift.crawl.command import run_crawl
from sitesift.engine import cli as engine_cli
from sitesift.errors import InputError, UsageError

__all__ = ["BATCH_GC_THRESHOLD", "build_parser", "main", "options_from_args", "parse_args"]

#: The young-generation threshold of Python's cyclic garbage collector in an ``extract`` or
#: ``learn`` process (Python's default is 700 allocations). A batch keeps every page's tree
#: and the maps keyed by its elements alive until its records go out, and makes next to no
#: cyclic garbage, so at 700 the collector walks them again and again for nothing, its full
#: passes above all (each time the heap grows by a quarter): ``auto`` on the 502 pages of
#: ``benchmarks/end_to_end.py``, in process, 1.45 s of 21.6 s of CPU in about 2,600 passes
#: that freed about 900 objects, none in its 15 full passes; at 10,000: 0.37 s; at 50,000:
#: 0.20 s, no full pass; 100,000: 0.16 s. Cycles are still collected, only in fewer passes;
#: the records cannot change. Set while a one-process command runs; a library caller, or a
#: caller of ``main``, keeps its own. Not with ``--engine``, where memory is the limit: the
#: young generation's objects wait longer to be looked at, and the 10,000-page engine run
#: (``benchmarks/throughput.py --warc-only --warc-pages 10000 --warc-method auto``, two
#: workers forked from the command) peaked at 970.4 MB at Python's 700, 993.8 MB at 10,000
#: and 996.0 MB at 50,000, against a budget of 1 GB. 10,000 keeps most of the gain (0.37 s
#: against 1.45 s) for a fifth of the young generation's size.
BATCH_GC_THRESHOLD = 10_000


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    collector = gc.get_threshold()
    if args.command == "learn" or (args.command == "extract" and not args.engine):
        gc.set_threshold(BATCH_GC_THRESHOLD, *collector[1:])
    try:
        if args.command == "extract" and args.engine:
            return engine_cli.run_from_args(args)
        if args.command == "extract":
            return run_extract(args)
        if args.command == "learn":
            return run_learn(args)
        if args.command == "profiles":
            return run_profiles(args)
        if args.command == "urls":
            return run_urls(args)
        if args.command == "render":
            return run_render(args)
        if args.command == "crawl":
            ok = run_crawl(args.urls, args.output, args.options, frontier=args.frontier,
                           quiet=args.quiet)
            return EXIT_OK if ok else EXIT_PAGE_ERRORS
        if args.command == "serve":
            from sitesift.service.cli import run_serve

            return run_serve(args)
        from sitesift.evaluate import run_bench, run_eval

        if args.command == "eval" and args.blocks:
            from sitesift.evaluate.blocks import run_blocks_eval

            return run_blocks_eval(args.set_dir, args.predictions, as_json=args.json)
        if args.command == "eval":
            return run_eval(args.set_dir, args.predictions, as_json=args.json, half=args.half)
        return run_bench(args.set_dirs, args.options, as_json=args.json)
    except (InputError, UsageError) as exc:
        print(f"sitesift: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("sitesift: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`sitesift extract ... | head`): stop quietly, and keep Python
        # from complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_PAGE_ERRORS
    finally:
        gc.set_threshold(*collector)  # (a caller of main in its own process keeps its own)
