"""From pages to records: the one place that runs extractors and turns failures into records.

``Extractor`` owns the options of a run. ``extract`` handles one page with the single-page
method; ``extract_many`` a batch, in input order, one record per page whatever happens to it.
With a site-level method (``template``) the batch is grouped by site first: a site's pages are
learned together, then each page is cleaned with the template of its cluster. The ``visual``
method renders pages in a browser pool (kept open until ``close()``) and segments each rendering.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import signal
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import lxml.html

from sitesift.errors import EmptyPageError, PageError, PageTimeout, ProfileError
from sitesift.extract.content import extract_content
from sitesift.extract.metadata import Metadata, extract_metadata
from sitesift.options import SITE_METHODS, Options
from sitesift.parse import parse_html
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.compare.profile import SiteProfile
    from sitesift.compare.site import PageFeatures
    from sitesift.compare.store import ProfileStore
    from sitesift.compare.template import TemplateModel
    from sitesift.render import BrowserPool, Rendering
    from sitesift.segment.visual import VisualSegmenter

__all__ = ["Extractor", "extract_html"]

log = logging.getLogger(__name__)


#: Seconds between repeated time-outs of one over-long page (see ``_time_guard``).
TIMEOUT_REPEAT = 0.5


@contextlib.contextmanager
def _time_guard(seconds: float | None) -> Iterator[None]:
    """Raise ``PageTimeout`` in the guarded block after ``seconds``.

    Uses a real-time interval timer, so it works only in the main thread of a process (the
    CLI, and each worker process); elsewhere the block runs unguarded. A timer interrupts
    Python code between bytecodes, which covers every loop sitesift writes; a single C call
    (parsing one huge document) finishes first, and is bounded by ``max_page_bytes``.
    """
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum: int, frame: object) -> None:
        raise PageTimeout(f"page took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    # The timer fires again every TIMEOUT_REPEAT s until cleared: an exception raised while a
    # garbage-collector callback runs is swallowed by Python, and the next one still lands.
    signal.setitimer(signal.ITIMER_REAL, seconds, TIMEOUT_REPEAT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(slots=True)
class _Parsed:
    """A page parsed once, with what every method reads before the tree is edited."""

    root: lxml.html.HtmlElement
    meta: Metadata
    features: PageFeatures | None = None


class Extractor:
    """Runs one configured extraction over pages. Holds options and, optionally, the store of
    saved site profiles; nothing else carries over from one page or run to the next."""

    def __init__(
        self, options: Options | None = None, *, profiles: ProfileStore | None = None
    ) -> None:
        self.options = options or Options()
        self.profiles = profiles
        self._pool: BrowserPool | None = None
        self._segmenter: VisualSegmenter | None = None

    def close(self) -> None:
        """Close the browser the ``visual`` method opened (if any)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def __enter__(self) -> Extractor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one page -------------------------------------------------------------------------

    def extract(self, page: Page) -> Record:
        """The record of ``page`` by the single-page method; failures become ``error``
        records, never exceptions."""
        if self.options.method == "visual":
            return next(self._extract_visual([page]))
        record = Record(id=page.id, url=page.url, site=page.site)
        parsed = self._guarded(record, page, functools.partial(self._parse, page))
        if isinstance(parsed, _Parsed):
            self._guarded(record, page, functools.partial(self._finish, record, page, parsed))
        return record

    # -- a batch ---------------------------------------------------------------------------

    def extract_many(self, pages: Iterable[Page]) -> Iterator[Record]:
        """Records of ``pages`` in input order. With the page method this streams (pages are
        read as records go out); site-level methods read the batch, group it by site, and
        yield the records once their sites are done."""
        if self.options.method == "visual":
            yield from self._extract_visual(pages)
            return
        if self.options.method not in SITE_METHODS:
            for page in pages:
                yield self.extract(page)
            return
        yield from self._extract_sites(list(pages))

    def learn(self, pages: Iterable[Page]) -> list[SiteProfile]:
        """Learn the site profiles of ``pages`` (saved to the store when there is one), without
        extracting records. Pages that cannot be parsed are left out of learning."""
        from sitesift.compare.site import learn_site

        batch = list(pages)
        records, parsed = self._prepare(batch)
        groups, discovered = self._group_by_site(batch, parsed)
        profiles = []
        for site, group in groups.items():
            members = self._features(group, batch, records, parsed, structure=True)
            learned = learn_site(site, [parsed[i].features for i in members])  # type: ignore[misc]
            if self.profiles is not None and site not in discovered:
                self.profiles.put(learned.profile)
            profiles.append(learned.profile)
        if discovered and self.profiles is not None:
            log.warning("%d site(s) found by clustering were not saved: their names hold for "
                        "this run only (give sites or URLs to save profiles)", len(discovered))
        return profiles

    def _extract_sites(self, pages: list[Page]) -> list[Record]:
        records, parsed = self._prepare(pages)
        groups, discovered = self._group_by_site(pages, parsed)
        for site, members in groups.items():
            self._extract_site(
                site, members, pages, records, parsed, lasting=site not in discovered
            )
        return records

    def _prepare(self, pages: list[Page]) -> tuple[list[Record], dict[int, _Parsed]]:
        """A record per page, and the pages that parsed."""
        records = [Record(id=p.id, url=p.url, site=p.site) for p in pages]
        parsed: dict[int, _Parsed] = {}
        for i, page in enumerate(pages):
            result = self._guarded(records[i], page, functools.partial(self._parse, page))
            if isinstance(result, _Parsed):
                parsed[i] = result
        return records, parsed

    def _features(
        self, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, _Parsed], *, structure: bool,
    ) -> list[int]:
        """Compute the site features of ``members`` (in place); returns those that have them
        (a page whose features fail becomes an error record)."""
        from sitesift.compare.site import page_features

        kept = []
        for i in members:
            step = functools.partial(page_features, parsed[i].root, structure=structure)
            features = self._guarded(records[i], pages[i], step)
            if features is not None:
                parsed[i].features = features  # type: ignore[assignment]
                kept.append(i)
        return kept

    def _group_by_site(
        self, pages: list[Page], parsed: dict[int, _Parsed]
    ) -> tuple[dict[str, list[int]], set[str]]:
        """Pages by site key, and the names of the sites found by site discovery (pages
        without a key): those names hold for this run only, so they are never saved."""
        groups: dict[str, list[int]] = defaultdict(list)
        unknown = []
        for i in sorted(parsed):
            if pages[i].site is not None:
                groups[pages[i].site].append(i)
            else:
                unknown.append(i)
        if unknown:
            from sitesift.compare.cluster import discover_sites

            labels = discover_sites([parsed[i].root for i in unknown])
            for i, label in zip(unknown, labels, strict=True):
                groups[f"site-{int(label)}"].append(i)
        discovered = {f"site-{int(label)}" for label in labels} if unknown else set()
        return groups, discovered

    def _extract_site(
        self,
        site: str,
        members: list[int],
        pages: list[Page],
        records: list[Record],
        parsed: dict[int, _Parsed],
        *,
        lasting: bool,
    ) -> None:
        """``lasting``: the site has a name beyond this run, so its profile is read from and
        written to the store (when there is one)."""
        from sitesift.compare.site import learn_site

        store = self.profiles if lasting else None
        profile = None
        if store is not None:
            try:
                profile = store.get(site)
            except ProfileError as exc:  # stale or corrupt: learn the site again
                log.warning("%s; learning it again", exc)
        # Applying a saved profile needs signatures only; learning needs structures too.
        members = self._features(members, pages, records, parsed, structure=profile is None)
        features = [parsed[i].features for i in members]
        if profile is not None:
            assigned = profile.assign(f.signatures.values() for f in features)  # type: ignore[union-attr]
            models = [model for model, _ in assigned]
            clusters = [m.cluster if m else f"{site}#new-{j}" for j, m in enumerate(models)]
            member = False
        else:
            learned = learn_site(site, features)  # type: ignore[arg-type]
            models, clusters, member = learned.templates, learned.clusters, True
            if store is not None:
                store.put(learned.profile)
        for j, i in enumerate(members):
            record, model = records[i], models[j]
            record.site = record.site or site
            record.extra["cluster"] = clusters[j]
            finish = functools.partial(
                self._finish, record, pages[i], parsed[i], model, member=member
            )
            self._guarded(record, pages[i], finish)

    def _extract_visual(self, pages: Iterable[Page]) -> Iterator[Record]:
        """Pages render in the browser pool ahead of the consumer (``render_concurrency`` at
        once); each is parsed for its metadata, then segmented from its rendering (paper 002).
        A missing browser raises ``BrowserUnavailable`` here, before any record."""
        from sitesift.render import BrowserPool
        from sitesift.segment.visual import VisualSegmenter

        if self._pool is None:
            self._pool = BrowserPool(
                concurrency=self.options.render_concurrency, timeout=self.options.page_timeout,
                javascript=self.options.render_javascript,
            )
            self._segmenter = VisualSegmenter(self.options.visual)
        limit = self.options.max_page_bytes
        ahead, pages = itertools.tee(pages)
        futures = self._pool.render_many(
            "" if p.error or len(p.html) > limit else p.html for p in ahead
        )
        for page, future in zip(pages, futures, strict=True):
            record = Record(id=page.id, url=page.url, site=page.site)
            parsed = self._guarded(record, page, functools.partial(self._parse, page))
            if isinstance(parsed, _Parsed):
                step = functools.partial(self._finish_visual, record, parsed, future.result)
                self._guarded(record, page, step)
            yield record

    def _finish_visual(
        self, record: Record, parsed: _Parsed, rendering: Callable[[], Rendering]
    ) -> None:
        seg = self._segmenter.segment(  # type: ignore[union-attr]
            rendering(), declared_title=parsed.meta.title)
        record.method = "visual"
        record.title = seg.title_text or parsed.meta.title
        record.published = seg.time or parsed.meta.published
        record.author = parsed.meta.author
        record.text = seg.text
        record.extra["visual"] = {
            "blocks": len(seg.root.leaves()), "body_blocks": len(seg.body),
            "title": "visual" if seg.title_text else "metadata",
            "time": "visual" if seg.time else ("metadata" if record.published else None),
        }

    # -- steps -----------------------------------------------------------------------------

    def _guarded(self, record: Record, page: Page, step: Callable[[], object]) -> object:
        """Run ``step`` under the page's time limit; any failure becomes the record's error
        (and clears its fields). Returns the step's result, None on failure."""
        if page.error:
            record.error = page.error
            return None
        try:
            with _time_guard(self.options.page_timeout):
                return step()
        except PageError as exc:
            record.error = str(exc)
        except RecursionError:
            record.error = "extract: page structure too deep to process"
        except MemoryError:
            record.error = "extract: out of memory on this page"
        except Exception as exc:  # a bug in an extractor must not lose the page
            log.exception("internal error on page %s", page.id)
            record.error = f"internal: {type(exc).__name__}: {exc}"
        record.title = record.author = record.published = record.text = None
        record.page_type = record.method = None
        record.extra = {k: v for k, v in record.extra.items() if k == "cluster"}
        return None

    def _parse(self, page: Page) -> _Parsed:
        if len(page.html) > self.options.max_page_bytes:
            raise EmptyPageError(
                f"page of {len(page.html):,} characters exceeds the limit of "
                f"{self.options.max_page_bytes:,} (Options.max_page_bytes)"
            )
        root = parse_html(page.html)
        # Metadata reads the untouched tree; the content methods prune it afterwards.
        return _Parsed(root=root, meta=extract_metadata(root, url=page.url))

    def _finish(
        self,
        record: Record,
        page: Page,
        parsed: _Parsed,
        model: TemplateModel | None = None,
        *,
        member: bool = False,
    ) -> None:
        content = extract_content(parsed.root, url=page.url)
        if model is not None and parsed.features is not None:
            from sitesift.compare.site import clean_content

            content = clean_content(content, parsed.features, model, member=member)
            record.method = "template"
        else:
            record.method = "page"
        record.title = parsed.meta.title
        record.author = parsed.meta.author
        record.published = parsed.meta.published
        record.text = content.text
        record.page_type = content.page_type
        if self.options.output_format == "markdown":
            record.extra["markdown"] = content.markdown


def extract_html(html: str, *, url: str | None = None, options: Options | None = None) -> Record:
    """Convenience for one page held as a string: ``extract_html(html).text``."""
    return Extractor(options).extract(Page(id=url or "page", url=url, html=html))
