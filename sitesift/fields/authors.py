"""Authors: from JSON-LD, meta tags, byline markup, then bylines written in the text.

Every source is cleaned the same way (``author_names.clean_author``): "By "/"作者：" prefixes,
dates, e-mail addresses, roles and trailing punctuation go; URLs and values that do not look
like names are refused. Chinese bylines and credit lines (and the "来源" rule) are
``fields.zh_bylines``'s; the English ones ("By X", a name line over a date) are here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import lxml.html
from lxml import etree

from sitesift.fields.author_names import clean_author, join_authors, split_names
from sitesift.fields.date_forms import iter_dates
from sitesift.parse.dom import HAN

__all__ = [
    "BYLINE_WINDOW",
    "author_from_en_name_line",
    "author_from_markup",
    "author_from_meta",
    "author_from_signature",
    "author_from_text",
    "may_hold_author",
    "thread_author",
]

#: Most authors taken from ``itemprop=author``/``rel=author`` markup (more are comment authors).
#: Marked names whose nearest common element with the first holds at most this many
#: characters share its byline (a byline of five long names with roles fits; two posts do not).
MAX_BYLINE_CHARS = 400
MAX_MARKUP_AUTHORS = 4
#: Most elements of one author class read as a byline: co-authors' names may each carry the
#: class (two or three), while comment or teaser lists repeat it once per item.
MAX_CLASSED_REPEATS = 3
#: How many characters of text after the headline are searched for an English "By X" byline.
BYLINE_WINDOW = 800

#: Meta keys naming the author, best first (lower-cased name/property).
AUTHOR_META_KEYS = (
    "citation_author", "citation_authors", "dc.creator", "dcterms.creator", "dcterm.creator",
    "author", "article:author",
    "article:author_name", "og:article:author", "dc.creator.name", "sailthru.author",
    "parsely-author",
    "byl", "byline", "authors", "creator", "twitter:creator:name", "dc.contributor",
)


#: A CJK ideograph: text without one holds no Chinese byline (``author_from_text``).

#: "By X", "by: X", "Written by X"; the label may sit alone on its line, the name on the next
#: ("Written By" / "Reyan Perumal": a byline box's label and name in separate elements), as
#: may a bare "Author" label.
_EN_BYLINE = re.compile(
    r"(?:^|\n)\s*(?:(?:(?:written|posted|published|reported|words|text|story)\s+)?"
    r"(?:by|von|par|por)\s*[:：]?\s+|(?:author|autor|auteur)\s*[:：]?\s*\n\s*)"
    r"(?P<v>[A-Z][^\n]{1,80})", re.IGNORECASE)
#: A post's credit inside a line: "by NAME" right before its date ("89 points by ann on Dec
#: 26, 2023", "Title by ann: 3:21pm", "by ann » 11 Sep 2024"), the line forums print per post.
_DATED_BYLINE = re.compile(
    r"\bby\s+(?P<v>[\w.-]{2,40}(?: [\w.-]{2,40}){0,2}?)"
    r"(?=\s*(?:\bon\s+(?:\d|(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|"
    r"oct|nov|dec)[a-z]*\b)|»|:\s*\d|\|\s*\d|,\s*\d{1,2}\b|\s\d{1,2}:\d\d))",
    re.IGNORECASE)


#: "design: Scott McDaniel, code: Steve Beger": names after role labels credit the site's
#: makers; with this many labels a meta author value is such a list, not the writer.
MIN_CREDIT_LABELS = 2
_CREDIT_LABEL = re.compile(r"(?:^|,\s*)[^\W\d_]+:\s")


def author_from_meta(meta: dict[str, list[str]], *, outlets: Collection[str] = ()) -> str | None:
    """The first meta key in ``AUTHOR_META_KEYS`` with a plausible name (all its values);
    ``outlets`` as for ``clean_author``."""
    for key in AUTHOR_META_KEYS:
        values = [v for v in meta.get(key, []) if len(_CREDIT_LABEL.findall(v)) < MIN_CREDIT_LABELS]
        if values:
            joined = join_authors(values, outlets=outlets)
            if joined:
                return joined
    return None


#: Cheap pre-filter of elements that may hold a byline (lower-cased class/id substrings).
AUTHOR_HINTS = ("author", "byline", "byl", "writer", "autor", "auteur")
_AUTHOR_CLASS = re.compile(r"\b(?:author|byline|byl|writer|autor|auteur)(?:[-_]?name|s)?\b|"
                           r"author-name|authorname")
_NOT_AUTHOR_CLASS = re.compile(r"avatar|image|img|photo|bio|desc|about|date|time|social|follow|"
                               r"note")


def may_hold_author(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` is worth ``author_from_markup``'s attention (called on every element)."""
    prop = el.get("itemprop")
    if prop and prop.lower() in ("author", "creator"):
        return True
    if "author" in (el.get("rel") or "").lower().split():
        return True
    attrs = _attrs(el)
    return bool(attrs) and any(hint in attrs for hint in AUTHOR_HINTS)


def _attrs(el: lxml.html.HtmlElement) -> str:
    return " ".join(filter(None, (el.get("class"), el.get("id")))).lower()


def author_from_markup(elements: Iterable[lxml.html.HtmlElement], *,
                       classes: bool = False) -> str | None:
    """Names in ``itemprop=author`` or ``rel=author`` elements; with ``classes``, in
    author/byline-classed elements instead (a weaker sign: site widgets use such classes too).

    ``elements`` are the page's elements in document order that pass ``may_hold_author``.
    """
    itemprop: list[tuple[lxml.html.HtmlElement, str]] = []
    rel: list[tuple[lxml.html.HtmlElement, str]] = []
    classed: list[tuple[str, str]] = []
    for el in elements:
        if el.tag in ("script", "style", "meta", "link", "body", "html", "head"):
            continue
        prop = (el.get("itemprop") or "").lower()
        if prop == "author" or prop == "creator":
            names = [n.get("content") or n.text_content() for n in el.iter()
                     if (n.get("itemprop") or "").lower() == "name"]
            itemprop.extend((el, n) for n in names or [el.get("content") or el.text_content()])
            continue
        # rel holds space-separated link types: "author-twitter" is another one.
        if "author" in (el.get("rel") or "").lower().split() and el.tag == "a":
            rel.append((el, el.text_content()))
            continue
        attrs = _attrs(el)
        if attrs and _AUTHOR_CLASS.search(attrs) and not _NOT_AUTHOR_CLASS.search(attrs):
            classed.append((attrs, _first_line(el)))
    if not classes:
        for group in (itemprop, rel):
            joined = join_authors(_one_byline(group)[:MAX_MARKUP_AUTHORS], handles=True)
            if joined:
                return joined
        return None
    # Classed elements nest (a byline box around a name link): the first clean one is the byline.
    # A class that many elements carry marks the authors of a list's items (comments, related
    # stories), each printed with its own text: not the page's byline.
    repeats = Counter(attrs for attrs, _text in classed)
    for attrs, text in classed:
        if repeats[attrs] > MAX_CLASSED_REPEATS:
            continue
        cleaned = clean_author(text)
        if cleaned:
            return cleaned
    return None


def _one_byline(marked: list[tuple[lxml.html.HtmlElement, str]]) -> list[str]:
    """The names printed together with the first one: co-authors share a byline, while the
    authors of a thread's posts or a page's comments are each printed with their own text."""
    if not marked:
        return []
    first = marked[0][0]
    ancestors = [first, *first.iterancestors()]  # (held: lxml reuses the ids of freed proxies)
    around = {id(a) for a in ancestors}
    names = []
    for el, name in marked:
        common = el
        while common is not None and id(common) not in around:
            common = common.getparent()
        if common is not None and len(common.text_content()) <= MAX_BYLINE_CHARS:
            names.append(name)
    return names


_LINE_BREAKING = frozenset(("address", "article", "blockquote", "br", "dd", "div", "dl", "dt",
                            "figcaption", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header",
                            "li", "ol", "p", "section", "table", "td", "tr", "ul"))


_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
#: A box whose text after its heading is at least this share link text is a list of links
#: (the author's recent posts), which the heading titles.
MIN_LIST_LINK_SHARE = 0.5


def _first_line(el: lxml.html.HtmlElement) -> str:
    """The text of ``el`` up to its first block boundary after some text: a byline box's
    name, without the role or date printed on the lines below it ("Ben Silverman" /
    "Games Editor"). Empty when that line is a heading inside ``el`` over a list of links:
    the title of the author's recent posts ("最近内容"), not a name (a heading over a bio, or
    alone in ``el``, is read)."""
    parts: list[str] = []
    walker = etree.iterwalk(el, events=("start", "end"))
    heading: lxml.html.HtmlElement | None = None
    for event, node in walker:
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag in _LINE_BREAKING and "".join(parts).strip():
            break
        if event == "start":
            if tag in ("script", "style"):
                walker.skip_subtree()
                continue
            if node is not el and tag in _HEADINGS and not "".join(parts).strip():
                heading = node
            parts.append(node.text or "")
        elif node is not el:
            parts.append(node.tail or "")
    if heading is not None and _titles_a_list(el, heading):
        return ""
    return " ".join("".join(parts).split())


def _titles_a_list(box: lxml.html.HtmlElement, heading: lxml.html.HtmlElement) -> bool:
    """Whether the text of ``box`` after ``heading`` is mostly link text."""
    rest = len("".join(box.text_content().split())) - len("".join(heading.text_content().split()))
    links = sum(len("".join(a.text_content().split())) for a in box.iter("a")
                if heading not in a.iterancestors() and a is not heading)
    return rest > 0 and links >= MIN_LIST_LINK_SHARE * rest


def author_from_text(lines: Sequence[str], *, editors: bool = True,
                     outlets: Collection[str] = ()) -> str | None:
    """A byline written in the text below the headline ("作者：X", "记者 X", "By X and Y").

    ``lines`` are the visible text lines from the headline on. Chinese labelled bylines are
    searched in all of them (reporters and editors are often credited at the end of the
    story); an English "By X" only in the first ``BYLINE_WINDOW`` characters. ``editors``
    False: "编辑：X" is not read (``author_from_editor_line``, after the other bylines);
    ``outlets`` as for ``clean_author``.
    """
    window: list[str] = []
    used = 0
    for line in lines:
        window.append(line)
        used += len(line)
        if used >= BYLINE_WINDOW:
            break
    text = "\n".join(window)
    everything = "\n".join(lines)
    # Every Chinese byline pattern holds a CJK ideograph ("作者", "记者", "来源"...): text without
    # one holds none, and ``zh_bylines`` (whose patterns take 25 ms to compile) is not loaded.
    if HAN.search(everything):
        from sitesift.fields.zh_bylines import zh_byline

        names = zh_byline(everything, text, editors=editors)
        if names:
            return names
    for m in _EN_BYLINE.finditer(text):
        cleaned = clean_author(m.group("v"), outlets=outlets)
        if cleaned:
            parts = split_names(cleaned)
            return ", ".join(parts) if len(parts) > 1 else cleaned
    for m in _DATED_BYLINE.finditer(text):
        cleaned = clean_author(m.group("v"))
        if cleaned:
            return cleaned
    return None


#: A personal name alone on its line: two to four capitalised words ("Trevor Jackins",
#: "Julian K. Arni", "Marna van der Merwe"), none of them a function word ("Trusted By ...").
_EN_NAME_LINE = re.compile(
    r"^(?!.*\b(?i:by|the|of|and|for|with|our|your|to|in|on|at|an?|we|you|us|my)\b)"
    r"[A-Z][\w'’.-]+(?:\s+(?:[A-Z][\w'’.-]*|van|von|de|der|da|di|la|le|du)){1,3}$")
#: What a byline box prints on the line under the name: the date, a reading time or the
#: writer's role.
_UNDER_NAME = re.compile(
    r"^(?:\d+\s*min(?:ute)?s?\b.*read|(?:[A-Z][\w&-]*\s+){0,4}(?i:writer|editor|producer|"
    r"manager|director|author|contributor|reporter|journalist|correspondent|founder|ceo|"
    r"analyst|expert|specialist|strategist|marketer|engineer)s?(?:,?\s+(?:at|of|for)\s.{1,40})?)$")
#: How many lines under an English headline may hold a byline box's name line (a subtitle
#: may come first).
EN_NAME_LINE_PROBE = 3
#: A date under the name may carry its label ("Last updated on 17 December 2025",
#: "Published: Jan 3, 2024"): the box's date line all the same.
_DATE_LABEL = re.compile(r"^(?:(?:last\s+)?(?:updated|modified|published|posted)\b\s*(?:on\b)?|"
                         r"on\b)\s*:?\s*", re.IGNORECASE)


def author_from_en_name_line(lines: Sequence[str], *, now: datetime | None = None,
                             outlets: Collection[str] = ()) -> str | None:
    """A name printed alone on a line under the headline, in a byline box: the next line is a
    date, a reading time or a role ("Trevor Jackins" / "9 min read"). Without that second line
    a short capitalised line is as likely a section name or a subheading, unless it ends with
    one of ``outlets`` (the site's names): "Brian Truitt USA TODAY" credits a writer and the
    paper he writes for, as a byline does."""
    for i, line in enumerate(lines[:EN_NAME_LINE_PROBE]):
        line = line.strip()
        credited = _before_outlet(line, outlets)
        if credited:
            return credited
        if not _EN_NAME_LINE.match(line) or i + 1 >= len(lines):
            continue
        below = _DATE_LABEL.sub("", lines[i + 1].strip())
        dated = next(iter(iter_dates(below[:40], now=now)), None)
        if (dated is not None and dated[0] <= 2) or _UNDER_NAME.match(below):
            return clean_author(line)
    return None


def _before_outlet(line: str, outlets: Collection[str]) -> str | None:
    """The name before an outlet ending ``line`` ("Brian Truitt" of "Brian Truitt USA
    TODAY"), when the rest is a personal name line."""
    folded = line.casefold()
    for outlet in outlets:
        if len(outlet) > 1 and folded.endswith(" " + outlet.casefold()):
            name = line[: -len(outlet)].rstrip(" ,|-–—·")
            if _EN_NAME_LINE.match(name):
                return clean_author(name)
    return None


#: A post's signature, which blogs print under the story rather than under the headline:
#: "Posted by Colin Watson on 2025-12-18", "Written by John Biggs"; the verb makes it a
#: credit ("By" alone also starts photo credits and sentences).
_SIGNATURE = re.compile(r"^\s*(?:posted|written)\s+by\b\s*:?\s*", re.IGNORECASE)
#: What follows the name on a signature line: its date or place ("on", "at", "in", "@").
_AFTER_SIGNED_NAME = re.compile(r"\s+(?:on|at|in|@)(?:\s.*)?$", re.IGNORECASE)
#: Class or id of the container a blog engine wraps its post in ("post", "entry",
#: "blogbody", "hentry", ``<article>``), and of the one that holds reader comments.
_POST_BOX = re.compile(r"post|entry|article|blog", re.IGNORECASE)
_COMMENT_BOX = re.compile(r"comment|respon|repl(?:y|ies)|discuss|disqus|talkback|feedback",
                          re.IGNORECASE)


def author_from_signature(body: lxml.html.HtmlElement) -> str | None:
    """The name of a post's own signature anywhere in ``body`` ("Posted by X on DATE").

    Reader comments are signed the same way (2008 news pages: "Posted by: Dom, London on
    5:19pm"), so a signature counts only where the markup says it is the post's: inside an
    element marked as the post (class or id "post", "entry", "blog", or ``<article>``), in no
    element marked as comments, and printed once: a signature element repeated with its
    class (``<p class="posted">`` per comment) signs a list's items, not the post.
    """
    signed = [el for el in body.iter()
              if isinstance(el.tag, str) and el.text and _SIGNATURE.match(el.text)
              and el.tag not in ("script", "style", "title")]
    repeats = Counter((el.tag, el.get("class")) for el in signed)
    for el in signed:
        if repeats[(el.tag, el.get("class"))] > 1 or _COMMENT_BOX.search(_attrs(el)):
            continue
        boxes = [(a.tag, _attrs(a)) for a in el.iterancestors()]
        if any(_COMMENT_BOX.search(attrs) for _tag, attrs in boxes):
            continue
        if not any(tag == "article" or _POST_BOX.search(attrs) for tag, attrs in boxes):
            continue
        line = _SIGNATURE.sub("", _first_line(el))
        cleaned = clean_author(_AFTER_SIGNED_NAME.sub("", line))
        if cleaned:
            return cleaned
    return None


def thread_author(author: str | None, posts: Sequence[Mapping[str, Any]]) -> str | None:
    """``author``, or on a thread page where the page names none, the first post's author: a
    thread is its starter's (forum software marks each post's poster, not the thread's)."""
    if author or not posts:
        return author
    return clean_author(posts[0].get("author"), handles=True)
