"""The ``sitesift`` command's parser: one ``_add_<command>`` per subcommand, the run's one
``Options`` built from the arguments (``options_from_args``) and the cross-checks that argparse
cannot make (``parse_args``; exit code 2 on misuse)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from sitesift import __version__
from sitesift.crawl.command import CRAWL_EPILOG, add_crawl_arguments, crawl_options
from sitesift.engine import cli as engine_cli
from sitesift.errors import UsageError
from sitesift.options import (
    DEFAULT_MAX_PAGE_ELEMENTS,
    DEFAULT_PAGE_TIMEOUT,
    METHODS,
    OUTPUT_FORMATS,
    SITE_KEYS,
    Options,
)

__all__ = ["build_parser", "options_from_args", "parse_args"]

_DESCRIPTION = """\
Turn crawled web pages into clean records: title, author, publication time, main text, page type.

  sitesift extract examples/                 every .html below a folder, records to stdout
  sitesift extract pages.jsonl -o out.jsonl  a manifest of {"id","url","site","file"} lines
                                             (optional "fetched": ISO 8601 crawl time,
                                             read for relative dates such as "3 hours ago")
  sitesift extract crawl.warc.gz -o out.jsonl
  cat html.jsonl | sitesift extract -        {"id","url","html"} lines on standard input
  sitesift extract site/ --format markdown   main content as Markdown documents
  sitesift extract site/ --method template   learn each site's templates, keep what differs
  sitesift extract site/ --method siblings --blocks   drop blocks shared by same-layer pages
  sitesift learn crawl/ --profiles p.db      learn site profiles and save them
  sitesift extract new/ --profiles p.db      apply saved profiles (unknown sites learned)
  sitesift profiles list --profiles p.db     what the store holds
  sitesift eval SET_DIR predictions.jsonl    score predictions against a set's gold.jsonl
  sitesift bench SET_DIR --method page       extract a set, score it, report pages/s
  sitesift urls cluster urls.txt --topic URL cluster a site's URLs by structure, print rules
  sitesift render page.html -o page.png      picture of the visual method's blocks
  sitesift crawl https://site/news/ -o crawl.warc.gz   a list page and its articles into WARC
  sitesift extract --crawl https://site/news/  crawl, then extract what was fetched
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
and goes; a page alone in its cluster falls back to page), siblings (a block that recurs in
the page's same-layer pages, those with the longest shared URL directory, goes; a site of one
page falls back to page), forum (a site's post-body rule is learned from its thread pages
and its URLs clustered by structure: page types list / thread / other for every page, `posts`
[{author, published, text}] on thread pages, the whole thread as text), visual (pages rendered
in Chromium, visual blocks pruned layer by layer; needs the [visual] extra and chromium), auto
(the default: a site of one page gets page; a site of several, template and siblings together,
page types from its URL clusters, posts of forum threads).
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
    for add in (_add_extract, _add_crawl, _add_learn, _add_profiles, _add_eval, _add_bench,
                _add_urls, _add_render, _add_serve):
        add(sub)
    return parser


def _add_extract(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``extract``: pages in, one record a page out."""
    ext = sub.add_parser(
        "extract",
        help="extract records from pages (folder, manifest .jsonl, .warc[.gz] or - for stdin)",
        description="Extract one record per input page.",
        epilog=_EXTRACT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ext.add_argument("inputs", nargs="*", metavar="INPUT",
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
    ext.add_argument("--site-titles", action="store_true",
                     help="page method: read the whole input to learn titles per site "
                     "(<title> decoration, link texts of list pages); site methods always do")
    ext.add_argument("--visual-fallback", action="store_true",
                     help="auto: render the pages on which the DOM methods disagree in Chromium "
                     "and let the visual method pick among their answers (needs the [visual] "
                     "extra and chromium)")
    ext.add_argument("--no-wrappers", action="store_true",
                     help="with --profiles: give every page the full template method, not the "
                     "learned wrappers that read pages of a known template at learned places "
                     "(several times faster; records they read say \"wrapper\": true)")
    ext.add_argument("--page-timeout", type=float, default=DEFAULT_PAGE_TIMEOUT, metavar="S",
                     help=f"seconds a page's extraction may take before it is read by "
                     f"its visible text instead (half as long again; after that an error "
                     f"record) (default {DEFAULT_PAGE_TIMEOUT:g}; 0 = no limit)")
    ext.add_argument("--max-page-elements", type=int, default=DEFAULT_MAX_PAGE_ELEMENTS,
                     metavar="N", help="pages with more elements are read up to the limit, "
                     "as plain visible text, with a warning "
                     f"(default {DEFAULT_MAX_PAGE_ELEMENTS:,})")
    ext.add_argument("--profiles", metavar="DB",
                     help="SQLite store of site profiles: known sites are cleaned with their "
                     "saved templates without clustering again, unknown sites are learned and "
                     "saved (implies --method template unless another is given)")
    ext.add_argument("--blocks", action="store_true",
                     help="add to each record its `blocks`: {xpath, text, label (content or "
                     "noise), reason} for every text block of the page")
    ext.add_argument("-q", "--quiet", action="store_true",
                     help="no progress bar and no summary on standard error")
    ext.add_argument("--crawl", action="append", default=[], metavar="URL",
                     help="crawl from URL first (repeatable; see `sitesift crawl -h`) and "
                     "extract the pages fetched; records of items found on list pages get "
                     "`list_anchors`, the anchor texts the list pages gave them")
    ext.add_argument("--crawl-warc", metavar="WARC",
                     help="keep the crawl in this WARC file (default: a temporary file)")
    add_crawl_arguments(ext)
    engine_cli.add_arguments(ext)


def _add_crawl(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``crawl``: seeds in, a WARC file out."""
    crawl = sub.add_parser(
        "crawl",
        help="fetch list pages, their articles and same-layer pages into a WARC file",
        description="Crawl from the given URLs into a WARC file that `extract` reads.",
        epilog=CRAWL_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    crawl.add_argument("urls", nargs="+", metavar="URL", help="seed pages (http or https)")
    crawl.add_argument("-o", "--output", metavar="WARC", required=True,
                       help="WARC file to write (.warc.gz: gzip per record)")
    crawl.add_argument("-q", "--quiet", action="store_true")
    add_crawl_arguments(crawl)


def _add_learn(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``learn``: site profiles saved for ``extract --profiles``."""
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


def _add_profiles(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``profiles``: the profile store listed, shown, pruned."""
    prof = sub.add_parser(
        "profiles",
        help="list, show or delete saved site profiles",
        description="Inspect the profile store written by `learn` and `extract --profiles`.",
    )
    prof.add_argument("action", choices=("list", "show", "delete"))
    prof.add_argument("sites", nargs="*", metavar="SITE", help="sites to show or delete")
    prof.add_argument("--profiles", metavar="DB", required=True, help="the SQLite store")
    prof.add_argument("--json", action="store_true", help="print JSON")


def _add_eval(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``eval``: predictions scored against gold."""
    ev = sub.add_parser(
        "eval",
        help="score predictions against a data set's gold answers",
        description="Score PRED.jsonl against SET_DIR/gold.jsonl with the metrics of the "
        "reference scorer (body shingle, character and word F1, title, date, author, page type, "
        "kind, posts).",
    )
    ev.add_argument("set_dir", metavar="SET_DIR", help="folder with gold.jsonl (and pages.jsonl)")
    ev.add_argument("predictions", metavar="PRED.jsonl", help="records as `extract` writes them")
    ev.add_argument("--json", action="store_true", help="print the metrics as one JSON object")
    ev.add_argument("--half", choices=("a", "b"),
                    help="score one half of the set split by site (as the reference scorer's "
                    "--half): choose a rule on one half, report the other")
    ev.add_argument("--blocks", action="store_true",
                    help="score the records' `blocks` instead: noise-block precision and recall "
                    "over pages of sites with >= 2 pages (gold `blocks`, as in l3s-gn1)")


def _add_bench(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``bench``: extract and score data sets, with pages/s."""
    be = sub.add_parser(
        "bench",
        help="extract data sets and score them in one go, with pages/s",
        description="Run extraction over each SET_DIR/pages.jsonl, score it against its "
        "gold.jsonl and print a table of metrics and pages/s.",
    )
    be.add_argument("set_dirs", nargs="+", metavar="SET_DIR")
    be.add_argument("--method", choices=METHODS, default="auto")
    be.add_argument("--visual-fallback", action="store_true",
                    help="auto: a browser judges the pages whose DOM methods disagree")
    be.add_argument("--json", action="store_true", help="print results as JSON")


def _add_urls(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``urls``: one site's URLs clustered by structure (paper 001)."""
    urls = sub.add_parser(
        "urls",
        help="cluster one site's URLs by structure (paper 001, USC) and print the rules",
        description="Cluster the URLs of one site (one a line) by their structure and print "
        "each cluster's size, rule (also as a regex) and examples; with --topic, the cluster "
        "of that URL first, with how many URLs its rule accepts.",
    )
    urls.add_argument("action", choices=("cluster",))
    urls.add_argument("url_file", metavar="URLS.txt",
                      help="one URL a line (- for standard input); extra tab-separated "
                      "columns are ignored")
    urls.add_argument("--topic", metavar="URL", help="a known URL of the wanted kind")
    urls.add_argument("--json", action="store_true", help="print the clusters as JSON lines")


def _add_render(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``render``: the visual method's blocks drawn on a screenshot."""
    ren = sub.add_parser(
        "render",
        help="draw the visual method's blocks over a screenshot of a page (needs Chromium)",
        description="Render PAGE.html in Chromium (offline, JavaScript off), segment it with "
        "the visual method (paper 002) and write a PNG: body blocks green, title blue, time "
        "magenta, pruned blocks in the colour of the rule R1-R5 that deleted them.",
    )
    ren.add_argument("page", metavar="PAGE.html", help="a saved HTML page (any encoding)")
    ren.add_argument("-o", "--output", metavar="OUT.png", required=True, help="PNG to write")
    ren.add_argument("--javascript", action="store_true", help="run the page's scripts")


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
        site_titles=getattr(args, "site_titles", False),
        visual_fallback=getattr(args, "visual_fallback", False),
        wrappers=not getattr(args, "no_wrappers", False),
        page_timeout=timeout if timeout and timeout > 0 else None,
        max_page_elements=getattr(args, "max_page_elements", DEFAULT_MAX_PAGE_ELEMENTS),
        blocks=getattr(args, "blocks", False),
        **crawl_options(args),
    )


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse and cross-check ``argv``; exits with code 2 and a message on misuse."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in ("extract", "bench", "learn", "crawl", "serve"):
        try:
            args.options = options_from_args(args)
        except UsageError as exc:
            parser.error(str(exc))
    if args.command == "extract":
        if not args.inputs and not args.crawl:
            parser.error("give an INPUT or --crawl URL")
        if args.frontier and not args.crawl_warc:
            parser.error("--frontier needs --crawl-warc (a kept frontier needs a kept WARC file)")
        if args.inputs.count("-") > 1:
            parser.error("standard input (-) can be given once only")
        if args.output and args.output != "-" and Path(args.output).is_dir():
            parser.error(f"output {args.output!r} is a folder; give a file name")
        engine_cli.check_arguments(parser, args)
    return args
