"""Title, author and publication time of one page, read without touching the tree.

The page is read once for what every field needs: meta tags, JSON-LD, and the elements whose
markup hints at a field (headings, headline/author classes, ``<time>``, ``itemprop``). The
headline is chosen first (``titles``); the element showing it anchors a small window of visible
text (block elements start a new line) where printed dates (``dates``) and bylines
(``authors``) are searched. Only pages that need it have a longer stretch of the story read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from urllib.parse import parse_qsl, urlsplit

import lxml.html
from lxml import etree
from rapidfuzz.distance import Indel

from sitesift.fields.authors import (
    author_from_editor_line,
    author_from_en_name_line,
    author_from_markup,
    author_from_meta,
    author_from_name_line,
    author_from_text,
    join_authors,
    may_hold_author,
)
from sitesift.fields.dates import find_published, may_hold_date
from sitesift.fields.jsonld import JsonLd, read_jsonld, unescape_twice
from sitesift.fields.titles import (
    TitleCandidates,
    choose_title,
    normalize_space,
    slug_words,
    title_segments,
)

__all__ = [
    "Metadata", "complete_metadata", "extract_metadata", "headline_element", "lines_after",
    "lines_before", "read_meta",
]

#: Meta keys whose content may be the article title, best first.
#: Meta keys where the publisher declares the article's title, best first.
DECLARED_TITLE_KEYS = (
    "dc.title", "dcterm.title", "dcterms.title", "og:title", "weibo:article:title",
    "twitter:title", "parsely-title", "headline", "citation_title",
)
#: Other title-like meta keys: often a copy of ``<title>`` with the site name.
TITLE_META_KEYS = ("title", "weibo:webpage:title", "sailthru.title")
#: Meta keys naming the site (used to strip decoration from ``<title>``).
SITE_META_KEYS = ("og:site_name", "application-name", "twitter:site", "al:android:app_name",
                  "al:ios:app_name", "publisher", "dc.publisher", "copyright")
#: Heading tags that may hold the headline, and how many of them are considered at most.
HEADING_TAGS = ("h1", "h2", "h3")
MAX_HEADINGS = 40
#: Longer ``<title>`` text comes from an unclosed tag that swallowed the page.
MAX_DOC_TITLE_CHARS = 400
_CJK = re.compile(r"[\u3400-\u9fff]")
#: How many lines under the headline tell whether the page is Chinese (for byline search).
CJK_PROBE_LINES = 20
_MARKUP = re.compile(r"</?[a-zA-Z][\w-]*[\s>/]|<!--")
#: Where a swallowed page starts after the real title text: a new line, markup or script.
#: A call's arguments are literals or identifiers ('getElementById("font")', 'f(x)'): a
#: headline's parenthesis holds words ("US PGA Title(The Korea Times)").
_CODE_START = re.compile(r"\n|<|-->|[{};=]|\w+\((?=[\"'\d)]|[a-z_$][\w.$]*[,)])")
#: The end of a tag in title text: its last attribute value and "/>" or ">".
_TAG_RESIDUE = re.compile(r"\S*[\"']\s*/?>\s*$")
_TRAILING_SEPARATOR = re.compile(r"[\s|:·•»\-–—]+$")
#: Elements whose class/id says they hold the headline; they join the heading candidates.
_HEADLINE_CLASS = re.compile(r"headline|(?:^|[\s_-])(?:entry|post|article|story|news|main\w*|page|"
                             r"art|content|detail)[-_]?(?:title|tit|hed|heading|head)(?:$|[\s_-])",
                             re.IGNORECASE)
#: Headline-marked elements with more characters than this are containers, not headlines.
MAX_HEADLINE_CHARS = 300
#: A heading this similar to the headline is where the headline sits in the text.
TITLE_LINE_SIMILARITY = 0.8
#: At most this many lines at the anchor are skipped as the headline's own text.
MAX_HEADLINE_LINES = 3
#: Without the headline in the text, a heading this similar to another wording of it anchors.
ANCHOR_VARIANT_SIMILARITY = 0.5
ANCHOR_H1_BONUS = 0.05
#: Without such a heading, the first text containing this many leading characters of it.
TITLE_NEEDLE_CHARS = 40
#: ... where the headline fills at least this share of that text: a one-word ``<title>``
#: ("显示", "Display") met inside a sentence of the story is not where it is printed.
MIN_NEEDLE_LINE_SHARE = 0.5
#: How many characters of text after the headline are scanned for a written date or byline.
#: Bylines and date lines sit right below the headline; further down, dates are story events.
TEXT_WINDOW_AFTER_TITLE = 1500
#: How many characters of text just above the headline are scanned (some sites print it above).
TEXT_WINDOW_BEFORE_TITLE = 300
#: Without a known headline, how much of the body text is scanned from the top.
TEXT_WINDOW_NO_TITLE = 3000
#: How much text after the headline is searched for a labelled byline ("记者 X", "编辑：X"):
#: a whole story, whose credits often come at its end.
AUTHOR_TEXT_WINDOW = 8000

#: Elements whose text is not read as printed lines (a ``<title>`` misplaced into the body by a
#: wrapper before ``<html>`` is not shown either).
_SKIP = frozenset(("script", "style", "noscript", "template", "svg", "math", "head", "title",
                   "select", "option", "textarea", "iframe", "object", "button"))
_BLOCK = frozenset((
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "th", "thead", "tr",
    "ul", "center", "caption",
))


@dataclass(frozen=True, slots=True)
class Metadata:
    """What ``extract_metadata`` found; every field may be None. ``published`` is ISO 8601
    (a date, or a date and time with the offset when the page gives one)."""

    title: str | None = None
    author: str | None = None
    published: str | None = None
    site_name: str | None = None
    description: str | None = None
    lang: str | None = None
    #: What the title was chosen from: site-level title learning chooses again with more.
    title_candidates: TitleCandidates | None = field(default=None, compare=False, repr=False)


#: Dublin Core keys are written "dc:title" as well as "DC.title": one spelling for lookups.
_DC_PREFIX = re.compile(r"^(dc|dcterms?):")


def read_meta(root: lxml.html.HtmlElement) -> dict[str, list[str]]:
    """Lower-cased name/property/itemprop/http-equiv of every ``<meta>`` -> its contents.

    A key declared with ``property`` (RDFa, the form Open Graph and Dublin Core define) keeps
    only those values: the same key written again with ``name`` is the same declaration in
    the looser syntax ("DC.creator" and "dc:creator" on one page name one author)."""
    by_attr: dict[str, dict[str, list[str]]] = {a: {} for a in _META_ATTRS}
    for el in root.iter("meta"):
        content = el.get("content")
        if content is None:
            continue
        content = unescape_twice(content).strip()
        if not content:
            continue
        for attr in _META_ATTRS:
            key = el.get(attr)
            if key:
                for k in key.lower().split():
                    if k.startswith("dc"):  # (the prefix regex only where it can match)
                        k = _DC_PREFIX.sub(r"\1.", k)
                    by_attr[attr].setdefault(k, []).append(content)
    out: dict[str, list[str]] = {}
    for attr in _META_ATTRS:
        for k, values in by_attr[attr].items():
            if attr == "name" and k in by_attr["property"]:
                continue
            out.setdefault(k, []).extend(values)
    return out


_META_ATTRS = ("property", "name", "itemprop", "http-equiv")


class _Lines:
    """Builds text lines (a new line at each block element) until ``budget`` characters."""

    __slots__ = ("budget", "current", "lines", "used")

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.current: list[str] = []
        self.lines: list[str] = []
        self.used = 0

    @property
    def full(self) -> bool:
        return self.used >= self.budget

    def add(self, text: str | None) -> None:
        if text:
            self.current.append(text)

    def flush(self) -> None:
        if not self.current:  # most block boundaries close no text
            return
        line = normalize_space("".join(self.current))
        self.current.clear()
        if line:
            self.lines.append(line)
            self.used += len(line)

    def walk(self, top: lxml.html.HtmlElement) -> None:
        """Text of ``top`` and its descendants (not ``top``'s tail), iteratively.

        (The hot loop of reading a page's fields: ``add`` and ``full`` inlined.)"""
        walker = etree.iterwalk(top, events=("start", "end"))
        current = self.current
        for event, el in walker:
            tag = el.tag  # (only elements: this walk yields no comments)
            if event == "start":
                if tag in _SKIP:
                    walker.skip_subtree()
                    continue
                if tag in _BLOCK:
                    if current:
                        self.flush()
                    if self.used >= self.budget:
                        return
                text = el.text
                if text:
                    current.append(text)
            else:
                if current and tag in _BLOCK:
                    self.flush()
                if el is not top:
                    tail = el.tail
                    if tail:
                        current.append(tail)


def lines_after(anchor: lxml.html.HtmlElement, stop: lxml.html.HtmlElement,
                budget: int) -> list[str]:
    """Visible text lines from ``anchor`` on in document order, within ``stop``, about
    ``budget`` characters."""
    out = _Lines(budget)
    node: lxml.html.HtmlElement | None = anchor
    while node is not None and not out.full:
        out.walk(node)
        if node is stop:
            break
        out.add(node.tail)
        nxt = node.getnext()
        while nxt is None and node is not None:
            node = node.getparent()
            if node is None or node is stop:
                break
            if node.tag in _BLOCK:
                out.flush()
            out.add(node.tail)
            nxt = node.getnext()
        node = nxt
    out.flush()
    return out.lines


def lines_before(anchor: lxml.html.HtmlElement, stop: lxml.html.HtmlElement,
                 budget: int) -> list[str]:
    """Visible text lines just above ``anchor`` (nearest first), about ``budget`` characters.

    Walks backwards in document order. A preceding subtree with little text is read whole;
    a big one (a navigation block, a whole header) is entered from its end instead, so that
    only its last lines are read.
    """
    out: list[str] = []
    used = 0

    def add(text: str | None) -> None:
        nonlocal used
        line = normalize_space(text)
        if line:
            out.append(line)
            used += len(line)

    parent = anchor.getparent()
    cur = anchor.getprevious()
    while parent is not None and used < budget:
        if cur is None:  # the start of ``parent``: its own leading text, then one level up
            if parent.tag not in _SKIP:
                add(parent.text)
            if parent is stop:
                break
            cur, parent = parent.getprevious(), parent.getparent()
            continue
        add(cur.tail)
        if not isinstance(cur.tag, str) or cur.tag in _SKIP:
            cur = cur.getprevious()
        elif len(cur) and len(_STRING(cur)) > budget * WHOLE_SUBTREE_FACTOR:
            parent, cur = cur, cur[-1]
        else:
            piece = _Lines(budget * WHOLE_SUBTREE_FACTOR)
            piece.walk(cur)
            piece.flush()
            for line in reversed(piece.lines):
                out.append(line)
                used += len(line)
            cur = cur.getprevious()
    return out


_STRING = etree.XPath("string()")
#: A preceding subtree with more text than this many times the budget is entered from its end
#: instead of being read whole (its first lines are far from the headline).
WHOLE_SUBTREE_FACTOR = 4
_TEXT_CONTAINING = etree.XPath(".//text()[contains(., $needle)]")


def _heading_kind(el: lxml.html.HtmlElement, tag: str) -> str | None:
    if tag in HEADING_TAGS:
        return tag
    prop = el.get("itemprop")
    if (prop and prop.lower() == "headline") or tag == "headline":
        # (``<HeadLine>``: a NewsML item a news agency's feed pasted into the page.)
        return "headline"
    if tag in ("a", "body", "html", "meta", "title", "head", "link"):
        return None
    cls, ident = el.get("class"), el.get("id")
    if (cls and _HEADLINE_CLASS.search(cls)) or (ident and _HEADLINE_CLASS.search(ident)):
        return "headline"
    return None


@dataclass(slots=True)
class _Marked:
    """Elements whose markup suggests a field, each list in document order."""

    headings: list[tuple[lxml.html.HtmlElement, str, str]]
    authors: list[lxml.html.HtmlElement]
    dates: list[lxml.html.HtmlElement]


#: Elements checked in full whatever their class; others only when their class or id hints.
#: (``/descendant::x`` rather than ``//x``: one step instead of two, a fifth to a third faster.)
_TAGGED_XPATH = etree.XPath(
    "/descendant::h1 | /descendant::h2 | /descendant::h3 | /descendant::time | "
    "/descendant::abbr[@title] | /descendant::*[@itemprop] | /descendant::*[@rel] | "
    "/descendant::headline")
_CLASS_ID_XPATH = etree.XPath("/descendant::*/@class | /descendant::*/@id")
#: Superset of the class/id hints of ``may_hold_author`` and ``_heading_kind``.
_HINT = re.compile(r"author|byl|writer|autor|auteur|tit|headline|hed|head", re.IGNORECASE)


def _hinted(value: str) -> bool:
    """``_HINT.search(value)``, fast for ASCII (where lower-casing is what IGNORECASE does):
    the same words looked for with ``in`` in the lower-cased value, spelt out ("headline"
    holds "head"; an alternation under IGNORECASE is a slow scan, a generator over the words
    a call per value, and every class and id of a page is checked)."""
    if value.isascii():
        low = value.lower()
        return "author" in low or "byl" in low or "writer" in low or "autor" in low or \
            "auteur" in low or "tit" in low or "hed" in low or "head" in low
    return _HINT.search(value) is not None


def _candidates(root: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """Elements any field may want, in (source line) order.

    Two C-level queries instead of a Python loop over every element: tagged elements, and the
    owners of class/id values that ``_HINT`` matches (the values are plain strings, so only
    the few hits become element objects). About twice as fast as walking the tree.
    """
    found = list(_TAGGED_XPATH(root))
    seen = set(found)
    for value in _CLASS_ID_XPATH(root):
        if len(value) >= 3 and _hinted(value):
            el = value.getparent()
            if el is not None and el not in seen:
                seen.add(el)
                found.append(el)
    found.sort(key=lambda el: el.sourceline or 0)
    return found


_PAGE_MARK = re.compile(r"\s*[(（][^()（）]{1,10}[)）]$")
#: XPath's white space (``normalize-space``): space, tab, carriage return, line feed.
_XPATH_SPACE = re.compile(r"[ \t\r\n]+")


def _texts_equal(body: lxml.html.HtmlElement,
                 needles: list[str]) -> dict[str, list[etree._ElementUnicodeResult]]:
    """Per needle, the text nodes under ``body`` whose ``normalize-space`` is the needle, in
    document order: what ``.//text()[normalize-space(.) = $needle]`` gives, from one walk
    over the page's text for all needles. Such a node holds each of its needle's words as
    they stand: only the nodes holding a needle's longest word (``contains``, a substring
    search) are normalised, where the query made a string of every text node for each."""
    found: dict[str, list[etree._ElementUnicodeResult]] = {n: [] for n in needles}
    if not needles:
        return found
    if any(not n or _xpath_normalized(n) != n for n in needles):
        # (A needle that is no normalised text: only "" normalises to "" among them.)
        hits = _TEXT_ALL(body)
    else:
        words = {f"w{i}": max(n.split(" "), key=len) for i, n in enumerate(needles)}
        test = " or ".join(f"contains(., ${name})" for name in words)
        hits = body.xpath(f"descendant::text()[{test}]", **words)
    for hit in hits:
        same = found.get(_xpath_normalized(hit))
        if same is not None:
            same.append(hit)
    return found


def _xpath_normalized(text: str) -> str:
    """XPath's ``normalize-space(text)``."""
    return _XPATH_SPACE.sub(" ", text).strip(" \t\r\n")


_TEXT_ALL = etree.XPath("descendant::text()")
#: A ``<title>`` segment printed as its own line is looked up only when it is this long
#: (shorter ones are section or site names that menus repeat).
MIN_PRINTED_SEGMENT_WORDS = 4
#: ... or this long when printed as a minor heading (one word is a section's name).
MIN_PRINTED_HEADING_SEGMENT_WORDS = 2
_MINOR_HEADINGS = frozenset(("h4", "h5", "h6"))


def _printed_segments(doc_title: str | None, body: lxml.html.HtmlElement,
                      headings: list[tuple[lxml.html.HtmlElement, str, str]]) -> None:
    """Add to ``headings`` the segments of ``<title>`` that the page prints as a line of their
    own outside headings ("标题" of "标题(页 1) - 栏目 - 网站"): the headline in plain markup."""
    known = {text for _el, text, _kind in headings}
    segments = title_segments(doc_title)
    # "标题(页 1)", "Headline (2/3)": the page number is the title's, not the headline's.
    segments += [_PAGE_MARK.sub("", s) for s in segments if _PAGE_MARK.search(s)]
    hits = _texts_equal(body, list(dict.fromkeys(
        s for s in segments if s not in known and _words(s) >= MIN_PRINTED_HEADING_SEGMENT_WORDS)))
    for segment in segments:
        if segment in known or _words(segment) < MIN_PRINTED_HEADING_SEGMENT_WORDS:
            continue
        printed = [hit.getparent() for hit in hits[segment]]
        printed = [el for el in printed if el is not None and el.tag not in _SKIP
                   and el.tag != "a" and not _in_breadcrumb(el)]
        if _words(segment) < MIN_PRINTED_SEGMENT_WORDS:
            # A shorter segment counts where the page marks it as a heading (h4-h6, levels
            # the heading scan leaves out: "<h5>Podium for Canuck</h5>" over its deck's h3).
            printed = [el for el in printed if el.tag in _MINOR_HEADINGS]
        if printed:
            headings.append((printed[0], segment, "line"))
            known.add(segment)


def _in_breadcrumb(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` is the last step of a breadcrumb trail ("首页 » 栏目 » 标题")."""
    prev = el.getprevious()
    parent = el.getparent()
    before = prev.tail if prev is not None else (parent.text if parent is not None else None)
    return (before or "").strip().endswith(_BREADCRUMB_MARKS)


_BREADCRUMB_MARKS = ("»", ">", "›", "/", "＞", "→")


def _words(text: str) -> int:
    return len(text.split()) + len(_CJK.findall(text)) // 2


def _scan(root: lxml.html.HtmlElement, body: lxml.html.HtmlElement, *,
          headings: bool = True) -> _Marked:
    """Elements whose markup suggests a title, an author or a date (``headings=False``: no
    title candidates, for a page whose headline is known)."""
    out = _Marked([], [], [])
    for el in _candidates(root):
        tag = el.tag
        if not isinstance(tag, str):
            continue
        if may_hold_date(el):
            out.dates.append(el)
        if may_hold_author(el):
            out.authors.append(el)
        if headings and len(out.headings) < MAX_HEADINGS:
            kind = _heading_kind(el, tag)
            if kind and (body is root or _inside(el, body)):
                text = normalize_space(el.get("content") or el.text_content())
                if text and len(text) <= MAX_HEADLINE_CHARS:
                    out.headings.append((el, text, kind))
    return out


def _inside(el: lxml.html.HtmlElement, body: lxml.html.HtmlElement) -> bool:
    for ancestor in el.iterancestors("body", "head"):
        return ancestor is body
    return False


def _doc_title(root: lxml.html.HtmlElement) -> str | None:
    head = root.find("head")
    el = head.find("title") if head is not None else None
    if el is None:
        el = next((t for t in root.iter("title") if t.getparent() is not None
                   and t.getparent().tag not in ("svg", "symbol")), None)
    if el is None:
        return None
    text = el.text_content()
    if len(text) > MAX_DOC_TITLE_CHARS or _MARKUP.search(text):
        # An unclosed <title> swallowed the page: keep what comes before markup or code.
        text = _CODE_START.split(text.strip(), maxsplit=1)[0][:MAX_DOC_TITLE_CHARS]
    # The end of a tag the cut swallowed ('Site - Intww.example.com/search.xml" />') is no text.
    cut = _TAG_RESIDUE.sub("", text)
    if cut != text:
        text = _TRAILING_SEPARATOR.sub("", cut)
    return normalize_space(unescape_twice(text))


#: Links that share the page on another site carry its title in their query ("digg.com/submit?
#: url=...&title=Gulf states urge peace with Iran"): the publisher's title for sharing.
_SHARE_HREFS = etree.XPath("/descendant::a[contains(@href, 'title=')]/@href")
_SHARE_URL_KEYS = ("url", "u", "link")
#: A value a script was to fill in ("' encodeURIComponent(document.title) '") is code.
_CODE_CALL = re.compile(r"[\w.]+\([\w.]*\)")


def _shared_title(root: lxml.html.HtmlElement) -> str | None:
    """The title most of the page's share links give (more than half of them), or None; a list
    page's share links name each item's story and agree on none."""
    values = []
    for href in _SHARE_HREFS(root):
        query = dict((k.lower(), v) for k, v in parse_qsl(urlsplit(str(href)).query))
        value = normalize_space(query.get("title"))
        if value and any(k in query for k in _SHARE_URL_KEYS) and not _CODE_CALL.search(value):
            values.append(value)
    if not values:
        return None
    value, count = Counter(values).most_common(1)[0]
    return value if 2 * count > len(values) else None


def _site_names(meta: dict[str, list[str]], jsonld_site: str | None, url: str | None) -> list[str]:
    names = [v.lstrip("@") for k in SITE_META_KEYS for v in meta.get(k, [])]
    if jsonld_site:
        names.append(jsonld_site)
    if url:
        host = urlsplit(url).hostname or ""
        labels = [x for x in host.split(".") if x not in ("www", "m", "news", "com", "co", "org",
                                                         "net", "cn", "uk", "de", "edu", "gov")]
        names.extend(labels[-1:])
        if host:
            names.append(host.removeprefix("www."))
    return names


def _month_first(lang: str | None) -> bool:
    """Slash dates read month-first only on English pages (or when the language is unknown)."""
    return not lang or lang.lower().startswith("en")


def _anchor(title: str | None, body: lxml.html.HtmlElement,
            headings: list[tuple[lxml.html.HtmlElement, str, str]],
            variants: list[str]) -> lxml.html.HtmlElement | None:
    """The element showing the headline: a heading with its text, else an element whose text
    contains its beginning, else the heading most like one of ``variants`` (other wordings of
    the title: ``<title>``, declared titles), else the first h1."""
    if not title:
        return None
    folded = title.casefold()
    for el, text, _kind in headings:
        if text.casefold() == folded:
            return el
    for el, text, _kind in headings:
        if Indel.normalized_similarity(text.casefold(), folded) >= TITLE_LINE_SIMILARITY:
            return el
    needle = title[:TITLE_NEEDLE_CHARS]
    for hit in _TEXT_CONTAINING(body, needle=needle):
        parent = hit.getparent()
        if len(title) < MIN_NEEDLE_LINE_SHARE * len(hit.strip()):
            continue
        if parent is not None and parent.tag not in _SKIP:
            return parent
    h1s = [el for el, _text, kind in headings if kind == "h1"]
    if len(h1s) == 1:
        return h1s[0]
    best, best_sim = None, ANCHOR_VARIANT_SIMILARITY
    for el, text, kind in headings:
        for variant in variants:
            # Teasers repeat the headline in lists; the page's own h1 wins a tie.
            s = Indel.normalized_similarity(text.casefold(), variant.casefold()) + (
                ANCHOR_H1_BONUS if kind == "h1" else 0.0)
            if s > best_sim:
                best, best_sim = el, s
    if best is not None:
        return best
    return next((el for el, _text, kind in headings if kind == "h1"), None)


def _first_author(site_names: list[str], *sources: Callable[[], str | None]) -> str | None:
    """The first weak source's author that is not the site's name (a logo in a byline box).

    Declared authors (JSON-LD, meta) may rightly equal the site name: a blog's owner, "BBC News".
    """
    for source in sources:
        author = source()
        if author and not _is_site(author, site_names):
            return author
    return None


def _without_site(author: str | None, site_names: list[str]) -> str | None:
    """``author`` without the publisher named after the writers ("Jane Roe, The Commercial
    Appeal": the writer's affiliation, not a co-author)."""
    if not author:
        return author
    names = author.split(", ")
    kept = [n for n in names if not _is_site(n, site_names)]
    return ", ".join(kept) if kept and len(kept) < len(names) else author


def _acronyms(doc_title: str | None, site_names: list[str]) -> set[str]:
    """The site's acronyms: all-capital words of its `<title>` and names ("CNN" of "... -
    CNN.com", "BBC" of "BBC News - ..."), which a byline prints after the writer's name."""
    words = re.findall(r"\b[A-Z]{2,5}\b", " ".join(filter(None, (doc_title, *site_names))))
    return set(words)


def _employs_reporter(name: str, lines: list[str]) -> bool:
    """Whether ``lines`` print ``name`` as a reporter's outlet ("央视记者 刘骁骞": X记者)."""
    return any(f"{name}记者" in line or f"{name}記者" in line for line in lines)


def _in_cjk_decoration(author: str, doc_title: str | None, title: str | None) -> bool:
    """Whether the Chinese ``author`` is printed in ``doc_title`` outside the headline
    ``title``: in the decoration that names the site ("..._网易新闻", "..._凤凰网")."""
    if not doc_title or not _CJK.search(author):
        return False
    rest = doc_title.replace(title, " ") if title else doc_title
    return author in rest and author not in (title or "")


def _is_site(author: str, site_names: list[str]) -> bool:
    """Whether ``author`` is (or holds, or is held in) one of the site's names."""
    folded = author.casefold()
    return any(folded in n or n in folded for n in (s.casefold() for s in site_names if s))


def _without_headline(lines: list[str], title: str | None) -> list[str]:
    """``lines`` without the leading lines of the headline itself (its own dates are topics)."""
    folded = (title or "").casefold()
    start = 0
    while start < len(lines) and start < MAX_HEADLINE_LINES and lines[start].casefold() in folded:
        start += 1
    return lines[start:]


def _first_chars(lines: list[str], budget: int) -> list[str]:
    out, used = [], 0
    for line in lines:
        if used >= budget:
            break
        out.append(line)
        used += len(line)
    return out


def _lang(root: lxml.html.HtmlElement, meta: dict[str, list[str]], ld: JsonLd) -> str | None:
    return normalize_space(root.get("lang") or root.get("xml:lang")) or ld.lang or (
        meta.get("og:locale", [None])[0]) or (meta.get("content-language", [None])[0])


def _declared_titles(meta: dict[str, list[str]], ld: JsonLd) -> list[str]:
    """Titles the publisher declares (JSON-LD headline, then the declared meta keys)."""
    declared = [ld.headline] if ld.headline else []
    declared += [v for k in DECLARED_TITLE_KEYS for v in meta.get(k, [])[:1]]
    return declared


def _body(root: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    body = root.find("body")
    return body if body is not None else root


def _date_and_author(
    *, body: lxml.html.HtmlElement, anchor: lxml.html.HtmlElement | None, title: str | None,
    meta: dict[str, list[str]], ld: JsonLd, url: str | None, lang: str | None,
    dates: list[lxml.html.HtmlElement] | None, authors: list[lxml.html.HtmlElement] | None,
    doc_title: str | None = None, crawled: datetime | date | None = None,
) -> tuple[str | None, str | None]:
    """Published and author, read from the declared metadata, the marked elements and the text
    around the headline's element ``anchor`` (None: the top of the body). ``dates`` or
    ``authors`` None: that field is not wanted (None), and its elements were not looked for."""
    start = anchor if anchor is not None else body
    window = TEXT_WINDOW_AFTER_TITLE if anchor is not None else TEXT_WINDOW_NO_TITLE
    first = lines_after(start, body, window + len(title or ""))
    after = _first_chars(_without_headline(first, title) if anchor is not None else first, window)
    walked: list[list[str]] = []

    def story() -> list[str]:
        """The longer text run, walked only when a source needs it (most pages never do)."""
        if not walked:
            walked.append(lines_after(start, body, AUTHOR_TEXT_WINDOW))
        return walked[0]

    def byline() -> str | None:
        # Labelled Chinese bylines may come at the end of the story; English "By X" sits
        # under the headline, within the first lines.
        chinese = any(_CJK.search(line) for line in after[:CJK_PROBE_LINES])
        if not chinese:
            return author_from_text(after, outlets=outlets) or author_from_en_name_line(after)
        # The editor credited at the end is the author only where the page names no other,
        # also not on a line of names under the headline.
        return author_from_text(story(), editors=False) or author_from_name_line(after) \
            or author_from_editor_line(story())

    published = author = None
    outlets: set[str] = set()
    if dates is not None:
        before = lines_before(anchor, body, TEXT_WINDOW_BEFORE_TITLE) if anchor is not None else []
        published = find_published(
            date_elements=dates, meta=meta, jsonld_published=ld.published,
            jsonld_modified=ld.modified, url=url, after=after, before=before, story=story,
            labelled_first=anchor is None, month_first=_month_first(lang),
            top=(lambda: lines_after(body, body, AUTHOR_TEXT_WINDOW)) if anchor is not None
            else None, crawled=crawled)
    if authors is not None:
        site_names = _site_names(meta, ld.site_name, url)
        outlets = _acronyms(doc_title, site_names)
        declared = join_authors(ld.authors) or author_from_meta(meta, outlets=outlets)
        if declared and (_in_cjk_decoration(declared, doc_title, title)
                         or (_CJK.search(declared) and _employs_reporter(declared, story()))):
            # A Chinese site declaring itself the author ("网易" on "..._网易新闻"): the
            # publisher, named in `<title>`'s decoration, is no author; nor is an outlet the
            # story credits as a reporter's ("（央视记者 刘骁骞）"). The byline decides.
            declared = None
        if declared and _is_site(declared, site_names):
            # The publisher declared as the author (a CMS default): a person marked as the
            # author in the page is the writer; failing that the publisher stands (a bare
            # byline does not outvote it: on a list page it is one item's).
            declared = _first_author(site_names, lambda: author_from_markup(authors)) \
                or declared
        author = _without_site(declared or author_from_markup(authors) or _first_author(
            site_names, byline, lambda: author_from_markup(authors, classes=True)), site_names)
    return published, author


def extract_metadata(root: lxml.html.HtmlElement, *, url: str | None = None,
                     crawled: datetime | date | None = None) -> Metadata:
    """Title, author, published (ISO 8601) and site facts of the page rooted at ``root``;
    ``crawled`` (when the page was fetched, if known) dates "3 hours ago"."""
    meta = read_meta(root)
    ld = read_jsonld(root)
    body = _body(root)
    marked = _scan(root, body)
    headings = marked.headings
    lang = _lang(root, meta, ld)
    site_names = _site_names(meta, ld.site_name, url)
    declared = _declared_titles(meta, ld)
    meta_titles = [v for k in TITLE_META_KEYS for v in meta.get(k, [])[:1]]
    doc_title = _doc_title(root)
    _printed_segments(doc_title, body, headings)
    candidates = TitleCandidates(
        doc_title=doc_title, declared_titles=tuple(declared),
        meta_titles=tuple(meta_titles),
        headings=tuple((kind, h) for _el, h, kind in headings), site_names=tuple(site_names),
        url_words=slug_words(url), shared_title=_shared_title(root))
    title = choose_title(candidates)
    anchor = _anchor(title, body, headings, [v for v in (doc_title, *declared) if v])
    published, author = _date_and_author(
        body=body, anchor=anchor, title=title, meta=meta, ld=ld, url=url, lang=lang,
        dates=marked.dates, authors=marked.authors, doc_title=doc_title, crawled=crawled)
    site_name = next(iter(meta.get("og:site_name", [])), None) or ld.site_name
    description = next(iter(meta.get("og:description", []) or meta.get("description", [])),
                       None) or ld.description
    return Metadata(title=title, author=author, published=published, site_name=site_name,
                    description=description, lang=lang or None,
                    title_candidates=candidates)


def headline_element(root: lxml.html.HtmlElement, title: str) -> lxml.html.HtmlElement | None:
    """The element ``extract_metadata`` would start its text windows from for headline
    ``title`` (its anchor). For learning where a template prints its headline."""
    meta = read_meta(root)
    ld = read_jsonld(root)
    body = _body(root)
    headings = _scan(root, body).headings
    doc_title = _doc_title(root)
    _printed_segments(doc_title, body, headings)
    declared = _declared_titles(meta, ld)
    return _anchor(title, body, headings, [v for v in (doc_title, *declared) if v])


#: Elements that may hold a date (``dates.may_hold_date``): the date part of ``_candidates``.
_DATE_XPATH = etree.XPath("/descendant::time | /descendant::abbr[@title] | "
                          "/descendant::*[@itemprop]")


def complete_metadata(
    root: lxml.html.HtmlElement, *, url: str | None, title: str | None,
    anchor: lxml.html.HtmlElement, published: bool, author: bool,
    meta: dict[str, list[str]] | None = None, ld: JsonLd | None = None,
) -> tuple[str | None, str | None]:
    """(published, author) as ``extract_metadata`` finds them, for a page whose headline and
    its element are known already (a template's learned places, ``template.fields``); only the
    fields asked for (the other is None). Without the title to choose, the page is scanned
    for date markup alone when the author is not wanted: half the cost of the whole."""
    meta = meta if meta is not None else read_meta(root)
    ld = ld if ld is not None else read_jsonld(root)
    authors: list[lxml.html.HtmlElement] | None = None
    if author:
        marked = _scan(root, _body(root), headings=False)
        dates, authors = marked.dates, marked.authors
    else:
        dates = [el for el in _DATE_XPATH(root) if may_hold_date(el)]
        dates.sort(key=lambda el: el.sourceline or 0)  # (the order ``_candidates`` gives)
    return _date_and_author(
        body=_body(root), anchor=anchor, title=title, meta=meta, ld=ld, url=url,
        lang=_lang(root, meta, ld), dates=dates if published else None, authors=authors,
        doc_title=_doc_title(root) if author else None)
