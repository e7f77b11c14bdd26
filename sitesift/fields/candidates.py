"""Where one page's fields may be, read in one pass without touching the tree.

Meta tags, ``<title>`` (cut where an unclosed tag swallowed the page), the title the page's
share links give, the site's names, and the elements whose markup hints at a field: headings
and headline classes (title candidates), ``<time>`` and date markup, bylines and author
classes. ``metadata`` chooses among them.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import lxml.html
from lxml import etree

from sitesift.fields.authors import may_hold_author
from sitesift.fields.declared_dates import may_hold_date
from sitesift.fields.jsonld import JsonLd, unescape_twice
from sitesift.fields.lines import HIDDEN_TAGS
from sitesift.fields.title_text import normalize_space, title_segments
from sitesift.parse.dom import HAN

__all__ = [
    "DECLARED_TITLE_KEYS", "TITLE_META_KEYS", "Marked", "add_printed_segments", "body_of",
    "heading_text",
    "read_declared_titles", "read_doc_title", "read_lang", "read_meta", "read_shared_title",
    "read_site_names", "scan_marked",
]


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
class Marked:
    """Elements whose markup suggests a field, each list in document order."""

    headings: list[tuple[lxml.html.HtmlElement, str, str]]
    authors: list[lxml.html.HtmlElement]
    dates: list[lxml.html.HtmlElement]


#: Elements checked in full whatever their class (besides ``abbr`` with a title and any element
#: with an ``itemprop`` or a ``rel``); others only when their class or id hints.
_TAGGED = frozenset(("h1", "h2", "h3", "time", "headline"))
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
    """Elements any field may want, in (source line) order: the tagged elements (``_TAGGED``,
    ``abbr`` with a title, any with an ``itemprop`` or a ``rel``) in document order, then the
    owners of class/id values that ``_HINT`` matches, sorted by source line (a stable sort:
    on one line, that order).

    One walk of the document's elements reading each one's attribute names once (``keys()``,
    a list made in C: most elements have none, or none of these). The queries it replaced
    walked the document ten times (``/descendant::h1 | ... | /descendant::*[@rel]`` and
    ``/descendant::*/@class | /descendant::*/@id``) for the same list: 0.192 -> 0.178 s over
    the 251 pages of big9-2005, big9-2009 and cleanportal, 1.65 -> 1.30 s with modern-dev and
    zh-sites, whose pages have more of both.
    """
    tagged: list[lxml.html.HtmlElement] = []
    named: list[lxml.html.HtmlElement] = []
    # The document's elements in document order, as "/descendant::*" gives them: a mended
    # page may hold a second top-level element beside the root (an emptied <html>).
    top = root.getroottree().getroot()
    tops = [*reversed(list(top.itersiblings(etree.Element, preceding=True))), top,
            *top.itersiblings(etree.Element)]
    for el in itertools.chain.from_iterable(t.iter(etree.Element) for t in tops):
        names = el.keys()
        if not names:
            if el.tag in _TAGGED:
                tagged.append(el)
            continue
        tag = el.tag
        if tag in _TAGGED or "itemprop" in names or "rel" in names or \
                (tag == "abbr" and "title" in names):
            tagged.append(el)
        elif "class" in names or "id" in names:
            cls, ident = el.get("class"), el.get("id")
            if (cls and len(cls) >= 3 and _hinted(cls)) or \
                    (ident and len(ident) >= 3 and _hinted(ident)):
                named.append(el)
    found = tagged + named
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


def add_printed_segments(doc_title: str | None, body: lxml.html.HtmlElement,
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
        printed = [el for el in printed if el is not None and el.tag not in HIDDEN_TAGS
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
    return len(text.split()) + len(HAN.findall(text)) // 2


def scan_marked(root: lxml.html.HtmlElement, body: lxml.html.HtmlElement, *,
          headings: bool = True) -> Marked:
    """Elements whose markup suggests a title, an author or a date (``headings=False``: no
    title candidates, for a page whose headline is known)."""
    out = Marked([], [], [])
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
                text = normalize_space(el.get("content") or heading_text(el))
                if text and len(text) <= MAX_HEADLINE_CHARS:
                    out.headings.append((el, text, kind))
    return out


#: Elements inside a heading whose text is never printed: a style sheet or script some
#: component libraries put beside the heading's text (modern-dev 0037's "Table of Contents"
#: h2 read as ".css-1jsth4a{display:-webkit-box;...").
_UNPRINTED_IN_HEADING = frozenset(("script", "style", "template"))
#: Classes of an element inside a heading that prints a line of its own beside the headline:
#: a tagline or subtitle under it, a kicker or eyebrow over it ("Black Edition<span
#: class="...__tagline__...">Complete high-protein powder meal</span>", glued by
#: ``text_content()`` into "Black EditionComplete ..."). The style sheet sets it apart; the
#: headline is the rest.
_TAGLINE = re.compile(r"tagline|subtitle|subhead|kicker|eyebrow", re.IGNORECASE)


#: The most characters a heading's permalink prints: one sign ("¶", "#", "§", "🔗").
PERMALINK_MAX_CHARS = 2


def is_permalink_sign(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` is a heading's permalink: a link to a place in the page itself that
    prints a sign and no word (Sphinx's and MkDocs's "¶", Docusaurus's "#", GitHub-style
    anchors). Documentation generators put one in every heading; the sign is no part of the
    title (zoo-docs-dev: "Terminating¶" read as other than the <title>'s "Terminating")."""
    if el.tag != "a" or not (el.get("href") or "").startswith("#"):
        return False
    text = el.text_content().strip()
    return len(text) <= PERMALINK_MAX_CHARS and not any(c.isalnum() for c in text)


def heading_text(el: lxml.html.HtmlElement) -> str:
    """The text of a heading as printed: a ``<br>`` breaks the line, so it parts the words
    on either side ("News Product<br>Management Certification" reads "News Product
    Management Certification"; ``text_content()`` would glue "ProductManagement"), style
    sheets and scripts inside it are not read, nor a tagline or kicker (``_TAGLINE``), nor a
    permalink sign (``is_permalink_sign``)."""
    if next(el.iter("br", *_UNPRINTED_IN_HEADING), None) is None and not any(
            _TAGLINE.search(c.get("class") or "") or is_permalink_sign(c)
            for c in el.iterdescendants() if isinstance(c.tag, str)):
        return el.text_content()
    parts = [el.text or ""] if el.tag not in _UNPRINTED_IN_HEADING else []
    for child in el:
        if isinstance(child.tag, str) and not _TAGLINE.search(child.get("class") or "") \
                and not is_permalink_sign(child):
            parts.append(" " if child.tag == "br" else heading_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _inside(el: lxml.html.HtmlElement, body: lxml.html.HtmlElement) -> bool:
    for ancestor in el.iterancestors("body", "head"):
        return ancestor is body
    return False


def read_doc_title(root: lxml.html.HtmlElement) -> str | None:
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


def read_shared_title(root: lxml.html.HtmlElement) -> str | None:
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


def read_site_names(meta: dict[str, list[str]], jsonld_site: str | None,
                    url: str | None) -> list[str]:
    """Names the site goes by (meta, JSON-LD publisher, the host and its main label), for
    stripping from ``<title>`` and telling the publisher from an author."""
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



def read_lang(root: lxml.html.HtmlElement, meta: dict[str, list[str]], ld: JsonLd) -> str | None:
    """The page's declared language (``<html lang>``, JSON-LD, og:locale, http-equiv)."""
    return normalize_space(root.get("lang") or root.get("xml:lang")) or ld.lang or (
        meta.get("og:locale", [None])[0]) or (meta.get("content-language", [None])[0])


def read_declared_titles(meta: dict[str, list[str]], ld: JsonLd) -> list[str]:
    """Titles the publisher declares (JSON-LD headline, then the declared meta keys)."""
    declared = [ld.headline] if ld.headline else []
    declared += [v for k in DECLARED_TITLE_KEYS for v in meta.get(k, [])[:1]]
    return declared


def body_of(root: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    """``<body>``, or the root of a page without one."""
    body = root.find("body")
    return body if body is not None else root
