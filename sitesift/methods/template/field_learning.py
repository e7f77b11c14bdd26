"""Learning a template's field sources: step 1 of ``methods.template.fields`` (its docstring
says the method top to bottom), and the headline's place (the *anchor*) for the fields no
source reproduces.

``learn_field_sources`` gets the learning pages of one template and, per field, tries the
candidate sources of the first page with a value in the order of preference
(``_candidates``), keeping the first that every learning page agrees with (``_learn``:
optional, tolerated misses, a fallback at another place); ``_learn_anchor`` the path of the
headline's element where the page rules for the missing fields alone give the expected
values. What is learned is read on new pages by ``fields.FieldSources.read``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from lxml import etree

from sitesift.fields.authors import AUTHOR_META_KEYS
from sitesift.fields.candidates import DECLARED_TITLE_KEYS, TITLE_META_KEYS
from sitesift.fields.declared_dates import PUBLISHED_META_KEYS
from sitesift.fields.metadata import complete_metadata, headline_element
from sitesift.fields.title_text import normalize_space
from sitesift.methods.template.fields import (
    FIELDS,
    MAX_PATH_TEXT_CHARS,
    FieldSources,
    PageView,
    Source,
    read_source,
)
from sitesift.methods.template.paths import (
    PathFinder,
    Step,
    container_key,
    element_path,
    element_steps,
)

__all__ = [
    "MAX_ANCHOR_PLACES",
    "MAX_MISSED_SHARE",
    "MIN_LEARNING_PAGES",
    "MIN_TOLERANT_PAGES",
    "learn_field_sources",
]


#: A source must reproduce the expected value on at least this many pages: one page cannot
#: tell a template's place for a field from a coincidence.
MIN_LEARNING_PAGES = 2
#: With at least this many learning pages, a source may miss a few of them (``_tolerated``):
#: fewer pages cannot tell a template's place with a stray page from a coincidence.
#: Tuned on big9-2005, big9-2009 and cleanportal (learned on half of each site's pages).
MIN_TOLERANT_PAGES = 4
#: The share of the learning pages a source may miss: one in five (tuned as above).
MAX_MISSED_SHARE = 0.2
#: Attributes of an element that may hold a machine-written date (``<time datetime>``,
#: ``itemprop`` markup with ``content``, ``<abbr title>``), tried before its text.
DATE_ATTRIBUTES = ("datetime", "content", "title")
#: Meta keys tried first for each field, best first (those ``extract_metadata`` reads).
FIELD_META_KEYS: Mapping[str, tuple[str, ...]] = {
    "title": DECLARED_TITLE_KEYS + TITLE_META_KEYS,
    "published": PUBLISHED_META_KEYS,
    "author": AUTHOR_META_KEYS,
}


def _decorations(text: str | None, expected: str) -> Iterator[tuple[str, str]]:
    """(prefix, suffix) around ``expected`` in ``text`` (folded), none first."""
    text = normalize_space(text)
    at = text.find(expected)
    if at >= 0:
        yield text[:at], text[at + len(expected):]


def _small_elements(finder: PathFinder) -> Iterator[tuple[etree._Element, tuple[Step, ...]]]:
    """Elements below ``<body>`` with at most ``MAX_PATH_TEXT_CHARS`` characters of text, and
    their paths, in document order.

    Text lengths are summed bottom-up once (reverse document order visits children before
    parents), so the text of the page's big containers is never built.
    """
    root = finder.root
    steps = element_steps(root, labels=finder.labels)
    nodes = [el for el in root.iter(etree.Element)]
    length: dict[etree._Element, int] = {}
    for el in reversed(nodes):
        n = len(el.text or "")
        for child in el:
            n += length.get(child, len(child.text or "")) + len(child.tail or "")
        length[el] = n
    for el in nodes:
        if el in steps and length[el] <= MAX_PATH_TEXT_CHARS:
            path = container_key(el, steps, root)
            if path:
                yield el, path


def _candidates(name: str, page: PageView, expected: str) -> Iterator[Source]:
    """Sources that may give ``expected`` on ``page``, in the order of preference (each is
    checked by the caller)."""
    meta = page.meta
    usual = FIELD_META_KEYS[name]
    keys = [k for k in usual if k in meta] + sorted(k for k in meta if k not in usual)
    for key in keys:
        if name == "title":
            for prefix, suffix in _decorations(meta[key][0], expected):
                yield Source("meta", key=key, prefix=prefix, suffix=suffix)
        else:
            yield Source("meta", key=key)
    yield Source("jsonld")
    if name == "author":
        yield Source("markup")
    lang = (page.finder.root.get("lang") or "").lower()
    english = not lang or lang.startswith("en")
    # Elements that cannot hold the value are passed over before any reading: an author's
    # first word is in the text of the element naming them, a date's year (two digits at
    # least) in the text or attribute printing it.
    first_word = expected.split()[0].casefold() if expected.split() else ""
    year = expected[2:4]
    for el, path in _small_elements(page.finder):
        if name == "title":
            for prefix, suffix in _decorations(el.text_content(), expected):
                yield Source("path", path=path, prefix=prefix, suffix=suffix)
        elif name == "author":
            if first_word in el.text_content().casefold():
                yield Source("path", path=path)
                yield Source("path", path=path, byline=True)
        else:
            text = el.text_content()
            for key in (*[a for a in DATE_ATTRIBUTES if el.get(a)], ""):
                if year not in (el.get(key) if key else text):
                    continue
                for month_first in (english, not english):
                    yield Source("path", key=key, path=path, month_first=month_first)
    if name == "title":
        for prefix, suffix in _decorations(page.doc_title(), expected):
            yield Source("doctitle", prefix=prefix, suffix=suffix)
    if name == "published":
        yield Source("url")


def _learn(name: str, pages: Sequence[PageView], expected: Sequence[str | None]) -> Source | None:
    """The first candidate of the first page with a value that gives every page's expected
    value (optional when some pages have none); failing that, on enough pages, the candidate
    of the first pages with a value that misses the fewest pages, each miss a tolerated one
    (``_tolerated``), at most ``MAX_MISSED_SHARE`` of them. A source that is not optional gets
    as fallback the next candidate at another place kept by the same rule."""
    with_value = [i for i, v in enumerate(expected) if v is not None]
    if not with_value:
        return Source("absent")
    optional = None in expected
    allowed = int(MAX_MISSED_SHARE * len(pages)) if len(pages) >= MIN_TOLERANT_PAGES else 0
    kept: list[tuple[int, Source]] = []  # (misses, source), in the order of preference
    exact: list[Source] = []  # those missing no page
    seen: set[Source] = set()
    # Candidates of the second page with a value too when a miss is allowed: the first one
    # may be the page the template's place lacks.
    for i in with_value[:1 + (allowed > 0)]:
        for candidate in _candidates(name, pages[i], expected[i]):  # type: ignore[arg-type]
            source = replace(candidate, optional=optional)
            if source in seen:
                continue
            seen.add(source)
            misses = _misses(name, source, pages, expected, allowed, first=i)
            if misses is None:
                continue
            kept.append((misses, source))
            if misses == 0:
                exact.append(source)
                # Done: an optional source needs no fallback (it is always read).
                if optional or (len(exact) > 1 and _elsewhere(source, exact[0])):
                    break
        if exact:
            break  # (the second page is for a source missing on the first)
    if not kept:
        return None
    least = min(m for m, _s in kept)
    best = next(s for m, s in kept if m == least)
    if optional:
        return best
    # Never ``<title>``: it is there on every page, so as a fallback it is read just where the
    # printed headline moved, and some templates word ``<title>`` differently (big9-2009).
    others = sorted((m, n, s) for n, (m, s) in enumerate(kept)
                    if _elsewhere(s, best) and s.kind != "doctitle")
    return replace(best, fallback=others[0][2]) if others else best


def _misses(name: str, source: Source, pages: Sequence[PageView],
            expected: Sequence[str | None], allowed: int, *, first: int = 0) -> int | None:
    """Learning pages where ``source`` does not give the expected value; None when more than
    ``allowed`` or any of them not ``_tolerated``. Page ``first``, the one the candidate came
    from, must give its value (a candidate is a place holding it there): read first, it turns
    down most candidates (any small element, for dates and authors) at once."""
    if not _agrees(name, read_source(pages[first], name, source), expected[first]):
        return None
    misses = 0
    for j, (page, value) in enumerate(zip(pages, expected, strict=True)):
        if j == first:
            continue
        read = read_source(page, name, source)
        if _agrees(name, read, value):
            continue
        misses += 1
        if misses > allowed or not _tolerated(read, value):
            return None
    return misses


def _elsewhere(source: Source, other: Source) -> bool:
    """Whether ``source`` reads another place than ``other``: not the same meta key, nor the
    same element, one inside the other (an ``<h1>`` and its ``<a>``): a fallback must be
    there on a page where ``other`` is missing."""
    if source.kind != other.kind:
        return True
    if source.kind == "meta":
        return source.key != other.key
    if source.kind == "path":
        n = min(len(source.path), len(other.path))
        return source.path[:n] != other.path[:n]
    return False


def _tolerated(read: tuple[bool, str | None], expected: str | None) -> bool:
    """Whether a source that does not give a learning page's expected value may still be the
    template's: the source cannot be read there (on such a new page ``read`` gives up and the
    full pipeline runs, so it costs time, not accuracy), or the pipeline found no value where
    the source reads one (it missed the template's place). A source that reads another value,
    or none where the pipeline found one, is not."""
    readable, value = read
    return not readable or (expected is None and value is not None)


def _agrees(name: str, read: tuple[bool, str | None], expected: str | None) -> bool:
    """Whether a source's reading gives the expected value. Dates agree when they name the
    same day, as the scorer compares them (one template prints the time of some stories and
    only the day of others: "2009-04-03T11:23:16-07:00" and "2009-04-03" are one date)."""
    readable, value = read
    if not readable:
        return False
    if name == "published" and value is not None and expected is not None:
        return value[:10] == expected[:10]
    return value == expected


def learn_field_sources(
    pages: Sequence[tuple[PathFinder, str | None, Mapping[str, str | None]]],
) -> FieldSources:
    """From the learning pages of one template: (PathFinder over an untouched parse of the page,
    its url, the record's values {"title", "published", "author"} as the full pipeline gave
    them). A field's source is one that reproduces the expected value on every learning page."""
    if len(pages) < MIN_LEARNING_PAGES:
        return FieldSources(None, None, None)
    views = [PageView(finder, url) for finder, url, _values in pages]
    found: dict[str, Source | None] = {}
    expected: dict[str, list[str | None]] = {}
    for name in FIELDS:
        expected[name] = [normalize_space(v) if (v := values.get(name)) else None
                          for _f, _u, values in pages]
        found[name] = _learn(name, views, expected[name])
    missing = [name for name in FIELDS if found[name] is None]
    anchor = None
    if found["title"] is not None and missing:
        anchor = _learn_anchor(views, expected, missing)
    return FieldSources(**found, anchor=anchor)


#: Places of the headline's element kept for a template: the usual one and one fallback (a page
#: with an extra block above the story moves it, as it moves any path).
MAX_ANCHOR_PLACES = 2


def _learn_anchor(pages: Sequence[PageView], expected: Mapping[str, Sequence[str | None]],
                  missing: Sequence[str]) -> Source | None:
    """The path of the headline's element (where ``extract_metadata``'s text windows start)
    when, at that path on the learning pages, the page rules for the ``missing`` fields alone
    (``complete_metadata``) give the expected values: a date or a byline read from changing
    places (a date printed in the text on one page, declared in markup on another) is found
    as the full extractor finds it, without choosing the title again. None otherwise.

    The paths tried are those of the learning pages' own headline elements, the most common
    first; a path is kept when every page where it is the first kept path found agrees, and
    the next one only for pages lacking the first (its fallback). As for sources, with
    ``MIN_TOLERANT_PAGES`` pages ``MAX_MISSED_SHARE`` of them may lack every kept path (such a
    new page gets ``extract_metadata``), none may disagree."""
    titles = expected["title"]
    paths: list[tuple[Step, ...]] = []
    for page, title in zip(pages, titles, strict=True):
        el = headline_element(page.finder.root, title) if title else None
        path = element_path(el, page.finder.root, labels=page.finder.labels) \
            if el is not None else None
        if path is not None:
            paths.append(path)
    if not paths:
        return None
    counts = Counter(paths)
    left = set(range(len(pages)))
    kept: list[tuple[Step, ...]] = []
    for path in sorted(counts, key=lambda p: -counts[p]):  # (stable: first seen among equals)
        reached = [j for j in sorted(left) if pages[j].finder.find(path) is not None]
        if reached and all(_anchor_agrees(pages[j], path, titles[j],
                                          {n: expected[n][j] for n in missing})
                           for j in reached):
            kept.append(path)
            left.difference_update(reached)
        if not left or len(kept) == MAX_ANCHOR_PLACES:
            break
    allowed = int(MAX_MISSED_SHARE * len(pages)) if len(pages) >= MIN_TOLERANT_PAGES else 0
    if not kept or len(left) > allowed:
        return None
    fallback = Source("path", path=kept[1]) if len(kept) > 1 else None
    return Source("path", path=kept[0], fallback=fallback)


def _anchor_agrees(page: PageView, path: tuple[Step, ...], title: str | None,
                   expected: Mapping[str, str | None]) -> bool:
    anchor = page.finder.find(path)
    if anchor is None:
        return False
    published, author = complete_metadata(
        page.finder.root, url=page.url, title=title, anchor=anchor,
        published="published" in expected, author="author" in expected,
        meta=page.meta, ld=page.jsonld)
    read = {"published": published, "author": author}
    return all(_agrees(name, (True, read[name]), value) for name, value in expected.items())
