"""Titles from a site's own links (paper 003) and from its ``<title>`` decoration.

Paper 003 (He 2019): a list page links each detail page with an *external title*, the anchor
text the site itself wrote for the article. For a detail page,

    candidates = external titles + the text of every <h1>..<h6>
    M          = the <title> text, or the external title when <title> is empty
    Sim(I, J)  = 2 * LCS(I, J) / (len I + len J)
    answer     = argmax over candidates of Sim(candidate, M)

Two additions of ours, both learned from the pages of one site in the batch:

* decoration: the prefixes and suffixes that many of the site's ``<title>`` texts share
  ("-36氪", " | Code | Nicolas Perriault", "_腾讯网") are the site's name and sections; they are
  cut from ``<title>`` before it serves as M, and so never end up in the answer;
* the page-level answer (``titles.choose_title``: declared metadata, headings) stands unless
  the site's pages show it to be the site's (a shared ``<title>``, learned decoration, a
  heading of the site's template the page's own titles do not name): only then are the
  candidates cleaned and compared with M. An anchor replaces a standing answer only as its
  bare form (the answer is the anchor plus shorter decoration after a separator): anchors in
  other words are the site's SEO wording, as declared titles copying ``<title>`` are. Copies
  of one article (one declared title or ``<title>`` headline) count once when decoration is
  learned, and their shared ``<title>`` names no site.

Links are resolved against the page URL or ``<base href>``; ``link_keys`` says how a link finds
its page (also when URLs are unknown, by an id or a slug in its path).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from lxml import etree

from sitesift.fields.link_keys import id_tails, index_slugs, link_keys, link_slug, page_keys
from sitesift.fields.title_text import (
    is_site_name,
    leads,
    names_within,
    normalize_space,
    similarity,
    strip_site_name,
    word_count,
)
from sitesift.fields.titles import (
    MIN_HEADING_SIMILARITY,
    MIN_WORDS_NAMED_H1,
    TitleCandidates,
    choose_title,
    clean_heading,
)
from sitesift.parse.links import Link
from sitesift.parse.links import page_links as all_links

__all__ = [
    "Link", "SiteTitles", "learn_decoration", "learn_site_titles", "menu_names", "own_h1",
    "page_links",
    "repeated_headings", "repeated_titles", "strip_decoration",
]

#: An anchor is an item title (not "More", "Next", a section name) with at least this many
#: words, or this many CJK characters.
MIN_ANCHOR_WORDS = 4
MIN_ANCHOR_CJK = 6
#: Longer anchor texts are whole teasers (title, summary and date in one link).
MAX_ANCHOR_CHARS = 200
#: A prefix or suffix cut at a separator is site decoration when at least this share of the
#: site's distinct ``<title>`` texts (and at least ``MIN_DECORATION_PAGES``) carry it.
MIN_DECORATION_SHARE = 0.3
MIN_DECORATION_PAGES = 2
#: What is left of a title after cutting decoration has at least this many characters.
MIN_REMAINING_CHARS = 4
#: Characters that may start a suffix or end a prefix of decoration. Not a plain space: words
#: that many titles of a site share ("How to ...", "... test") are not decoration; a site's
#: name is set off by punctuation ("Headline - Site", "Site | Headline").
_DECORATION_SEPARATORS = frozenset("-_|–—·•:»>/~*｜:：,，、[(（【")
#: Left over at the cut once decoration is gone ("Headline -" when " Site" was learned).
_SEPARATOR_CHARS = " -_|–—·•:»>/~*｜：,，、"
#: Anchors ending like this are cut teasers: usable to find M, not as the answer.
_ELLIPSIS = re.compile(r"(?:\.\.\.|…|\.\.)\s*$")
_CJK = re.compile(r"[\u3400-\u9fff\u3040-\u30ff\uac00-\ud7af]")
#: A site's template prints each page's headline as the page's h1 when, of its other pages
#: with one h1 of their own (not a template heading), at least ``MIN_H1_VOTES`` do and at
#: least ``MIN_H1_SHARE`` of them print as that h1 what their ``<title>`` or declared title
#: says (the same words without the site's decoration, or a short form of them). Flat on
#: every titled dev set from 2 to 3 votes and from 0.3 to 0.7 (modern-dev half a has no site
#: it applies to; 5 votes or 0.9 lose modern-dev 3061): the middle of the flat region.
MIN_H1_VOTES = 3
MIN_H1_SHARE = 0.5
#: A link on this share of a site's pages is its menu's (``menu_names``), on a site of this
#: many pages or more (fewer show no template).
MENU_SHARE = 0.5
MENU_MIN_PAGES = 4


def _is_title_like(text: str) -> bool:
    if len(text) > MAX_ANCHOR_CHARS:
        return False
    return len(text.split()) >= MIN_ANCHOR_WORDS or len(_CJK.findall(text)) >= MIN_ANCHOR_CJK



def page_links(root: etree._Element, url: str | None = None) -> list[Link]:
    """The item links of a page: anchors whose text reads like a title, in page order, one per
    URL (its first title-like text). Relative links are resolved against ``<base href>`` and
    ``url``; without either they stay as written."""
    out: list[Link] = []
    seen: set[str] = set()
    for link in all_links(root, url, keep=_is_title_like):
        if link.url not in seen:
            seen.add(link.url)
            out.append(link)
    return out



def repeated_titles(titles: Iterable[str | None]) -> tuple[str, ...]:
    """``<title>`` texts that several pages of a site share: the site's (or a section's) name,
    not any page's headline."""
    counts = Counter(normalize_space(t) for t in titles if normalize_space(t))
    return tuple(t for t, n in counts.items() if n >= MIN_DECORATION_PAGES)


def repeated_headings(headings: Iterable[Iterable[str]]) -> tuple[str, ...]:
    """Heading texts that several pages of a site print (one set of texts per page): the
    site's logo, section names and widget titles ("Bookmark with:"), i.e. its template."""
    counts = Counter(t for page in headings for t in {normalize_space(h) for h in page} if t)
    return tuple(t for t, n in counts.items() if n >= MIN_DECORATION_PAGES)


def learn_decoration(titles: Iterable[str | None]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(prefixes, suffixes) of decoration that many distinct ``<title>`` texts of a site share.

    A cut is made at a separator character; the longest shared piece is taken first, and the
    search repeats on what is left ("标题_科技_腾讯网": "_腾讯网", then "_科技" if several
    pages are in that section).
    """
    distinct = list(dict.fromkeys(normalize_space(t) for t in titles if normalize_space(t)))
    need = max(MIN_DECORATION_PAGES, MIN_DECORATION_SHARE * len(distinct))
    prefixes: list[str] = []
    suffixes: list[str] = []
    current = distinct
    for _round in range(3):
        found = False
        for side, learned in (("suffix", suffixes), ("prefix", prefixes)):
            counts: Counter[str] = Counter()
            for t in current:
                pieces = set()
                for i, ch in enumerate(t):
                    if ch not in _DECORATION_SEPARATORS:
                        continue
                    piece = t[i:] if side == "suffix" else t[:i + 1]
                    if len(t) - len(piece) >= MIN_REMAINING_CHARS and piece.strip():
                        pieces.add(piece)
                counts.update(pieces)
            shared = [p for p, n in counts.items() if n >= need and p.strip(" ")]
            if not shared:
                continue
            best = max(shared, key=len)
            learned.append(best)
            current = [strip_decoration(t, (best,), ()) if side == "prefix"
                       else strip_decoration(t, (), (best,)) for t in current]
            found = True
        if not found:
            break
    return tuple(prefixes), tuple(suffixes)


def strip_decoration(title: str | None, prefixes: Sequence[str], suffixes: Sequence[str]) -> str:
    """``title`` without the learned decoration (each piece cut at most once)."""
    text = normalize_space(title)
    for suffix in suffixes:
        if text.endswith(suffix) and len(text) - len(suffix) >= MIN_REMAINING_CHARS:
            text = text[: -len(suffix)].rstrip(_SEPARATOR_CHARS)
    for prefix in prefixes:
        if text.startswith(prefix) and len(text) - len(prefix) >= MIN_REMAINING_CHARS:
            text = text[len(prefix):].lstrip(_SEPARATOR_CHARS)
    return text


def _decoration_names(prefixes: Sequence[str], suffixes: Sequence[str]) -> tuple[str, ...]:
    """The words of learned decoration, as site names for ``strip_site_name``."""
    names = []
    for piece in (*prefixes, *suffixes):
        for part in re.split(r"[\s\-_|–—·•:»>/~*｜：,，、\[\]()（）【】]+", piece):
            if len(part) >= 2:
                names.append(part)
    return tuple(names)



@dataclass(frozen=True, slots=True)
class SiteTitles:
    """What a site's pages tell about each page's title: decoration and external titles."""

    prefixes: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()
    #: Whole ``<title>`` texts several pages share: names of the site, never a headline.
    shared: tuple[str, ...] = ()
    #: Heading texts several pages print: the site's template (logo, sections, widgets).
    template_headings: tuple[str, ...] = ()
    #: Link key -> (anchor text, id of the linking page) of the links to it, in batch order.
    external: Mapping[str, tuple[tuple[str, str | None], ...]] = field(default_factory=dict)
    #: (slug, anchor text, id of the linking page) of links whose path ends in a slug.
    slugs: tuple[tuple[str, str, str | None], ...] = ()
    #: The same, filed under every run of leading words of the slug ("a", "a_b", "a_b_c"), so
    #: that a page finds the slugs that start with the end of its id in one look-up per end
    #: (``link_keys.slug_matches``), not by trying every link of the site.
    slug_starts: Mapping[str, tuple[tuple[str, str, str | None], ...]] = field(
        default_factory=dict)
    #: Per distinct page with one h1 of its own: whether that h1 prints the headline its
    #: ``<title>`` or declared title gives (``_h1_prints_title``): the site's votes on where its
    #: template puts the headline.
    h1_votes: Mapping[TitleCandidates, bool] = field(default_factory=dict)
    #: Link key -> the texts the site's menu (links on most of its pages) names the page by
    #: (``menu_names``).
    menu: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def external_titles(self, url: str | None, page_id: str | None) -> tuple[str, ...]:
        """Anchor texts of the links from other pages that reach the page (by URL, else id)."""
        found = [pair for key in page_keys(url, page_id) for pair in self.external.get(key, ())]
        if not found and page_id and not url:
            found = [(text, source) for tail in id_tails(page_id)
                     for _slug_, text, source in self.slug_starts.get(tail, ())]
        out: list[str] = []
        for text, source in found:
            if text not in out and (source is None or source != page_id):
                out.append(text)
        return tuple(out)

    def _bared_by_anchor(self, title: str, url: str | None, page_id: str | None) -> str:
        """``title`` without what it holds beside the text of a link to the page ("Headline
        -Gazette" linked as "Headline"): the site's own words for the headline agree with the
        page's, and the rest, shorter and set off by a separator, is decoration."""
        for anchor in self.external_titles(url, page_id):
            a = normalize_space(anchor)
            if not a or _ELLIPSIS.search(a) or len(a) >= len(title):
                continue
            beside = _beside(title, a, fold=True)
            if beside is not None and beside[1] in _DECORATION_SEPARATORS and \
                    len(beside[0]) < len(a):
                return a
        return title

    def _printed_headline(self, own: str, c: TitleCandidates) -> str | None:
        """The page's h1 when ``<title>`` without the site's learned decoration is that h1
        word for word and ``own`` is printed nowhere on the page, else None.

        The site's pages show where its ``<title>`` holds the headline ("BBC News -
        {headline}"), and the page prints the same words as its h1: the two sources a reader
        sees agree, and a declared title in other words ("How savvy retailers sell by
        stealth" for "Insight selling: How retailers sell to us by stealth") is the wording
        for sharing and indexing, or a cut copy of the h1. Paper 003 chooses that h1 too
        (Sim to M is 1). An ``own`` the page prints as a heading stays: the page rules chose
        among printed headings (the story under a section h1 that ``<title>`` names), and so
        does a template heading (a section's name several pages print). A "line" (a
        ``<title>`` segment found in plain text: a most-read list repeats it) is no heading."""
        doc = normalize_space(c.doc_title)
        bare = strip_decoration(doc, self.prefixes, self.suffixes)
        folded = bare.casefold()
        if not bare or bare == doc or own.casefold() == folded:
            return None
        if any(normalize_space(h).casefold() == own.casefold() for k, h in c.headings
               if k != "line"):
            return None
        return next((normalize_space(h) for k, h in c.headings
                     if k == "h1" and normalize_space(h).casefold() == folded
                     and normalize_space(h) not in self.template_headings), None)

    def _menu_title(self, c: TitleCandidates, url: str | None,
                    page_id: str | None) -> str | None:
        """``<title>`` without the site's decoration when the site's menu names the page so
        too (``menu_names``) and the page prints no other h1 (none, an empty one, or that
        text); else None.

        Two sources the site writes for every page, and the h1 where there is one, agree: the
        page's title is no section heading under it, however alike ``<title>`` that heading
        reads ("Testing input" under "Testing"). MkDocs's themes render no h1 for a page
        whose Markdown has none, and name it by its navigation title in ``<title>`` and in
        the menu linking it ("Configuration", whose first heading is "Configuration
        precedence")."""
        doc = normalize_space(c.doc_title)
        if not doc or not self.menu:
            return None
        bare = strip_decoration(doc, self.prefixes, self.suffixes) or doc
        folded = bare.casefold()
        if any(k == "h1" and normalize_space(h) and clean_heading(normalize_space(h))
               .casefold() != folded for k, h in c.headings):
            return None
        named = {name.casefold() for key in page_keys(url, page_id)
                 for name in self.menu.get(key, ())}
        return bare if folded in named else None

    def _site_h1(self, own: str, c: TitleCandidates) -> str | None:
        """The page's own h1 when the site's other pages print their headline as their h1
        (``h1_votes``) and this page's chosen ``own`` is another text, else None.

        Which source holds a site's headlines is a property of its template: where the
        other pages' h1 prints what their ``<title>`` says ("Kayaks" for "Kayaks | REI
        Co-op", "Camp Stoves" for "Camping Stoves: Top Rated Camp Stoves | REI Co-op"), the
        h1 of a page whose ``<title>`` words it otherwise ("Headlamps" under "Headlamps for
        Camping, Hiking & Running | REI Co-op") is that page's headline too. The page's own
        h1 must print its titles so too (an h1 in other words, "Pre-order MacBook Air" under
        "Buy MacBook Air - Apple", is an offer or a promotion) and have two words or more
        (one word is a section's name however a title spells it out: "Sports" of "Sports
        news: ..."; a category page's one-word h1 is its list's name, ``title_place``)."""
        h1 = own_h1(c, self.template_headings)
        if h1 is None or h1.casefold() == own.casefold() or is_site_name(h1, c.site_names) \
                or word_count(h1) < MIN_WORDS_NAMED_H1 \
                or not _h1_prints_title(h1, c, self.prefixes, self.suffixes):
            return None
        votes = [v for page, v in self.h1_votes.items() if page != c]
        if len(votes) < MIN_H1_VOTES or sum(votes) < MIN_H1_SHARE * len(votes):
            return None
        return h1

    def _undecorated(self, title: str) -> str:
        return strip_decoration(title, self.prefixes, self.suffixes) or title

    def _names_own(self, text: str, c: TitleCandidates) -> bool:
        """Whether ``text`` is like this page's own ``<title>`` or declared title, undecorated:
        the page names itself so, whatever other pages print (a list page prints the
        product's name that the product page's h1 and og:title give)."""
        own = [self._undecorated(t) for t in (*c.declared_titles,) if normalize_space(t)]
        if normalize_space(c.doc_title) not in self.shared:
            own.append(self._undecorated(normalize_space(c.doc_title)))
        return any(similarity(text, t) >= MIN_HEADING_SIMILARITY for t in own if t)

    def names_site(self, title: str, c: TitleCandidates) -> bool:
        """Whether the site's other pages show ``title`` to be the site's, not the page's: a
        ``<title>`` several pages share, a learned piece of decoration (or text that still
        carries one), or a heading the site's template prints that the page's own title
        does not name."""
        text = normalize_space(title)
        if strip_decoration(text, self.prefixes, self.suffixes) != text or any(
                _part_of(text, shared) for shared in self.shared):
            return True
        folded = text.casefold()
        if any(piece.strip(_SEPARATOR_CHARS + "[(（【]）)").casefold() == folded
               for piece in (*self.prefixes, *self.suffixes)):
            return True
        return text in self.template_headings and not self._names_own(text, c)

    def cleaned(self, c: TitleCandidates) -> TitleCandidates:
        """``c`` as the site knows it: ``<title>`` undecorated (None when several pages share
        it), template headings left out, the site's names and decoration known."""
        doc = strip_decoration(c.doc_title, self.prefixes, self.suffixes)
        names = c.site_names + _decoration_names(self.prefixes, self.suffixes) + self.shared
        # A <title> several pages share names the site: the page's headline is elsewhere.
        shared = normalize_space(c.doc_title) in self.shared
        m_doc = None if shared else doc or c.doc_title
        # A template heading is no candidate, unless it is this page's own title (an article
        # page and a list page may print the same headline).
        headings = tuple((k, h) for k, h in c.headings
                         if normalize_space(h) not in self.template_headings
                         or self._names_own(h, c))
        return replace(
            c, doc_title=m_doc, site_names=names, headings=headings,
            declared_titles=tuple(self._undecorated(t) for t in c.declared_titles),
            meta_titles=tuple(self._undecorated(t) for t in c.meta_titles))

    def choose(self, c: TitleCandidates, *, url: str | None = None,
               page_id: str | None = None) -> str | None:
        """The page's title with the site's knowledge; see the module docstring."""
        return self.read(c, url=url, page_id=page_id)[0]

    def read(self, c: TitleCandidates, *, url: str | None = None,
             page_id: str | None = None) -> tuple[str | None, TitleCandidates]:
        """The page's title, and the candidates the record's later title rules should read:
        the page's own while its own title stands (they read the site's name in ``<title>``
        as the page rules do), else ``cleaned(c)``."""
        # The page's own answer stands unless the site's pages show it to be the site's
        # (its name, decoration, a template heading): the page rules read the page's own
        # decoration already, and choosing again among undecorated candidates changes what
        # they compare (a declared title then "copies" an undecorated <title>).
        # Nor do anchors outvote it: a list page's anchor agreeing with <title> where the page
        # prints another headline is the SEO wording, as a declared title copying <title> is.
        menu = self._menu_title(c, url, page_id)
        if menu is not None:
            return menu, c
        own = choose_title(c)
        if own is not None and not self.names_site(own, c):
            printed = self._printed_headline(own, c) or self._site_h1(own, c)
            if printed is not None:
                return printed, c
            return self._bared_by_anchor(own, url, page_id), c
        cleaned = self.cleaned(c)
        title = self._choose_cleaned(c, cleaned, url, page_id)
        return (self._site_h1(title, c) if title else None) or title, cleaned

    def _choose_cleaned(self, c: TitleCandidates, cleaned: TitleCandidates, url: str | None,
                        page_id: str | None) -> str | None:
        doc = strip_decoration(c.doc_title, self.prefixes, self.suffixes)
        names, headings = cleaned.site_names, cleaned.headings
        # Nothing but the site's shared <title>: that text still tells the page apart better
        # than no title (the story's headline may yet be found by its place, near_heading).
        page_title = choose_title(cleaned) or normalize_space(c.doc_title) or None
        external = [t for t in self.external_titles(url, page_id) if t]
        if not external:
            return page_title
        # M = <title> (undecorated), or the external title when <title> is empty.
        m = strip_site_name(doc, names) or external[0]
        candidates = [t for t in (page_title,) if t and t != normalize_space(c.doc_title)]
        candidates += [t for t in external if not _ELLIPSIS.search(t)]
        candidates += [normalize_space(h) for _k, h in headings if normalize_space(h)]
        if not candidates:
            return page_title
        best = max(candidates, key=lambda t: similarity(t, m))  # the first wins a tie
        if similarity(best, m) < MIN_HEADING_SIMILARITY:
            return page_title
        return best


def menu_names(pages: Sequence[Sequence[Link]]) -> dict[str, tuple[str, ...]]:
    """Link key -> anchor texts of the links that most of a site's pages (``MENU_SHARE``,
    ``MENU_MIN_PAGES`` pages or more) hold: the names its menu gives its pages. ``pages``:
    each page's links (all of them: a menu names pages by one word)."""
    if len(pages) < MENU_MIN_PAGES:
        return {}
    counts: Counter[tuple[str, str]] = Counter()
    for links in pages:
        counts.update({(key, normalize_space(link.anchor)) for link in links
                       for key in link_keys(link.url) if normalize_space(link.anchor)})
    names: dict[str, list[str]] = defaultdict(list)
    for (key, anchor), count in counts.items():
        if count >= MENU_SHARE * len(pages):
            names[key].append(anchor)
    return {key: tuple(found) for key, found in names.items()}


def own_h1(c: TitleCandidates, template: Iterable[str] = ()) -> str | None:
    """The page's one h1 that is no heading of the site's ``template``, cleaned; None when it
    has none or several (a list of cards)."""
    template = set(template)
    h1s = [clean_heading(normalize_space(h)) for k, h in c.headings
           if k == "h1" and normalize_space(h) and normalize_space(h) not in template]
    return h1s[0] if len(h1s) == 1 else None


def _h1_prints_title(h1: str, c: TitleCandidates, prefixes: Sequence[str],
                     suffixes: Sequence[str]) -> bool:
    """Whether ``h1`` prints what the page's ``<title>`` or declared titles say: the same
    words without the site's decoration or name, or the first or a short form of them."""
    refs = [strip_decoration(t, prefixes, suffixes) for t in (c.doc_title, *c.declared_titles)
            if normalize_space(t)]
    refs += [strip_site_name(r, c.site_names) for r in refs]
    folded = h1.casefold()
    return any(r.casefold() == folded for r in refs) or leads(h1, refs) \
        or names_within(h1, refs)


def _beside(title: str, text: str, *, fold: bool = False) -> tuple[str, str] | None:
    """What ``title`` holds beside ``text`` when it starts (else ends) with it: the rest,
    without the spaces next to ``text``, and the rest's character next to ``text`` ("" when
    there is no rest); None when ``title`` neither starts nor ends with ``text``. ``fold``:
    compare case-folded."""
    t, x = (title.casefold(), text.casefold()) if fold else (title, text)
    if t.startswith(x):
        rest = title[len(text):].lstrip(" ")
        return rest, rest[:1]
    if t.endswith(x):
        rest = title[:-len(text)].rstrip(" ")
        return rest, rest[-1:]
    return None


def _part_of(text: str, title: str) -> bool:
    """Whether ``text`` is ``title`` or a part of it cut at a separator."""
    if not text:
        return False
    if text == title:
        return True
    beside = _beside(title, text)
    return beside is not None and beside[1] in _DECORATION_SEPARATORS


def _headline_in_title(c: TitleCandidates) -> str | None:
    """The page's heading that its ``<title>`` gives, alone or with shorter decoration beside
    it after a separator ("Headline_Section_Site"), or None: the article the page shows."""
    title = normalize_space(c.doc_title)
    best = None
    for _k, h in c.headings:
        h = normalize_space(h)
        if len(h) < MIN_REMAINING_CHARS or (best and len(h) <= len(best)):
            continue
        if title == h:
            return h
        beside = _beside(title, h)
        if beside is not None and beside[1] in _DECORATION_SEPARATORS and \
                len(beside[0]) <= len(h):
            best = h
    return best


def _article(c: TitleCandidates) -> str:
    """What one article's copies share (a page crawled twice, under two section titles): its
    first declared title, else the headline its ``<title>`` gives, else the ``<title>``."""
    declared = [normalize_space(t) for t in c.declared_titles if normalize_space(t)]
    return (declared[0] if declared else None) or _headline_in_title(c) \
        or normalize_space(c.doc_title)


def learn_site_titles(
    pages: Sequence[tuple[str | None, TitleCandidates | None, Sequence[Link]]],
) -> SiteTitles:
    """A site's decoration and external titles from its pages' (page id, title candidates,
    item links)."""
    # The same page twice in a batch (a copy under another id) is one page here: same title
    # candidates and same item links (two stories without headings share the candidates).
    distinct = list(dict.fromkeys((c, tuple(links)) for _i, c, links in pages if c is not None))
    # Decoration is what several articles' titles share: copies of one article (the same
    # headline under two <title> texts) count once, or the headline itself would be learned
    # as a prefix shared by "Headline_Site" and "Headline_Section_Site".
    articles = {_article(c): c.doc_title for c, _links in reversed(distinct)}
    prefixes, suffixes = learn_decoration(reversed(articles.values()))
    # Each key's (anchor, page id) pairs in first-seen order (a dict: the site's menus link
    # one URL from every page, so a list's membership test grew with the site).
    external: dict[str, dict[tuple[str, str | None], None]] = defaultdict(dict)
    slugs: dict[tuple[str, str, str | None], None] = {}
    # A URL's slug and keys, read once within the call (the menus repeat their URLs).
    read: dict[str, tuple[str | None, list[str]]] = {}
    for page_id, _c, links in pages:
        for link in links:
            url_read = read.get(link.url)
            if url_read is None:
                url_read = read[link.url] = (link_slug(link.url), link_keys(link.url))
            slug, keys = url_read
            if slug:
                slugs[(slug, link.anchor, page_id)] = None
            for key in keys:
                external[key][(link.anchor, page_id)] = None
    # Copies of one article (crawled twice) share their <title> too, but show it as their
    # heading: a <title> counts towards the site's name only on pages where it is no heading.
    shared = repeated_titles(c.doc_title for c, _links in distinct
                             if _headline_in_title(c) is None)
    pages_headings = [[h for _k, h in c.headings] for c, _links in distinct]
    template = repeated_headings(pages_headings)
    votes = {c: _h1_prints_title(h1, c, prefixes, suffixes) for c, _links in distinct
             if (h1 := own_h1(c, template)) is not None}
    return SiteTitles(prefixes=prefixes, suffixes=suffixes, shared=shared,
                      template_headings=template, h1_votes=votes,
                      external={k: tuple(v) for k, v in external.items()}, slugs=tuple(slugs),
                      slug_starts=index_slugs(slugs))
