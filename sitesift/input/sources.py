"""Pages out of the inputs a run is given: manifests, folders, WARC files, stdin, HTML files.

Every input is checked before any page is read, so a typo in the last argument fails the run at
once (``InputError``, CLI exit 2) instead of after hours. Afterwards nothing stops the run: a bad
manifest line, a missing file, a truncated WARC or undecodable bytes become pages with ``error``
set, which the pipeline writes as error records. Pages stream out in input order; at most one
page's bytes are in memory at a time.

Inputs:

* ``*.jsonl``: a manifest, a JSON object a line: ``{"id", "url", "site", "file"}`` with ``file``
  relative to the manifest's folder (absolute paths work too); ``url`` and ``site`` may be null.
  A line may carry the page inline as ``"html"`` instead of ``"file"``, and the time the page
  was fetched as ``"fetched"`` (or ``"crawled"``): ISO 8601, a day or a moment
  (``2026-11-26``, ``2026-11-26T10:00:00Z``); relative dates ("3 hours ago") are read against
  it (``Page.crawled``). A value that is no ISO 8601 date is ignored with a warning.
* a folder: every ``.html``/``.htm`` file below it (any case, symlinked folders not followed),
  sorted by path; id = the path relative to the folder, with ``/``; no URL.
* ``*.warc``, ``*.warc.gz`` (or any file that starts like a WARC): see ``sitesift.input.warc``;
  a record's ``WARC-Date`` is the page's crawl time.
* ``-``: JSON lines ``{"id", "url", "html"}`` (``site``, ``fetched`` optional) on stdin.
* ``*.html``, ``*.htm``: one page; id = the file name.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import re
import sys
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from sitesift.errors import DecodeError, InputError, UsageError
from sitesift.input.encoding import decode_html
from sitesift.input.sitekey import site_key as compute_site_key
from sitesift.input.sitekey import url_problem
from sitesift.options import DEFAULT_MAX_PAGE_BYTES, SITE_KEYS
from sitesift.record import Page

__all__ = ["HTML_SUFFIXES", "STDIN", "crawl_time", "iter_pages"]

log = logging.getLogger(__name__)

#: The input name that means standard input.
STDIN = "-"
#: File name endings read as pages in folders and as single-page inputs.
HTML_SUFFIXES = (".html", ".htm")
_MANIFEST_SUFFIXES = (".jsonl",)
_WARC_SUFFIXES = (".warc", ".warc.gz")
_GZIP_MAGIC = b"\x1f\x8b"
_WARC_MAGIC = b"WARC/"


@dataclass(frozen=True, slots=True)
class _Input:
    kind: str  # "manifest", "folder", "warc", "stdin" or "html"
    name: str  # as given: becomes Page.source


def iter_pages(
    inputs: Sequence[str],
    *,
    site_key: str = "auto",
    stdin: TextIO | None = None,
    max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES,
) -> Iterator[Page]:
    """Pages of ``inputs`` in order; raises ``InputError`` at once if any input is unusable.

    ``site_key`` is the site key mode (``auto`` or ``none``, see ``sitesift.input.sitekey``);
    ``stdin`` replaces ``sys.stdin`` for the input ``-``; files or payloads over
    ``max_page_bytes`` become error pages without being read whole.
    """
    if site_key not in SITE_KEYS:
        raise UsageError(f"unknown site key {site_key!r}; choose one of {', '.join(SITE_KEYS)}")
    if isinstance(inputs, str):
        raise UsageError("inputs must be a sequence of paths, not one string")
    specs = [_classify(name) for name in inputs]
    if sum(spec.kind == "stdin" for spec in specs) > 1:
        raise InputError("standard input '-' is given more than once")
    return _pages(specs, site_key, stdin, max_page_bytes)


def _classify(name: str | os.PathLike[str]) -> _Input:
    """What kind of input ``name`` is; ``InputError`` if it cannot be read as any."""
    name = os.fspath(name)
    if name == STDIN:
        return _Input("stdin", name)
    path = Path(name)
    if not path.exists():
        raise InputError(f"input not found: {name}")
    if path.is_dir():
        if not os.access(path, os.R_OK | os.X_OK):
            raise InputError(f"input folder is not readable: {name}")
        return _Input("folder", name)
    if not path.is_file():
        raise InputError(f"input is neither a file nor a folder: {name}")
    if not os.access(path, os.R_OK):
        raise InputError(f"input file is not readable: {name}")
    lower = path.name.lower()
    if lower.endswith(_MANIFEST_SUFFIXES):
        return _Input("manifest", name)
    if lower.endswith(_WARC_SUFFIXES) or _starts_like_warc(path):
        return _Input("warc", name)
    if lower.endswith(HTML_SUFFIXES):
        return _Input("html", name)
    raise InputError(
        f"unknown input type: {name} (expected a folder, a .jsonl manifest, a .warc or .warc.gz "
        f"file, an .html file, or - for JSON lines on stdin)"
    )


def _starts_like_warc(path: Path) -> bool:
    """True for a file whose first bytes (after gunzip if gzipped) are a WARC version line."""
    try:
        with path.open("rb") as fh:
            head = fh.read(512)
            if head.startswith(_GZIP_MAGIC):
                fh.seek(0)
                with gzip.GzipFile(fileobj=fh) as gz:
                    head = gz.read(len(_WARC_MAGIC))
    except (OSError, EOFError, zlib.error):
        return False
    return head.startswith(_WARC_MAGIC)


def _pages(
    specs: list[_Input], mode: str, stdin: TextIO | None, max_bytes: int
) -> Iterator[Page]:
    for spec in specs:
        if spec.kind == "manifest":
            yield from _manifest_pages(spec.name, mode, max_bytes)
        elif spec.kind == "folder":
            yield from _folder_pages(spec.name, mode, max_bytes)
        elif spec.kind == "warc":
            yield from _warc_pages(spec.name, mode, max_bytes)
        elif spec.kind == "stdin":
            yield from _stdin_pages(stdin, mode)
        else:
            name = Path(spec.name).name
            yield _file_page(Path(spec.name), name, None, None, spec.name, None, mode, max_bytes)


def _decoded_page(
    page_id: str,
    url: str | None,
    given_site: str | None,
    data: bytes,
    source: str,
    folder: str | None,
    mode: str,
    http_charset: str | None = None,
) -> Page:
    """A page from bytes: decoded, with its site key; decode failures become error pages."""
    site = compute_site_key(url, given_site, folder, mode=mode)
    try:
        html, encoding = decode_html(data, http_charset)
    except DecodeError as exc:
        return Page(id=page_id, url=url, site=site, source=source, error=str(exc))
    return Page(id=page_id, url=url, site=site, html=html, encoding=encoding, source=source)


def _error_page(
    page_id: str, url: str | None, given_site: str | None, source: str, mode: str, message: str
) -> Page:
    site = compute_site_key(url, given_site, None, mode=mode)
    return Page(id=page_id, url=url, site=site, source=source, error=f"input: {message}")


def _file_page(
    path: Path,
    page_id: str,
    url: str | None,
    given_site: str | None,
    source: str,
    folder: str | None,
    mode: str,
    max_bytes: int,
) -> Page:
    """The page stored in the file at ``path``; unreadable or oversized files become errors."""
    try:
        with path.open("rb") as fh:
            data = _read_at_most(fh, max_bytes + 1)
    except FileNotFoundError:
        return _error_page(page_id, url, given_site, source, mode, f"file not found: {path}")
    except OSError as exc:
        return _error_page(page_id, url, given_site, source, mode, f"cannot read {path}: {exc}")
    if len(data) > max_bytes:
        return _error_page(
            page_id, url, given_site, source, mode,
            f"file {path} exceeds the limit of {max_bytes:,} bytes (max_page_bytes)",
        )
    return _decoded_page(page_id, url, given_site, data, source, folder, mode)


def _read_at_most(fh: BinaryIO, limit: int) -> bytes:
    """``fh.read(limit)``, without its buffer of ``limit`` bytes (64 MB by default) made and
    shrunk for every page: the file's size is asked first, and only a file that grew since
    (or has no size: a pipe) is read on up to ``limit``."""
    size = os.fstat(fh.fileno()).st_size
    data = fh.read(min(size + 1, limit))
    if size < len(data) < limit:
        data += fh.read(limit - len(data))
    return data


def _optional_str(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


#: A JSON escape of a UTF-16 surrogate: only lines holding one can decode to a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _json_lines(lines: Iterable[str | bytes]) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """``(line number, object)`` per non-blank line, or ``(line number, error message)``."""
    for lineno, raw in enumerate(lines, 1):
        line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            yield lineno, f"bad JSON on line {lineno}: {exc}"
            continue
        if not isinstance(obj, dict):
            yield lineno, f"line {lineno} is not a JSON object"
            continue
        yield lineno, without_lone_surrogates(obj) if _SURROGATE_ESCAPE.search(line) else obj


def without_lone_surrogates(obj: Any) -> Any:
    """``obj`` with every lone surrogate (JSON may escape one: ``"\\ud800"``) replaced by
    U+FFFD: no UTF-8 text holds one, so a record carrying it could not be written."""
    if isinstance(obj, str):
        return obj.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(obj, dict):
        return {without_lone_surrogates(k): without_lone_surrogates(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [without_lone_surrogates(v) for v in obj]
    return obj


#: Manifest keys holding the time a page was fetched, first found wins.
CRAWL_TIME_KEYS = ("fetched", "crawled")


def crawl_time(value: object) -> datetime | date | None:
    """An ISO 8601 crawl time (``2026-11-26``, ``2026-11-26T10:00:00Z``, ``...+08:00``) as a
    ``date`` when only the day is given, else a ``datetime``; None when it is none."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _manifest_crawl_time(item: dict[str, Any], where: str) -> datetime | date | None:
    for key in CRAWL_TIME_KEYS:
        value = item.get(key)
        if value is None:
            continue
        moment = crawl_time(value)
        if moment is None:
            log.warning("%s: %r of %r is no ISO 8601 date; ignored", where, key, value)
        return moment
    return None


def _manifest_pages(manifest: str, mode: str, max_bytes: int) -> Iterator[Page]:
    folder = Path(manifest).parent
    try:
        # Bytes: lines end at b"\n" only (text mode also ends them at a lone "\r", which
        # shifts every later line number); ``_json_lines`` decodes each as UTF-8.
        fh = open(manifest, "rb")  # noqa: SIM115 - with below
    except OSError as exc:
        yield _error_page(f"{manifest}#0", None, None, manifest, mode, f"cannot read: {exc}")
        return
    with fh:
        for lineno, item in _json_lines(fh):
            fallback_id = f"{manifest}#{lineno}"
            if isinstance(item, str):
                yield _error_page(fallback_id, None, None, manifest, mode, item)
                continue
            page_id = _optional_str(item.get("id")) or fallback_id
            url = _optional_str(item.get("url"))
            site = _optional_str(item.get("site"))
            file = item.get("file")
            html = item.get("html")
            crawled = _manifest_crawl_time(item, f"line {lineno} of {manifest}")
            if problem := url_problem(url):
                yield _error_page(page_id, None, site, manifest, mode, problem)
            elif isinstance(file, str) and file.strip():
                page = _file_page(folder / file, page_id, url, site, manifest, None, mode,
                                  max_bytes)
                yield replace(page, crawled=crawled) if crawled else page
            elif isinstance(html, str):
                yield Page(
                    id=page_id, url=url, site=compute_site_key(url, site, None, mode=mode),
                    html=html, source=manifest, crawled=crawled,
                )
            else:
                yield _error_page(
                    page_id, url, site, manifest, mode,
                    f"line {lineno} of {manifest} has no \"file\" (or \"html\")",
                )


def _walk_html(folder: Path) -> list[str]:
    """Relative POSIX paths of the HTML files below ``folder``, sorted; iterative, no symlinked
    folders (they can loop)."""
    found: list[str] = []
    stack: list[tuple[Path, str]] = [(folder, "")]
    while stack:
        path, prefix = stack.pop()
        try:
            entries = list(os.scandir(path))
        except OSError as exc:
            log.warning("cannot list folder %s: %s", path, exc)
            continue
        for entry in entries:
            rel = f"{prefix}{entry.name}"
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append((Path(entry.path), rel + "/"))
                elif entry.is_file() and entry.name.lower().endswith(HTML_SUFFIXES):
                    found.append(rel)
            except OSError as exc:
                log.warning("cannot inspect %s: %s", entry.path, exc)
    found.sort()
    return found


def _folder_pages(folder: str, mode: str, max_bytes: int) -> Iterator[Page]:
    root = Path(folder)
    for rel in _walk_html(root):
        yield _file_page(root / rel, rel, None, None, folder, folder, mode, max_bytes)


def _warc_pages(path: str, mode: str, max_bytes: int) -> Iterator[Page]:
    from sitesift.input.warc import iter_warc  # (warcio: loaded for WARC inputs only)

    for item in iter_warc(path, max_bytes=max_bytes):
        if item.error is not None or item.data is None:
            site = compute_site_key(item.url, None, None, mode=mode)
            yield Page(id=item.id, url=item.url, site=site, source=path, error=item.error)
        else:
            page = _decoded_page(item.id, item.url, None, item.data, path, None, mode,
                                 item.charset)
            yield replace(page, crawled=crawl_time(item.date)) if item.date else page


def _stdin_lines(stdin: TextIO | None) -> Iterable[str | bytes]:
    """Lines of the given stream, else of ``sys.stdin`` read as UTF-8 whatever the locale."""
    if stdin is not None:
        return stdin
    buffer: BinaryIO | None = getattr(sys.stdin, "buffer", None)
    return buffer if buffer is not None else sys.stdin


def _stdin_pages(stdin: TextIO | None, mode: str) -> Iterator[Page]:
    for lineno, item in _json_lines(_stdin_lines(stdin)):
        fallback_id = f"{STDIN}#{lineno}"
        if isinstance(item, str):
            yield _error_page(fallback_id, None, None, STDIN, mode, item)
            continue
        page_id = _optional_str(item.get("id")) or fallback_id
        url = _optional_str(item.get("url"))
        site = _optional_str(item.get("site"))
        html = item.get("html")
        if problem := url_problem(url):
            yield _error_page(page_id, None, site, STDIN, mode, problem)
            continue
        if not isinstance(html, str):
            yield _error_page(
                page_id, url, site, STDIN, mode, f"line {lineno} of stdin has no \"html\" string"
            )
            continue
        site_value = compute_site_key(url, site, None, mode=mode)
        crawled = _manifest_crawl_time(item, f"line {lineno} of stdin")
        yield Page(id=page_id, url=url, site=site_value, html=html, source=STDIN,
                   crawled=crawled)
