"""Title, author and publication time of one page, read without touching the tree.

The page is read once for what every field needs: meta tags, JSON-LD, and the elements whose
markup hints at a field (headings, headline/author classes, ``<time>``, ``itemprop``). The
headline is chosen first (``titles``); the element showing it anchors a small window of visible
text (block elements start a new line) where printed dates (``dates``) and bylines
(``authors``) are searched. Only pages that need it have a longer stretch of the story read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime

import lxml.html
from lxml import etree
from rapidfuzz.distance import Indel

from sitesift.fields.author_names import join_authors
from sitesift.fields.authors import (
    BYLINE_WINDOW,
    author_from_en_name_line,
    author_from_markup,
    author_from_meta,
    author_from_signature,
    author_from_text,
)
from sitesift.fields.candidates import (
    TITLE_META_KEYS,
    add_printed_segments,
    body_of,
    read_declared_titles,
    read_doc_title,
    read_lang,
    read_meta,
    read_shared_title,
    read_site_names,
    scan_marked,
)
from sitesift.fields.date_forms import MonthFirst, text_month_first
from sitesift.fields.dates import find_published
from sitesift.fields.declared_dates import may_hold_date
from sitesift.fields.jsonld import JsonLd, read_jsonld
from sitesift.fields.lines import HIDDEN_TAGS, lines_after, lines_before
from sitesift.fields.title_text import is_home_page, slug_words
from sitesift.fields.titles import TitleCandidates, choose_title
from sitesift.parse.dom import HAN

__all__ = ["Metadata", "complete_metadata", "extract_metadata", "headline_element"]

#: How many lines under the headline tell whether the page is Chinese (for byline search).
CJK_PROBE_LINES = 20
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


_TEXT_CONTAINING = etree.XPath(".//text()[contains(., $needle)]")


#: The text nodes a reader sees (scripts hold megabytes of state data on some pages).
_VISIBLE_TEXT = etree.XPath(
    ".//text()[not(ancestor::script or ancestor::style or ancestor::noscript"
    " or ancestor::template)]")
#: Only this many characters of a page's visible text vote for its date order (enough for a
#: thread of dates; a bound on the regular expressions' time on huge pages).
ORDER_TEXT_MAX = 100_000


def _month_first(lang: str | None, body: lxml.html.HtmlElement | None = None) -> MonthFirst:
    """How the page's ambiguous numeric dates read: in the order its unambiguous dates show
    (``date_forms.text_month_first``), else slash dates month-first only on English pages (or
    when the language is unknown)."""
    default = not lang or lang.lower().startswith("en")
    if body is None:
        return default
    return text_month_first(" ".join(_VISIBLE_TEXT(body))[:ORDER_TEXT_MAX], default)


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
        if len(title) < MIN_NEEDLE_LINE_SHARE * len(hit.strip()) or _in_trail(parent):
            continue
        if parent is not None and parent.tag not in HIDDEN_TAGS:
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


#: Levels above a text that may mark it as a breadcrumb trail's step.
TRAIL_LEVELS = 6


def _in_trail(el: lxml.html.HtmlElement | None) -> bool:
    """Whether ``el`` is a step of a breadcrumb trail or navigation (a ``<nav>``, or an element
    whose class, id or label names a breadcrumb within ``TRAIL_LEVELS`` levels up): the trail
    repeats the headline as its last step ("Home > Insights > Headline"), away from the story
    and its byline (modern-dev 4517)."""
    for _ in range(TRAIL_LEVELS):
        if el is None or not isinstance(el.tag, str):
            return False
        marks = " ".join((el.get("class") or "", el.get("id") or "", el.get("aria-label") or ""))
        if el.tag == "nav" or "breadcrumb" in marks.casefold():
            return True
        el = el.getparent()
    return False


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
    if not doc_title or not HAN.search(author):
        return False
    rest = doc_title.replace(title, " ") if title else doc_title
    return author in rest and author not in (title or "")


def _is_site(author: str, site_names: list[str]) -> bool:
    """Whether ``author`` is (or holds, or is held in) one of the site's names.

    A Latin name is held in a site name as whole words, and in a host name spaces aside
    ("GlossGenius", "USA TODAY" of "usatoday", "HERALD" of "oheraldo.in"), but not as the
    start of a longer label: a personal site's host runs its owner's names together
    ("davidbau.com"), and the owner's first name ("David") is not the site. A site named for
    a person's possession ("Colin Watson's blog") names its writer, not a publisher."""
    folded = author.casefold()
    names = [s.casefold() for s in site_names if s]
    if HAN.search(folded):
        return any(folded in n or n in folded for n in names)
    squeezed = re.sub(r"[\W_]+", "", folded)
    for n in names:
        if n in folded:
            return True
        if " " in n:
            if re.search(rf"(?<!\w){re.escape(folded)}(?!\w)(?![’']s\b)", n):
                return True
        elif squeezed and any(squeezed in label and not (
                label.startswith(squeezed) and len(label) > len(squeezed))
                for label in n.split(".")):
            return True
    return False


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
    story = _story_reader(start, body)
    published = author = None
    if dates is not None:
        before = lines_before(anchor, body, TEXT_WINDOW_BEFORE_TITLE) if anchor is not None else []
        published = find_published(
            date_elements=dates, meta=meta, jsonld_published=ld.published,
            jsonld_modified=ld.modified, url=url, after=after, before=before, story=story,
            labelled_first=anchor is None, month_first=_month_first(lang, body),
            top=(lambda: lines_after(body, body, AUTHOR_TEXT_WINDOW)) if anchor is not None
            else None, crawled=crawled, scripts=lambda: _script_texts(body))
    if authors is not None:
        author = _author(authors, meta=meta, ld=ld, url=url, doc_title=doc_title, title=title,
                         after=after, story=story, body=body)
    return published, author


def _script_texts(body: lxml.html.HtmlElement) -> list[str]:
    """The text of the page's inline scripts other than JSON-LD (read already)."""
    root = body.getroottree().getroot()
    return [el.text for el in root.iter("script")
            if el.text and "ld+json" not in (el.get("type") or "").lower()]


def _story_reader(start: lxml.html.HtmlElement,
                  body: lxml.html.HtmlElement) -> Callable[[], list[str]]:
    """The longer text run from ``start`` (``AUTHOR_TEXT_WINDOW``), walked only when a source
    needs it (most pages never do), and then once."""
    walked: list[list[str]] = []

    def story() -> list[str]:
        if not walked:
            walked.append(lines_after(start, body, AUTHOR_TEXT_WINDOW))
        return walked[0]
    return story


def _author(
    authors: list[lxml.html.HtmlElement], *, meta: dict[str, list[str]], ld: JsonLd,
    url: str | None, doc_title: str | None, title: str | None, after: list[str],
    story: Callable[[], list[str]], body: lxml.html.HtmlElement,
) -> str | None:
    """The author the publisher declares (JSON-LD, meta) unless that is the site itself, else
    the one marked in the page, else a byline in the text ``after`` the headline."""
    site_names = read_site_names(meta, ld.site_name, url)
    outlets = _acronyms(doc_title, site_names)
    declared = join_authors(ld.authors) or author_from_meta(meta, outlets=outlets)
    if declared and (_in_cjk_decoration(declared, doc_title, title)
                     or (HAN.search(declared) and _employs_reporter(declared, story()))):
        # A Chinese site declaring itself the author ("网易" on "..._网易新闻"): the
        # publisher, named in `<title>`'s decoration, is no author; nor is an outlet the
        # story credits as a reporter's ("（央视记者 刘骁骞）"). The byline decides.
        declared = None
    if declared and _is_site(declared, site_names):
        # The publisher declared as the author (a CMS default): a person marked as the
        # author in the page is the writer, as is the name a byline box prints right under
        # the headline over its date or role; failing those the publisher stands (a bare
        # "By X" does not outvote it: on a list page it is one item's, in a syndicated story
        # the agency's writer, "By Clare Duffy, CNN" on modern-dev 0205 whose gold is WRAL).
        declared = _first_author(site_names, lambda: author_from_markup(authors),
                                 lambda: author_from_en_name_line(after, outlets=site_names)) \
            or declared
    if declared:
        declared = _with_coauthors(declared, after, outlets)
    return _without_site(declared or author_from_markup(authors) or _first_author(
        site_names, lambda: _byline(after, story, outlets, title),
        lambda: author_from_markup(authors, classes=True),
        lambda: author_from_signature(body) if not HAN.search(" ".join(after[:CJK_PROBE_LINES]))
        else None), site_names)


def _with_coauthors(declared: str, after: list[str], outlets: set[str]) -> str:
    """The byline under the headline where it credits ``declared`` together with others:
    structured data often names one writer (a CMS plugin's field holds the post's owner),
    while the printed byline credits every co-author ("Written by Dr Marna van der Merwe,
    Dr Dieter Veldsman, Erik van Vulpen" over JSON-LD "Marna van der Merwe"). Only a byline
    naming the declared writer among its names counts, so no other person replaces them."""
    if ", " in declared or "、" in declared:
        return declared
    byline = author_from_text(after, editors=False, outlets=outlets)
    if not byline:
        return declared
    names = re.split(r", |、", byline)
    if len(names) < 2 or not all(_PERSON.match(n) for n in names):
        return declared  # a role or credit read as a name ("Live and breaking news")
    folded = declared.casefold()
    if any(folded in n.casefold() or n.casefold() in folded for n in names):
        return byline
    return declared


#: One co-author's name: capitalised words (a title, particles: "Dr Marna van der Merwe"),
#: or a Chinese name; not a role ("Journalist"), a bracketed credit ("(photography)") or
#: lower-case words.
_PERSON = re.compile(r"[A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|van|von|de|der|den|da|di|du|la|le))"
                     r"{1,4}$|[\u3400-\u9fff·]{2,8}$")


def _byline(after: list[str], story: Callable[[], list[str]], outlets: set[str],
            title: str | None = None) -> str | None:
    """The author a byline prints: labelled Chinese bylines may come at the end of the story;
    English "By X" sits under the headline, within the first lines."""
    chinese = any(HAN.search(line) for line in after[:CJK_PROBE_LINES])
    if not chinese:
        return author_from_text(after, outlets=outlets) or author_from_en_name_line(after)
    # (loaded here: its patterns take 25 ms to compile, which pages in other scripts never use)
    from sitesift.fields.zh_bylines import (
        author_from_account_line,
        author_from_editor_line,
        author_from_name_line,
    )

    # A credit under the headline is the story's byline, whatever label a later one carries
    # (a blog repost's footer "作者： X" names who posted it, not the reporters credited
    # under the headline). The editor credited at the end is the author only where the page
    # names no other, also not on a line of names under the headline.
    return author_from_text(_first_chars(after, BYLINE_WINDOW), editors=False) \
        or author_from_text(story(), editors=False) or author_from_name_line(after, title) \
        or author_from_editor_line(story()) or author_from_account_line(after, title)


def extract_metadata(root: lxml.html.HtmlElement, *, url: str | None = None,
                     crawled: datetime | date | None = None) -> Metadata:
    """Title, author, published (ISO 8601) and site facts of the page rooted at ``root``;
    ``crawled`` (when the page was fetched, if known) dates "3 hours ago"."""
    meta = read_meta(root)
    ld = read_jsonld(root)
    body = body_of(root)
    marked = scan_marked(root, body)
    headings = marked.headings
    lang = read_lang(root, meta, ld)
    site_names = read_site_names(meta, ld.site_name, url)
    declared = read_declared_titles(meta, ld)
    meta_titles = [v for k in TITLE_META_KEYS for v in meta.get(k, [])[:1]]
    doc_title = read_doc_title(root)
    add_printed_segments(doc_title, body, headings)
    candidates = TitleCandidates(
        doc_title=doc_title, declared_titles=tuple(declared),
        meta_titles=tuple(meta_titles),
        headings=tuple((kind, h) for _el, h, kind in headings), site_names=tuple(site_names),
        url_words=slug_words(url), shared_title=read_shared_title(root),
        home_page=is_home_page(url))
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
    body = body_of(root)
    headings = scan_marked(root, body).headings
    doc_title = read_doc_title(root)
    add_printed_segments(doc_title, body, headings)
    declared = read_declared_titles(meta, ld)
    return _anchor(title, body, headings, [v for v in (doc_title, *declared) if v])


#: Elements that may hold a date (``dates.may_hold_date``): the date part of the elements
#: ``candidates.scan_marked`` reads.
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
        marked = scan_marked(root, body_of(root), headings=False)
        dates, authors = marked.dates, marked.authors
    else:
        dates = [el for el in _DATE_XPATH(root) if may_hold_date(el)]
        dates.sort(key=lambda el: el.sourceline or 0)  # (the order ``scan_marked`` gives)
    return _date_and_author(
        body=body_of(root), anchor=anchor, title=title, meta=meta, ld=ld, url=url,
        lang=read_lang(root, meta, ld), dates=dates if published else None, authors=authors,
        doc_title=read_doc_title(root) if author else None)
