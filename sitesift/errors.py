"""Every exception sitesift raises, in one place.

Hierarchy (who raises each is said on the class)::

    SiftError
    ├── UsageError            bad options or arguments (CLI exit code 2)
    │   └── BrowserUnavailable  a method needs Chromium/Playwright and they are not installed
    ├── InputError            a source cannot be read at all (missing manifest, unreadable folder)
    │   └── ProfileError      a saved site profile is stale (older format) or corrupt
    └── PageError             one page failed; becomes the record's ``error`` field
        ├── DecodeError       bytes that no encoding turns into text
        ├── EmptyPageError    nothing to parse: empty file, no markup, no body text
        ├── ParseError        the HTML parser gave up
        ├── PageLimitError    a page over a stated limit that cannot be read up to it
        ├── PageTimeout       the per-page time limit ran out
        ├── RenderError       the browser tab rendering the page crashed or failed
        └── ExtractionError   an extractor failed on a parsed page

A ``PageError`` never stops a batch: the pipeline catches it, writes a record with ``error`` set
to ``"<kind>: <message>"`` and goes on. Anything else escaping an extractor is a bug; the
pipeline still records it (kind ``internal``) so no page is lost.

Only a page with no text to be had is an error record: bytes that are no document (``decode``,
``empty``, ``parse``) or a hard time-out. Limits degrade instead (a page is read up to them),
and a failure on a parsed page (``timeout``, ``limit``, ``extract``, ``internal``) takes a
cheaper path first: the page method alone for a failed site-level step, the page's visible
text for a failed extraction. The record then says ``"<kind>: <message>; ..."`` in its
``warnings`` (a list, present only when there is one), not in ``error``.
"""

from __future__ import annotations

__all__ = [
    "BrowserUnavailable",
    "DecodeError",
    "EmptyPageError",
    "ExtractionError",
    "InputError",
    "PageError",
    "PageLimitError",
    "PageTimeout",
    "ParseError",
    "ProfileError",
    "RenderError",
    "SiftError",
    "UsageError",
]


class SiftError(Exception):
    """Base of every error sitesift raises on purpose."""


class UsageError(SiftError, ValueError):
    """Raised by ``Options`` and the CLI for invalid or incoherent settings."""


class BrowserUnavailable(UsageError):
    """Raised by ``sitesift.render`` when the run asks for a browser-based method (``visual``,
    ``render``) but Chromium or Playwright is missing: the message names the install step.
    It stops the run (exit code 2) instead of failing every page the same way."""


class InputError(SiftError):
    """Raised by ``sitesift.input`` when a whole source cannot be opened or recognised."""


class ProfileError(InputError):
    """Raised by ``sitesift.profiles.serialize`` and ``store`` for a profile of another format
    version or corrupt bytes: learn the site again. A store file that is no store at all is a
    plain ``InputError``."""


class PageError(SiftError):
    """One page failed. ``kind`` is the short tag written into the record's error field."""

    kind = "page"

    def __str__(self) -> str:
        return f"{self.kind}: {super().__str__()}"


class DecodeError(PageError):
    """Raised by ``sitesift.input.encoding`` when bytes decode under no candidate encoding."""

    kind = "decode"


class EmptyPageError(PageError):
    """Raised by the parser for empty input, or input with no HTML structure or text at all."""

    kind = "empty"


class ParseError(PageError):
    """Raised by ``sitesift.parse`` when the HTML parser cannot build a tree."""

    kind = "parse"


class PageLimitError(PageError):
    """A page over a stated per-page limit that cannot be read up to it. The parser and the
    pipeline read pages over their limits (bytes, elements, attributes of one tag, nesting
    depth) as far as the limits allow and say so in the record's ``warnings``
    (docs/reference/limits.md lists the limits); the kind stays for callers and extensions."""

    kind = "limit"


class PageTimeout(PageError):
    """Raised by the pipeline's time guard when a page exceeds ``Options.page_timeout``."""

    kind = "timeout"


class ExtractionError(PageError):
    """Raised by an extractor that cannot produce a record from a parsed page."""

    kind = "extract"


class RenderError(PageError):
    """Raised by ``sitesift.render`` when the browser tab rendering a page crashes or fails."""

    kind = "render"
