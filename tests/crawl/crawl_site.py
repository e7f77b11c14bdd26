"""A small web site for the crawl tests (served on 127.0.0.1 by conftest's ``serve``): a list
page, its articles, a same-layer page, robots.txt, slow, failing and flaky responses, redirects
and a redirect loop, a non-HTML file, a huge page and a latin-1 page. Counts what it served,
per path."""

from __future__ import annotations

import gzip
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HTML = "text/html; charset=utf-8"


def page(title: str, body: str) -> bytes:
    return (f"<!doctype html><html><head><title>{title}</title></head><body>"
            f"<nav><a href='/'>Home</a> <a href='/about.html'>About</a></nav>{body}"
            f"</body></html>").encode()


def list_page(items: list[tuple[str, str]]) -> bytes:
    lis = "".join(f"<li><a href='{href}'>{text}</a></li>" for href, text in items)
    return page("News", f"<h1>News</h1><ul class='list'>{lis}</ul>")


def article(title: str, extra: str = "") -> bytes:
    text = " ".join([f"{title} is told here in plain sentences."] * 20)
    return page(title, f"<article><h1>{title}</h1><p>{text}</p>{extra}</article>")


#: A route answers with (status, headers, body) or runs itself on the handler.
Route = Callable[["Site", BaseHTTPRequestHandler], tuple[int, list[tuple[str, str]], bytes] | None]


@dataclass
class Site:
    """The served site: routes by path, what was served, an optional hook before each answer."""

    routes: dict[str, Route] = field(default_factory=dict)
    served: Counter[str] = field(default_factory=Counter)
    requests: Counter[str] = field(default_factory=Counter)
    user_agents: set[str] = field(default_factory=set)
    before: Callable[[str], bool] | None = None  # returns False: drop the connection
    base: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, path: str, body: bytes, ctype: str = HTML, status: int = 200,
            headers: list[tuple[str, str]] | None = None) -> None:
        self.routes[path] = lambda site, h: (status, [("Content-Type", ctype), *(headers or [])],
                                             body)

    def url(self, path: str) -> str:
        return self.base + path


def handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path
            with site.lock:
                site.requests[path] += 1
                site.user_agents.add(self.headers.get("User-Agent", ""))
            if site.before is not None and not site.before(path):
                self.close_connection = True
                return
            route = site.routes.get(path)
            answer = route(site, self) if route else (404, [("Content-Type", HTML)],
                                                      page("Not found", "<p>no</p>"))
            if answer is None:
                return
            status, headers, body = answer
            try:
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
            except OSError:
                return
            with site.lock:
                site.served[path] += 1

    return Handler


class Server(ThreadingHTTPServer):
    """A threaded server that stays quiet about clients hanging up."""

    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # clients that give up (timeouts, size limits, kills) are part of the tests


def news_site() -> Site:
    """The site most tests crawl from /news/ (see the module docstring)."""
    site = Site()
    site.add("/robots.txt", b"User-agent: *\nDisallow: /private/\n", "text/plain")
    items = [(f"/news/2024/article-{i}.html", f"Article {i}: the council votes on budget item {i}")
             for i in range(1, 6)]
    items += [
        ("/private/secret.html", "A secret article that robots.txt keeps out"),
        ("/news/2024/flaky.html", "A flaky article that fails once, then works"),
        ("/news/2024/broken.html", "A broken article that always fails on the server"),
        ("/news/2024/slow.html", "A slow article that never arrives in time"),
        ("/news/2024/moved.html", "A moved article that redirects to article one"),
        ("/news/2024/loop-a.html", "A looping article that redirects back and forth"),
        ("/news/2024/report", "A report that is a PDF file, not an HTML page"),
        ("/news/2024/huge.html", "A huge article larger than the crawler's size limit"),
        ("/news/2024/latin.html", "A latin-1 article whose charset is in the header"),
        ("/news/2024/zipped.html", "A gzip-compressed article with its own links"),
        ("/news/2024/endless.html", "An endless article sent without a declared length"),
    ]
    site.add("/news/", list_page(items))
    for i in range(1, 6):
        extra = ("<aside><a href='/news/2024/article-9.html'>Same folder, same shape</a>"
                 "<a href='/about.html'>About us</a><a href='/news/'>All news</a></aside>")
        site.add(f"/news/2024/article-{i}.html", article(f"Article {i}", extra))
    site.add("/news/2024/article-9.html", article("Article 9"))
    site.add("/private/secret.html", article("Secret"))
    site.add("/about.html", article("About"))
    flaky = Counter[str]()

    def flaky_route(s: Site, h: BaseHTTPRequestHandler) -> tuple[int, list, bytes]:
        flaky["n"] += 1
        if flaky["n"] == 1:
            return 503, [("Content-Type", HTML)], page("Busy", "<p>try later</p>")
        return 200, [("Content-Type", HTML)], article("Flaky")

    site.routes["/news/2024/flaky.html"] = flaky_route
    site.add("/news/2024/broken.html", page("Error", "<p>oops</p>"), status=500)

    def slow_route(s: Site, h: BaseHTTPRequestHandler) -> tuple[int, list, bytes]:
        time.sleep(1.5)
        return 200, [("Content-Type", HTML)], article("Slow")

    site.routes["/news/2024/slow.html"] = slow_route
    site.add("/news/2024/moved.html", b"", status=301,
             headers=[("Location", "/news/2024/article-1.html")])
    site.add("/news/2024/loop-a.html", b"", status=302, headers=[("Location", "loop-b.html")])
    site.add("/news/2024/loop-b.html", b"", status=302, headers=[("Location", "loop-a.html")])
    site.add("/news/2024/report", b"%PDF-1.4 not a page", "application/pdf")
    site.add("/news/2024/huge.html", article("Huge", "<p>" + "x" * 300_000 + "</p>"))
    site.add("/news/2024/latin.html", article("Caf\u00e9 cr\u00e8me").decode().encode("latin-1"),
             "text/html; charset=iso-8859-1")
    site.add("/news/2024/zipped.html", gzip.compress(article("Zipped")), HTML,
             headers=[("Content-Encoding", "gzip")])


    def endless_route(s: Site, h: BaseHTTPRequestHandler) -> None:
        h.close_connection = True
        try:
            h.send_response(200)
            h.send_header("Content-Type", HTML)
            h.send_header("Connection", "close")
            h.end_headers()
            for _ in range(100):
                h.wfile.write(b"<p>" + b"y" * 10_000 + b"</p>")
        except OSError:
            pass

    site.routes["/news/2024/endless.html"] = endless_route
    return site


TOPICS = ("council", "budget", "schools", "roads", "parks", "housing")


def topic_site() -> Site:
    """A news site whose list pages link articles and topic pages (lists themselves) in repeated
    structures with long anchors, so page cues alone take both for items: /news/ lists articles
    1-5 and topics 1-3; the first topic page lists articles 11-15, topics 4-6 and, outside any
    repeated structure, a lead article 77."""
    site = Site()
    site.add("/robots.txt", b"User-agent: *\nAllow: /\n", "text/plain")

    def listing(articles: list[int], topics: list[str], lead: str = "") -> bytes:
        lis = "".join(f"<li><a href='/news/2024/article-{i}.html'>Article {i}: the council "
                      f"votes on budget item {i}</a></li>" for i in articles)
        tops = "".join(f"<li><a href='/topic/{t}/'>Everything about {t} in our town</a></li>"
                       for t in topics)
        return page("News", f"{lead}<h1>News</h1><ul class='list'>{lis}</ul>"
                    f"<ul class='topics'>{tops}</ul>")

    site.add("/news/", listing([1, 2, 3, 4, 5], list(TOPICS[:3])))
    lead = ("<div class='lead'><a href='/news/2024/article-77.html'>Today's lead story on "
            "the council</a></div>")
    site.add(f"/topic/{TOPICS[0]}/", listing([11, 12, 13, 14, 15], list(TOPICS[3:]), lead))
    for topic in TOPICS[1:]:
        site.add(f"/topic/{topic}/", listing([21, 22, 23, 24, 25], []))
    for i in (1, 2, 3, 4, 5, 11, 12, 13, 14, 15, 21, 22, 23, 24, 25, 77):
        site.add(f"/news/2024/article-{i}.html", article(f"Article {i}"))
    return site


def whole_post(i: int, heading: str = "h2") -> str:
    """One post as a blog's home page shows it whole: a linked title, then its text; the
    post's element has classes of its own (as blogs give them: post id, category, tags)."""
    text = "".join(f"<p>Paragraph {k} of post {i}, in plain sentences that readers came "
                   f"for, with commas, clauses and a full stop. {'More of it, told. ' * 12}</p>"
                   for k in range(5))
    return (f"<article class='post-{i} category-c{i % 3} tag-t{i % 2}'><header>"
            f"<{heading} class='entry-title'><a href='/2024/post-{i}/'>Post {i} of the blog"
            f"</a></{heading}></header><div class='entry-content'>{text}</div></article>")


def blog_site(posts: int = 6) -> Site:
    """A blog whose home page shows its posts whole (no list of links), whose posts end with
    two related posts under their text (linked titles in <h3>)."""
    site = Site()
    site.add("/robots.txt", b"User-agent: *\nAllow: /\n", "text/plain")
    site.add("/", page("Blog", "".join(whole_post(i) for i in range(1, posts + 1))))
    for i in range(1, posts + 1):
        related = "".join(f"<h3><a href='/2024/post-{j}/'>Post {j} of the blog</a></h3>"
                          for j in (i % posts + 1, (i + 1) % posts + 1))
        site.add(f"/2024/post-{i}/", page(f"Post {i}", whole_post(i, "h1").replace(
            f"<a href='/2024/post-{i}/'>Post {i} of the blog</a>", f"Post {i} of the blog")
            + f"<aside>{related}</aside>"))
    return site
