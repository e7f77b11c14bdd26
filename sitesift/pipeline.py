"""From pages to records: the one place that runs extractors and turns failures into records.

``Extractor`` owns the options of a run. ``extract`` handles one page; ``extract_many`` a batch,
in input order, one record per page whatever happens to it.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Iterable, Iterator

from sitesift.errors import EmptyPageError, PageError, PageTimeout
from sitesift.extract.content import extract_content
from sitesift.extract.metadata import extract_metadata
from sitesift.options import Options
from sitesift.parse import parse_html
from sitesift.record import Page, Record

__all__ = ["Extractor", "extract_html"]

log = logging.getLogger(__name__)


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
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Extractor:
    """Runs one configured extraction over pages. Holds no state between pages but options."""

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or Options()

    def extract(self, page: Page) -> Record:
        """The record of ``page``; failures become ``error`` records, never exceptions."""
        record = Record(id=page.id, url=page.url, site=page.site)
        if page.error:
            record.error = page.error
            return record
        try:
            with _time_guard(self.options.page_timeout):
                self._fill(record, page)
        except PageError as exc:
            record.error = str(exc)
        except RecursionError:
            record.error = "extract: page structure too deep to process"
        except MemoryError:
            record.error = "extract: out of memory on this page"
        except Exception as exc:  # a bug in an extractor must not lose the page
            log.exception("internal error on page %s", page.id)
            record.error = f"internal: {type(exc).__name__}: {exc}"
        if record.error:
            record.title = record.author = record.published = record.text = None
            record.page_type = None
            record.extra.clear()
        return record

    def extract_many(self, pages: Iterable[Page]) -> Iterator[Record]:
        """Records of ``pages`` in input order (a generator: pages are read as records go out)."""
        for page in pages:
            yield self.extract(page)

    def _fill(self, record: Record, page: Page) -> None:
        if len(page.html) > self.options.max_page_bytes:
            raise EmptyPageError(
                f"page of {len(page.html):,} characters exceeds the limit of "
                f"{self.options.max_page_bytes:,} (Options.max_page_bytes)"
            )
        root = parse_html(page.html)
        # Metadata reads the untouched tree; content extraction may prune it afterwards.
        meta = extract_metadata(root, url=page.url)
        content = extract_content(root, url=page.url)
        record.title = meta.title
        record.author = meta.author
        record.published = meta.published
        record.text = content.text
        record.page_type = content.page_type
        record.method = "page"
        if self.options.output_format == "markdown":
            record.extra["markdown"] = content.markdown


def extract_html(html: str, *, url: str | None = None, options: Options | None = None) -> Record:
    """Convenience for one page held as a string: ``extract_html(html).text``."""
    return Extractor(options).extract(Page(id=url or "page", url=url, html=html))
