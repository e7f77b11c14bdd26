"""The ``sitesift`` commands that run here (``extract``, ``learn``, ``profiles``, ``urls``,
``render``), each returning the exit code: ``EXIT_OK`` every page extracted,
``EXIT_PAGE_ERRORS`` some pages failed, ``EXIT_USAGE`` usage or input error. ``crawl``,
``serve``, ``eval`` and ``bench`` run in their own packages."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

from sitesift.crawl.command import run_crawl
from sitesift.engine import cli as engine_cli
from sitesift.errors import InputError
from sitesift.options import Options

if TYPE_CHECKING:
    from sitesift.profiles.store import ProfileStore

__all__ = [
    "EXIT_OK", "EXIT_PAGE_ERRORS", "EXIT_USAGE", "run_extract", "run_learn", "run_profiles",
    "run_render", "run_urls",
]

EXIT_OK, EXIT_PAGE_ERRORS, EXIT_USAGE = 0, 1, 2


@contextlib.contextmanager
def _open_output(path: str | None) -> Iterator[IO[str]]:
    if not path or path == "-":
        yield sys.stdout
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as stream:
        yield stream


def run_extract(args: argparse.Namespace) -> int:
    from sitesift.input import iter_pages
    from sitesift.output import open_writer
    from sitesift.pipeline import Extractor

    options: Options = args.options
    stack = contextlib.ExitStack()
    anchors: dict[str, list[dict[str, str]]] = {}
    if args.crawl:  # crawl first; the WARC file becomes one more input
        import tempfile

        from sitesift.crawl import read_anchors

        warc = args.crawl_warc or str(Path(stack.enter_context(
            tempfile.TemporaryDirectory(prefix="sitesift-crawl-"))) / "crawl.warc.gz")
        run_crawl(args.crawl, warc, options, frontier=args.frontier, quiet=args.quiet)
        args.inputs = [*args.inputs, warc]
        anchors = read_anchors(warc)
    # Every input is validated here, before the first page is read (InputError: exit 2).
    pages = iter_pages(
        args.inputs, site_key=options.site_key, max_page_bytes=options.max_page_bytes
    )

    show = not args.quiet and sys.stderr.isatty()
    store = _open_store(args.profiles) if args.profiles else None
    extractor = Extractor(options, profiles=store)
    total = failed = 0
    with stack, _open_output(args.output) as stream:
        if store is not None:
            stack.enter_context(store)
        writer = open_writer(stream, options.output_format)
        bar = engine_cli.progress_bar(show)
        try:
            for record in extractor.extract_many(pages):
                if record.url in anchors:
                    record.extra["list_anchors"] = anchors[record.url]
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
    from sitesift.profiles.store import ProfileStore

    return ProfileStore(path)


def run_learn(args: argparse.Namespace) -> int:
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


def run_profiles(args: argparse.Namespace) -> int:
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
        from sitesift.methods.template.wrapper import reading_summary

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
                "info": profile.info, "forum": profile.forum,
                "templates": [{"cluster": t.cluster, "pages": t.pages,
                               "template_subtrees": len(t.count), **reading_summary(t)}
                              for t in profile.templates],
            }
            print(json.dumps(summary, ensure_ascii=False, indent=None if args.json else 2))
        if missing:
            print(f"sitesift: {missing} site(s) not in {args.profiles}", file=sys.stderr)
        return EXIT_PAGE_ERRORS if missing else EXIT_OK


def run_urls(args: argparse.Namespace) -> int:
    import json

    from sitesift.input.sitekey import url_problem
    from sitesift.methods.forum.urls import cluster_urls, summarize

    try:
        if args.url_file == "-":
            lines = sys.stdin.read().splitlines()
        else:
            lines = Path(args.url_file).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read {args.url_file}: {exc}") from exc
    urls = [line.split("\t", 1)[0].strip() for line in lines if line.strip()]
    unusable = [problem for url in urls if (problem := url_problem(url))]
    if unusable:
        print(f"sitesift: {len(unusable)} line(s) left out, e.g. {unusable[0]}", file=sys.stderr)
        urls = [url for url in urls if not url_problem(url)]
    if args.topic and args.topic not in urls:
        urls.append(args.topic)
    for item in summarize(cluster_urls(urls), topic=args.topic):
        if args.json:
            print(json.dumps(item, ensure_ascii=False))
            continue
        mark = f"  topic; its rule accepts {item['matched']} URLs" if item.get("topic") else ""
        print(f"cluster {item['cluster']}: {item['size']} URLs{mark}")
        print(f"  rule:  {item['rule']}")
        print(f"  regex: {item['regex']}")
        for example in item["examples"]:  # type: ignore[attr-defined]
            print(f"  e.g.   {example}")
    return EXIT_OK


def run_render(args: argparse.Namespace) -> int:
    from sitesift.input.encoding import decode_html
    from sitesift.methods.visual.draw import render_picture

    try:
        data = Path(args.page).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {args.page}: {exc.strerror}") from exc
    html, _ = decode_html(data)
    seg = render_picture(html, args.output, javascript=args.javascript)
    print(f"sitesift: {args.output}: {len(seg.body)} body block(s), title "
          f"{seg.title_text!r}, time {seg.time!r}", file=sys.stderr)
    return EXIT_OK
