"""Where a template's pages carry their title, publication date and author.

``extract_metadata`` weighs every hint a page has (meta tags, JSON-LD, headings, ``<time>``,
bylines, text near the headline) and costs about half of applying a saved profile. Pages of
one template print their fields in the same place, so once a template is known, one place per
field is enough. The method, top to bottom:

1. ``learn_field_sources`` gets the learning pages of one template (an untouched parse of
   each, its URL, and the record values the full pipeline gave it). For each field it lists
   the *sources* that give the expected value on the first page, in a fixed order of
   preference, and keeps the first one that gives the expected value, exactly (after folding
   white space), on every learning page (``MIN_LEARNING_PAGES`` at least). The order:

   * ``absent``: the field was None on every learning page (reads as None);
   * ``meta``: one ``<meta>`` key (the field's usual keys first, then the others by name);
   * ``jsonld``: the JSON-LD article node's headline, datePublished or author;
   * ``markup`` (authors only): the names in the page's ``itemprop=author`` and ``rel=author``
     elements, joined as ``authors.author_from_markup`` joins them (a blog's byline links);
   * ``path``: the element at a learned path from ``<body>`` (``template.PathFinder`` steps):
     its text (at most ``MAX_PATH_TEXT_CHARS``), or for dates one of its date attributes
     (``datetime``, ``content``, ``title``), for authors its text as a name or as a byline;
   * ``doctitle``: ``<title>`` (titles only);
   * ``url``: the date written in the URL (dates only).

   Declared metadata comes first because publishers fill it by program, the same on every page;
   a printed element can move when a page has an extra block, but then it is missing and
   ``read`` gives up, while ``<title>`` is always there and on some pages of a template words
   its story differently from the printed headline the pipeline takes (big9-2009 latimes):
   so a printed path before ``<title>``. Text sources of a title may carry a fixed
   *decoration*, a prefix and suffix the learning pages share ("Site | " before the headline
   in ``<title>``), which reading removes.
   A source is *optional* when the field was None on some learning pages and the source was
   not there on exactly those: on a new page it then reads None where it is not there.
   *Tolerance*: when no source reproduces every page and the template has at least
   ``MIN_TOLERANT_PAGES`` learning pages, the candidate (of the first two pages with a value)
   missing the fewest pages is kept if it misses at most ``MAX_MISSED_SHARE`` of them (one in
   five) and each miss is harmless: the source cannot be read there (a new page like it makes
   ``read`` give up: time, not accuracy), or the pipeline found nothing where the source reads
   a value (it missed the template's place). Never a source reading another value, nor one
   reading nothing where the pipeline found a value, nor ``absent`` (the field was None on
   every page). The pipeline chose another place on a page or two (a date in the page's text
   where the template's date line is missing; a "Times" staff byline in another block).
   A source that is not optional keeps a *fallback*: the next candidate at another place (not
   the same meta key, nor the element, its ancestors or descendants) kept by the same rule,
   read on a new page where the source cannot be (a ``<meta name="author">`` missing, then a
   printed byline). Never ``<title>``: as a fallback it would be read just on the pages
   whose printed headline moved, and some templates word it differently.
2. Values are made the way ``extract_metadata`` makes them: titles are the text with white
   space folded; dates go through ``date_forms.parse_date`` (slash dates in page text month-first
   as the page's language says, learned per source) or ``date_forms.date_from_url``; authors
   through ``author_names.join_authors`` (meta, JSON-LD), ``author_names.clean_author`` or
   ``authors.author_from_text`` (an element's text as a name, or as a "By X and Y" byline).
3. ``FieldSources.read`` reads a new page of the template: only the ``<meta>`` elements, the
   JSON-LD scripts, ``<title>`` and the few learned paths that its sources need, never a walk
   over the page's text. A source that cannot be read there (no such element, no date in it,
   a decoration that is not there), nor its fallback, makes ``read`` return None: the caller
   then runs ``extract_metadata``, so a page that departs from its template costs time, not
   accuracy.

A field that no source reproduces on every learning page (the pipeline chose between several
places, or between a time and the day alone) has no source. Such fields are still not a reason
to run all of ``extract_metadata``: what it costs most is choosing the title and finding the
headline's element, whose neighbourhood the date and byline rules read. So when the title
has a source, the template learns the *anchor*, the path of the headline's element
(``metadata.headline_element`` on each learning page, ``_learn_anchor``: the most common path,
with a fallback path for pages lacking it, and the sources' tolerance of pages lacking both),
kept only when ``metadata.complete_metadata`` there (the page rules for the missing fields
alone, with the known title) gives every learning page's expected values. ``read`` then finds
the missing fields that way: the page's date markup and the text around the headline, without
the title candidates (about half the cost of ``extract_metadata``; with the author missing,
the scan for byline markup too). Without a title source, or an anchor, ``complete()`` is False and
the template's pages keep ``extract_metadata``.

Measured figures (held-out halves of the dev sets' templates) are in ``docs/fields.md``
(``benchmarks/field_sources.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from lxml import etree

from sitesift.fields.author_names import clean_author, join_authors
from sitesift.fields.authors import (
    AUTHOR_META_KEYS,
    author_from_markup,
    author_from_text,
    may_hold_author,
)
from sitesift.fields.candidates import DECLARED_TITLE_KEYS, TITLE_META_KEYS, read_meta
from sitesift.fields.date_forms import date_from_url, parse_date
from sitesift.fields.dates import PUBLISHED_META_KEYS
from sitesift.fields.jsonld import JsonLd, read_jsonld
from sitesift.fields.metadata import complete_metadata, headline_element
from sitesift.fields.title_text import normalize_space
from sitesift.methods.template.paths import (
    PathFinder,
    Step,
    container_key,
    element_path,
    element_steps,
)

__all__ = [
    "FIELDS",
    "MAX_ANCHOR_PLACES",
    "MAX_MISSED_SHARE",
    "MAX_PATH_TEXT_CHARS",
    "MIN_LEARNING_PAGES",
    "MIN_TOLERANT_PAGES",
    "FieldSources",
    "Source",
    "learn_field_sources",
]

FIELDS = ("title", "published", "author")
#: A source must reproduce the expected value on at least this many pages: one page cannot
#: tell a template's place for a field from a coincidence.
MIN_LEARNING_PAGES = 2
#: With at least this many learning pages, a source may miss a few of them (``_tolerated``):
#: fewer pages cannot tell a template's place with a stray page from a coincidence.
#: Tuned on big9-2005, big9-2009 and cleanportal (benchmarks/field_sources.py).
MIN_TOLERANT_PAGES = 4
#: The share of the learning pages a source may miss: one in five (tuned as above).
MAX_MISSED_SHARE = 0.2
#: Elements with more text than this are not path sources: a title, a byline or a date line
#: is short, and longer elements are containers whose text varies with the story.
MAX_PATH_TEXT_CHARS = 300
#: Attributes of an element that may hold a machine-written date (``<time datetime>``,
#: ``itemprop`` markup with ``content``, ``<abbr title>``), tried before its text.
DATE_ATTRIBUTES = ("datetime", "content", "title")
#: Source kinds in the order of preference (see the module docstring).
KINDS = ("absent", "meta", "jsonld", "markup", "path", "doctitle", "url")
#: Elements whose markup may name an author (``itemprop``, ``rel``): what ``author_from_markup``
#: reads without classes, found in one query instead of the page-wide candidate scan.
_MARKUP_XPATH = etree.XPath("/descendant::*[@itemprop] | /descendant::*[@rel]")
#: Meta keys tried first for each field, best first (those ``extract_metadata`` reads).
FIELD_META_KEYS: Mapping[str, tuple[str, ...]] = {
    "title": DECLARED_TITLE_KEYS + TITLE_META_KEYS,
    "published": PUBLISHED_META_KEYS,
    "author": AUTHOR_META_KEYS,
}


@dataclass(frozen=True, slots=True)
class Source:
    """One place a field is read from on every page of a template."""

    #: One of ``KINDS``.
    kind: str
    #: ``meta``: the lower-cased meta key; ``path``: the attribute read ("" for the text).
    key: str = ""
    #: ``path``: steps from ``<body>`` to the element.
    path: tuple[Step, ...] = ()
    #: Decoration the template puts around a title (``<title>``'s "Site | " and " - Site").
    prefix: str = ""
    suffix: str = ""
    #: ``path`` dates: slash dates read month-first (English pages) or day-first.
    month_first: bool = True
    #: ``path`` authors: the text read as a byline ("By X and Y", "记者 X",
    #: ``authors.author_from_text``) rather than as a name to clean.
    byline: bool = False
    #: The field was None on the learning pages where the source is not there (no such key,
    #: element or value): there it reads as None instead of making ``read`` give up.
    optional: bool = False
    #: Another place that gave every learning page's value too, read where this one cannot be
    #: (its element is missing on a page with an extra or a missing block).
    fallback: Source | None = None

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "key": self.key, "path": [list(s) for s in self.path],
                "prefix": self.prefix, "suffix": self.suffix, "month_first": self.month_first,
                "byline": self.byline, "optional": self.optional,
                "fallback": self.fallback.to_dict() if self.fallback else None}

    @classmethod
    def from_dict(cls, data: object) -> Source:
        """The source ``to_dict`` wrote; ValueError on anything else."""
        if not isinstance(data, dict):
            raise ValueError(f"a field source must be an object, not {type(data).__name__}")
        kind, key, path = data.get("kind"), data.get("key", ""), data.get("path", [])
        prefix, suffix = data.get("prefix", ""), data.get("suffix", "")
        flags = {f: data.get(f, f == "month_first") for f in ("month_first", "byline",
                                                                "optional")}
        if kind not in KINDS:
            raise ValueError(f"unknown field source kind {kind!r}")
        if not all(isinstance(v, str) for v in (key, prefix, suffix)):
            raise ValueError("field source key, prefix and suffix must be strings")
        if not all(isinstance(v, bool) for v in flags.values()):
            raise ValueError("field source month_first, byline and optional must be booleans")
        if not isinstance(path, list) or not all(
                isinstance(s, list) and len(s) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in s)
                for s in path):
            raise ValueError("field source path must be a list of [label, ordinal] pairs")
        if kind == "path" and not path:
            raise ValueError("a path source needs a path")
        if kind == "meta" and not key:
            raise ValueError("a meta source needs a key")
        fallback = data.get("fallback")
        return cls(kind=kind, key=key, path=tuple((s[0], s[1]) for s in path), prefix=prefix,
                   suffix=suffix, **flags,
                   fallback=None if fallback is None else cls.from_dict(fallback))


class _Page:
    """What sources read on one page, each part read once and only when a source asks."""

    __slots__ = ("_jsonld", "_meta", "finder", "url")

    def __init__(self, finder: PathFinder, url: str | None) -> None:
        self.finder = finder
        self.url = url
        self._meta: dict[str, list[str]] | None = None
        self._jsonld: JsonLd | None = None

    @property
    def meta(self) -> dict[str, list[str]]:
        if self._meta is None:
            self._meta = read_meta(self.finder.root)
        return self._meta

    @property
    def jsonld(self) -> JsonLd:
        if self._jsonld is None:
            self._jsonld = read_jsonld(self.finder.root)
        return self._jsonld

    def doc_title(self) -> str | None:
        """``<title>`` of the document head (the one browsers show)."""
        head = self.finder.root.find("head")
        el = head.find("title") if head is not None else None
        return el.text_content() if el is not None else None

    def values(self, name: str, source: Source) -> list[str] | None:
        """The raw strings ``source`` holds for field ``name``; None when it is not there."""
        kind = source.kind
        if kind == "meta":
            return self.meta.get(source.key)
        if kind == "jsonld":
            ld = self.jsonld
            found = {"title": [ld.headline] if ld.headline else [],
                     "published": [ld.published] if ld.published else [],
                     "author": list(ld.authors)}[name]
            return found or None
        if kind == "markup":
            author = author_from_markup(
                [el for el in _MARKUP_XPATH(self.finder.root) if may_hold_author(el)])
            return [author] if author else None
        if kind == "doctitle":
            title = self.doc_title()
            return [title] if title is not None else None
        if kind == "url":
            return [self.url] if self.url else None
        if kind == "path":
            el = self.finder.find(source.path)
            if el is None:
                return None
            value = el.get(source.key) if source.key else el.text_content()
            # A longer text is another element at the path (a container): not this source.
            if value is None or len(value) > MAX_PATH_TEXT_CHARS:
                return None
            return [value]
        return None


def _undecorate(text: str, prefix: str, suffix: str) -> str | None:
    if not (text.startswith(prefix) and text.endswith(suffix)
            and len(text) > len(prefix) + len(suffix)):
        return None
    return text[len(prefix):len(text) - len(suffix)].strip() or None


def _value(name: str, source: Source, values: list[str]) -> str | None:
    """The field's value from a source's raw strings, made as ``extract_metadata`` makes it;
    None when they hold none."""
    if name == "title":
        return _undecorate(normalize_space(values[0]), source.prefix, source.suffix)
    if name == "published":
        if source.kind == "url":
            return date_from_url(values[0])
        # Meta and JSON-LD values are machine-written: US order, as find_published reads them.
        month_first = source.month_first if source.kind == "path" else True
        return next((iso for v in values if (iso := parse_date(v, month_first=month_first))),
                    None)
    if source.kind == "path":
        text = normalize_space(values[0])
        return author_from_text([text]) if source.byline else clean_author(text)
    if source.kind == "markup":
        return values[0]  # (joined by author_from_markup already)
    return join_authors(values)


def _read(page: _Page, name: str, source: Source) -> tuple[bool, str | None]:
    """(readable, value) of field ``name`` from ``source`` on ``page``."""
    if source.kind == "absent":
        return True, None
    values = page.values(name, source)
    value = _value(name, source, values) if values else None
    if value is None and not source.optional and source.fallback is not None:
        return _read(page, name, source.fallback)
    return value is not None or source.optional, value


@dataclass(frozen=True, slots=True)
class FieldSources:
    """Where a template's pages carry each field (one Source per field; JSON-able)."""

    title: Source | None  # None: no source reproduced the field on the learning pages
    published: Source | None
    author: Source | None
    #: Where the headline's element sits (a ``path`` source), for the fields without a source
    #: (``_learn_anchor``): they are found there by the page rules for those fields alone.
    anchor: Source | None = None

    def complete(self) -> bool:
        """Every field has a source, or the title has one and the headline's element is known:
        the template's pages need no ``extract_metadata``."""
        if self.title is None:
            return False
        return self.anchor is not None or all(getattr(self, n) is not None for n in FIELDS)

    def read(self, page: PathFinder, *, url: str | None) -> dict[str, str | None] | None:
        """Field values of a new page of the template; None when any source cannot be read
        there (element missing, unparseable date...), nor the headline's element found: the
        caller then runs extract_metadata."""
        view = _Page(page, url)
        out: dict[str, str | None] = {}
        for name in FIELDS:
            source = getattr(self, name)
            if source is None:
                if name == "title" or self.anchor is None:
                    return None
                continue
            readable, value = _read(view, name, source)
            if not readable:
                return None
            out[name] = value
        if len(out) < len(FIELDS):
            anchor = None
            place = self.anchor
            while anchor is None and place is not None:
                anchor, place = page.find(place.path), place.fallback
            if anchor is None:
                return None
            published, author = complete_metadata(
                page.root, url=url, title=out["title"], anchor=anchor,
                published="published" not in out, author="author" not in out,
                meta=view.meta, ld=view.jsonld)
            out.setdefault("published", published)
            out.setdefault("author", author)
        return out

    def to_dict(self) -> dict[str, object]:
        return {name: (s.to_dict() if (s := getattr(self, name)) else None)
                for name in (*FIELDS, "anchor")}

    @classmethod
    def from_dict(cls, data: object) -> FieldSources:
        """The sources ``to_dict`` wrote; ValueError on anything else."""
        keys = (*FIELDS, "anchor")
        if not isinstance(data, dict) or set(data) != set(keys):
            raise ValueError(f"field sources must be an object with keys {', '.join(keys)}")
        found = cls(**{name: None if data[name] is None else Source.from_dict(data[name])
                       for name in keys})
        if found.anchor is not None and found.anchor.kind != "path":
            raise ValueError("the headline's place must be a path source")
        return found


# -- learning ------------------------------------------------------------------------------

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


def _candidates(name: str, page: _Page, expected: str) -> Iterator[Source]:
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


def _learn(name: str, pages: Sequence[_Page], expected: Sequence[str | None]) -> Source | None:
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


def _misses(name: str, source: Source, pages: Sequence[_Page],
            expected: Sequence[str | None], allowed: int, *, first: int = 0) -> int | None:
    """Learning pages where ``source`` does not give the expected value; None when more than
    ``allowed`` or any of them not ``_tolerated``. Page ``first``, the one the candidate came
    from, must give its value (a candidate is a place holding it there): read first, it turns
    down most candidates (any small element, for dates and authors) at once."""
    if not _agrees(name, _read(pages[first], name, source), expected[first]):
        return None
    misses = 0
    for j, (page, value) in enumerate(zip(pages, expected, strict=True)):
        if j == first:
            continue
        read = _read(page, name, source)
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
    views = [_Page(finder, url) for finder, url, _values in pages]
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


def _learn_anchor(pages: Sequence[_Page], expected: Mapping[str, Sequence[str | None]],
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


def _anchor_agrees(page: _Page, path: tuple[Step, ...], title: str | None,
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
