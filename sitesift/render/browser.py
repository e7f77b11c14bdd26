"""A pool over one headless Chromium: many pages rendered at once from their saved HTML.

Pages are rendered offline: every network request is blocked (inline ``data:`` URLs need none),
JavaScript is off unless asked for, the viewport is a fixed desktop width. One ``evaluate``
call per page collects what visual segmentation reads: each visible element's box, font size
and weight, colours and background, and its children in document order.

Playwright's async API runs on an event loop in a private thread, so the synchronous callers
(the pipeline, the CLI) can keep ``concurrency`` pages in flight in one browser. A page that
hangs or crashes its tab becomes a ``RenderError``/``PageTimeout`` for that page only; a
browser that dies is launched again for the next page. No browser at all is
``BrowserUnavailable`` naming the install step.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import shutil
import threading
import weakref
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sitesift.errors import BrowserUnavailable, PageTimeout, RenderError

__all__ = [
    "INSTALL_HINT", "BrowserPool", "Element", "Rendering", "TextPiece", "find_chromium",
]

#: What to run when the browser or its driver is missing (no browser download from the web).
INSTALL_HINT = (
    "install Debian's Chromium and the Playwright driver: "
    "`apt-get install -y chromium` and `python -m pip install 'sitesift[visual]'` "
    "(no `playwright install` needed)"
)
#: Where Debian and Ubuntu put the browser; ``SITESIFT_CHROMIUM`` overrides.
CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
#: Flags for a quiet, offline, headless browser (measured: /work/shared/notes/dependencies.md).
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--disable-dev-shm-usage",
)
#: A common desktop width; pages lay out as most readers see them. Height only affects
#: what counts as "above the fold"; boxes cover the whole page.
VIEWPORT = {"width": 1366, "height": 768}

_COLLECT_JS = """// One pass over the rendered document: every visible element with its box (page
// coordinates), font size and weight, colours and background, and its children in order
// (element indexes, and text pieces as [text, x, y, width, height]).
// Returns {width, height, elements}.
() => {
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK",
    "TITLE", "BASE", "OPTION", "SELECT", "TEXTAREA", "INPUT", "BUTTON", "IFRAME", "SVG",
    "svg", "MATH", "CANVAS", "AUDIO", "VIDEO", "OBJECT", "EMBED", "MAP"]);
  const sx = window.scrollX, sy = window.scrollY;
  const out = [];
  const range = document.createRange();
  const visit = (el, parent) => {
    const st = getComputedStyle(el);
    if (st.display === "none" || st.visibility === "hidden" || st.visibility === "collapse" ||
        parseFloat(st.opacity) === 0) return;
    const r = el.getBoundingClientRect();
    const me = out.length;
    const row = [el.tagName.toLowerCase(), parent,
      Math.round(r.left + sx), Math.round(r.top + sy), Math.round(r.width), Math.round(r.height),
      parseFloat(st.fontSize) || 0, parseInt(st.fontWeight, 10) || 400, st.color,
      st.backgroundColor, st.backgroundImage !== "none" ? 1 : 0, st.display, []];
    out.push(row);
    const kids = row[12];
    for (const child of el.childNodes) {
      if (child.nodeType === 3) {
        if (!child.data.trim()) continue;
        range.selectNodeContents(child);
        const t = range.getBoundingClientRect();
        kids.push([child.data, Math.round(t.left + sx), Math.round(t.top + sy),
                   Math.round(t.width), Math.round(t.height)]);
      } else if (child.nodeType === 1 && !SKIP.has(child.tagName)) {
        const idx = out.length;
        visit(child, me);
        if (out.length > idx) kids.push(idx);
      }
    }
  };
  const root = document.body || document.documentElement;
  if (root) visit(root, -1);
  const doc = document.documentElement;
  return {
    width: Math.max(doc.scrollWidth, root ? root.scrollWidth : 0),
    height: Math.max(doc.scrollHeight, root ? root.scrollHeight : 0),
    elements: out,
  };
}
"""


@dataclass(frozen=True, slots=True)
class TextPiece:
    """A text node as laid out (box of all its lines)."""

    text: str
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Element:
    """One visible element as laid out: box in page pixels, computed style, children."""

    index: int
    tag: str
    parent: int
    x: float
    y: float
    width: float
    height: float
    font_size: float
    font_weight: int
    color: str
    background: str
    background_image: bool
    display: str
    #: Children in document order: element indexes, and text pieces with their box.
    children: tuple[int | TextPiece, ...]


@dataclass(frozen=True, slots=True)
class Rendering:
    """A rendered page: document size and every visible element (index 0 is ``<body>``)."""

    width: float
    height: float
    elements: tuple[Element, ...]
    screenshot: bytes | None = None


def _rendering(raw: dict[str, Any], screenshot: bytes | None) -> Rendering:
    elements = tuple(
        Element(i, tag, parent, x, y, w, h, fs, fw, color, bg, bool(bgi), display,
                tuple(k if isinstance(k, int) else TextPiece(*k) for k in kids))
        for i, (tag, parent, x, y, w, h, fs, fw, color, bg, bgi, display, kids)
        in enumerate(raw["elements"])
    )
    return Rendering(float(raw["width"]), float(raw["height"]), elements, screenshot)


def find_chromium() -> str:
    """Path of the Chromium executable, or ``BrowserUnavailable`` with the install step."""
    candidates = [os.environ.get("SITESIFT_CHROMIUM", ""), *CHROMIUM_PATHS, "chromium"]
    for candidate in candidates:
        found = candidate and (shutil.which(candidate) or None)
        if found:
            return found
    raise BrowserUnavailable(f"no Chromium executable found; {INSTALL_HINT}")


class BrowserPool:
    """One Chromium serving many pages, ``concurrency`` at a time. Use as a context manager
    or call ``close()``; an unclosed pool is closed when garbage-collected or at exit."""

    def __init__(self, *, concurrency: int = 4, timeout: float | None = 30.0,
                 javascript: bool = False, executable: str | None = None) -> None:
        try:
            import playwright.async_api  # noqa: F401
        except ImportError as exc:
            raise BrowserUnavailable(
                f"the Playwright driver is not installed; {INSTALL_HINT}") from exc
        self.executable = executable or find_chromium()
        self.concurrency = concurrency
        self.timeout = timeout
        self.javascript = javascript
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="sitesift-browser")
        self._thread.start()
        self._state: dict[str, Any] = {}
        self._finalizer = weakref.finalize(self, _shutdown, self._loop, self._thread, self._state)
        # Launch now, so a broken installation fails here with the install hint, not per page.
        self._call(self._browser())

    # -- synchronous surface ---------------------------------------------------------------

    def render(self, html: str, *, screenshot: bool = False) -> Rendering:
        """Render one page (blocks until done)."""
        return self._call(self._render(html, screenshot))

    def submit(
        self, html: str, *, screenshot: bool = False
    ) -> concurrent.futures.Future[Rendering]:
        """Start rendering ``html``; the future gives the ``Rendering`` or raises a page error.
        At most ``concurrency`` pages render at once; the rest wait their turn."""
        return asyncio.run_coroutine_threadsafe(self._render(html, screenshot), self._loop)

    def render_many(self, htmls: Iterable[str]) -> Iterator[concurrent.futures.Future[Rendering]]:
        """Futures of ``htmls`` in input order, keeping about ``2 * concurrency`` submitted
        ahead of the consumer so the browser never waits for it (and memory stays bounded)."""
        ahead: deque[concurrent.futures.Future[Rendering]] = deque()
        try:
            for html in htmls:
                ahead.append(self.submit(html))
                if len(ahead) >= 2 * self.concurrency:
                    yield ahead.popleft()
            while ahead:
                yield ahead.popleft()
        finally:
            for future in ahead:  # the consumer stopped early
                future.cancel()

    def close(self) -> None:
        self._finalizer()

    def __enter__(self) -> BrowserPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, coro: Any) -> Any:
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()  # e.g. the pipeline's time guard fired while we waited
            raise

    # -- on the browser thread -------------------------------------------------------------

    async def _browser(self) -> Any:
        state = self._state
        browser = state.get("browser")
        if browser is not None and browser.is_connected():
            return browser
        from playwright.async_api import Error, async_playwright

        if "semaphore" not in state:
            state["semaphore"] = asyncio.Semaphore(self.concurrency)
            state["launch"] = asyncio.Lock()
        async with state["launch"]:
            browser = state.get("browser")
            if browser is not None and browser.is_connected():
                return browser
            if "playwright" not in state:
                state["playwright"] = await async_playwright().start()
            try:
                browser = await state["playwright"].chromium.launch(
                    executable_path=self.executable, args=list(CHROMIUM_FLAGS), headless=True)
            except Error as exc:
                raise BrowserUnavailable(
                    f"Chromium at {self.executable} did not start ({str(exc).splitlines()[0]}); "
                    f"{INSTALL_HINT}") from exc
            context = await browser.new_context(
                viewport=VIEWPORT, java_script_enabled=self.javascript,
                service_workers="block", offline=True)
            await context.route("**/*", _block)
            state["browser"], state["context"] = browser, context
            return browser

    async def _render(self, html: str, screenshot: bool) -> Rendering:
        from playwright.async_api import Error

        await self._browser()
        async with self._state["semaphore"]:
            await self._browser()  # it may have died while we waited
            page = await self._state["context"].new_page()
            try:
                return await asyncio.wait_for(self._collect(page, html, screenshot), self.timeout)
            except TimeoutError:
                raise PageTimeout(f"rendering took longer than {self.timeout:g} s") from None
            except Error as exc:
                raise RenderError(f"the browser tab failed: {str(exc).splitlines()[0]}") from None
            finally:
                with contextlib.suppress(TimeoutError, Error):  # a hung or crashed tab
                    await asyncio.wait_for(page.close(), 5)

    async def _collect(self, page: Any, html: str, screenshot: bool) -> Rendering:
        await page.set_content(html, wait_until="domcontentloaded")
        raw = await page.evaluate(_COLLECT_JS)
        shot = await page.screenshot(full_page=True, type="png") if screenshot else None
        return _rendering(raw, shot)


async def _block(route: Any) -> None:
    """Every request is aborted: the saved HTML is all the page gets."""
    await route.abort()


def _shutdown(loop: asyncio.AbstractEventLoop, thread: threading.Thread,
              state: dict[str, Any]) -> None:
    async def stop() -> None:
        for name in ("context", "browser"):
            if name in state:
                with contextlib.suppress(Exception):  # already gone
                    await state.pop(name).close()
        if "playwright" in state:
            await state.pop("playwright").stop()

    if loop.is_running():
        with contextlib.suppress(Exception):  # shutting down anyway
            asyncio.run_coroutine_threadsafe(stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
    if not loop.is_running():
        loop.close()
