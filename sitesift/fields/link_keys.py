"""How a link from a list page finds the detail page it points to (paper 003's external titles).

A link is filed under its normalised URL (no scheme, "www.", fragment or trailing slash) and
the id in its path; a page is looked up under the same keys from its URL. When URLs are unknown
(pages read from files), a link still finds its page by the id in its path: the last path
segment without extension ("/p/3261053335240450", "JU7IIQF90511B8LM.html") equal to a token of
the page's id or file name, or by a slug in its path that the end of the page's id starts.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from urllib.parse import SplitResult, urlsplit

__all__ = ["id_tails", "index_slugs", "link_keys", "link_slug", "page_keys", "slug_matches"]

#: An id in a link path has at least this many characters, and a digit unless it is at least
#: ``MIN_ID_CHARS_NO_DIGIT`` long: shorter path segments ("news", "2024") are not ids.
MIN_ID_CHARS = 6
MIN_ID_CHARS_NO_DIGIT = 12
#: Pages known by a file name only: a link whose path ends in a slug ("amid-trump-tariff-chaos")
#: reaches the page whose id ends with at least this many characters (and ``MIN_SLUG_WORDS``
#: words) of that slug ("detail-arstechnica_com_amid_trump_tariff": names cut short).
MIN_SLUG_CHARS = 12
MIN_SLUG_WORDS = 3
_TOKEN = re.compile(r"[A-Za-z0-9]+")


def _split(url: str) -> SplitResult:
    """``urlsplit`` that reads a malformed URL as a bare path."""
    try:
        return urlsplit(url)
    except ValueError:
        return SplitResult("", "", url, "", "")


def _normal_url(url: str) -> str | None:
    """``url`` without scheme, "www.", fragment and trailing slash: one spelling per page."""
    parts = _split(url)
    if not parts.netloc:
        return None
    host = parts.netloc.lower().removeprefix("www.")
    path = parts.path.rstrip("/")
    return f"{host}{path}" + (f"?{parts.query}" if parts.query else "")


def _path_id(url: str) -> str | None:
    """The id in a link: its last path segment without extension, when it looks like one."""
    segment = _split(url).path.rstrip("/").rsplit("/", 1)[-1]
    stem = segment.split(".", 1)[0]
    if not re.fullmatch(r"[A-Za-z0-9_-]+", stem or ""):
        return None
    if len(stem) >= MIN_ID_CHARS_NO_DIGIT or (len(stem) >= MIN_ID_CHARS
                                              and re.search(r"\d", stem)):
        return f"id:{stem}"
    return None


def _slug(text: str) -> str:
    """Lower-case words joined by "_": one spelling for slugs in paths and file names."""
    return "_".join(re.findall(r"[a-z0-9]+", text.lower()))


def link_slug(url: str) -> str | None:
    """The slug of a link's last path segment, when it has several words."""
    segment = _split(url).path.rstrip("/").rsplit("/", 1)[-1]
    slug = _slug(segment.rsplit(".", 1)[0] if "." in segment else segment)
    return slug if slug.count("_") + 1 >= MIN_SLUG_WORDS else None


def id_tails(page_id: str) -> list[str]:
    """The ends of ``page_id``'s slug that may start a link's slug: whole words, long enough."""
    name = _slug(page_id)
    tails = []
    for m in re.finditer(r"(?:^|_)(?=[a-z0-9])", name):
        tail = name[m.end():]
        if len(tail) < MIN_SLUG_CHARS or tail.count("_") + 1 < MIN_SLUG_WORDS:
            break
        tails.append(tail)
    return tails


def _slug_starts(slug: str) -> list[str]:
    words = slug.split("_")
    return ["_".join(words[:n]) for n in range(1, len(words) + 1)]


def slug_matches(page_id: str, slug: str) -> bool:
    """Whether the end of ``page_id`` is the start of ``slug`` (a file name cut from a URL)."""
    return any(slug == tail or slug.startswith(tail + "_") for tail in id_tails(page_id))


def link_keys(url: str) -> list[str]:
    """Keys under which a link's target is filed: its normalised URL and the id in its path."""
    keys = [k for k in (_normal_url(url), _path_id(url)) if k]
    return keys


def page_keys(url: str | None, page_id: str | None) -> list[str]:
    """Keys that find a page's incoming links: its normalised URL, else ids in its URL path or
    in its page id (pages read from files: "detail-36kr_com_3261053335240450")."""
    keys: list[str] = []
    if url:
        keys += link_keys(url)
    if page_id:
        for token in _TOKEN.findall(page_id):
            key = _path_id("/" + token)
            if key and key not in keys:
                keys.append(key)
    return keys


def index_slugs(
    slugs: Iterable[tuple[str, str, str | None]],
) -> dict[str, tuple[tuple[str, str, str | None], ...]]:
    """``slugs`` (slug, anchor text, linking page id) filed under every run of the slug's
    leading words ("a", "a_b", "a_b_c"): a page finds the slugs its id's end starts at once."""
    index: dict[str, list[tuple[str, str, str | None]]] = defaultdict(list)
    for entry in slugs:
        for start in _slug_starts(entry[0]):
            index[start].append(entry)
    return {k: tuple(v) for k, v in index.items()}
