"""The article headline, chosen among metadata titles, on-page headings and ``<title>``.

``<title>`` nearly always names the article, but decorated with the site name ("Headline |
Site", "Headline_新浪网"). Headings (``<h1>``...) show the headline as printed, but pages also
use them for logos and section names. Paper 003's rule settles it: among the candidates, the
one most similar to the ``<title>`` text (Sim = 2*LCS/(|a|+|b|)) is the headline. Metadata
titles (JSON-LD headline, og:title) join the candidates; a publisher's own headline is preferred
when it agrees with the page. ``_choose`` tries its steps top to bottom, most trusted evidence
first; the text they compare (separators, site names, the URL slug, Sim) is ``title_text``'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from sitesift.fields.title_text import (
    DOMAIN,
    MAX_NAME_DECORATION_WORDS,
    MIN_HEADLINE_WORDS,
    MIN_REMAINING_CHARS,
    SAME_TITLE_SIMILARITY,
    SEPARATOR,
    SEPARATOR_STRICT,
    abbreviates,
    agrees,
    decorates,
    is_site_name,
    leads,
    longest_part,
    names_within,
    normalize_space,
    similarity,
    slug_spells,
    strict_parts,
    strip_site_name,
    title_cuts,
    title_segments,
    undecorated,
    word_count,
)

__all__ = ["TitleCandidates", "choose_title", "clean_heading", "title_agrees", "title_declared"]

#: A heading must be at least this similar to the (undecorated) ``<title>`` to be the headline:
#: below it, the heading is a section name or logo, not the article's headline.
MIN_HEADING_SIMILARITY = 0.6
#: A ``<title>`` segment with at least this many words may be the headline itself (shorter
#: ones are site or section names, and match section headings by chance).
MIN_SEGMENT_WORDS = 4
#: An h1 at least this similar to a declared title or ``<title>`` prints the headline
#: (chosen on modern-dev half a: 0.4 / 0.5 / 0.6 / 0.7 gave title exact 0.741 / 0.733 / 0.718 /
#: 0.674 there, 0.5 costing no readability-meta page that 0.4 keeps).
PRINTED_H1_SIMILARITY = 0.5
#: An h1 that a title starts with, before a separator, counts as this similar to it.
LEADING_H1_SIMILARITY = 0.99
#: Headings longer than this are paragraphs styled as headings.
MAX_TITLE_CHARS = 300

#: Heading kinds by how likely they hold the headline when ``<title>`` does not help.
STRONG_KINDS = ("h1", "headline")


@dataclass(frozen=True, slots=True)
class TitleCandidates:
    """Title sources of one page; ``headings`` in document order (h1 first, then h2...)."""

    doc_title: str | None = None
    #: Titles the publisher declares for the article (JSON-LD headline, Dublin Core, Open
    #: Graph, Twitter), best first: taken as written when the page agrees with them.
    declared_titles: tuple[str, ...] = ()
    #: Other title-like meta values (meta name="title" usually copies ``<title>``).
    meta_titles: tuple[str, ...] = ()
    #: (kind, text): kind is the tag (h1, h2, h3) or "headline"/"title" for marked elements.
    headings: tuple[tuple[str, str], ...] = ()
    site_names: tuple[str, ...] = ()
    #: The words of the page URL's slug ("anand-draws-with-aronian"), empty without one.
    url_words: tuple[str, ...] = ()
    #: The title the page's share links give (``url=...&title=...``), None without one.
    shared_title: str | None = None
    #: Whether the page is its site's front page (a URL without path or query).
    home_page: bool = False


#: Under a ``<title>`` naming only the site, an h1 of this many words is the headline (one
#: word is a section: "News", "Forums").
MIN_WORDS_NAMED_H1 = 2
#: A ``<title>`` with this many commas is a list of keywords (a headline has one or two):
#: starting with the site's name, it names the site as that name alone does.
MIN_KEYWORD_COMMAS = 3


def _printed_headline(declared: list[str], c: TitleCandidates) -> str | None:
    """The page's h1 most like the headline its metadata names, if any is like it enough."""
    refs = [t for t in (*declared, normalize_space(c.doc_title),
                        strip_site_name(c.doc_title or "", c.site_names)) if t]
    # The last segment of ``<title>`` is where the site's name goes, which a logo h1 repeats.
    last = (title_segments(c.doc_title)[-1:] or [""])[0].casefold()
    best, best_sim = None, PRINTED_H1_SIMILARITY
    for kind, h in c.headings:
        h = normalize_space(h)
        if kind != "h1" or not h or len(h) > MAX_TITLE_CHARS or h.casefold() == last \
                or is_site_name(h, c.site_names):
            continue
        s = max((similarity(h, r) for r in refs), default=0.0)
        if leads(h, refs) or (word_count(h) >= MIN_WORDS_NAMED_H1 and names_within(h, refs)):
            # (One word is a section's name however a title spells it out: "NFL" of "NFL
            # Preview - Seattle At Green Bay", "Reviews" of "Reviews of our yoga classes".)
            s = max(s, LEADING_H1_SIMILARITY)
        if s > best_sim:
            best, best_sim = h, s
    return _repaired(best, refs) if best is not None else None


#: Characters a page prints for one it could not encode ("Planning? Beginner? Guide").
_LOST_CHARACTER = re.compile("[?\ufffd]")


def _repaired(h1: str, refs: Iterable[str]) -> str:
    """``h1`` with characters lost in encoding, as the metadata title spells it when that one
    reads the same with one to three characters in the place of each "?" (the metadata is
    typed text; the printed heading went through the page's encoding)."""
    if not _LOST_CHARACTER.search(h1):
        return h1
    pattern = re.compile("".join(".{1,3}" if _LOST_CHARACTER.fullmatch(ch) else re.escape(ch)
                                 for ch in h1.casefold()))
    return next((r for r in refs if r.casefold() != h1.casefold()
                 and pattern.fullmatch(r.casefold())), h1)


#: Markdown left in a title by a site that renders its posts from it: a heading's leading
#: "#"s. ("*Emphasis*" is left alone: modern-dev's gold keeps it on two copies of a page and
#: drops it on a third.)
_MARKDOWN_HEADING = re.compile(r"^#{1,6}\s+")
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)$")


#: A permalink mark a documentation generator appends to each heading ("Tasks¶"): a link, not
#: part of the headline. A page whose UTF-8 was read as Latin-1 shows "¶" as "Â¶".
_PERMALINK = re.compile(r"\s*(?:Â?[¶§]|#)$")
#: A chapter or lesson number before a heading ("3.1 Git Branching", "15 - Tutorial: ..."):
#: the heading's place in a book or course, which its ``<title>`` and declared titles leave out.
#: A bare number followed by words ("10 Things I Wish...") counts the items and stays, and so
#: does a year before a separator ("2024 - Pros & Cons ...": four digits are not a section).
_SECTION_NUMBER = re.compile(r"^\d+(?:\.\d+)+\.?\s+(?=\w)|^\d{1,3}\s+[-–—:]\s+(?=\w)")


#: Trademark signs after a brand ("Crusher® ANC 2"): marks of the brand, which the page's
#: ``<title>`` and metadata leave out; no gold title of modern-dev, readability-meta or
#: l3s-gn1 keeps one.
_TRADEMARK = re.compile(r"(?<=\w)[®™]")


#: A slug outvotes the h1 like ``<title>`` only with at least this many words: three-word
#: segments are as often a section's path ("latest-national-sport", "mental-health-trends":
#: the two pages of l3s-gn1 and modern-dev half a that 3 loses, against one gained by 4).
MIN_SLUG_WORDS_OVER_H1 = 4


def clean_heading(text: str) -> str:
    """A heading's text without the marks a page adds to it (trademark signs, a permalink,
    a section number)."""
    return _SECTION_NUMBER.sub("", _PERMALINK.sub("", _TRADEMARK.sub("", text))) or text


def choose_title(c: TitleCandidates) -> str | None:
    """The headline of the page, or None when it names nothing."""
    c = replace(c, headings=tuple((k, clean_heading(normalize_space(h))) for k, h in c.headings))
    title = _choose(c)
    if not title:
        return title
    if _ELLIPSIS.search(title):
        # A title cut short for sharing ("... the trend in the watch..."): the heading or
        # ``<title>`` it was cut from is the whole headline.
        stem = _ELLIPSIS.sub("", title).casefold()
        for text in (*(h for k, h in c.headings if k == "h1"), *strict_parts(c.doc_title)):
            full = normalize_space(text)
            if len(full) > len(stem) and full.casefold().startswith(stem):
                title = full
                break
    return _MARKDOWN_HEADING.sub("", title) or title


def _choose(c: TitleCandidates) -> str | None:
    """The headline by the first step that settles it, most trusted evidence first: the
    publisher's declared titles, the URL's slug, paper 003's Sim to ``<title>``, then what is
    left (meta titles, share links, headline-long headings, ``<title>`` cut at a separator)."""
    printed_h1 = _h1_under_keyword_title(c) or _h1_agreeing_with_title(c)
    if printed_h1 is not None:
        return printed_h1
    declared = _declared_on_page(c)
    whole = normalize_space(c.doc_title).casefold()
    if _seo_or_social(declared, c):
        # Declared titles that copy ``<title>`` whole are its SEO wording: the h1 printing
        # the headline is what the reader sees. A declared copy of ``<title>`` without the
        # site's name is the publisher's own wording, over an h1 that adds or drops a date,
        # a label or markup ("Dec 18 2025 Headline", "Thread: Headline", "*Book* (1792)")
        # or words the headline otherwise (where they differ so, modern-dev's gold takes
        # the h1 on 4 pages and the declared text on 6, 2 and 3 of them in half a), unless
        # the h1 leads it as "Headline | Section" does.
        printed = _printed_over_copy(declared, c)
        if printed is not None:
            if not declared:
                return printed
            core = strip_site_name(declared[0], c.site_names)
            if _holds(printed, core) and \
                    strip_site_name(printed, c.site_names).casefold() != core.casefold():
                # The h1 prints the declared headline with a label, a count or a brand
                # beside it ("Blog: Headline", "Headline (host) 139", "BRAND V3 Product"):
                # the declared text without the site's name is the headline. (An h1
                # printing it with the site's name, as ``<title>`` does, stays as printed.)
                return core
            if declared[0].casefold() == whole or leads(printed, [core]):
                return printed
    if declared:
        return _declared_or_its_h1(declared, c)
    # The URL's slug spells one heading: the CMS made it from that headline.
    spelled = _slug_headings(c)
    if spelled:
        return spelled[0]
    view = _view(c)
    for step in (_named_h1_under_site_title, _h1_of_first_segment, _story_under_section,
                 _most_like_title):
        title = step(view, c)
        if title is not None:
            return title
    if view.metas:
        return view.metas[0]
    shared = _shared_title(c)
    if shared is not None:
        return shared
    strong = _strong_heading(view, c)
    if strong is not None:
        return strong
    return _cut_title(view, c)


#: Under a keyword ``<title>``, an h1 of this many words names the page (two-word h1s there
#: are as often a section's name: "Local Teams", "HOT JOBS", "Minecraft News" of l3s-gn1 and
#: readability-meta against "Shop Mac", "GPS Watches" of modern-dev half b).
MIN_KEYWORD_H1_WORDS = 3


def _h1_under_keyword_title(c: TitleCandidates) -> str | None:
    """The page's first h1 when ``<title>``, the site's name cut, is still several phrases
    set apart by separators, else None.

    Such a ``<title>`` is written for search engines: keywords, a pitch or a category beside
    the name of the thing ("Local SEO Software | Local SEO Tools | Try for Free", "Fitness &
    Exercise Training - Definition, Benefits, How It Works, Costs & Certifications"), and the
    declared titles copy it. The heading the page prints over its content names the thing.
    On modern-dev, where the h1 and the undecorated ``<title>`` differ and one of them is the
    gold title, the h1 is it on 44 of 49 such pages of half a and 48 of 50 of half b, on
    articles, services, products and documentation alike; with one phrase left, 60 % (the
    h1 is then often a slogan: "Business messaging that scales ..."), which this rule leaves
    to the later steps. Chosen on half a (7 titles gained there, 0 lost); half b, where the
    earlier steps already took these h1s, does not move."""
    doc = strip_site_name(c.doc_title or "", c.site_names)
    cuts = list(SEPARATOR_STRICT.finditer(doc))
    if cuts and doc[:cuts[-1].start()].casefold() in {
            normalize_space(t).casefold() for t in c.declared_titles}:
        # A declared title without the last part shows that part to be the site's name,
        # though it is no name the site is known by ("Headline - Trail Outfitters" on
        # trailco.com, og:title "Headline").
        doc = doc[:cuts[-1].start()]
    first = (strict_parts(c.doc_title)[:1] or [""])[0]
    if not SEPARATOR_STRICT.search(doc) or c.home_page or is_site_name(first, c.site_names):
        # (A site's front page, or a ``<title>`` naming the site first, "Firefox — Customize
        # and make it your own — ...": the page is the site or its product, which the
        # ``<title>`` names, and the h1 is a pitch.)
        return None
    declared = {normalize_space(t).casefold() for t in c.declared_titles}
    # The last part of ``<title>`` is the book's, blog's or forum's name ("What is
    # Ownership? - The Rust Programming Language"), which such sites print as an h1 logo.
    names = {p[-1].casefold() for p in (title_segments(c.doc_title), title_segments(doc)) if p}
    for kind, h in c.headings:
        h = normalize_space(h)
        if kind != "h1" or not h or len(h) > MAX_TITLE_CHARS or h.casefold() in names \
                or is_site_name(h, c.site_names):
            continue
        if word_count(h) < MIN_KEYWORD_H1_WORDS or leads(h, [doc]) or h.casefold() in declared \
                or similarity(h, doc) >= SAME_TITLE_SIMILARITY:
            # (A section's name, "Local Teams", "HOT JOBS"; an h1 that ``<title>`` starts
            # with, that words it alike or that a declared title spells is the later steps'
            # to weigh against the declared titles.)
            return None
        # A part of ``<title>`` the page prints as another heading is the headline there
        # ("Headline - Section - Site" over a section's h1 "Local Teams"): no keyword title.
        parts = {p.casefold() for p in strict_parts(doc)} - {h.casefold()}
        if any(normalize_space(o).casefold() in parts for _k, o in c.headings) or any(
                len(p) >= MIN_REMAINING_CHARS and p in h.casefold() for p in parts):
            # (Nor is it one when the h1 prints a part with a date or section beside it,
            # "Wednesday, 09 January 2008 Headline": the later steps cut that away.)
            return None
        return h
    return None


def _h1_agreeing_with_title(c: TitleCandidates) -> str | None:
    """The h1 that reads as ``<title>`` without the site's name, when the first declared title
    is another text that neither resembles and no heading prints, else None.

    Such a declared title is written for sharing alone (og:title "Take a look at the top
    tools for data analysis and learn how to choose one", "Pest Control Deals and Offers"):
    the page's own two titles, the one in ``<title>`` and the one it prints, agree on the
    headline. Chosen on modern-dev half a (0314, 0338, 0499 gained, none lost); half b
    +1572, none lost; no title of the other titled sets moves."""
    doc = strip_site_name(c.doc_title or "", c.site_names)
    declared = [normalize_space(t) for t in c.declared_titles if normalize_space(t)]
    if not doc or not declared:
        return None
    printed = {normalize_space(h).casefold() for _k, h in c.headings}
    first = strip_site_name(declared[0], c.site_names)
    if declared[0].casefold() in printed or similarity(first, doc) >= MIN_HEADING_SIMILARITY:
        return None
    return next((h for h in (normalize_space(h) for k, h in c.headings if k == "h1")
                 if h and similarity(h, doc) >= SAME_TITLE_SIMILARITY), None)


def _seo_or_social(declared: list[str], c: TitleCandidates) -> bool:
    """Whether the declared titles are ``<title>``'s SEO wording and, after the first, titles
    written for sharing that the page prints nowhere (og:title "These are the top 6 fitness
    trends to be ready for in 2025" beside JSON-LD's copy of ``<title>``): none of them is
    the headline the page prints, so the printed h1 like them decides."""
    printed = {normalize_space(h).casefold() for _k, h in c.headings}
    return all(_copies_title(t, c) or (i > 0 and t.casefold() not in printed)
               for i, t in enumerate(declared))


def _copies_title(declared: str, c: TitleCandidates) -> bool:
    """Whether ``declared`` is ``<title>``'s wording, the site's name aside."""
    return strip_site_name(declared, c.site_names).casefold() == \
        strip_site_name(c.doc_title or "", c.site_names).casefold()


def _holds(h1: str, declared: str) -> bool:
    """Whether ``h1`` prints ``declared`` and more."""
    return len(declared) >= MIN_REMAINING_CHARS and len(h1) > len(declared) and \
        declared.casefold() in h1.casefold()


def _declared_on_page(c: TitleCandidates) -> list[str]:
    """The publisher's declared titles (or, without one, its share links' title as the page
    prints it) that the page shows in ``<title>`` or a heading, best first."""
    declared = [normalize_space(t) for t in c.declared_titles if normalize_space(t)]
    if not declared and c.shared_title:
        # The title the page's share links give is the publisher's title for sharing, as
        # og:title is; but it is often re-typed (lower-cased, markup, a site name added), so
        # it picks the page's own text that spells it, a heading or a part of ``<title>``.
        shown = _shown_as(c.shared_title, c)
        declared = [shown] if shown else []
    doc = normalize_space(c.doc_title)
    named = strip_site_name(doc, c.site_names).casefold()
    # A declared title naming the site is no headline, but for a product named after its
    # maker that ``<title>`` sets apart from the site's name ("Apple Watch" of "Apple Watch
    # - Apple"), and on the site's front page, which is the site (og:title "Plausible
    # Analytics" on plausible.io/).
    declared = [t for t in declared if len(t) <= MAX_TITLE_CHARS and (
        not is_site_name(t, c.site_names) or c.home_page
        or (named != doc.casefold() and t.casefold() == named))]
    page_texts = [normalize_space(c.doc_title)] + [normalize_space(h) for _k, h in c.headings]
    return [t for t in declared if any(agrees(t, p) for p in page_texts if p)]


def _slug_headings(c: TitleCandidates) -> list[str]:
    """The headings the URL's slug spells, in document order."""
    return [normalize_space(h) for _k, h in c.headings
            if slug_spells(normalize_space(h), c.url_words)]


def _printed_over_copy(declared: list[str], c: TitleCandidates) -> str | None:
    """The headline the page prints when its declared titles only copy ``<title>`` (or there
    are none), else None.

    Declared titles that copy ``<title>`` are its SEO wording (a plugin fills og:title from
    it), not a headline the publisher wrote for the article: the h1 printing the same headline
    is what the reader sees."""
    printed = _printed_headline(declared, c)
    if not printed:
        return None
    spelled = _slug_headings(c)
    if spelled and len(c.url_words) >= MIN_SLUG_WORDS_OVER_H1 \
            and not slug_spells(printed, c.url_words):
        # The URL's slug spells another heading: the CMS made the slug from that headline,
        # and the h1 only shares words with ``<title>`` (a site's name printed as a logo).
        return spelled[0]
    # An h1 printing a date or a section beside the headline ("Headline (14/01/2008)",
    # "Headline - Men's College Basketball") when the page also prints the headline alone
    # (another h1, a ``<title>`` part printed as a line): that one is the headline. (Parts of
    # ``<title>`` the page does not print are no evidence: a printed "Tutorial: Sweep, Loft,
    # and Extrude" is the headline of its page.)
    return undecorated(printed, [normalize_space(h) for k, h in c.headings
                                  if k in ("h1", "line")])


def _declared_or_its_h1(declared: list[str], c: TitleCandidates) -> str:
    """The first declared title, or the h1 it decorates with the site's or section's name."""
    # A declared title that is the page's h1 plus a separator and more ("Kayaks | REI
    # Co-op", "Garnix Blog: Attested Builds") is the printed headline decorated with the
    # site's or section's name: the h1 is the headline.
    for kind, h in c.headings:
        h = normalize_space(h)
        if kind == "h1" and h and decorates(h, declared[0], c.site_names) and not any(
                h.casefold() == n.casefold() for n in c.site_names):
            return h
    printed = _printed_without_site_name(declared[0], c)
    if printed is not None:
        return printed
    # The publisher's declared title (JSON-LD headline, Dublin Core, Open Graph) is taken
    # as written: it is the title the page gives itself for sharing and indexing.
    return _without_host_name(declared[0], c)


def _without_host_name(title: str, c: TitleCandidates) -> str:
    """``title`` without the site's name after its last separator, when the page's host
    spells that name ("Cybersecurity Consulting Services | CrowdStrike" on crowdstrike.com,
    "... — Yoga With Olivia" on yogawitholivia.co.uk); else as written.

    Declared titles carry the site's name for sharing, as ``<title>`` does for search; the
    headline is the rest. Only a trailing name goes: a name before the rest ("BetterHelp |
    Professional Therapy ...", "Render | The cloud for builders") is the page's subject as
    often as its decoration, and the gold titles of modern-dev keep it 5 times in 7. Only a
    name the host spells: a name the metadata alone gives (og:site_name "IAB") may be the
    outlet a syndicated title credits, as the titles of readability-meta keep it."""
    hosts = [n.casefold() for n in c.site_names if "." in n and DOMAIN.match(n)]
    if not hosts:
        return title
    names = [n for n in c.site_names if "." in n or any(
        n.casefold() in h.split(".") for h in hosts)]
    core = strip_site_name(title, names)
    return core if title.startswith(core) and core != title else title


def _printed_without_site_name(declared: str, c: TitleCandidates) -> str | None:
    """The heading (h1, h2, headline) printing ``declared`` without the site's name it carries
    ("A brief intro to git • Cory Dransfeldt" over an h2 "A brief intro to git"), else None.

    The site's name beside a headline is decoration for sharing and search; a page printing
    the rest word for word as a heading shows that rest as its headline, whether an h1 or
    an h2 (the h1 of such pages is often the site's logo, or missing)."""
    core = strip_site_name(declared, c.site_names)
    if core.casefold() == declared.casefold():
        return None
    return next((h for h in (normalize_space(h) for k, h in c.headings if k in _HEADLINE_KINDS)
                 if h.casefold() == core.casefold()), None)


#: Heading kinds that print a headline: an h3 or a plain line printing the declared title
#: without a name beside it is a card or a variant's label ("Royal Black" under "Ridge
#: Wallet - Royal Black"), not the headline.
_HEADLINE_KINDS = ("h1", "h2", "headline")


@dataclass(frozen=True, slots=True)
class _TitleView:
    """``<title>`` and the page's headings as the steps after the declared titles compare
    them (a page without a declared title the page shows)."""

    #: ``<title>`` with spaces normalised.
    whole: str
    #: ``<title>`` without the site's name.
    doc: str
    #: (kind, text) of the headings short enough to be titles, in document order.
    headings: list[tuple[str, str]]
    #: ``<title>`` cut at its separators.
    segments: list[str]
    #: The segments long enough to be the headline itself (not the last, the site's place).
    long_segments: list[str]
    #: Declared and meta titles without the site's name (those not the site's name alone).
    metas: list[str]


def _view(c: TitleCandidates) -> _TitleView:
    whole = normalize_space(c.doc_title)
    metas = [strip_site_name(t, c.site_names)
             for t in (*c.declared_titles, *c.meta_titles) if normalize_space(t)]
    headings = [(k, h) for k, h in ((k, normalize_space(h)) for k, h in c.headings)
                if h and len(h) <= MAX_TITLE_CHARS]
    # Paper 003 compares headings with ``<title>``; its long segments count too, so that a
    # heading equal to "Headline" matches "Site - Headline - Section | Subsection". The last
    # segment is left out: it is where titles put the site's name, which logos repeat.
    segments = [p.strip() for p in SEPARATOR.split(whole) if p.strip()]
    long_segments = [p for p in segments[:-1] if word_count(p) >= MIN_SEGMENT_WORDS
                     and not is_site_name(p, c.site_names)]
    return _TitleView(whole=whole, doc=strip_site_name(c.doc_title or "", c.site_names),
                      headings=headings, segments=segments, long_segments=long_segments,
                      metas=[t for t in metas if not is_site_name(t, c.site_names)])


def _named_h1_under_site_title(v: _TitleView, c: TitleCandidates) -> str | None:
    """``<title>`` is the site's name alone: the page's first h1 naming something else is the
    headline, however short ("Red-hot frontrunners"), before meta titles that copy the site's
    name with a slogan."""
    folded = v.whole.casefold()
    keywords = folded.count(",") >= MIN_KEYWORD_COMMAS
    if not folded or not (DOMAIN.match(folded) or any(
            "." in n and abbreviates(folded, n, any_rest=keywords) for n in c.site_names)):
        return None
    named = [h for k, h in v.headings if k in STRONG_KINDS and word_count(h) >= MIN_WORDS_NAMED_H1
             and not is_site_name(h, c.site_names)]
    return named[0] if named else None


def _h1_of_first_segment(v: _TitleView, c: TitleCandidates) -> str | None:
    """"Headline - Site" with the page's one h1 printing exactly "Headline": the h1 is the
    headline however short it is (Sim to the whole ``<title>`` may favour a longer heading)."""
    h1s = [h for kind, h in v.headings if kind == "h1"]
    if len(v.segments) >= 2 and len(h1s) == 1 and h1s[0].casefold() == v.segments[0].casefold() \
            and not is_site_name(h1s[0], c.site_names):  # not the logo of "Site » Headline"
        return h1s[0]
    return None


def _story_under_section(v: _TitleView, c: TitleCandidates) -> str | None:
    """"cbs4denver.com - Sports Wire" over an h1 "Sports Wire": ``<title>`` names the host and
    a section that the h1 prints, as on the section's own page; the headline-long heading
    right under that h1 is the story's (a wire story in its section's template)."""
    section = _section_of_host(c)
    if section is None:
        return None
    after = [h for h in v.headings[section + 1:][:1] if word_count(h[1]) >= MIN_HEADLINE_WORDS
             and h[0] in HEADING_KINDS_UNDER_SECTION]
    return after[0][1] if after else None


def _most_like_title(v: _TitleView, c: TitleCandidates) -> str | None:
    """Paper 003's choice: the heading with the highest Sim (2*LCS/(|a|+|b|)) to ``<title>``
    (whole, undecorated, its long segments, the meta titles), if at least
    ``MIN_HEADING_SIMILARITY``; without its decoration, or in the metadata's exact wording."""
    references = [r for r in (v.whole, v.doc, *v.long_segments, *v.metas) if r]
    best, best_sim = None, 0.0
    for _kind, h in v.headings:
        s = max((similarity(h, r) for r in references), default=0.0)
        if s > best_sim + 1e-9:
            best, best_sim = h, s
    if best is None or best_sim < MIN_HEADING_SIMILARITY:
        return None
    best = undecorated(best, [v.doc, longest_part(v.doc), *v.metas,
                               *strict_parts(c.doc_title)])
    # The publisher's metadata headline, when it is the same text, keeps its exact wording
    # (a meta title copying ``<title>`` is no other wording: "Clips: Headline" where the page
    # prints "Headline").
    doc_whole = v.whole.casefold()
    for m in (strip_site_name(t, c.site_names) for t in (*c.declared_titles, *c.meta_titles)
              if normalize_space(t) and normalize_space(t).casefold() != doc_whole):
        if similarity(m, best) >= SAME_TITLE_SIMILARITY and len(m) >= len(best):
            return m
    return best


def _shared_title(c: TitleCandidates) -> str | None:
    """No declared title, and none of the page's headings is like ``<title>``: the title the
    page gives its share links is what it calls itself (a site-name ``<title>``, a "Bookmark
    with:" heading are not)."""
    shared = strip_site_name(normalize_space(c.shared_title), c.site_names)
    if shared and not is_site_name(shared, c.site_names):
        return shared
    return None


def _strong_heading(v: _TitleView, c: TitleCandidates) -> str | None:
    """``<title>`` resembles no heading: it names the site or section ("New York Post Online
    Edition: Breaking News"), and a long h1 or headline-marked element is the headline."""
    # A logo heading ("Archive of Our Own beta") repeats a short (site) part of ``<title>``.
    short_segments = [p for p in v.segments if p not in v.long_segments]
    headings = v.headings
    strong = [h for k, h in headings if k in STRONG_KINDS and word_count(h) >= MIN_HEADLINE_WORDS
              and not is_site_name(h, c.site_names)
              and not any(similarity(h, seg) >= MIN_HEADING_SIMILARITY for seg in short_segments)]
    if not strong and len(headings) == 1 and word_count(headings[0][1]) >= MIN_HEADLINE_WORDS \
            and any(is_site_name(p, c.site_names) for p in v.segments) \
            and not is_site_name(headings[0][1], c.site_names) \
            and not any(similarity(headings[0][1], seg) >= MIN_HEADING_SIMILARITY
                        for seg in short_segments):
        # A page whose one heading (no h1) is headline-long, under a ``<title>`` of the site's
        # name and a section: that heading titles the page, whatever its level (a table
        # layout's "<h3> Blues rout Jackets </h3>"). (Under a ``<title>`` without the site's
        # name, a lone h2 may be a widget's: "Subscribe to our newsletter".)
        strong = [headings[0][1]]
    return undecorated(strong[0], [v.doc, longest_part(v.doc)]) if strong else None


def _cut_title(v: _TitleView, c: TitleCandidates) -> str | None:
    """The last resort: ``<title>`` cut at a separator (without one, a headline-long heading)."""
    doc = v.doc
    if not doc:
        long_enough = [h for _k, h in v.headings if word_count(h) >= MIN_HEADLINE_WORDS]
        return (long_enough or [h for _k, h in v.headings] or [None])[0]
    # "Headline-Section-Site" cut with bare hyphens, which headlines also use ("Kyung-ju"):
    # the cut whose left part the URL slug spells is the headline.
    for m in re.finditer(r"(?<=\S)-(?=\S)", doc):
        if slug_spells(doc[:m.start()], c.url_words):
            return doc[:m.start()]
    cuts = title_cuts(doc)
    if cuts and v.headings:
        kept, s = max(((k, max(similarity(k, h) for _k, h in v.headings)) for k, _d in cuts),
                      key=lambda t: t[1])
        if s >= MIN_HEADING_SIMILARITY and word_count(kept) >= 2:
            return kept
    return longest_part(doc)


def _shown_as(text: str, c: TitleCandidates) -> str | None:
    """The heading or ``<title>`` part that reads as ``text`` (at least
    ``SAME_TITLE_SIMILARITY`` alike, most alike first), or None."""
    text = strip_site_name(_TAG.sub("", text), c.site_names)
    shown = [normalize_space(h) for _k, h in c.headings] + title_segments(c.doc_title) + \
        strict_parts(c.doc_title)
    scored = [(similarity(text, t), t) for t in shown if t and not is_site_name(t, c.site_names)]
    best = max(scored, default=(0.0, None), key=lambda st: st[0])
    return best[1] if best[0] >= SAME_TITLE_SIMILARITY else None


_TAG = re.compile(r"<[^>]{1,40}>")


#: Heading levels that may hold the story's headline under a section's h1.
HEADING_KINDS_UNDER_SECTION = ("h2", "h3")


def _section_of_host(c: TitleCandidates) -> int | None:
    """Index in ``c.headings`` of the h1 printing the section of a ``<title>`` made of a host
    name and a section of at most ``MAX_NAME_DECORATION_WORDS`` words, else None."""
    parts = strict_parts(c.doc_title)
    if len(parts) != 2 or sum(bool(DOMAIN.match(p)) for p in parts) != 1:
        return None
    section = next(p for p in parts if not DOMAIN.match(p)).casefold()
    if word_count(section) > MAX_NAME_DECORATION_WORDS:
        return None
    headings = [(k, normalize_space(h)) for k, h in c.headings]
    headings = [(k, h) for k, h in headings if h and len(h) <= MAX_TITLE_CHARS]
    return next((i for i, (k, h) in enumerate(headings)
                 if k == "h1" and h.casefold() == section), None)


def title_declared(title: str | None, c: TitleCandidates) -> bool:
    """Whether more than ``<title>`` names ``title``: a declared or meta title, the page's share
    links or its URL slug (``<title>`` alone may be the site's or a section's name)."""
    if not title:
        return False
    if slug_spells(title, c.url_words):
        return True
    others = (*c.declared_titles, *c.meta_titles, c.shared_title or "")
    return any(similarity(title, strip_site_name(t, c.site_names)) >= MIN_HEADING_SIMILARITY
               for t in others if normalize_space(t))


def title_agrees(title: str | None, c: TitleCandidates) -> bool:
    """Whether ``title`` is like ``<title>`` (whole, undecorated, or a long segment of it) or a
    declared title, and is not the site's name: evidence that it is the headline, not a logo
    or section name."""
    if not title:
        return False
    if any(normalize_space(t).casefold() == title.casefold() for t in c.declared_titles):
        return True  # the publisher's own headline (even when a site-name tag repeats it)
    if is_site_name(title, c.site_names):
        return False
    if slug_spells(title, c.url_words):
        return True
    doc = normalize_space(c.doc_title)
    segments = [p for p in title_segments(doc)
                if word_count(p) >= MIN_SEGMENT_WORDS and not is_site_name(p, c.site_names)]
    references = [r for r in (doc, strip_site_name(doc, c.site_names), *segments,
                              *c.declared_titles, *c.meta_titles, c.shared_title)
                  if normalize_space(r)]
    if any(similarity(title, r) >= MIN_HEADING_SIMILARITY for r in references):
        return True
    # An h1 the chooser took as printing the headline (``_printed_headline``: like the
    # declared title or ``<title>``, leading ``<title>`` before a separator, or naming what
    # one part of it spells out) has the same evidence here.
    h1s = {clean_heading(normalize_space(h)).casefold() for k, h in c.headings if k == "h1"}
    return title.casefold() in h1s and (
        leads(title, references) or
        (word_count(title) >= MIN_WORDS_NAMED_H1 and names_within(title, references)) or
        any(similarity(title, r) >= PRINTED_H1_SIMILARITY for r in references))
