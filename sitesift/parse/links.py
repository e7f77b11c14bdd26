"""The links of a page: one walk over its ``<a href>`` shared by the crawler (which links to
follow) and the title method (anchor texts as external titles, paper 003).

``page_links`` resolves each href against ``<base href>`` and the page URL (kept as written when
neither is known), drops the fragment and the hrefs that lead nowhere (``#...``,
``javascript:``, ``mailto:``, ``tel:``), and gives the anchor text (the ``title`` attribute when
the link has no text, as image links do). Callers filter on top: the crawler keeps http(s) URLs
of HTML pages, the title method keeps anchors that read like titles.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urljoin

from lxml import etree

from sitesift.parse.dom import SKIP_TAGS, class_id, normalize_space, text_content

__all__ = ["Link", "document_base", "join_url", "page_key", "page_links", "structural_path"]

_DIGITS = re.compile(r"\d+")
#: hrefs that do not lead to another document.
_NOWHERE = ("#", "javascript:", "mailto:", "tel:")


@dataclass(frozen=True, slots=True)
class Link:
    """One link of a page: its resolved URL (the raw href when no base is known), anchor text,
    and the tag.class path it sits at (when asked for: the crawler groups links by it)."""

    url: str
    anchor: str
    path: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"url": self.url, "anchor": self.anchor}


def join_url(base: str | None, href: str) -> str:
    """``href`` resolved against ``base``; as written when either is malformed ("http://[x]":
    urllib raises on brackets that hold no IP address)."""
    try:
        return urljoin(base, href)
    except ValueError:
        return href


def page_key(url: str) -> str:
    """A page URL as a site's links spell it, less a fragment, a directory index file and the
    trailing slash (``/post/``, ``/post`` and ``/post/index.html`` are one page)."""
    url = url.split("#", 1)[0]
    if url.endswith(("/index.html", "/index.htm")):
        url = url.rsplit("/", 1)[0]
    return url.rstrip("/")


def document_base(root: etree._Element, url: str | None) -> str | None:
    """What relative links of the page resolve against: the first ``<base href>`` (itself
    resolved against ``url``), else ``url``."""
    for el in root.iter("base"):
        href = (el.get("href") or "").strip()
        if href:
            return join_url(url, href) if url else href
    return url


def page_links(
    root: etree._Element, url: str | None = None, *, paths: bool = False,
    skip_hidden: bool = False, keep: Callable[[str], bool] | None = None,
) -> list[Link]:
    """Every link of the page in document order (see the module docstring). ``paths``: fill
    ``Link.path``; ``skip_hidden``: leave out links inside ``SKIP_TAGS`` (script, template,
    noscript, iframe...), which a browser does not show; ``keep``: only the links whose
    anchor text it accepts (tested before the URL is resolved: most of a page's anchors are
    menu entries a caller drops)."""
    base = document_base(root, url)
    links: list[Link] = []
    joined: dict[str, str] = {}  # (menus and cards repeat their hrefs; urljoin is the cost)
    for a in root.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(_NOWHERE):
            continue
        if skip_hidden and any(anc.tag in SKIP_TAGS for anc in a.iterancestors()):
            continue
        anchor = normalize_space(text_content(a) or a.get("title") or "")
        if keep is not None and not keep(anchor):
            continue
        target = joined.get(href)
        if target is None:
            target = joined[href] = (join_url(base, href) if base else href).split("#", 1)[0]
        links.append(Link(target, anchor, structural_path(a) if paths else ""))
    return links


def structural_path(el: etree._Element) -> str:
    """``body/div.main/ul.list/li/a``: tags with class/id names (digits folded) from the root."""
    names = []
    node: etree._Element | None = el
    while node is not None and isinstance(node.tag, str) and node.tag != "html":
        label = _DIGITS.sub("0", class_id(node).strip())
        names.append(f"{node.tag}.{label}" if label else node.tag)
        node = node.getparent()
    return "/".join(reversed(names))
