"""The crawler against the test site of conftest.py, all on 127.0.0.1."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import httpx
from crawl_site import Site, article, blog_site, list_page, news_site
from killing import REPO, kill_at_random
from warcio.archiveiterator import ArchiveIterator

from sitesift.cli import main
from sitesift.crawl import USER_AGENT, Crawler, crawl, read_anchors
from sitesift.crawl.archive import iter_metadata
from sitesift.crawl.frontier import Frontier
from sitesift.input import iter_pages
from sitesift.options import Options

#: Fast settings for the test site: no delay, short timeout and backoff, 100 kB per response.
FAST = Options(crawl_delay=0, crawl_timeout=0.5, crawl_backoff=0.01, crawl_max_bytes=100_000,
               crawl_host_concurrency=4)


def states(warc: Path, site: Site) -> dict[str, str]:
    with Frontier(f"{warc}.frontier") as frontier:
        return {row["url"].removeprefix(site.base): row["state"] for row in frontier.rows()}


def frontier_rows(warc: Path) -> list[dict[str, object]]:
    with Frontier(f"{warc}.frontier") as frontier:
        return frontier.rows()


def responses(warc: Path) -> Counter[str]:
    """Target URL -> number of 2xx response records in the WARC file."""
    seen: Counter[str] = Counter()
    with open(warc, "rb") as fh:
        for record in ArchiveIterator(fh):
            if record.rec_type == "response" and \
                    record.http_headers.get_statuscode().startswith("2"):
                seen[record.rec_headers.get_header("WARC-Target-URI")] += 1
    return seen


def test_list_page_items_politeness_and_limits(serve, tmp_path: Path) -> None:
    site = serve(news_site())
    warc = tmp_path / "c.warc.gz"
    stats = crawl([site.url("/news/")], warc, FAST)
    got = states(warc, site)
    assert got == {
        "/news/": "done",
        **{f"/news/2024/article-{i}.html": "done" for i in range(1, 6)},
        "/private/secret.html": "skipped",  # robots.txt
        "/news/2024/flaky.html": "done",  # 503 once, then retried
        "/news/2024/broken.html": "failed",  # 500 every time
        "/news/2024/slow.html": "failed",  # timeouts
        "/news/2024/moved.html": "redirected",  # to article-1, already known
        "/news/2024/loop-a.html": "redirected",
        "/news/2024/loop-b.html": "redirected",  # back to loop-a: known, the loop ends
        "/news/2024/report": "skipped",  # application/pdf
        "/news/2024/huge.html": "skipped",  # declared length over the limit
        "/news/2024/endless.html": "skipped",  # streamed length over the limit
        "/news/2024/latin.html": "done",
        "/news/2024/zipped.html": "done",
    }
    assert stats.done == 9 and stats.retried == 5  # flaky 1, broken 2, slow 2
    assert site.requests["/private/secret.html"] == 0
    assert site.served["/news/2024/article-1.html"] == 1  # the redirect did not fetch it again
    assert site.served["/news/2024/broken.html"] == 3  # first try and two retries
    assert site.served["/robots.txt"] == 1
    assert site.requests["/about.html"] == 0  # a nav link, not an item
    assert site.user_agents == {USER_AGENT} and "sitesift" in USER_AGENT

    # What the WARC holds is what `sitesift extract` reads: the 2xx HTML pages, once each.
    pages = {p.url.removeprefix(site.base): p for p in iter_pages([str(warc)])}
    assert set(pages) == {path for path, state in got.items() if state == "done"}
    assert all(p.error is None for p in pages.values())
    assert "Café crème" in pages["/news/2024/latin.html"].html  # charset from the header
    assert "Zipped" in pages["/news/2024/zipped.html"].html  # gzip undone by the reader
    assert set(responses(warc).values()) == {1}


def test_warc_records_requests_redirects_and_list_anchors(serve, tmp_path: Path) -> None:
    site = serve(news_site())
    warc = tmp_path / "c.warc"
    crawl([site.url("/news/")], warc, FAST.replace(crawl_retries=0))
    kinds: Counter[str] = Counter()
    redirects = {}
    with open(warc, "rb") as fh:
        for record in ArchiveIterator(fh):
            kinds[record.rec_type] += 1
            if record.rec_type == "request":
                assert record.http_headers.get_header("User-Agent") == USER_AGENT
            if record.rec_type == "response" and record.http_headers.get_statuscode()[0] == "3":
                url = record.rec_headers.get_header("WARC-Target-URI")
                redirects[url.removeprefix(site.base)] = record.http_headers.get_header(
                    "Location")
    assert kinds["warcinfo"] == 1
    assert kinds["request"] == kinds["response"]
    # Every page read back carries the crawler's fetch time as its crawl time.
    assert all(p.crawled is not None and p.crawled.tzinfo for p in iter_pages([str(warc)]))
    assert redirects == {"/news/2024/moved.html": "/news/2024/article-1.html",
                         "/news/2024/loop-a.html": "loop-b.html",
                         "/news/2024/loop-b.html": "loop-a.html"}
    anchors = read_anchors(warc)
    assert anchors[site.url("/news/2024/article-3.html")] == [
        {"text": "Article 3: the council votes on budget item 3", "list": site.url("/news/")}
    ]


def test_same_layer_pages_of_a_seed(serve, tmp_path: Path) -> None:
    site = serve(news_site())
    warc = tmp_path / "c.warc.gz"
    seed = "/news/2024/article-2.html"
    crawl([site.url(seed)], warc, FAST.replace(crawl_same_layer=True))
    # article-9 is in the seed's folder with its shape; /about.html and /news/ are not.
    assert states(warc, site) == {seed: "done", "/news/2024/article-9.html": "done"}
    crawl([site.url(seed)], tmp_path / "plain.warc.gz", FAST)  # without --same-layer
    assert site.served["/news/2024/article-9.html"] == 1


def test_depth_and_max_pages_bound_the_crawl(serve, tmp_path: Path) -> None:
    site = serve(news_site())
    crawl([site.url("/news/")], tmp_path / "d0.warc.gz", FAST.replace(crawl_depth=0))
    assert states(tmp_path / "d0.warc.gz", site) == {"/news/": "done"}
    # Eight URLs: the list, five articles, the robots-refused one and the flaky one, whose
    # retry after its 503 does not count as one more.
    crawl([site.url("/news/")], tmp_path / "m.warc.gz", FAST.replace(crawl_max_pages=8))
    got = states(tmp_path / "m.warc.gz", site)
    assert sum(state != "queued" for state in got.values()) == 8
    assert got["/news/2024/flaky.html"] == "done"


def test_robots_txt_errors_and_crawl_delay(serve, tmp_path: Path) -> None:
    down = Site()
    down.add("/robots.txt", b"oops", "text/plain", status=503)
    down.add("/a.html", article("A"))
    down = serve(down)
    crawl([down.url("/a.html")], tmp_path / "down.warc.gz", FAST)
    # Not fetched while robots.txt answers 5xx (RFC 9309 2.3.1), but not "disallowed" either.
    assert states(tmp_path / "down.warc.gz", down) == {"/a.html": "deferred"}
    assert down.requests["/a.html"] == 0

    missing = serve(Site())  # robots.txt 404: everything allowed
    missing.add("/a.html", article("A"))
    crawl([missing.url("/a.html")], tmp_path / "missing.warc.gz", FAST)
    assert states(tmp_path / "missing.warc.gz", missing) == {"/a.html": "done"}

    slow = Site()
    slow.add("/robots.txt", b"User-agent: sitesift\nCrawl-delay: 0.15\n", "text/plain")
    slow.add("/news/", list_page([(f"/n/{i}.html", f"A long enough headline {i}")
                                  for i in range(5)]))
    for i in range(5):
        slow.add(f"/n/{i}.html", article(f"N{i}"))
    slow = serve(slow)
    stats = crawl([slow.url("/news/")], tmp_path / "slow.warc.gz", FAST)
    assert stats.done == 6
    assert stats.seconds >= 5 * 0.15  # six requests, Crawl-delay 0.15 s apart


def test_extract_crawl_in_one_go(serve, tmp_path: Path, capsys) -> None:
    site = serve(news_site())
    out = tmp_path / "out.jsonl"
    code = main(["extract", "--crawl", site.url("/news/"), "--delay", "0", "--timeout", "0.5",
                 "--retries", "0", "--max-bytes", "100000", "--crawl-warc",
                 str(tmp_path / "c.warc.gz"), "-o", str(out), "-q"])
    assert code == 0
    records = {r["url"].removeprefix(site.base): r
               for r in map(json.loads, out.read_text().splitlines())}
    assert records["/news/2024/article-4.html"]["title"] == "Article 4"
    assert records["/news/2024/article-4.html"]["list_anchors"] == [
        {"text": "Article 4: the council votes on budget item 4", "list": site.url("/news/")}
    ]
    assert "/news/" in records  # the list page is in the batch too, with its URL
    assert (tmp_path / "c.warc.gz").is_file()


def test_crawl_command(serve, tmp_path: Path, capsys) -> None:
    site = serve(news_site())
    warc = tmp_path / "c.warc.gz"
    code = main(["crawl", site.url("/news/2024/article-1.html"), "-o", str(warc), "--delay", "0",
                 "--same-layer", "--max-pages", "5"])
    assert code == 0
    assert "2 page(s) written" in capsys.readouterr().err
    assert main(["crawl", "ftp://x/", "-o", str(tmp_path / "x.warc")]) == 2


class DeadHost(httpx.AsyncBaseTransport):
    """A transport whose host name does not resolve (as while DNS is down), until ``up``."""

    def __init__(self) -> None:
        self.up = False
        self.real = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if not self.up:
            raise httpx.ConnectError("[Errno -2] Name or service not known", request=request)
        return await self.real.handle_async_request(request)


def test_unreachable_robots_txt_is_reported_as_such_and_retried_on_a_later_run(
    serve, tmp_path: Path
) -> None:
    site = serve(news_site())
    warc, dead = tmp_path / "c.warc.gz", DeadHost()
    told: list[tuple[str, str]] = []
    stats = Crawler(FAST, transport=dead, progress=lambda *a: told.append(a)).run(
        [site.url("/news/2024/article-1.html")], warc)
    assert stats.done == 0 and stats.deferred == 1
    row = frontier_rows(warc)[0]
    assert row["state"] == "deferred"
    assert "robots.txt unreachable" in row["note"] and "Name or service" in row["note"]
    assert "disallowed" not in row["note"]
    assert told[-1][0] == "deferred" and "next run" in told[-1][1]
    dead.up = True  # the name resolves again: the next run fetches the page
    stats = Crawler(FAST, transport=dead).run([site.url("/news/2024/article-1.html")], warc)
    assert stats.done == 1
    assert states(warc, site) == {"/news/2024/article-1.html": "done"}


def _crawl_quietly(seed: str, warc: str) -> None:
    """The crawl of the kill test, in a forked process (imports already loaded: fast)."""
    crawl([seed], warc, Options(crawl_delay=0, crawl_host_concurrency=1))


def test_a_home_page_of_whole_posts_is_a_list_of_its_post_titles(serve, tmp_path: Path) -> None:
    """A blog's home page shows its posts whole: to the page-type model it reads as an
    article, yet its linked post titles are its items, fetched at depth 1."""
    site = serve(blog_site(6))
    warc = tmp_path / "c.warc.gz"
    crawl([site.url("/")], warc, FAST)
    expected = {"/": "done", **{f"/2024/post-{i}/": "done" for i in range(1, 7)},
                "/sitemap.xml": "skipped"}  # a home page: its sitemap asked for (here none)
    assert states(warc, site) == expected
    home = dict(iter_metadata(warc))[site.url("/")]
    assert home["list_page"]
    assert [item["anchor"] for item in home["items"]] == [
        f"Post {i} of the blog" for i in range(1, 7)]


def test_killed_crawl_resumes_fetching_every_page_once(serve, tmp_path: Path) -> None:
    """A crawl killed (SIGKILL) in the middle and run again: every page served once and in the
    WARC file once. The server kills the crawler when the 8th item is asked for, before it
    answers, so that item was never served and the first run left it unwritten."""
    site = Site()
    n = 16
    site.add("/list/", list_page([(f"/list/item-{i}.html", f"Item number {i} of the list")
                                  for i in range(n)]))
    for i in range(n):
        site.add(f"/list/item-{i}.html", article(f"Item {i}"))
    procs: list[multiprocessing.process.BaseProcess] = []
    asked = Counter[str]()

    def before(path: str) -> bool:
        if not path.startswith("/list/item-"):
            return True
        asked["items"] += 1
        if asked["items"] == 8:
            os.kill(procs[-1].pid, signal.SIGKILL)
            return False
        return True

    site.before = before
    site = serve(site)
    warc = tmp_path / "c.warc.gz"
    fork = multiprocessing.get_context("fork")
    for expected in (-signal.SIGKILL, 0):
        procs.append(fork.Process(target=_crawl_quietly, args=(site.url("/list/"), str(warc))))
        procs[-1].start()
        procs[-1].join(timeout=60)
        assert procs[-1].exitcode == expected
        if expected:
            assert 0 < sum(responses(warc).values()) < n + 1  # half-way
    assert set(states(warc, site).values()) == {"done"}
    assert site.served["/list/"] == 1
    assert all(site.served[f"/list/item-{i}.html"] == 1 for i in range(n))
    written = responses(warc)
    assert len(written) == n + 1 and set(written.values()) == {1}
    assert len(list(iter_pages([str(warc)]))) == n + 1


def _pages_done(frontier: Path) -> int:
    """Pages a running crawl has committed (read-only: opening a Frontier would queue its
    in-flight URLs again)."""
    try:
        db = sqlite3.connect(f"file:{frontier}?mode=ro", uri=True, timeout=1)
        try:
            return db.execute("SELECT COUNT(*) FROM url WHERE state = 'done'").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def test_a_crawl_killed_at_a_random_point_resumes_with_nothing_lost_or_twice(
    serve, tmp_path: Path
) -> None:
    """``sitesift crawl`` SIGKILLed (its process group) at a random point (after 0-3 pages
    committed, plus up to 50 ms: tests/killing.py), then run again: every page in the WARC
    file exactly once, none missing; the server answered each page once, but for the one
    in flight at the kill (one request at a time here), answered and never committed."""
    site = serve(blog_site(12))
    warc = tmp_path / "c.warc.gz"
    argv = [sys.executable, "-m", "sitesift", "crawl", site.url("/"), "-o", str(warc), "-q",
            "--delay", "0.05", "--host-concurrency", "1"]
    assert kill_at_random(argv, random.Random(7), lambda: _pages_done(Path(f"{warc}.frontier")))
    done = subprocess.run(argv, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    written = responses(warc)
    pages = {site.url("/"), *(site.url(f"/2024/post-{i}/") for i in range(1, 13))}
    assert {url for url in written if not url.endswith("/robots.txt")} == pages
    assert all(n == 1 for url, n in written.items() if url in pages)
    twice = [path for path, n in site.served.items() if n > 1 and path != "/robots.txt"]
    assert len(twice) <= 1


class AboutPolicy:
    """A stand-in for a learned model: every page is a list, its "About" links are items."""

    def is_list_page(self, url, links, root) -> bool:
        return True

    def item_links(self, url, links, root):
        return [link for link in links if link.anchor.startswith("About")]


def test_a_plugged_in_policy_decides_what_is_followed(serve, tmp_path: Path) -> None:
    site = serve(news_site())
    warc = tmp_path / "c.warc.gz"
    crawl([site.url("/news/2024/article-1.html")], warc, FAST, policy=AboutPolicy())
    assert states(warc, site) == {"/news/2024/article-1.html": "done", "/about.html": "done"}
    assert read_anchors(warc)[site.url("/about.html")][0]["text"] in {"About", "About us"}


class BrokenPolicy(AboutPolicy):
    def item_links(self, url, links, root):
        raise RuntimeError("model not loaded")


def test_a_failing_policy_costs_links_not_the_crawl(serve, tmp_path: Path) -> None:
    site = serve(news_site())
    warc = tmp_path / "c.warc.gz"
    stats = crawl([site.url("/news/"), site.url("/about.html")], warc, FAST,
                  policy=BrokenPolicy())
    assert stats.done == 2
    metadata = dict(iter_metadata(warc))
    assert metadata[site.url("/news/")]["error"] == (
        "internal: crawl policy failed: RuntimeError: model not loaded"
    )
