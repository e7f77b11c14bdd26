"""``auto``'s page types from what a page adds to its site's template.

The page method types a page from everything it prints. On a short page that is mostly the
site's template (a documentation site's navigation tree, a blog's sidebar of recent posts and
archives) the template's links outweigh the page's own few lines, and the page reads as a
list; a page of a few links of its own (a blog's index of tags) reads as nothing. Across a
site the template shows itself: its lines and links recur on most pages. What a page adds,
its *own part* (``own_parts``: the lines and links on fewer than ``TEMPLATE_SHARE`` of the
site's pages), tells these pages apart:

* a list must link, in its own part, to at least ``OWN_LIST_MIN_TARGETS`` other pages of the
  site; a page the page method read as a list whose own part links fewer is no list, unless
  the site shows it lists the site's posts (``own_post_lists``, archives of one): it is
  ``other`` when its own part is a form (a search page) or holds no sentence (a "Page not
  found"), else ``detail`` (a short documentation page: "Obsolete, see ... instead.");
* a page read as ``other`` whose own part is mostly links (``OWN_LIST_MIN_LINK_SHARE`` of its
  weight) to at least ``OWN_LIST_MIN_TARGETS`` pages of the site is a list (an index of a
  blog's tags or categories, a table of contents).

Forums are left to the forum method (their pages are typed by URL clusters and posts), and
sites of fewer than ``MIN_SITE_PAGES`` pages show no template.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from lxml import etree

from sitesift.fields.post_rules import text_pieces
from sitesift.parse.dom import normalize_space, text_content, text_weight
from sitesift.parse.links import document_base, join_url, page_key

__all__ = [
    "MIN_SITE_PAGES", "OWN_LIST_MIN_LINK_SHARE", "OWN_LIST_MIN_TARGETS", "TEMPLATE_SHARE",
    "OwnPart", "own_parts", "site_types",
]

#: A line, link or form on at least this share of the site's pages is the template's. Half:
#: a site's navigation is on every page; a post's own lines on one page, a tag's name on the
#: tag's posts (zoo-blogs-dev: a tag on at most 10 of 40-70 pages).
TEMPLATE_SHARE = 0.5
#: Fewer pages show no template (two pages share their whole text as often as a layout).
MIN_SITE_PAGES = 4
#: A list links, in its own part, at least this many other pages of the site. zoo-docs-dev's
#: short pages the page method read as lists link 0-1 (their nav tree is the template's);
#: the list pages of zoo-blogs-dev link 4 or more.
OWN_LIST_MIN_TARGETS = 3
#: A page read as ``other`` is a list when links hold this share of its own part's weight
#: (zoo-blogs-dev's tag and category indexes 0.65-0.69, its about pages 0).
OWN_LIST_MIN_LINK_SHARE = 0.5
#: A site's documents are its menu's pages when the template links this share of the pages
#: typed detail (zoo-docs-dev: all; zoo-blogs-dev: none, or the 5 latest posts of 28).
MENU_DETAIL_SHARE = 0.5
#: A site is a blog when its lists link this many posts under their titles.
POSTS_MIN = 2
#: A sentence: a letter, ten characters or more, then a full stop of any script.
_SENTENCE = re.compile(r"\w[^.!?。！？]{10,}[.!?。！？]")


@dataclass(frozen=True, slots=True)
class OwnPart:
    """What a page adds to its site's template."""

    #: Text weight of the page's own lines, and of those in links to other pages of the site.
    weight: int = 0
    link_weight: int = 0
    #: Distinct places in other pages of the site its own links go to (an index of a
    #: reference page's sections links one page at many places).
    targets: int = 0
    #: It holds a form with a text field of its own (a search or contact page).
    form: bool = False
    #: Its own text holds a sentence.
    sentence: bool = False
    #: The site's template links it (a menu page: an about page, a documentation page).
    menu: bool = False


def own_parts(roots: Sequence[etree._Element], urls: Sequence[str | None]) -> list[OwnPart]:
    """Each page's own part (see the module docstring); empty parts on a site of fewer than
    ``MIN_SITE_PAGES`` pages."""
    if len(roots) < MIN_SITE_PAGES:
        return [OwnPart() for _ in roots]
    if sum(bool(url) for url in urls) < MIN_SITE_PAGES:
        return [OwnPart() for _ in roots]  # (without URLs no link is known to stay in the site)
    seen = [_read(root, url) for root, url in zip(roots, urls, strict=True)]
    lines: Counter[str] = Counter()
    links: Counter[tuple[str, str]] = Counter()
    forms: Counter[str] = Counter()
    for page_lines, page_links, page_forms in seen:
        lines.update({line for _, line in page_lines})
        links.update({key for key, _ in page_links})
        forms.update(set(page_forms))
    most = TEMPLATE_SHARE * len(roots)
    menu = {page_key(key[1]) for key, count in links.items() if count >= most}
    out = []
    for url, (page_lines, page_links, page_forms) in zip(urls, seen, strict=True):
        if not url:
            out.append(OwnPart())
            continue
        own_lines = [line for _, line in page_lines if lines[line] < most]
        own_links = [(key, weight) for key, weight in page_links if links[key] < most]
        out.append(OwnPart(
            weight=sum(text_weight(line) for line in own_lines),
            link_weight=sum(weight for _, weight in own_links),
            targets=len({key[1] for key, _ in own_links}),
            form=any(forms[form] < most for form in page_forms),
            sentence=_SENTENCE.search(" ".join(own_lines)) is not None,
            menu=bool(url) and page_key(url) in menu))
    return out


def _read(root: etree._Element, url: str | None) -> tuple[
        list[tuple[etree._Element, str]], list[tuple[tuple[str, str], int]], list[str]]:
    """A page's text lines, its links to other pages of the site ((text, target), weight)
    and its forms with a text field (by their action and field names)."""
    body = root.find("body")
    body = root if body is None else body
    lines = text_pieces(body)
    base = document_base(root, url)
    own = (url or "").split("#", 1)[0].rstrip("/")
    try:
        host = urlsplit(url or "").netloc
    except ValueError:
        host = ""
    links = []
    for anchor in body.iter("a"):
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        target = join_url(base, href) if base else href
        try:
            if not host or urlsplit(target).netloc != host or \
                    target.split("#", 1)[0].rstrip("/") == own:
                continue
        except ValueError:
            continue
        text = normalize_space(text_content(anchor))
        links.append(((text, target), text_weight(text)))
    forms = []
    for form in body.iter("form"):
        fields = [el for el in form.iter("input", "textarea")
                  if el.tag == "textarea" or (el.get("type") or "text").lower()
                  in ("text", "search")]
        if fields:
            names = " ".join(sorted(el.get("name") or "" for el in fields))
            action = (form.get("action") or "").strip()
            forms.append(f"{join_url(base, action) if base and action else action} {names}")
    return lines, links, forms


def site_types(types: Sequence[str | None], own: Sequence[OwnPart],
               lists: Sequence[bool], posts: Sequence[bool] = (),
               dated: Sequence[bool] = ()) -> list[tuple[str, str] | None]:
    """Per page, the type its own part gives and why, or None where the page's type stands.
    ``types``: the types so far; ``lists``: whether the site shows the page lists its posts
    (``own_post_lists``, archives of one), which no own part outweighs; ``posts``: whether
    it is a post that the site's lists link under its title (``archives_of_one``);
    ``dated``: whether the page prints its publication time. A dated page is a post, never
    a menu page, even when the menu links it: a blog's sidebar of recent posts (WordPress's
    default widget) is on every page, so the latest posts are the template's links too."""
    posts = posts if len(posts) == len(types) else [False] * len(types)
    dated = dated if len(dated) == len(types) else [False] * len(types)
    details = [part.menu for part, kind in zip(own, types, strict=True) if kind == "detail"]
    # Documentation: the template's menu links the site's documents. A blog: its lists link
    # its posts, its menu links pages that are neither (an about page).
    documents = bool(details) and sum(details) >= MENU_DETAIL_SHARE * len(details)
    blog = sum(posts) >= POSTS_MIN
    out: list[tuple[str, str] | None] = []
    for page_type, part, listed, post, has_date in zip(types, own, lists, posts, dated,
                                                       strict=True):
        if not part.weight and not part.form:
            out.append(None)  # (no template known, or nothing of its own: no evidence)
            continue
        menu_page = part.menu and not post and not has_date and blog and not documents
        if part.form or not part.sentence:
            kind, why = "other", "a form" if part.form else "no sentence"
        elif menu_page:
            kind, why = "other", "prose on a page the menu links (a blog's menu page)"
        else:
            kind, why = "detail", "prose"
        if page_type == "list" and not listed and part.targets < OWN_LIST_MIN_TARGETS:
            why = (f"its own part links {part.targets} pages of the site (a list links "
                   f"{OWN_LIST_MIN_TARGETS} or more) and holds {why}")
            out.append((kind, why))
        elif page_type == "other" and not part.form and part.targets >= OWN_LIST_MIN_TARGETS \
                and part.link_weight >= OWN_LIST_MIN_LINK_SHARE * part.weight:
            out.append(("list", f"its own part is links to {part.targets} pages of the site"))
        elif page_type == "other" and kind == "detail" and part.menu and documents:
            out.append(("detail", "prose on a page the menu links, as the site's documents"))
        elif page_type == "detail" and menu_page and part.sentence and not part.form:
            out.append(("other", f"its own part holds {why}"))
        else:
            out.append(None)
    return out
