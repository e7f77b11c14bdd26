"""Crawler throughput and memory against a local server (no network, delay off).

    PYTHONPATH=$PWD python benchmarks/crawl.py [--pages 2000] [--concurrency 8]
        [--frontier-urls 10000] [--repeat 3] [--json]

1. Throughput: a list page with ``--pages`` article links (8 kB articles) served by
   ``http.server`` in another process; the crawler fetches the list and every article (robots,
   frontier commits, link parsing and WARC writing included), and, in the same run, a bare
   httpx client fetches the same URLs at the same concurrency with nothing else, before and
   after each crawl: the ratio of the two is the crawler's own cost, whatever the machine and
   the server manage. Medians over ``--repeat`` rounds (the machine is shared and noisy).
   Each round crawls twice per depth (``--depths``, default 1 and 2): with ``DefaultPolicy``
   (page cues only) and with ``UrlStructurePolicy`` (the crawler's default: learned URL rules);
   at depth 2 the articles are parsed too, and the learned policy skips the page-type model
   on article URLs its rule knows.
2. Memory: a list page with ``--frontier-urls`` item links is crawled with max_pages 200, so
   the frontier holds that many URLs; peak RSS of the crawling process (a fresh one) minus its
   RSS after imports, and the frontier file's size; again with a tenth of the URLs, to show
   what grows with the frontier (the SQLite frontier keeps the URLs out of memory).
3. URL rules: a host model learned from a synthetic news site's URLs (articles, topics, list
   pages, pagination), then ``HostModel.is_item`` over 100,000 URLs (URLs/s, and as a ratio to
   one ``urlsplit`` per URL timed in the same run), and the time of one learning at
   ``max_urls`` URLs.

    PYTHONPATH=$PWD python benchmarks/crawl.py --sites [--delay 0.2] [--kill-seed 1]
        [--no-sitemaps] [--json]

4. Real sites (``--sites``): the six WordPress sites of ``wordpress.py`` (Debian's wordpress
   6.1, three default themes, set up from scratch by that module), each served by ``php -S``.
   ``sitesift extract --crawl HOME --max-pages 200`` from the home page alone; from its WARC
   file and frontier: the share of the site's posts fetched, of its category pages and of its
   home page's pagination pages (and of all its archive pages: tags, authors, months), URLs
   with more than one 2xx response in the WARC file, requests to paths robots.txt disallows
   (server log), pages/s; from its records: page types (posts and pages ``detail``, archives
   ``list``) and titles exact (posts and pages) against WordPress's own. Then the same crawl
   killed (SIGKILL of its process group) after a random number of pages and run again: the
   same shares, URLs twice in the WARC file, and URLs the server answered twice (the pages in
   flight at the kill, at most ``--host-concurrency`` of them, are asked again).
   ``--no-sitemaps``: the same sites without their sitemaps (``/wp-sitemap*`` answers 404).

    PYTHONPATH=$PWD python benchmarks/crawl.py --discovery [--discovery-offline]

5. Discovery libraries (to choose between them and our own parser):
   ``discovery.parse_document`` against
   ultimate-sitemap-parser (fed the same body through a web client that serves that body
   alone) and feedparser, on made-up documents (sitemap index, gzip with and without a
   ``.gz`` name, text sitemaps, RSS and Atom with relative links, broken and truncated XML,
   entity expansion, image and hreflang extensions, an HTML soft 404), on one 50,000-URL gzip
   sitemap (seconds), and on the WordPress sites' own sitemaps and feeds (site URLs found;
   parse time); then the libraries with their own HTTP clients from each home page
   (ultimate-sitemap-parser's ``sitemap_tree_for_homepage``, trafilatura's
   ``sitemap_search`` and ``find_feed_urls``, ``feedparser.parse(URL)``): URLs, requests,
   seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import multiprocessing
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ARTICLE_BYTES = 8_000


def _serve(port_queue: multiprocessing.Queue, sizes: dict[str, int]) -> None:
    """Serve /list-N/ (N item links) and /a/<i>.html articles until killed."""
    filler = ("<p>" + "Local benchmark article text in plain sentences. " * 40 + "</p>")
    article_tail = (filler * (ARTICLE_BYTES // len(filler) + 1))[:ARTICLE_BYTES]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path
            if path.startswith("/list-"):
                n = sizes.get(path, 0)
                items = "".join(f"<li><a href='/a/{i}.html'>Benchmark article number {i}</a></li>"
                                for i in range(n))
                body = f"<html><body><ul class='list'>{items}</ul></body></html>"
            elif path.startswith("/a/"):
                body = f"<html><head><title>{path}</title></head><body>{article_tail}</body></html>"
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port_queue.put(server.server_address[1])
    server.serve_forever()


async def _bare_fetch(urls: list[str], concurrency: int) -> float:
    """Seconds a bare httpx client takes to GET ``urls`` with ``concurrency`` in flight."""
    import httpx

    sem = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(limits=httpx.Limits(max_connections=concurrency)) as client:

        async def one(url: str) -> None:
            async with sem:
                response = await client.get(url)
                response.raise_for_status()

        started = time.monotonic()
        await asyncio.gather(*(one(url) for url in urls))
        return time.monotonic() - started


def _rss_kib() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _memory_child(base: str, frontier_urls: int, folder: str) -> None:
    """Runs in a fresh process: crawl the big list, print RSS figures as JSON."""
    from sitesift.crawl import crawl
    from sitesift.crawl.frontier import Frontier
    from sitesift.options import Options

    before = _rss_kib()
    warc = Path(folder) / f"mem-{frontier_urls}.warc.gz"
    options = Options(crawl_delay=0, crawl_host_concurrency=8, crawl_max_pages=200)
    stats = crawl([f"{base}/list-{frontier_urls}/"], warc, options)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    with Frontier(f"{warc}.frontier") as frontier:
        urls = sum(frontier.counts().values())
    print(json.dumps({
        "frontier_urls": urls, "pages_written": stats.done, "rss_after_imports_mib": before / 1024,
        "peak_rss_mib": peak / 1024, "crawl_rss_mib": (peak - before) / 1024,
        "frontier_file_mib": os.path.getsize(f"{warc}.frontier") / 2**20,
    }))


def _rule_speed(n: int = 100_000) -> dict[str, float]:
    """URLs/s of the learned rules, and seconds of one learning at max_urls URLs."""
    import random

    from sitesift.crawl.urlpolicy import UrlStructurePolicy

    rng = random.Random(0)
    words = ["council", "budget", "school", "road", "park", "housing", "river", "market"]
    host = "http://news.example"

    def article() -> str:
        slug = "-".join(rng.choice(words) for _ in range(rng.randint(2, 5)))
        folder = f"{host}/news/{rng.randint(2019, 2025)}/{rng.randint(1, 12):02d}"
        return f"{folder}/{slug}-{rng.randint(1, 10**6)}.html"

    policy = UrlStructurePolicy()
    model = policy._host(host + "/")
    for _ in range(700):
        policy._vote(model, article(), 1)
    for i in range(150):
        policy._vote(model, f"{host}/topic/{rng.choice(words)}{i}/", -1)
        policy._vote(model, f"{host}/news/?page={i}", -1)
    started = time.perf_counter()
    policy.learn(model)
    learn_s = time.perf_counter() - started
    # Distinct URLs (urlsplit caches repeated ones): articles by id, topics by number.
    urls = [article() if i % 2 else f"{host}/topic/{rng.choice(words)}{i}/" for i in range(n)]
    from urllib.parse import urlsplit

    started = time.perf_counter()
    items = sum(bool(model.is_item(u)) for u in urls)
    seconds = time.perf_counter() - started
    started = time.perf_counter()  # baseline in the same run: one urlsplit per URL
    for u in urls:
        urlsplit(u)
    baseline = time.perf_counter() - started
    return {"urls": n, "urls_per_s": n / seconds, "urlsplit_per_s": n / baseline,
            "vs_urlsplit": baseline / seconds, "items": items, "learn_s": learn_s,
            "population": len(model.votes), "rules": len(model.rules)}


def _served(log: Path) -> Counter[str]:
    """Path -> GET requests answered, from ``php -S``'s log."""
    counts: Counter[str] = Counter()
    for line in log.read_text(errors="replace").splitlines():
        found = re.search(r"\[(\d{3})\]: GET (\S+)", line)
        if found:
            counts[found[2]] += 1
    return counts


def _path(url: str, base: str) -> str:
    """``url`` relative to ``base``, its query keys sorted (WordPress orders them as it likes)."""
    from urllib.parse import parse_qsl, urlencode, urlsplit

    parts = urlsplit(url.removeprefix(base) or "/")
    query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return (parts.path or "/") + (f"?{query}" if query else "")


def _coverage(warc: Path, base: str, gold: dict[str, Any]) -> dict[str, Any]:
    """Shares of the site's posts, categories, home pagination and archives in the WARC file."""
    from warcio.archiveiterator import ArchiveIterator

    pages: Counter[str] = Counter()
    with open(warc, "rb") as fh:
        for record in ArchiveIterator(fh):
            if record.rec_type == "response" and \
                    record.http_headers.get_statuscode().startswith("2"):
                pages[_path(record.rec_headers.get_header("WARC-Target-URI"), base)] += 1
    lists = gold["lists"]
    groups = {
        "posts": [p["path"] for p in gold["posts"]],
        "categories": [v[0] for k, v in lists.items() if k.startswith("category ")],
        "category_pages": [u for k, v in lists.items() if k.startswith("category ") for u in v],
        "home_pagination": lists["home"][1:],
        "all_archive_pages": [u for v in lists.values() for u in v],
    }
    out: dict[str, Any] = {}
    for name, paths in groups.items():
        paths = [_path(p, "") for p in paths]
        out[name] = [sum(p in pages for p in paths), len(paths)]
    out["missing"] = sorted({_path(p, "") for ps in groups.values() for p in ps} - set(pages))
    robots = pages.pop("/robots.txt", 0)  # read again by every run, by design
    out["pages_in_warc"] = len(pages)
    out["urls_twice_in_warc"] = sum(n > 1 for n in pages.values())
    out["robots_txt_reads"] = robots
    return out


def _records(out: Path, base: str, gold: dict[str, Any]) -> dict[str, Any]:
    """Page types and exact titles of ``extract``'s records against WordPress's own."""
    records = {_path(r["url"], base): r for r in map(json.loads, out.read_text().splitlines())}
    types = {_path(p["path"], ""): "detail" for p in gold["posts"] + gold["pages"]}
    types.update({_path(u, ""): "list" for v in gold["lists"].values() for u in v})
    titles = {_path(p["path"], ""): p["title"] for p in gold["posts"] + gold["pages"]}
    typed = [(records[p]["page_type"], t) for p, t in types.items() if p in records]
    titled = [(" ".join((records[p]["title"] or "").split()), t)
              for p, t in titles.items() if p in records]
    return {
        "records": len(records),
        "page_types": [sum(a == b for a, b in typed), len(typed)],
        "titles_exact": [sum(a == b for a, b in titled), len(titled)],
        "wrong_types": sorted(p for p, t in types.items() if p in records
                              and records[p]["page_type"] != t)[:10],
        "wrong_titles": [(a, b) for a, b in titled if a != b][:5],
    }


def _done_pages(frontier: Path) -> int:
    """Pages done in a running crawl's frontier, read-only (opening a ``Frontier`` would queue
    its in-flight URLs again); 0 before it exists."""
    import sqlite3

    try:
        db = sqlite3.connect(f"file:{frontier}?mode=ro", uri=True, timeout=1)
        try:
            return int(db.execute("SELECT COUNT(*) FROM url WHERE state = 'done'").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def _sites(args: argparse.Namespace) -> dict[str, Any]:
    """Section 4 of the module docstring."""
    import random
    import signal

    import wordpress

    problem = wordpress.available()
    if problem:
        raise SystemExit(f"--sites needs WordPress: {problem} (see benchmarks/wordpress.py)")
    rng = random.Random(args.kill_seed)
    results: dict[str, Any] = {}
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for site in wordpress.SITES:
            gold = wordpress.setup(site)
            log = folder / f"{site.name}.log"
            server, base = wordpress.serve(site, folder, log=log,
                                           sitemaps=not args.no_sitemaps)
            try:
                warc, out = folder / f"{site.name}.warc.gz", folder / f"{site.name}.jsonl"
                crawl_args = ["--max-pages", "200", "--delay", str(args.delay)]
                started = time.monotonic()
                done = subprocess.run(
                    [sys.executable, "-m", "sitesift", "extract", "--crawl", f"{base}/",
                     "--crawl-warc", str(warc), "-o", str(out), *crawl_args],
                    env=env, capture_output=True, text=True, check=False)
                seconds = time.monotonic() - started
                said = re.search(r"(\d+) page\(s\) written in ([\d.]+) s", done.stderr)
                served = _served(log)
                result: dict[str, Any] = {
                    "theme": site.theme, "posts": site.posts + 1, "exit": done.returncode,
                    "crawl_pages": int(said[1]) if said else None,
                    "crawl_seconds": float(said[2]) if said else None,
                    "extract_crawl_seconds": seconds,
                    "coverage": _coverage(warc, base, gold),
                    "disallowed_requests": sum(n for p, n in served.items()
                                               if p.startswith("/wp-admin/")),
                    "extract": _records(out, base, gold),
                }
                if said:
                    result["pages_per_s"] = int(said[1]) / float(said[2])
                # Killed after a random number of pages, then run again.
                warc2 = folder / f"{site.name}-killed.warc.gz"
                before = _served(log)
                argv = [sys.executable, "-m", "sitesift", "crawl", f"{base}/", "-o", str(warc2),
                        "-q", *crawl_args]
                after = rng.randint(3, 40)
                process = subprocess.Popen(argv, env=env, start_new_session=True)
                while process.poll() is None and _done_pages(Path(f"{warc2}.frontier")) < after:
                    time.sleep(0.02)
                killed = process.poll() is None
                if killed:
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                subprocess.run(argv, env=env, check=False, capture_output=True)
                again = _served(log) - before
                result["resumed"] = {
                    "killed_after_pages": after if killed else None,
                    "coverage": _coverage(warc2, base, gold),
                    "urls_answered_twice": sorted(p for p, n in again.items()
                                                  if n > 1 and p != "/robots.txt"),
                }
            finally:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
            results[site.name] = result
            print(f"{site.name}: {json.dumps(result)}", file=sys.stderr)
    return results


# --- 5. Discovery libraries (--discovery) -------------------------------------------------

_SM = "http://www.sitemaps.org/schemas/sitemap/0.9"
_H = "http://blog.example"
#: Made-up documents: (name, URL it is served at, Content-Type, body, (pages, nested sitemaps)
#: a crawler should read from it). Off-spec but common documents are in on purpose.
_laughs = "".join(f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
DOCUMENT_CASES: list[tuple[str, str, str, bytes, tuple[list[str], list[str]]]] = [
    ("urlset", "/wp-sitemap-posts-post-1.xml", "application/xml",
     f"<?xml version='1.0'?><urlset xmlns='{_SM}'><url><loc>\n {_H}/a/ </loc></url>"
     f"<url><loc>{_H}/b/?x=1&amp;y=2</loc><lastmod>2024-01-02</lastmod></url></urlset>".encode(),
     ([f"{_H}/a/", f"{_H}/b/?x=1&y=2"], [])),
    ("sitemap index", "/sitemap.xml", "application/xml",
     f"<sitemapindex xmlns='{_SM}'><sitemap><loc>{_H}/s1.xml.gz</loc></sitemap>"
     f"<sitemap><loc>{_H}/s2.xml</loc></sitemap></sitemapindex>".encode(),
     ([], [f"{_H}/s1.xml.gz", f"{_H}/s2.xml"])),
    ("gzip, .gz name", "/s1.xml.gz", "application/x-gzip",
     gzip.compress(f"<urlset xmlns='{_SM}'><url><loc>{_H}/c/</loc></url></urlset>".encode()),
     ([f"{_H}/c/"], [])),
    ("gzip, no .gz name nor type", "/sitemap.xml", "application/octet-stream",
     gzip.compress(f"<urlset xmlns='{_SM}'><url><loc>{_H}/c/</loc></url></urlset>".encode()),
     ([f"{_H}/c/"], [])),
    ("text sitemap", "/sitemap.txt", "text/plain",
     f"{_H}/d/\r\n\r\n{_H}/e/\n".encode(), ([f"{_H}/d/", f"{_H}/e/"], [])),
    ("BOM, blank lines before the XML declaration", "/sitemap.xml", "application/xml",
     f"\ufeff\n\n<?xml version='1.0'?><urlset xmlns='{_SM}'><url><loc>{_H}/a/</loc></url>"
     "</urlset>".encode(), ([f"{_H}/a/"], [])),
    ("no namespace", "/sitemap.xml", "application/xml",
     f"<urlset><url><loc>{_H}/a/</loc></url></urlset>".encode(), ([f"{_H}/a/"], [])),
    ("relative <loc> (off-spec)", "/sitemap.xml", "application/xml",
     f"<urlset xmlns='{_SM}'><url><loc>/a/</loc></url></urlset>".encode(), ([f"{_H}/a/"], [])),
    ("image and hreflang extensions", "/sitemap.xml", "application/xml",
     (f"<urlset xmlns='{_SM}' xmlns:image='http://www.google.com/schemas/sitemap-image/1.1' "
     "xmlns:xhtml='http://www.w3.org/1999/xhtml'><url><loc>" + _H + "/a/</loc><image:image>"
     "<image:loc>" + _H + "/a.jpg</image:loc></image:image><xhtml:link rel='alternate' "
     "hreflang='fr' href='" + _H + "/fr/a/'/></url></urlset>").encode(),
     ([f"{_H}/a/"], [])),
    ("undefined entity (&nbsp;) mid-file", "/sitemap.xml", "application/xml",
     f"<urlset xmlns='{_SM}'><url><loc>{_H}/a/</loc></url><url><loc>{_H}/b/&nbsp;</loc>"
     f"</url><url><loc>{_H}/c/</loc></url></urlset>".encode(),
     ([f"{_H}/a/", f"{_H}/b/", f"{_H}/c/"], [])),
    ("truncated (server timed out)", "/sitemap.xml", "application/xml",
     f"<urlset xmlns='{_SM}'><url><loc>{_H}/a/</loc></url><url><loc>{_H}/b/</loc></url>"
     f"<url><loc>{_H}/c".encode(), ([f"{_H}/a/", f"{_H}/b/"], [])),
    ("entity expansion (billion laughs)", "/sitemap.xml", "application/xml",
     f"<?xml version='1.0'?><!DOCTYPE urlset [<!ENTITY l0 'ha'>{_laughs}]><urlset xmlns='{_SM}'>"
     f"<url><loc>{_H}/a/</loc></url><url><loc>{_H}/&l9;</loc></url></urlset>".encode(),
     ([], [])),  # refused whole, or only /a/: both right; nothing cut short, within budget
    ("HTML soft 404", "/sitemap.xml", "text/html",
     (b"<!DOCTYPE html><html><head><title>Not found</title></head><body><a href='/a/'>a</a>"
     b"</body></html>"), ([], [])),
    ("RSS 2.0", "/feed/", "application/rss+xml",
     f"<rss version='2.0' xmlns:atom='http://www.w3.org/2005/Atom'><channel><link>{_H}/</link>"
     f"<atom:link rel='self' href='{_H}/feed/'/><item><title>A</title><link>{_H}/a/</link>"
     f"<comments>{_H}/a/#comments</comments></item><item><title>B</title><link>{_H}/b/</link>"
     "</item></channel></rss>".encode(), ([f"{_H}/a/", f"{_H}/b/"], [])),
    ("RSS, relative links", "/blog/feed/", "application/rss+xml",
     (b"<rss version='2.0'><channel><link>/</link><item><title>A</title><link>/a/</link></item>"
     b"<item><title>B</title><link>b/</link></item></channel></rss>"),
     ([f"{_H}/a/", f"{_H}/blog/feed/b/"], [])),
    ("RSS 1.0 (RDF)", "/index.rdf", "application/rdf+xml",
     (b"<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#' "
     b"xmlns='http://purl.org/rss/1.0/'><channel rdf:about='http://blog.example/'><link>"
     b"http://blog.example/</link></channel><item rdf:about='http://blog.example/a/'><title>A"
     b"</title><link>http://blog.example/a/</link></item></rdf:RDF>"),
     ([f"{_H}/a/"], [])),
    ("Atom, xml:base and relative links", "/atom/", "application/atom+xml",
     (b"<feed xmlns='http://www.w3.org/2005/Atom' xml:base='http://blog.example/x/'><link "
     b"rel='self' href='/atom/'/><entry><title>A</title><link href='a/'/><link rel='replies' "
     b"href='/a/#c'/></entry><entry><title>B</title><link rel='alternate' type='text/html' "
     b"href='/b/'/><link rel='enclosure' href='/b.mp3'/></entry></feed>"),
     ([f"{_H}/x/a/", f"{_H}/b/"], [])),
    ("RSS, undefined entity and unclosed", "/feed/", "application/rss+xml",
     f"<rss version='2.0'><channel><item><title>A &nbsp; B</title><link>{_H}/a/</link></item>"
     f"<item><title>C</title><link>{_H}/c/</link>".encode(), ([f"{_H}/a/", f"{_H}/c/"], [])),
]


#: A parser that takes longer on one of these few-hundred-byte documents fails it (a crawler
#: that reads whatever a site serves must not be held up by one document).
TIME_BUDGET_S = 1.0


def _ours(url: str, body: bytes, content_type: str) -> tuple[list[str], list[str]]:
    from sitesift.crawl.discovery import parse_document

    return parse_document(url, body, 50_000)


def _usp(url: str, body: bytes, content_type: str) -> tuple[list[str], list[str]]:
    """ultimate-sitemap-parser on a body fetched elsewhere: a web client that serves that one
    body and nothing else, so nested sitemaps are reported, not fetched."""
    from usp.fetch_parse import SitemapFetcher
    from usp.objects.sitemap import AbstractIndexSitemap
    from usp.web_client.abstract_client import (
        AbstractWebClient,
        AbstractWebClientSuccessResponse,
        NoWebClientException,
    )

    class Served(AbstractWebClientSuccessResponse):
        def status_code(self) -> int:
            return 200

        def status_message(self) -> str:
            return "OK"

        def header(self, name: str) -> str | None:
            return content_type if name.lower() == "content-type" else None

        def raw_data(self) -> bytes:
            return body

        def url(self) -> str:
            return url

    class OneBody(AbstractWebClient):
        def set_max_response_data_length(self, length: int | None) -> None:
            pass

        def get(self, asked: str) -> Served:
            if asked != url:
                raise NoWebClientException
            return Served()

    tree = SitemapFetcher(url, 0, web_client=OneBody()).sitemap()
    nested = [s.url for s in tree.sub_sitemaps] if isinstance(tree, AbstractIndexSitemap) else []
    return [page.url for page in tree.all_pages()], nested


def _feedparser(url: str, body: bytes, content_type: str) -> tuple[list[str], list[str]]:
    import feedparser

    parsed = feedparser.parse(body, response_headers={"content-location": url,
                                                      "content-type": content_type})
    return [entry.link for entry in parsed.entries if entry.get("link")], []


DOCUMENT_PARSERS = {"sitesift": _ours, "ultimate-sitemap-parser": _usp,
                    "feedparser": _feedparser}


def _timed(parse: Any, *args: Any) -> tuple[tuple[list[str], list[str]] | str, float]:
    import logging

    logging.disable(logging.CRITICAL)  # usp logs every parse error at ERROR
    started = time.perf_counter()
    try:
        got: tuple[list[str], list[str]] | str = parse(*args)
    except Exception as error:  # a library's failure is a measured outcome
        got = f"{type(error).__name__}: {error}"[:80]
    return got, time.perf_counter() - started


def _documents() -> dict[str, Any]:
    """Each parser on each made-up document: found as expected, or what it gave (ms: the
    median of 5 runs, 1 if it took over 0.1 s, after one run of each parser that imports it)."""
    out: dict[str, Any] = {}
    for parse in DOCUMENT_PARSERS.values():
        _timed(parse, _H + "/feed/", DOCUMENT_CASES[0][3], "application/xml")
    for name, path, content_type, body, (pages, nested) in DOCUMENT_CASES:
        row: dict[str, Any] = {}
        for parser, parse in DOCUMENT_PARSERS.items():
            runs = [_timed(parse, _H + path, body, content_type)]
            if runs[0][1] < 0.1:  # not the slow case (feedparser's entity expansion: 12 s)
                runs += [_timed(parse, _H + path, body, content_type) for _ in range(4)]
            got, seconds = runs[0][0], statistics.median(r[1] for r in runs)
            ok = seconds < TIME_BUDGET_S and not isinstance(got, str) and (
                (sorted(got[0]), sorted(got[1])) == (sorted(pages), sorted(nested))
                or (name.startswith("entity") and got == ([f"{_H}/a/"], [])))
            row[parser] = {"ok": ok, "ms": seconds * 1000, **({} if ok else {"got": got})}
        out[name] = row
    return out


def _big_sitemap(n: int = 50_000, rounds: int = 3) -> dict[str, Any]:
    """Seconds per parser on one sitemaps.org-maximum sitemap (50,000 URLs), gzip: the median
    of ``rounds`` rounds, the parsers taking turns (the box is shared and noisy)."""
    body = gzip.compress((f"<urlset xmlns='{_SM}'>" + "".join(
        f"<url><loc>{_H}/2024/01/post-{i}/</loc><lastmod>2024-01-02T10:00:00+00:00</lastmod>"
        "</url>" for i in range(n)) + "</urlset>").encode())
    runs: dict[str, list[float]] = {"sitesift": [], "ultimate-sitemap-parser": []}
    urls: dict[str, Any] = {}
    for _ in range(rounds):
        for parser, seconds in runs.items():
            got, spent = _timed(DOCUMENT_PARSERS[parser], _H + "/big.xml.gz", body,
                                "application/x-gzip")
            seconds.append(spent)
            urls[parser] = len(got[0]) if not isinstance(got, str) else got
    return {parser: {"urls": urls[parser], "seconds": statistics.median(seconds),
                     "rounds": seconds} for parser, seconds in runs.items()}


def _site_documents(base: str) -> dict[str, tuple[bytes, str]]:
    """The site's discovery documents as the crawler reaches them: robots.txt's sitemaps (and
    their nested sitemaps), the feeds of the home page's ``<head>``; URL -> (body, type)."""
    import httpx
    from lxml import html as lxml_html
    from protego import Protego

    from sitesift.crawl.discovery import feed_links, parse_document

    docs: dict[str, tuple[bytes, str]] = {}
    with httpx.Client(timeout=30) as client:
        robots = Protego.parse(client.get(f"{base}/robots.txt").text)
        todo = list(robots.sitemaps) or [f"{base}/sitemap.xml"]
        home = client.get(f"{base}/")
        todo += feed_links(f"{base}/", lxml_html.fromstring(home.content))
        while todo:
            url = todo.pop(0)
            if url in docs:
                continue
            response = client.get(url)
            docs[url] = (response.content, response.headers.get("content-type", ""))
            todo += parse_document(url, response.content, 50_000)[1]
    return docs


def _site_gold(base: str, gold: dict[str, Any]) -> set[str]:
    return {_path(p["path"], "") for p in gold["posts"] + gold["pages"]} | {
        _path(u, "") for v in gold["lists"].values() for u in v}


def _own_clients(base: str) -> dict[str, Any]:
    """The libraries with their own HTTP clients from the home page: URLs, requests, seconds."""
    import logging

    logging.disable(logging.CRITICAL)
    out: dict[str, Any] = {}
    from usp.tree import sitemap_tree_for_homepage
    from usp.web_client.abstract_client import AbstractWebClientSuccessResponse
    from usp.web_client.requests_client import RequestsWebClient

    asked: list[bool] = []  # one per request: answered 2xx

    class Counting(RequestsWebClient):
        def get(self, url: str) -> Any:
            response = super().get(url)
            asked.append(isinstance(response, AbstractWebClientSuccessResponse))
            return response

    started = time.perf_counter()
    tree = sitemap_tree_for_homepage(f"{base}/", web_client=Counting(wait=0))
    out["ultimate-sitemap-parser"] = {
        "urls": len({p.url for p in tree.all_pages()}), "requests": len(asked),
        "requests_failed": asked.count(False),
        "seconds": time.perf_counter() - started}
    from trafilatura import feeds, sitemaps

    started = time.perf_counter()
    urls = sitemaps.sitemap_search(f"{base}/", sleep_time=0)
    out["trafilatura sitemap_search"] = {"urls": len(urls),
                                         "seconds": time.perf_counter() - started}
    started = time.perf_counter()
    urls = feeds.find_feed_urls(f"{base}/", sleep_time=0)
    out["trafilatura find_feed_urls"] = {"urls": len(urls),
                                         "seconds": time.perf_counter() - started}
    import feedparser
    import httpx
    from lxml import html as lxml_html

    from sitesift.crawl.discovery import feed_links

    feed = (feed_links(f"{base}/", lxml_html.fromstring(httpx.get(f"{base}/").content))
            or [f"{base}/feed/"])[0]  # the home page's first feed, as the crawler reads it
    started = time.perf_counter()
    parsed = feedparser.parse(feed)
    out["feedparser (own urllib fetch)"] = {"urls": len(parsed.entries),
                                            "seconds": time.perf_counter() - started}
    return out


def _discovery(args: argparse.Namespace) -> dict[str, Any]:
    """Section 5 of the module docstring."""
    import signal

    result: dict[str, Any] = {"documents": _documents(), "big_sitemap": _big_sitemap()}
    if args.discovery_offline:
        return result
    import wordpress

    problem = wordpress.available()
    if problem:
        raise SystemExit(f"--discovery needs WordPress: {problem} (see benchmarks/wordpress.py)")
    sites: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for site in wordpress.SITES:
            gold = wordpress.setup(site)
            server, base = wordpress.serve(site, Path(tmp))
            try:
                wanted = _site_gold(base, gold)
                docs = _site_documents(base)
                row: dict[str, Any] = {"documents": len(docs), "gold_urls": len(wanted)}
                for parser, parse in DOCUMENT_PARSERS.items():
                    found: set[str] = set()
                    seconds = 0.0
                    for url, (body, content_type) in docs.items():
                        got, spent = _timed(parse, url, body, content_type)
                        seconds += spent
                        if not isinstance(got, str):
                            found.update(_path(u, base) for u in got[0])
                    row[parser] = {"gold_found": len(found & wanted), "other": len(found - wanted),
                                   "ms": seconds * 1000}
                row["own_clients"] = _own_clients(base)
            finally:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
            sites[site.name] = row
            print(f"{site.name}: {json.dumps(row)}", file=sys.stderr)
    result["sites"] = sites
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--frontier-urls", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="rounds; medians are reported")
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--sites", action="store_true",
                        help="crawl the WordPress sites of wordpress.py instead (section 4)")
    parser.add_argument("--delay", type=float, default=0.2,
                        help="--sites: seconds between requests to a site (default 0.2)")
    parser.add_argument("--no-sitemaps", action="store_true",
                        help="--sites: the sites' sitemaps answer 404 (robots.txt names them)")
    parser.add_argument("--kill-seed", type=int, default=1,
                        help="--sites: seed of the random kill points")
    parser.add_argument("--discovery", action="store_true",
                        help="measure sitemap and feed parsers instead (section 5)")
    parser.add_argument("--discovery-offline", action="store_true",
                        help="--discovery: made-up documents only, no WordPress")
    parser.add_argument("--memory-child", nargs=3, metavar=("BASE", "N", "DIR"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        base, n, folder = args.memory_child
        _memory_child(base, int(n), folder)
        return
    if args.sites:
        print(json.dumps(_sites(args), indent=2))
        return
    if args.discovery or args.discovery_offline:
        print(json.dumps(_discovery(args), indent=2))
        return

    from sitesift.crawl import crawl
    from sitesift.crawl.policy import DefaultPolicy
    from sitesift.crawl.urlpolicy import UrlStructurePolicy
    from sitesift.options import Options

    rules = _rule_speed()
    sizes = {f"/list-{n}/": n for n in (args.pages, args.frontier_urls, args.frontier_urls // 10)}
    ports: multiprocessing.Queue = multiprocessing.Queue()
    server = multiprocessing.Process(target=_serve, args=(ports, sizes), daemon=True)
    server.start()
    base = f"http://127.0.0.1:{ports.get(timeout=30)}"
    try:
        with tempfile.TemporaryDirectory() as folder:
            urls = [f"{base}/list-{args.pages}/"]
            urls += [f"{base}/a/{i}.html" for i in range(args.pages)]
            rounds = []  # (crawler pages/s, bare pages/s) per round, bare timed around the crawl
            # (policy, depth) -> pages/s per round, all crawls of a round between two bare runs
            by_policy: dict[str, list[float]] = {}
            for i in range(args.repeat):
                bare = asyncio.run(_bare_fetch(urls, args.concurrency))
                speeds = {}
                for depth in args.depths:
                    options = Options(crawl_delay=0, crawl_host_concurrency=args.concurrency,
                                      crawl_max_pages=args.pages + 1, crawl_depth=depth)
                    for name, policy in (("cues", DefaultPolicy()),
                                         ("learned", UrlStructurePolicy())):
                        warc = Path(folder) / f"speed-{i}-{name}-{depth}.warc.gz"
                        stats = crawl([urls[0]], warc, options, policy=policy)
                        assert stats.done == len(urls), (name, depth, stats)
                        speeds[f"{name}@depth{depth}"] = stats.done / stats.seconds
                bare = len(urls) / ((bare + asyncio.run(_bare_fetch(urls, args.concurrency))) / 2)
                for key, speed in speeds.items():
                    by_policy.setdefault(key, []).append(speed / bare)
                rounds.append((speeds[f"learned@depth{args.depths[0]}"], bare))
            memory, small = (json.loads(subprocess.run(
                [sys.executable, __file__, "--memory-child", base, str(n), folder],
                check=True, capture_output=True, text=True,
            ).stdout) for n in (args.frontier_urls, args.frontier_urls // 10))
            ratios = sorted(crawler / bare for crawler, bare in rounds)
            result = {
                "pages": stats.done, "concurrency": args.concurrency, "rounds": rounds,
                "crawler_pages_per_s": statistics.median(r[0] for r in rounds),
                "bare_httpx_pages_per_s": statistics.median(r[1] for r in rounds),
                "crawler_vs_bare_median": statistics.median(ratios),
                "crawler_vs_bare_range": [ratios[0], ratios[-1]],
                "vs_bare_median_by_policy": {k: statistics.median(v)
                                             for k, v in by_policy.items()},
                "vs_bare_by_policy": by_policy,
                "rules": rules,
                "warc_mib": warc.stat().st_size / 2**20,
                "memory": memory,
                "memory_tenth": small,
            }
    finally:
        server.kill()
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"crawler: {result['pages']} pages, median {result['crawler_pages_per_s']:.0f} pages/s "
          f"over {args.repeat} rounds (concurrency {args.concurrency}, delay 0, WARC "
          f"{result['warc_mib']:.1f} MiB)")
    low, high = result["crawler_vs_bare_range"]
    print(f"bare httpx GETs, same URLs and concurrency: median "
          f"{result['bare_httpx_pages_per_s']:.0f} pages/s -> crawler at "
          f"{result['crawler_vs_bare_median']:.2f}x of bare fetching (rounds {low:.2f}-{high:.2f})")
    for key, ratio in result["vs_bare_median_by_policy"].items():
        print(f"  {key}: median {ratio:.2f}x of bare fetching "
              f"(rounds {', '.join(f'{r:.2f}' for r in result['vs_bare_by_policy'][key])})")
    print(f"URL rules: {rules['urls_per_s']:,.0f} URLs/s, {rules['vs_urlsplit']:.1f}x the rate of "
          f"one urlsplit per URL ({rules['rules']} rules learned from {rules['population']} "
          f"URLs in {rules['learn_s']:.2f} s)")
    print(f"memory: {memory['frontier_urls']:,} frontier URLs, peak RSS "
          f"{memory['peak_rss_mib']:.0f} MiB ({memory['crawl_rss_mib']:.0f} MiB above the "
          f"{memory['rss_after_imports_mib']:.0f} MiB after imports), frontier file "
          f"{memory['frontier_file_mib']:.1f} MiB; at {small['frontier_urls']:,} URLs: "
          f"{small['crawl_rss_mib']:.0f} MiB above imports")


if __name__ == "__main__":
    main()
