"""Where a template's pages carry their title, publication date and author.

``extract_metadata`` weighs every hint a page has (meta tags, JSON-LD, headings, ``<time>``,
bylines, text near the headline) and costs about half of applying a saved profile. Pages of
one template print their fields in the same place, so once a template is known, one place per
field is enough. The method, top to bottom (step 1, learning, is ``field_learning``; the
sources and their reading, steps 2 and 3, are here):

1. ``field_learning.learn_field_sources`` gets the learning pages of one template (an
   untouched parse of each, its URL, and the record values the full pipeline gave it). For
   each field it lists the *sources* that give the expected value on the first page, in a
   fixed order of preference, and keeps the first one that gives the expected value, exactly
   (after folding white space), on every learning page (``MIN_LEARNING_PAGES`` at least). The
   order:

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
(``metadata.headline_element`` on each learning page, ``field_learning._learn_anchor``: the
most common path, with a fallback path for pages lacking it, and the sources' tolerance of
pages lacking both),
kept only when ``metadata.complete_metadata`` there (the page rules for the missing fields
alone, with the known title) gives every learning page's expected values. ``read`` then finds
the missing fields that way: the page's date markup and the text around the headline, without
the title candidates (about half the cost of ``extract_metadata``; with the author missing,
the scan for byline markup too). Without a title source, or an anchor, ``complete()`` is False and
the template's pages keep ``extract_metadata``.

Tuned on held-out halves of the dev sets' templates (big9-2005, big9-2009, cleanportal).
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from sitesift.fields.author_names import clean_author, join_authors
from sitesift.fields.authors import author_from_markup, author_from_text, may_hold_author
from sitesift.fields.candidates import read_meta
from sitesift.fields.date_forms import date_from_url, parse_date
from sitesift.fields.jsonld import JsonLd, read_jsonld
from sitesift.fields.metadata import complete_metadata
from sitesift.fields.title_text import normalize_space
from sitesift.methods.template.paths import PathFinder, Step

__all__ = [
    "FIELDS",
    "KINDS",
    "MAX_PATH_TEXT_CHARS",
    "FieldSources",
    "PageView",
    "Source",
    "read_source",
]

FIELDS = ("title", "published", "author")
#: Elements with more text than this are not path sources: a title, a byline or a date line
#: is short, and longer elements are containers whose text varies with the story.
MAX_PATH_TEXT_CHARS = 300
#: Source kinds in the order of preference (see the module docstring).
KINDS = ("absent", "meta", "jsonld", "markup", "path", "doctitle", "url")
#: Elements whose markup may name an author (``itemprop``, ``rel``): what ``author_from_markup``
#: reads without classes, found in one query instead of the page-wide candidate scan.
_MARKUP_XPATH = etree.XPath("/descendant::*[@itemprop] | /descendant::*[@rel]")


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


class PageView:
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


def read_source(page: PageView, name: str, source: Source) -> tuple[bool, str | None]:
    """(readable, value) of field ``name`` from ``source`` on ``page``."""
    if source.kind == "absent":
        return True, None
    values = page.values(name, source)
    value = _value(name, source, values) if values else None
    if value is None and not source.optional and source.fallback is not None:
        return read_source(page, name, source.fallback)
    return value is not None or source.optional, value


@dataclass(frozen=True, slots=True)
class FieldSources:
    """Where a template's pages carry each field (one Source per field; JSON-able)."""

    title: Source | None  # None: no source reproduced the field on the learning pages
    published: Source | None
    author: Source | None
    #: Where the headline's element sits (a ``path`` source), for the fields without a source
    #: (``field_learning._learn_anchor``): they are found there by the page rules for those
    #: fields alone.
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
        view = PageView(page, url)
        out: dict[str, str | None] = {}
        for name in FIELDS:
            source = getattr(self, name)
            if source is None:
                if name == "title" or self.anchor is None:
                    return None
                continue
            readable, value = read_source(view, name, source)
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
