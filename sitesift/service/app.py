"""The HTTP API and inspector of ``sitesift serve``, built on FastAPI.

Why FastAPI: a maintained async framework (on Starlette) whose request and response models
give the OpenAPI spec (``/openapi.json``, browsable at ``/docs``) and the validation of
request bodies in one place; uvicorn serves it.

How a request runs: the event loop only validates, keeps the site's recent pages
(``memory.SiteMemory``) and decides whether the site is due for learning; learning and
extraction are CPU-bound and run in a worker pool (``work.run_job``), processes by default so
that ``Options.page_timeout`` holds per page and a slow page cannot hold the loop. Each
request also has a deadline (``request_timeout``: 504 when it passes). Profiles live in the
SQLite ``ProfileStore``, whose WAL mode and write transactions make concurrent workers safe.

Errors: 400 bad JSON, 413 body too large, 415 body not JSON, 422 a field is wrong (html holds
no markup), 404 unknown site or page, 503 workers gone, 504 over time. A page that parses but
fails extraction is no HTTP error: its record has ``error`` set, as in a batch.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import multiprocessing
import os
import re
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, create_model
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sitesift import __version__
from sitesift.input.sitekey import site_key, url_problem
from sitesift.input.sources import crawl_time, without_lone_surrogates
from sitesift.options import Options
from sitesift.record import RECORD_FIELDS, Page
from sitesift.service.memory import MemorySettings, SiteHistory, SiteMemory
from sitesift.service.work import (
    Job,
    JobResult,
    blocks_supported,
    run_job,
    summarise_profile,
    warm_up,
)

__all__ = ["ServiceSettings", "create_app", "serve"]

T = TypeVar("T")

#: Largest request body: a few big pages, or a learning batch of ordinary ones. Pages above
#: ``Options.max_page_bytes`` still become error records.
DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024
#: Seconds a request may take, learning included (learning 30 recent pages takes ~2-5 s on
#: this 2-core machine; a page alone well under 1 s).
DEFAULT_REQUEST_TIMEOUT = 60.0
#: Worker processes: one per core of this machine's two; 0 runs work in threads (no per-page
#: time limit, for tests and debugging).
DEFAULT_WORKERS = min(2, os.cpu_count() or 1)
#: Pages one /learn request may carry.
MAX_LEARN_PAGES = 500
#: Something that looks like a tag: what sets HTML apart from plain text or binary junk.
_TAG = re.compile(r"<\s*[A-Za-z!/?]")
_STATIC = resources.files("sitesift.service") / "static"
#: The inspector renders pages in an iframe without scripts; this policy, inherited by the
#: iframe's srcdoc, also keeps the page's images, fonts and styles from being fetched
#: (offline, and nothing leaks to the page's servers).
_INSPECTOR_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                  "font-src 'none'; connect-src 'self'; frame-src 'self'; object-src 'none'")


@dataclass(frozen=True, slots=True, kw_only=True)
class ServiceSettings:
    """Everything ``create_app`` needs; the CLI builds it from ``sitesift serve`` flags."""

    #: SQLite profile store; None: a temporary one for the life of the process.
    profiles: str | None = None
    #: Extraction options (the service picks ``template`` or ``page`` per page itself).
    options: Options = field(default_factory=Options)
    workers: int = DEFAULT_WORKERS
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    memory: MemorySettings = field(default_factory=MemorySettings)

    def __post_init__(self) -> None:
        if self.workers < 0:
            raise ValueError("workers must be 0 (threads) or more")
        if self.max_request_bytes <= 0 or not self.request_timeout > 0:
            raise ValueError("max_request_bytes and request_timeout must be positive")


# -- request and response models (the OpenAPI spec) -----------------------------------------


class PageIn(BaseModel):
    """One page to extract or learn from."""

    model_config = ConfigDict(extra="forbid")
    html: str = Field(description="the page's HTML, decoded to text")
    url: str | None = Field(None, description="where the page was fetched; gives its site")
    site: str | None = Field(None, description="site key, when the URL does not say it")
    id: str | None = Field(None, description="page id; default the URL, else a hash of html")
    fetched: str | None = Field(None, description="when the page was fetched, ISO 8601: "
                                "relative dates (\"3 hours ago\") are read against it")


class LearnIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pages: list[PageIn] = Field(max_length=MAX_LEARN_PAGES)


#: An extraction record as ``sitesift extract`` writes it: the core fields of
#: ``record.RECORD_FIELDS`` (built from them, so the spec follows the record), then extra keys
#: such as ``cluster`` and ``blocks``.
RecordOut = create_model(  # type: ignore[call-overload]
    "RecordOut",
    __config__=ConfigDict(extra="allow"),
    **{name: ((str, ...) if name == "id" else (str | None, None)) for name in RECORD_FIELDS},
)


class LearnOut(BaseModel):
    sites: list[dict[str, Any]]
    unsited: int = Field(description="pages left out: neither site nor URL says their site")


# -- the size limit ---------------------------------------------------------------------------


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, by Content-Length when given and
    by counting the stream otherwise, before the body is read into memory whole."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            await self._refuse(scope, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:  # FastAPI passes an HTTPException on as it is
                    raise HTTPException(413, self._message())
            return message

        await self.app(scope, counted, send)

    def _message(self) -> str:
        return f"request body larger than the limit of {self.limit:,} bytes"

    async def _refuse(self, scope: Scope, send: Send) -> None:
        response = JSONResponse({"detail": self._message()}, status_code=413)
        await response(scope, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


# -- the application ------------------------------------------------------------------------


@dataclass(slots=True)
class _State:
    settings: ServiceSettings
    store: str
    pool: concurrent.futures.Executor
    memory: SiteMemory


def _pool(workers: int) -> concurrent.futures.Executor:
    if workers == 0:
        return concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="sift")
    # spawn: a forked child of a threaded server could inherit held locks.
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("spawn")
    )


def create_app(settings: ServiceSettings | None = None) -> FastAPI:
    """The service as an ASGI application (``uvicorn.run(create_app(...))``)."""
    settings = settings or ServiceSettings()
    app = FastAPI(
        title="sitesift", version=__version__, lifespan=partial(_lifespan, settings),
        description="Clean records from web pages; learns each site's templates as its pages "
        "arrive. The inspector is at /inspector.",
    )
    app.add_middleware(BodyLimit, limit=settings.max_request_bytes)
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.mount("/inspector/static", StaticFiles(directory=str(_STATIC)), name="static")
    _page_routes(app)
    _site_routes(app)
    _inspector_routes(app)
    return app


@contextlib.asynccontextmanager
async def _lifespan(settings: ServiceSettings, app: FastAPI) -> AsyncIterator[None]:
    """The store (a temporary one without ``settings.profiles``), checked at start-up, and the
    worker pool, warmed up; both closed at exit."""
    from sitesift.profiles.store import ProfileStore

    with contextlib.ExitStack() as stack:
        if settings.profiles is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="sitesift-"))
            store = str(Path(folder) / "profiles.db")
        else:
            store = settings.profiles
        ProfileStore(store).close()  # fail at start-up, not on the first request
        pool = _pool(settings.workers)
        st = app.state.sift = _State(settings, store, pool, SiteMemory(settings.memory))
        # The pool in use at exit: a broken one is replaced while serving.
        stack.callback(lambda: st.pool.shutdown(wait=True, cancel_futures=True))
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(pool, warm_up)
                               for _ in range(max(1, settings.workers))))
        yield


def _state(request: Request) -> _State:
    return request.app.state.sift  # type: ignore[no-any-return]


async def _run(st: _State, call: Callable[[], T]) -> T:
    """``call`` in the worker pool within the request deadline."""
    loop = asyncio.get_running_loop()
    pool = st.pool
    try:
        return await asyncio.wait_for(loop.run_in_executor(pool, call),
                                      st.settings.request_timeout)
    except TimeoutError:
        raise HTTPException(504, f"request took longer than the limit of "
                            f"{st.settings.request_timeout:g} s") from None
    except BrokenProcessPool:
        if st.pool is pool:  # a worker died (out of memory): start anew, once
            st.pool = _pool(st.settings.workers)
            pool.shutdown(wait=False, cancel_futures=True)
        raise HTTPException(503, "a worker process died; try again") from None


async def _with_learning(hist: SiteHistory | None, learn: tuple[Page, ...],
                         job: Callable[[], Awaitable[T]]) -> T:
    """``job``; when it learns, under the site's lock: two learnings never overlap."""
    if not learn or hist is None:
        return await job()
    async with hist.learning:
        return await job()


def _page_routes(app: FastAPI) -> None:
    """Health, and pages in: one page extracted, a batch learned."""

    @app.get("/health", summary="liveness and configuration")
    async def health(request: Request) -> dict[str, Any]:
        st = _state(request)
        return {"status": "ok", "version": __version__, "workers": st.settings.workers,
                "sites_in_memory": len(st.memory.sites()), "blocks": blocks_supported()}

    @app.post("/extract", response_model=RecordOut, response_model_exclude_unset=False,
              summary="extract one page; its site is learned as its pages arrive")
    async def extract(body: PageIn, request: Request) -> dict[str, Any]:
        st = _state(request)
        page = _page(body, st.settings.options)
        learn: tuple[Page, ...] = ()
        hist = st.memory.history(page.site) if page.site is not None else None
        if hist is not None:
            hist.add(page)
            if hist.due(st.settings.memory):
                learn = hist.start_learning()
        job = Job(st.settings.options, st.store, page=page, learn=learn)
        result: JobResult = await _with_learning(
            hist, learn, lambda: _run(st, partial(run_job, job)))
        assert result.record is not None
        if hist is not None:
            hist.note(result.record)
        return result.record

    @app.post("/learn", response_model=LearnOut,
              summary="learn the sites of a batch of pages (with their recent pages)")
    async def learn(body: LearnIn, request: Request) -> dict[str, Any]:
        st = _state(request)
        by_site: dict[str, list[Page]] = {}
        unsited = 0
        for item in body.pages:
            page = _page(item, st.settings.options)
            if page.site is None:
                unsited += 1
                continue
            st.memory.history(page.site).add(page)
            by_site.setdefault(page.site, []).append(page)

        async def learn_site(site: str) -> dict[str, Any]:
            hist = st.memory.history(site)
            pages = hist.start_learning()
            job = Job(st.settings.options, st.store, learn=pages)
            result = await _with_learning(hist, pages, lambda: _run(st, partial(run_job, job)))
            return result.learned or {"site": site, "pages": len(pages), "templates": 0}

        # Sites learn in parallel, as many at once as there are workers.
        learned = await asyncio.gather(*(learn_site(site) for site in by_site))
        return {"sites": learned, "unsited": unsited}


def _site_routes(app: FastAPI) -> None:
    """What the service knows of its sites: the list, one site's profile and recent pages, and
    one recent page extracted again (the inspector's views)."""

    @app.get("/sites", summary="sites with a saved profile or recent pages")
    async def sites(request: Request) -> list[dict[str, Any]]:
        st = _state(request)
        saved = {row["site"]: row for row in await asyncio.to_thread(_saved_sites, st.store)}
        out = []
        for site in sorted(set(saved) | set(st.memory.sites())):
            hist = st.memory.get(site)
            row = dict(saved.get(site) or {"site": site, "pages": 0, "templates": 0})
            row["profile"] = site in saved
            row["recent"] = len(hist.pages) if hist else 0
            row["seen"] = hist.seen if hist else 0
            out.append(row)
        return out

    @app.get("/sites/{site}", summary="a site's learned profile and its recent pages by cluster")
    async def site_summary(site: str, request: Request) -> dict[str, Any]:
        st = _state(request)
        hist = st.memory.get(site)
        pages = tuple(hist.pages) if hist else ()
        summary = await _run(st, partial(summarise_profile, st.store, site, pages))
        if summary.get("profile", 0) is None and hist is None:
            raise HTTPException(404, f"unknown site {site!r}: no profile, no recent pages")
        assigned = summary.pop("assigned", None) or {}
        summary["clusters"], summary["recent"] = _recent(hist, pages, assigned)
        summary["learning"] = ({"seen": hist.seen, "learned_at": hist.learned_at,
                                "unassigned": hist.unassigned} if hist else None)
        return summary

    @app.get("/sites/{site}/page", summary="a recent page: its HTML and a fresh record")
    async def site_page(site: str, id: str, request: Request) -> dict[str, Any]:
        """The record is extracted again with the site's current profile, with ``blocks``
        (content and noise blocks with reasons) when this sitesift has them; ``template_blocks``
        are the template method's decisions on the page (``explain.template_blocks``)."""
        st = _state(request)
        hist = st.memory.get(site)
        page = hist.page(id) if hist else None
        if page is None:
            raise HTTPException(404, f"no recent page {id!r} of site {site!r}")
        job = Job(st.settings.options, st.store, page=page, blocks=True)
        result = await _run(st, partial(run_job, job))
        return {"id": page.id, "url": page.url, "html": page.html, "record": result.record,
                "blocks": blocks_supported(), "template_blocks": result.template_blocks}


def _recent(hist: SiteHistory | None, pages: tuple[Page, ...], assigned: dict[str, str | None],
            ) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """A site's recent pages with their templates, and how many pages each template has."""
    recent = []
    clusters: dict[str, int] = {}
    for page in pages:
        record = hist.records.get(page.id, {}) if hist else {}
        # The page's template under the current profile; else what its record said.
        cluster = assigned.get(page.id) or (
            "(no template)" if page.id in assigned else record.get("cluster") or "(none)")
        clusters[cluster] = clusters.get(cluster, 0) + 1
        recent.append({"id": page.id, "url": page.url, "cluster": cluster,
                       "title": record.get("title"), "method": record.get("method"),
                       "error": record.get("error")})
    return clusters, recent


def _inspector_routes(app: FastAPI) -> None:
    """The inspector's page (``/`` leads to it)."""

    @app.get("/", include_in_schema=False)
    async def root() -> RedirectResponse:
        return RedirectResponse("/inspector")

    @app.get("/inspector", include_in_schema=False)
    async def inspector() -> FileResponse:
        return FileResponse(str(_STATIC / "index.html"),
                            headers={"Content-Security-Policy": _INSPECTOR_CSP})


def _page(body: PageIn, options: Options) -> Page:
    """The pipeline's ``Page`` for a request page; 422 when ``html`` is not HTML."""
    body = _utf8(body)
    if not body.html.strip():
        raise HTTPException(422, "field html is empty")
    if "\x00" in body.html or not _TAG.search(body.html):
        raise HTTPException(422, "field html is not HTML: no tag found (send the page's "
                            "markup, decoded to text)")
    if problem := url_problem(body.url):
        raise HTTPException(422, f"field url: {problem}")
    crawled = crawl_time(body.fetched)
    if body.fetched is not None and crawled is None:
        raise HTTPException(422, "field fetched is no ISO 8601 date (2026-11-26T10:00:00Z)")
    page_id = body.id or body.url or hashlib.sha1(body.html.encode()).hexdigest()[:16]
    site = site_key(body.url, body.site, None, mode=options.site_key)
    return Page(id=page_id, url=body.url, site=site, html=body.html, source="service",
                crawled=crawled)


def _utf8(body: PageIn) -> PageIn:
    """``body`` with any lone surrogate (JSON may escape one: ``"\\ud800"``) as U+FFFD: no
    UTF-8 text holds one, so the page could be neither hashed nor answered (a 500)."""
    fields = {name: getattr(body, name) for name in ("html", "url", "site", "id")}
    try:
        "".join(v for v in fields.values() if v is not None).encode("utf-8")
    except UnicodeEncodeError:
        return body.model_copy(update=without_lone_surrogates(fields))
    return body


def _saved_sites(store: str) -> list[dict[str, Any]]:
    from sitesift.profiles.store import ProfileStore

    with ProfileStore(store) as opened:
        return opened.sites()


async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    """Validation errors said plainly: 415 not JSON, 400 broken JSON, 422 wrong fields."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind and kind != "application/json" and not kind.endswith("+json"):
        return JSONResponse({"detail": f"send the body as application/json, not {kind}"}, 415)
    errors = exc.errors()
    broken = next((e for e in errors if e.get("type") == "json_invalid"), None)
    if broken is not None:
        reason = (broken.get("ctx") or {}).get("error", "")
        return JSONResponse({"detail": f"request body is not valid JSON: {reason}".rstrip(": ")},
                            400)
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'body'}: {e.get('msg')}"
        for e in errors
    )
    # Only where and what: the offending input may be a whole page.
    brief = [{"loc": list(e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type")}
             for e in errors]
    return JSONResponse({"detail": problems, "errors": brief}, 422)


def serve(settings: ServiceSettings, *, host: str = "127.0.0.1", port: int = 8080) -> None:
    """Run the service with uvicorn until interrupted (``sitesift serve``)."""
    import uvicorn

    uvicorn.run(create_app(settings), host=host, port=port, log_level="info")
