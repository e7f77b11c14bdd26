"""What a page shows of its kind, as numbers that carry across sites.

``kind_features`` reads the untouched tree once: the URL's shape and its generic words, the
schema.org types and ``og:type`` the page declares, counts of what the page is made of
(links, forms, code blocks, headings, prices, dates, buy controls, reply and comment words),
and densities of these against the page's size. ``PageSignals`` are what the page extractor
measures anyway (its page type, its repeated records, its thread, its shop grid): they are
joined to the tree's features at no cost.

No feature names a site, an engine or one site's class names: words are the web's generic
vocabulary of each kind (``docs``, ``forum``, ``cart``, ``reply``), in URLs, in class and id
names, in visible text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import lxml.html
from lxml import etree

from sitesift.fields.jsonld import MAX_SCRIPT_CHARS, _load

__all__ = ["PageSignals", "kind_features", "signal_features"]

#: Generic words of URL paths, by what they point to (a path token is one of its words:
#: split on anything but letters and digits, lower-cased).
URL_WORDS: dict[str, frozenset[str]] = {
    "doc": frozenset({
        "docs", "doc", "documentation", "api", "apis", "reference", "ref", "manual", "man",
        "sdk", "developer", "developers", "spec", "specs", "std", "library", "handbook",
        "wiki", "quickstart", "cli", "command", "commands", "book", "chapter", "module",
        "modules", "class", "classes", "function", "functions", "method", "methods",
    }),
    "learn": frozenset({"guide", "guides", "tutorial", "tutorials", "learn", "learning",
                        "howto", "how", "help", "kb", "knowledge", "faq", "faqs", "support"}),
    "forum": frozenset({
        "forum", "forums", "thread", "threads", "topic", "topics", "t", "viewtopic",
        "showthread", "discussion", "discussions", "discuss", "community", "communities",
        "questions", "question", "q", "board", "boards", "bbs", "answers", "comments", "r",
    }),
    "product": frozenset({"product", "products", "p", "dp", "item", "itm", "sku", "pd", "buy"}),
    "shop": frozenset({
        "shop", "store", "collections", "collection", "c", "category", "categories",
        "browse", "b", "catalog", "catalogue", "department", "shopping", "cat",
    }),
    "list": frozenset({
        "tag", "tags", "archive", "archives", "search", "results", "section", "sections",
        "jobs", "list", "lists", "rankings", "ranking", "directory", "index", "latest",
        "all", "page", "author", "authors", "recipes", "standings", "events", "podcasts",
    }),
    "service": frozenset({
        "services", "service", "solutions", "solution", "capabilities", "consulting",
        "industries", "industry", "pricing", "features", "platform", "offerings",
        "expertise", "about", "contact", "company", "hire", "rental", "program",
        "programs", "use", "cases", "what", "we", "do", "plans", "enterprise", "teams",
    }),
    "article": frozenset({
        "blog", "blogs", "news", "article", "articles", "story", "stories", "post",
        "posts", "insights", "magazine", "press", "opinion", "health", "science",
    }),
}

#: schema.org types the page declares of itself (its top-level, ``@graph`` and
#: ``mainEntity`` nodes), by kind.
PAGE_TYPE_GROUPS: dict[str, frozenset[str]] = {
    "article": frozenset({
        "article", "newsarticle", "blogposting", "reportagenewsarticle",
        "analysisnewsarticle", "opinionnewsarticle", "socialmediaposting",
        "liveblogposting", "scholarlyarticle", "report", "review", "posting",
    }),
    "tech": frozenset({"techarticle", "apireference", "softwaresourcecode"}),
    "thread": frozenset({"qapage", "discussionforumposting", "question", "answer", "comment"}),
    "list": frozenset({"collectionpage", "searchresultspage", "itemlist", "offercatalog"}),
    "product": frozenset({
        "product", "productgroup", "productmodel", "individualproduct", "someproducts",
        "vehicle", "car", "offer", "aggregateoffer",
    }),
    "service": frozenset({
        "service", "professionalservice", "localbusiness", "softwareapplication",
        "webapplication", "faqpage", "contactpage", "aboutpage", "financialproduct",
        "course", "educationaloccupationalprogram",
    }),
    "howto": frozenset({"howto", "recipe"}),
    "webpage": frozenset({"webpage", "itempage", "medicalwebpage"}),
    "org": frozenset({"organization", "corporation", "website"}),
}

#: Words of class and id names, by what they mark (a name holds the word anywhere: "postbody",
#: "product-card"). The web's generic vocabulary, no one site's names.
NAME_WORDS: dict[str, tuple[str, ...]] = {
    "post": ("post", "message", "reply", "replies", "thread", "topic"),
    "comment": ("comment",),
    "price": ("price", "cart", "basket", "checkout", "sku", "quantity", "variant"),
    "product": ("product",),
    "card": ("card", "tile", "grid", "teaser", "listing"),
    "doc": ("toc", "docs", "sidebar", "menu", "nav", "breadcrumb"),
    "code": ("code", "highlight", "syntax", "language-"),
    "author": ("author", "byline", "avatar", "user"),
    "hero": ("hero", "banner", "cta", "testimonial", "pricing", "feature", "benefit"),
    "article": ("article", "entry", "story", "content-body", "prose"),
}

#: Visible phrases, by what they mark, counted in the page's text (lower-cased).
TEXT_PATTERNS: dict[str, re.Pattern[str]] = {
    "price": re.compile(r"[$€£¥₹]\s?\d|\d[\d.,]*\s?(?:usd|eur|gbp)\b"),
    "year": re.compile(r"(?:19|20)\d\d\b"),
    "month": re.compile(
        r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b"),
    "ago": re.compile(r"\d+\s?(?:minutes?|hours?|days?|weeks?|months?|years?|[mhdy])"
                      r" ago\b"),
    "reply": re.compile(r"(?:repl(?:y|ies)|quote|joined|posts:|upvote|votes?|answers?|"
                        r"answered|asked|likes?|report)\b"),
    "cart": re.compile(r"(?:add to (?:cart|bag|basket)|buy now|in stock|out of stock|"
                       r"free shipping|quantity|qty|size guide|reviews)\b"),
    "cta": re.compile(r"(?:contact us|get started|get in touch|request a demo|book a|"
                      r"schedule a|free trial|get a quote|learn more|talk to|our services|"
                      r"sign up|call us|free consultation|why choose)\b"),
    "read": re.compile(r"(?:read more|min read|continue reading|read the story|"
                       r"posted (?:on|by)|published|written by|updated)\b"),
    "doc": re.compile(r"(?:on this page|edit this page|table of contents|next|previous|"
                      r"parameters|returns|example|syntax|see also|deprecated|version)\b"),
    "results": re.compile(r"(?:results|items|sort by|filter|showing \d|load more|"
                          r"view all|show more|page \d)\b"),
}

#: Phrases are counted in this many first characters of the page's text (lower-cased): the
#: counts are the cost of reading a page's kind, which stays a small part of the page
#: extractor's (a long thread's or shop's first screens show what it is).
TEXT_MAX_CHARS = 8_000

#: Counted tags (element tag -> feature name).
COUNTED_TAGS: dict[str, str] = {
    "a": "a", "p": "p", "li": "li", "h1": "h1", "h2": "h2", "h3": "h3", "h4": "h4",
    "pre": "pre", "code": "code", "table": "table", "form": "form", "input": "input",
    "button": "button", "select": "select", "textarea": "textarea", "img": "img",
    "article": "article", "nav": "nav", "aside": "aside", "time": "time",
    "blockquote": "blockquote", "dl": "dl", "kbd": "code", "samp": "code", "section": "section",
    "svg": "svg", "video": "video", "iframe": "iframe", "footer": "footer", "main": "main",
}

#: Elements whose text is never shown.
_NO_TEXT = frozenset({"script", "style", "noscript", "template", "title", "head", "html"})
_TOKENS = re.compile(r"[a-z0-9]+")
_DATE_PATH = re.compile(r"/(?:19|20)\d\d/(?:[01]?\d/)?")
_LONG_DIGITS = re.compile(r"\d{4,}")
#: ``<meta>`` names and properties that date a page or name its author (a story's).
_META_DATED = frozenset({
    "article:published_time", "datepublished", "date", "pubdate", "publish-date",
    "publish_date", "dc.date", "dc.date.issued", "citation_publication_date",
    "sailthru.date", "parsely-pub-date", "og:article:published_time", "article.published",
})
_META_AUTHOR = frozenset({
    "author", "article:author", "dc.creator", "citation_author", "parsely-author",
    "sailthru.author", "og:article:author",
})
_HEADINGS = frozenset({"h2", "h3", "h4"})
_ITEMPROPS = {
    "price": "price", "pricecurrency": "price", "offers": "price", "availability": "price",
    "articlebody": "article", "headline": "article", "datepublished": "article",
    "author": "author", "upvotecount": "thread", "suggestedanswer": "thread",
    "acceptedanswer": "thread", "comment": "thread", "text": "thread",
    "itemlistelement": "list", "breadcrumb": "crumb",
}


@dataclass(frozen=True, slots=True)
class PageSignals:
    """What the page extractor measured on the page (``methods.page.content``), given to the
    kind at no cost. ``page_type``: "detail", "list", "thread" or "other" (None: unknown);
    ``records``: the share of the cleaned body in repeated records; ``posts``: the share of
    whole posts under linked titles; ``grid``: the cards of a shop's priced grid; ``prose``:
    the prose weight of the main block; ``total``: the prose weight of the page;
    ``item``: the page shows one item on sale (declared, or one buy control)."""

    page_type: str | None = None
    records: float = 0.0
    posts: float = 0.0
    grid: int = 0
    prose: int = 0
    total: int = 0
    item: bool = False


def _log(n: float) -> float:
    return math.log1p(max(n, 0.0))


def _url_features(url: str | None, out: dict[str, float]) -> None:
    if not url:
        out["url_none"] = 1.0
        return
    try:
        parts = urlsplit(url)
    except ValueError:
        out["url_none"] = 1.0
        return
    path = parts.path or "/"
    segments = [s for s in path.split("/") if s]
    out["url_depth"] = float(min(len(segments), 8))
    out["url_root"] = float(not segments)
    out["url_query"] = float(bool(parts.query))
    out["url_slash_end"] = float(path.endswith("/") and bool(segments))
    last = segments[-1].lower() if segments else ""
    stem = last.rsplit(".", 1)[0] if "." in last else last
    words = [w for w in re.split(r"[-_+]", stem) if w]
    out["url_last_words"] = float(min(len(words), 20))
    out["url_last_len"] = _log(len(last))
    out["url_digits"] = float(bool(_LONG_DIGITS.search(path)))
    out["url_date"] = float(bool(_DATE_PATH.search(path)))
    out["url_file"] = float(last.endswith((".html", ".htm", ".php", ".aspx", ".asp", ".jsp")))
    tokens = set(_TOKENS.findall(path.lower()))
    last_tokens = set(_TOKENS.findall(last))
    host = (parts.hostname or "").lower()
    host_labels = set(host.split(".")[:-2]) - {"www"}
    for group, vocabulary in URL_WORDS.items():
        out[f"url_w_{group}"] = float(bool(tokens & vocabulary))
        out[f"url_last_{group}"] = float(bool(last_tokens & vocabulary))
        out[f"host_w_{group}"] = float(bool(host_labels & vocabulary))


def _type_nodes(data: Any, page: list[dict[str, Any]], every: list[str]) -> None:
    """The page's own nodes (top level, ``@graph``, ``mainEntity``) into ``page``; the
    types of every node, nested ones too (the products a collection lists), into ``every``."""
    stack: list[tuple[Any, bool]] = [(data, True)]
    while stack:
        item, own = stack.pop()
        if isinstance(item, list):
            stack.extend((x, own) for x in item)
        elif isinstance(item, dict):
            types = item.get("@type")
            for t in types if isinstance(types, list) else [types]:
                if isinstance(t, str):
                    every.append(t.lower().rsplit("/", 1)[-1])
            if own and "@type" in item:
                page.append(item)
            for key, value in item.items():
                if isinstance(value, (list, dict)):
                    stack.append((value, own and key in ("@graph", "mainEntity")))


def _declared_features(scripts: Iterable[etree._Element], items: list[str],
                       out: dict[str, float]) -> None:
    page: list[dict[str, Any]] = []
    every: list[str] = []
    for script in scripts:
        text = script.text or ""
        if text.strip() and len(text) <= MAX_SCRIPT_CHARS:
            data = _load(text)
            if data is not None:
                _type_nodes(data, page, every)
    own: set[str] = set(items)
    out["ld_dated"] = float(any("datePublished" in node for node in page))
    out["ld_authored"] = float(any("author" in node for node in page))
    for node in page:
        types = node.get("@type")
        own.update(t.lower().rsplit("/", 1)[-1] for t in
                   (types if isinstance(types, list) else [types]) if isinstance(t, str))
    for group, vocabulary in PAGE_TYPE_GROUPS.items():
        out[f"ld_{group}"] = float(bool(own & vocabulary))
        out[f"ld_any_{group}"] = _log(sum(1 for t in every if t in vocabulary))
    out["ld_none"] = float(not own and not every)


def kind_features(root: lxml.html.HtmlElement, url: str | None = None) -> dict[str, float]:
    """The features of the page under ``root`` at ``url``, read from the untouched tree
    (before the page extractor cleans it: JSON-LD sits in scripts). Read only."""
    out: dict[str, float] = {}
    _url_features(url, out)
    counts = dict.fromkeys(set(COUNTED_TAGS.values()), 0)
    classes: list[str] = []
    props: dict[str, int] = dict.fromkeys(set(_ITEMPROPS.values()), 0)
    scripts: list[etree._Element] = []
    items: list[str] = []
    og = title = h1 = ""
    links: dict[str, int] = dict.fromkeys(
        ("dated", "authored", "hash", "tel", "mail", "linked_heading", "heading",
         "input_email", "input_search", "input_password", "input_tel"), 0)
    n = 0
    pieces: list[str] = []
    for el in root.iter(etree.Element):
        n += 1
        tag = el.tag
        if el.tail:
            pieces.append(el.tail)
        if el.text and tag not in _NO_TEXT:
            pieces.append(el.text)
        if tag == "script":
            if "ld+json" in (el.get("type") or "").lower():
                scripts.append(el)
            continue
        if tag == "meta":
            key = (el.get("property") or el.get("name") or el.get("itemprop") or "").lower()
            if key == "og:type":
                og = (el.get("content") or "").strip().lower()
            elif key in _META_DATED:
                links["dated"] += 1
            elif key in _META_AUTHOR:
                links["authored"] += 1
            elif key.startswith("twitter:label"):
                label = (el.get("content") or "").lower()
                if "written" in label or "read" in label or "author" in label:
                    links["authored"] += 1
            continue
        if tag == "title":
            title = el.text or ""
            continue
        if tag == "a":
            href = el.get("href") or ""
            if href.startswith("#"):
                links["hash"] += 1
            elif href.startswith("tel:"):
                links["tel"] += 1
            elif href.startswith("mailto:"):
                links["mail"] += 1
        elif tag in _HEADINGS:
            if el.find(".//a") is not None or any(a.tag == "a" for a in el.iterancestors()):
                links["linked_heading"] += 1
            links["heading"] += 1
        elif tag == "h1" and not h1:
            h1 = " ".join(el.itertext())
        elif tag == "input":
            kind = (el.get("type") or "text").lower()
            if kind in ("email", "search", "password", "tel"):
                links[f"input_{kind}"] += 1
        name = COUNTED_TAGS.get(tag)  # type: ignore[arg-type]
        if name is not None:
            counts[name] += 1
        attrib = el.attrib
        if attrib:
            raw = attrib.get("class")
            if raw:
                classes.append(raw)
            prop = attrib.get("itemprop")
            if prop:
                for p in prop.lower().split():
                    if p in _ITEMPROPS:
                        props[_ITEMPROPS[p]] += 1
            itemtype = attrib.get("itemtype")
            if itemtype and attrib.get("itemscope") is not None and \
                    all(a.get("itemscope") is None for a in el.iterancestors()):
                items.extend(t.lower().rstrip("/").rsplit("/", 1)[-1]
                             for t in itemtype.split())
    _declared_features(scripts, items, out)
    for name, count in links.items():
        out[f"n_{name}"] = _log(count)
    out["linked_heading_share"] = links["linked_heading"] / links["heading"] \
        if links["heading"] else 0.0
    title_tokens = set(_TOKENS.findall(title.lower()))
    h1_tokens = set(_TOKENS.findall(h1.lower()))
    for group, vocabulary in URL_WORDS.items():
        out[f"title_w_{group}"] = float(bool(title_tokens & vocabulary))
        out[f"h1_w_{group}"] = float(bool(h1_tokens & vocabulary))
    for value in ("article", "product", "website", "profile", "video"):
        out[f"og_{value}"] = float(og.startswith(value))
    out["og_none"] = float(not og)
    out["elements"] = _log(n)
    for name, count in counts.items():
        out[f"n_{name}"] = _log(count)
    joined = "\n".join(classes).lower()
    for group, words in NAME_WORDS.items():
        out[f"cls_{group}"] = _log(sum(joined.count(w) for w in words))
    for group, count in props.items():
        out[f"prop_{group}"] = _log(count)
    text = " ".join(" ".join(pieces).split()).lower()
    out["text_len"] = _log(len(text))
    text = text[:TEXT_MAX_CHARS]
    for group, pattern in TEXT_PATTERNS.items():
        out[f"t_{group}"] = _log(len(pattern.findall(text)))
    return out


def signal_features(signals: PageSignals) -> dict[str, float]:
    """The features of what the page extractor measured (``PageSignals``)."""
    out = {f"pt_{value}": float(signals.page_type == value)
           for value in ("detail", "list", "thread", "other")}
    out["sig_records"] = signals.records
    out["sig_posts"] = signals.posts
    out["sig_grid"] = _log(signals.grid)
    out["sig_prose"] = _log(signals.prose)
    out["sig_total"] = _log(signals.total)
    out["sig_main_share"] = signals.prose / signals.total if signals.total else 0.0
    out["sig_item"] = float(signals.item)
    return out
