"""The ``sitesift`` command. ``parse_args`` builds and validates; ``main`` runs and returns the
exit code: 0 every page extracted, 1 some pages failed, 2 usage or input error."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from sitesift import __version__
from sitesift.errors import InputError, UsageError
from sitesift.options import DEFAULT_PAGE_TIMEOUT, METHODS, OUTPUT_FORMATS, SITE_KEYS, Options

if TYPE_CHECKING:
    from sitesift.compare.store import ProfileStore

__all__ = ["build_parser", "main", "options_from_args", "parse_args"]

EXIT_OK, EXIT_PAGE_ERRORS, EXIT_USAGE = 0, 1, 2

_DESCRIPTION = """\
Turn crawled web pages into clean records: title, author, publication time, main text, page type.

  sitesift extract examples/                 every .html below a folder, records to stdout
  sitesift extract pages.jsonl -o out.jsonl  a manifest of {"id","url","site","file"} lines
  sitesift extract crawl.warc.gz -o out.jsonl
  cat html.jsonl | sitesift extract -        {"id","url","html"} lines on standard input
  sitesift extract site/ --format markdown   main content as Markdown documents
  sitesift extract site/ --method template   learn each site's templates, keep what differs
  sitesift learn crawl/ --profiles p.db      learn site profiles and save them
  sitesift extract new/ --profiles p.db      apply saved profiles (unknown sites learned)
  sitesift profiles list --profiles p.db     what the store holds
  sitesift eval SET_DIR predictions.jsonl    score predictions against a set's gold.jsonl
  sitesift bench SET_DIR --method page       extract a set, score it, report pages/s
  sitesift serve --profiles p.db             HTTP API + inspector on 127.0.0.1:8080
"""

_EXTRACT_EPILOG = """\
Each record: id, url, site, title, author, published (ISO 8601), text (paragraphs separated by
a blank line), page_type, method, error. A page that fails (undecodable, empty, too slow) still
gets a record, with `error` set, and the run goes on. Records come out in input order.

Site key (pages of one site are learned together by the site-level methods): the input's
`site` when given, else the registrable domain of the URL (news.bbc.co.uk -> bbc.co.uk), else
the folder the page came from. `--site-key none` ignores all three.

Methods: page (one page at a time, density of text and links), template (pages of a site
are clustered by DOM structure; what a page shares with the pages of its cluster is template
and goes; a page alone in its cluster falls back to page), auto (for now: page).
Each record of a site-level method also has `cluster`, an id unique within the run.

Exit codes: 0 all pages extracted, 1 some pages have an error record, 2 usage or input error.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sitesift",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"sitesift {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    ext = sub.add_parser(
        "extract",
        help="extract records from pages (folder, manifest .jsonl, .warc[.gz] or - for stdin)",
        description="Extract one record per input page.",
        epilog=_EXTRACT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ext.add_argument("inputs", nargs="+", metavar="INPUT",
                     help="a folder of .html/.htm, a pages.jsonl manifest, a WARC file, or -")
    ext.add_argument("-o", "--output", metavar="OUT",
                     help="file to write (default: standard output)")
    ext.add_argument("--format", dest="output_format", choices=OUTPUT_FORMATS, default="jsonl",
                     help="jsonl: one JSON record a line (default); markdown: one document a "
                     "page with the main content as Markdown")
    ext.add_argument("--method", choices=METHODS, default="auto",
                     help="extraction method; auto (default) picks per site and page")
    ext.add_argument("--site-key", choices=SITE_KEYS, default="auto",
                     help="how pages are grouped into sites (default: auto)")
    ext.add_argument("--page-timeout", type=float, default=DEFAULT_PAGE_TIMEOUT, metavar="S",
                     help=f"seconds a page may take before it becomes an error record "
                     f"(default {DEFAULT_PAGE_TIMEOUT:g}; 0 = no limit)")
    ext.add_argument("--profiles", metavar="DB",
                     help="SQLite store of site profiles: known sites are cleaned with their "
                     "saved templates without clustering again, unknown sites are learned and "
                     "saved (implies --method template unless another is given)")
    ext.add_argument("-q", "--quiet", action="store_true",
                     help="no progress bar and no summary on standard error")

    learn = sub.add_parser(
        "learn",
        help="learn site profiles (templates) from pages and save them",
        description="Group pages by site, cluster each site's pages by DOM structure and save "
        "each cluster's template into the profile store, for `extract --profiles` to reuse.",
    )
    learn.add_argument("inputs", nargs="+", metavar="INPUT", help="as for extract")
    learn.add_argument("--profiles", metavar="DB", required=True,
                       help="SQLite file to save profiles in (created when missing)")
    learn.add_argument("--site-key", choices=SITE_KEYS, default="auto")
    learn.add_argument("-q", "--quiet", action="store_true")

    prof = sub.add_parser(
        "profiles",
        help="list, show or delete saved site profiles",
        description="Inspect the profile store written by `learn` and `extract --profiles`.",
    )
    prof.add_argument("action", choices=("list", "show", "delete"))
    prof.add_argument("sites", nargs="*", metavar="SITE", help="sites to show or delete")
    prof.add_argument("--profiles", metavar="DB", required=True, help="the SQLite store")
    prof.add_argument("--json", action="store_true", help="print JSON")

    ev = sub.add_parser(
        "eval",
        help="score predictions against a data set's gold answers",
        description="Score PRED.jsonl against SET_DIR/gold.jsonl with the metrics of the "
        "reference scorer (body shingle and character F1, title, date, author, page type, posts).",
    )
    ev.add_argument("set_dir", metavar="SET_DIR", help="folder with gold.jsonl (and pages.jsonl)")
    ev.add_argument("predictions", metavar="PRED.jsonl", help="records as `extract` writes them")
    ev.add_argument("--json", action="store_true", help="print the metrics as one JSON object")

    be = sub.add_parser(
        "bench",
        help="extract data sets and score them in one go, with pages/s",
        description="Run extraction over each SET_DIR/pages.jsonl, score it against its "
        "gold.jsonl and print a table of metrics and pages/s.",
    )
    be.add_argument("set_dirs", nargs="+", metavar="SET_DIR")
    be.add_argument("--method", choices=METHODS, default="auto")
    be.add_argument("--json", action="store_true", help="print results as JSON")
    _add_serve(sub)
    return parser


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``sitesift serve`` (needs the ``service`` extra); the service is sitesift.service."""
    srv = sub.add_parser(
        "serve",
        help="run the HTTP API and the web inspector (needs sitesift[service])",
        description="POST /extract, POST /learn, GET /sites, GET /sites/{site}, GET /health; "
        "the inspector at /inspector, the OpenAPI spec at /openapi.json. Sites are learned "
        "as their pages arrive.",
    )
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on")
    srv.add_argument("--port", type=int, default=8080)
    srv.add_argument("--profiles", metavar="DB",
                     help="SQLite profile store (default: a temporary one, gone at exit)")
    srv.add_argument("--workers", type=int, default=None, metavar="N",
                     help="worker processes for extraction (default: up to 2; 0 = threads)")
    srv.add_argument("--page-timeout", type=float, default=DEFAULT_PAGE_TIMEOUT, metavar="S")
    srv.add_argument("--request-timeout", type=float, default=None, metavar="S",
                     help="seconds a request may take (default 60)")
    srv.add_argument("--max-request-bytes", type=int, default=None, metavar="N",
                     help="largest request body (default 16 MiB)")


def options_from_args(args: argparse.Namespace) -> Options:
    """The run's one ``Options`` object, built from parsed arguments (validation included)."""
    timeout = getattr(args, "page_timeout", DEFAULT_PAGE_TIMEOUT)
    method = getattr(args, "method", "template")
    if getattr(args, "profiles", None) and method == "auto":
        method = "template"  # saved profiles are templates: applying them is the point
    return Options(
        method=method,
        output_format=getattr(args, "output_format", "jsonl"),
        site_key=getattr(args, "site_key", "auto"),
        page_timeout=timeout if timeout and timeout > 0 else None,
    )


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse and cross-check ``argv``; exits with code 2 and a message on misuse."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in ("extract", "bench", "learn", "serve"):
        try:
            args.options = options_from_args(args)
        except UsageError as exc:
            parser.error(str(exc))
    if args.command == "extract":
        if args.inputs.count("-") > 1:
            parser.error("standard input (-) can be given once only")
        if args.output and args.output != "-" and Path(args.output).is_dir():
            parser.error(f"output {args.output!r} is a folder; give a file name")
    return args


@contextlib.contextmanager
def _open_output(path: str | None) -> Iterator[IO[str]]:
    if not path or path == "-":
        yield sys.stdout
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as stream:
        yield stream


def _run_extract(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from sitesift.input import iter_pages
    from sitesift.output import open_writer
    from sitesift.pipeline import Extractor

    options: Options = args.options
    # Every input is validated here, before the first page is read (InputError: exit 2).
    pages = iter_pages(
        args.inputs, site_key=options.site_key, max_page_bytes=options.max_page_bytes
    )

    show = not args.quiet and sys.stderr.isatty()
    store = _open_store(args.profiles) if args.profiles else None
    extractor = Extractor(options, profiles=store)
    total = failed = 0
    with contextlib.ExitStack() as stack, _open_output(args.output) as stream:
        if store is not None:
            stack.enter_context(store)
        writer = open_writer(stream, options.output_format)
        bar = tqdm(total=None, unit="page", disable=not show, file=sys.stderr, dynamic_ncols=True)
        try:
            for record in extractor.extract_many(pages):
                writer.write(record)
                total += 1
                failed += record.error is not None
                bar.update(1)
        finally:
            bar.close()
    if not args.quiet:
        print(f"sitesift: {total} page(s), {failed} with an error", file=sys.stderr)
    return EXIT_PAGE_ERRORS if failed else EXIT_OK


def _open_store(path: str) -> ProfileStore:
    from sitesift.compare.store import ProfileStore

    return ProfileStore(path)


def _run_learn(args: argparse.Namespace) -> int:
    from sitesift.input import iter_pages
    from sitesift.pipeline import Extractor

    options: Options = args.options
    pages = iter_pages(
        args.inputs, site_key=options.site_key, max_page_bytes=options.max_page_bytes
    )
    with _open_store(args.profiles) as store:
        profiles = Extractor(options, profiles=store).learn(pages)
    if not args.quiet:
        for profile in profiles:
            sizes = profile.info.get("cluster_sizes", [])
            print(f"{profile.site}: {profile.pages} page(s), {len(profile.templates)} "
                  f"template(s), clusters {sizes}", file=sys.stderr)
    return EXIT_OK


def _run_profiles(args: argparse.Namespace) -> int:
    import json

    with _open_store(args.profiles) as store:
        if args.action == "list":
            rows = store.sites()
            if args.json:
                print(json.dumps(rows, ensure_ascii=False))
            for row in [] if args.json else rows:
                print(f"{row['site']}\t{row['pages']} pages\t{row['templates']} templates"
                      f"\t{row['updated']}")
            return EXIT_OK
        if not args.sites:
            print("sitesift: error: name the site(s) to show or delete", file=sys.stderr)
            return EXIT_USAGE
        missing = 0
        for site in args.sites:
            if args.action == "delete":
                missing += not store.delete(site)
                continue
            profile = store.get(site)
            if profile is None:
                missing += 1
                continue
            summary = {
                "site": profile.site, "pages": profile.pages, "version": profile.version,
                "info": profile.info,
                "templates": [{"cluster": t.cluster, "pages": t.pages,
                               "template_subtrees": len(t.count)} for t in profile.templates],
            }
            print(json.dumps(summary, ensure_ascii=False, indent=None if args.json else 2))
        if missing:
            print(f"sitesift: {missing} site(s) not in {args.profiles}", file=sys.stderr)
        return EXIT_PAGE_ERRORS if missing else EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.command == "extract":
            return _run_extract(args)
        if args.command == "learn":
            return _run_learn(args)
        if args.command == "profiles":
            return _run_profiles(args)
        if args.command == "serve":
            from sitesift.service.cli import run_serve

            return run_serve(args)
        from sitesift.evaluate import run_bench, run_eval

        if args.command == "eval":
            return run_eval(args.set_dir, args.predictions, as_json=args.json)
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


if __name__ == "__main__":
    sys.exit(main())
