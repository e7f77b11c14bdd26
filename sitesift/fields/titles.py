"""The article headline, chosen among metadata titles, on-page headings and ``<title>``.

``<title>`` nearly always names the article, but decorated with the site name ("Headline |
Site", "Headline_新浪网"). Headings (``<h1>``...) show the headline as printed, but pages also
use them for logos and section names. Paper 003's rule settles it: among the candidates, the
one most similar to the ``<title>`` text (Sim = 2*LCS/(|a|+|b|)) is the headline. Metadata
titles (JSON-LD headline, og:title) join the candidates; a publisher's own headline is preferred
when it agrees with the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from urllib.parse import unquote, urlsplit

from rapidfuzz.distance import Indel

__all__ = ["TitleCandidates", "choose_title", "normalize_space", "similarity", "slug_words",
           "strip_site_name", "title_agrees", "title_declared", "title_segments"]

#: A heading must be at least this similar to the (undecorated) ``<title>`` to be the headline:
#: below it, the heading is a section name or logo, not the article's headline.
MIN_HEADING_SIMILARITY = 0.6
#: A metadata title this similar to the chosen heading is taken to be the same headline.
SAME_TITLE_SIMILARITY = 0.9
#: A title segment holding the site name with at most this many more characters still names
#: the site ("The Star Online" for "thestar").
SITE_NAME_SLACK = 12
#: A ``<title>`` segment with at least this many words may be the headline itself (shorter
#: ones are site or section names, and match section headings by chance).
MIN_SEGMENT_WORDS = 4
#: The undecorated core keeps at least this share of the decorated text (shorter: a phrase of
#: the headline, not the headline without decoration).
MIN_CORE_SHARE = 0.4
#: Most words of decoration (site, section, date) around a headline in a heading or title.
MAX_DECORATION_WORDS = 5
#: A declared title at least this similar to ``<title>`` or a heading is shown by the page.
DECLARED_AGREEMENT = 0.5
#: An h1 at least this similar to a declared title or ``<title>`` prints the headline
#: (chosen on modern-dev half a: 0.4 / 0.5 / 0.6 / 0.7 gave title exact 0.741 / 0.733 / 0.718 /
#: 0.674 there, 0.5 costing no readability-meta page that 0.4 keeps).
PRINTED_H1_SIMILARITY = 0.5
#: An h1 that a title starts with, before a separator, counts as this similar to it.
LEADING_H1_SIMILARITY = 0.99
#: Headings longer than this are paragraphs styled as headings.
MAX_TITLE_CHARS = 300
#: A segment cut from ``<title>`` is dropped as site decoration only if what remains has at least
#: this many characters (short remains are more likely a cut headline than a headline).
MIN_REMAINING_CHARS = 8

#: Separators between headline and site name in ``<title>``: spaced dashes, bars, colons, etc.,
#: and unspaced bars or underscores (common on Chinese sites: "标题_新浪网").
_SPLIT = (r"\s+[|\-–—:·•»>/~*]{1,2}\s+|\s*[|｜_]{1,2}\s*|\s*[-—–]{2,}\s*|\s+-(?=\S)|"
          r"(?<=\S)-\s+|\s*::\s*")
_SEPARATOR_STRICT = re.compile(_SPLIT)
#: For stripping a known site name, "Site: Headline" counts too.
_SEPARATOR = re.compile(_SPLIT + r"|:\s+")
#: A title part that is a host name ("CNN.com", "www.example.org") names the site.
_DOMAIN = re.compile(r"^(?:www\.)?[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|info|biz|co|gov|edu|[a-z]{2})"
                     r"(?:\.[a-z]{2})?$", re.IGNORECASE)
#: Heading kinds by how likely they hold the headline when ``<title>`` does not help.
STRONG_KINDS = ("h1", "headline")
#: Without ``<title>`` agreement, a heading needs this many words (or CJK characters / 2)
#: to be taken as the headline: logos and section names are shorter.
MIN_HEADLINE_WORDS = 4


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


def normalize_space(text: str | None) -> str:
    return " ".join((text or "").split())


def similarity(a: str, b: str) -> float:
    """Paper 003's Sim(I, J) = 2 * LCS(I, J) / (|I| + |J|), case-folded (rapidfuzz's Indel
    similarity is exactly this)."""
    return Indel.normalized_similarity(a.casefold(), b.casefold())


_sim = similarity


def _segments(title: str) -> list[tuple[str, str]]:
    """(kept part, dropped part) for every cut of ``title`` at one separator."""
    cuts = []
    for m in _SEPARATOR.finditer(title):
        left, right = title[:m.start()].strip(), title[m.end():].strip()
        if left and right:
            cuts.append((left, right))
            cuts.append((right, left))
    return cuts


#: Under a ``<title>`` naming only the site, an h1 of this many words is the headline (one
#: word is a section: "News", "Forums").
MIN_WORDS_NAMED_H1 = 2
#: A ``<title>`` with this many commas is a list of keywords (a headline has one or two):
#: starting with the site's name, it names the site as that name alone does.
MIN_KEYWORD_COMMAS = 3
#: A host label spells a name from its words' starts only with at least this many letters
#: (shorter ones spell many phrases by chance).
MIN_ABBREVIATION_CHARS = 4


def _abbreviates(part: str, host: str, *, any_rest: bool = False) -> bool:
    """Whether the first label of ``host`` is spelled by the starts of consecutive words of
    ``part``, all of them but a leading "The" and one trailing word ("tios" for "The
    Independent on Saturday", "calsun" for "The Calgary Sun online"): the site's name, which
    host names abbreviate so. ``any_rest``: any words may follow the name."""
    label = host.removeprefix("www.").split(".")[0].casefold()
    words = [w for w in re.findall(r"[^\W_]+", part.casefold())]
    if len(label) < MIN_ABBREVIATION_CHARS or not label.isalpha() or len(words) < 2:
        return False

    def spell(i: int, j: int) -> bool:  # label[i:] from words[j:], word j started
        if i == len(label):
            return any_rest or len(words) - j <= 1
        if j == len(words):
            return False
        w = words[j]
        return any(label[i:i + n] == w[:n] and spell(i + n, j + 1)
                   for n in range(min(len(w), len(label) - i), 0, -1))

    return spell(0, 0) or (words[0] == "the" and spell(0, 1))


def _is_site_name(part: str, site_names: Iterable[str]) -> bool:
    """Whether one segment of a title is the site's name (a host name counts)."""
    if _DOMAIN.match(part):
        return True
    if _SEPARATOR_STRICT.search(part):
        return False
    # Compared without spaces: host names drop them ("Press TV" is presstv.ir).
    folded = part.casefold().replace(" ", "")
    for name in site_names:
        name = name.casefold().replace(" ", "")
        if not name:
            continue
        if folded == name or _sim(folded, name) >= SAME_TITLE_SIMILARITY:
            return True
        if len(folded) >= 3 and (folded in name or (
                name in folded and len(folded) <= len(name) + SITE_NAME_SLACK)):
            return True
    return False


_PARENTHESIZED = re.compile(r"\s*\((?:from\s+)?([^()]{3,60})\)$", re.IGNORECASE)


def _holds_host(part: str, site_names: Iterable[str]) -> bool:
    """Whether ``part`` written without spaces holds the first label of the page's host name
    ("The Korea Times" for koreatimes.co.kr)."""
    folded = part.casefold().replace(" ", "")
    return any(len(label) >= MIN_ABBREVIATION_CHARS and label in folded
               for label in (n.casefold().removeprefix("www.").split(".")[0]
                             for n in site_names if "." in n))


def strip_site_name(title: str, site_names: Iterable[str] = ()) -> str:
    """``title`` without site decoration: a known site name, else the shorter side of the last
    separator when the longer side is clearly the headline."""
    title = normalize_space(title)
    names = [n for n in site_names if n]
    for name in names:
        # A host name before the headline needs no separator ("davidbau.com Vibe Coding"):
        # it is the site's logo text, never the start of a headline's sentence.
        rest = title[len(name):]
        if _DOMAIN.match(name) and title.casefold().startswith(name.casefold()) \
                and rest[:1].isspace() and not _SEPARATOR.match(rest) \
                and len(rest.strip()) >= MIN_REMAINING_CHARS:
            title = rest.strip()
            break
    # "Headline(The Korea Times)", "Headline (from The Herald )": the site's name in
    # parentheses at the end.
    m = _PARENTHESIZED.search(title)
    if m and m.start() >= MIN_REMAINING_CHARS and _WORD.search(m.group(1)) and (
            _is_site_name(m.group(1).strip(), names) or _holds_host(m.group(1), names)):
        title = title[:m.start()].rstrip()
    changed = True
    while changed:
        changed = False
        for m in list(_SEPARATOR.finditer(title))[::-1]:
            left, right = title[:m.start()].strip(), title[m.end():].strip()
            if not left or not right:
                continue
            if _is_site_name(right, names) and len(left) >= MIN_REMAINING_CHARS:
                title, changed = left, True
                break
            if _is_site_name(left, names) and len(right) >= MIN_REMAINING_CHARS:
                title, changed = right, True
                break
    return title


def title_segments(title: str | None) -> list[str]:
    """The pieces of ``title`` between separators (headline, section, site name...)."""
    return [p.strip() for p in _SEPARATOR.split(normalize_space(title)) if p.strip()]


def _longest_part(title: str) -> str:
    """The longest piece between separators: the headline when nothing else is known."""
    parts = [p.strip() for p in _SEPARATOR_STRICT.split(title) if p and p.strip()]
    if len(parts) < 2:
        return title
    best = max(parts, key=len)
    # A title cut into many short pieces ("A - B - C") is more likely one headline with dashes.
    if len(best) < MIN_REMAINING_CHARS or len(best) * 2 < len(title) - len(best) * 0.5:
        return title
    return best


def _undecorated(best: str, others: Iterable[str]) -> str:
    """``best`` without decoration another candidate lacks: "Wednesday, 09 January 2008
    Headline" or "Site.com | Sports | Headline" become "Headline" when "Headline" is also a
    candidate."""
    folded = best.casefold()
    core = best
    for other in others:
        if not other or len(other) < MIN_REMAINING_CHARS or len(other) >= len(core) or \
                len(other) < MIN_CORE_SHARE * len(best):
            continue
        if other.casefold() in folded:
            rest = folded.replace(other.casefold(), " ", 1)
            if (_SEPARATOR.search(" " + rest + " ") or re.search(r"\d", rest)) and \
                    len(_WORD.findall(rest)) <= MAX_DECORATION_WORDS:
                core = other
    return core


_WORD = re.compile(r"[^\W\d_]+")


def _strict_parts(title: str | None) -> list[str]:
    """Pieces of ``title`` between strict separators (not colons, which headlines use)."""
    return [p.strip() for p in _SEPARATOR_STRICT.split(normalize_space(title)) if p.strip()]


def _agrees(declared: str, text: str) -> bool:
    """Whether the page shows ``declared`` (a heading or ``<title>`` similar to it or holding
    it): a declared title matching nothing on the page is a section or campaign name."""
    a, b = declared.casefold(), text.casefold()
    return a in b or (b in a and len(b) >= MIN_REMAINING_CHARS) or \
        _sim(a, b) >= DECLARED_AGREEMENT


def _words(text: str) -> int:
    cjk = sum(1 for ch in text if "\u3400" <= ch <= "\u9fff" or "\u3040" <= ch <= "\u30ff")
    return len(text.split()) + cjk // 2


def _leads(h1: str, references: Iterable[str]) -> bool:
    """Whether a reference title starts with ``h1`` and goes on past a separator: "Kayaks |
    REI Co-op", "Flexbox - Learn web development | MDN" print the h1 and then decorate it."""
    folded = h1.casefold()
    for ref in references:
        r = ref.casefold()
        rest = r[len(folded):]
        if r.startswith(folded) and rest and _SEPARATOR.match(" " + rest + " ") is not None:
            return True
        # "Headline, deck - Site": some CMSs join the headline and the deck printed under it
        # with a comma; a headline-long h1 (a short one may be the first item of a list,
        # "Kayaks, Canoes and Paddles") ends at that comma.
        if r.startswith(folded) and re.match(r"\s*,\s", rest) and \
                _words(h1) >= MIN_HEADLINE_WORDS:
            return True
    return False


#: Words of the name a declared title adds to the h1 for it to count as decoration: site and
#: section names have 1-3 ("| Clay", "| MIT Sloan", "- Freightwaves Checkpoint", "Garnix
#: Blog:" on modern-dev half a), while a product's variant ("- Natural Grey (Light Grey
#: Sole)", 5) or a page before a book's name ("Plan and intended audience |", 4) is not one.
MAX_NAME_DECORATION_WORDS = 3


def _decorates(h1: str, declared: str, site_names: Iterable[str] = ()) -> bool:
    """Whether ``declared`` is ``h1`` with a short name added before or after a separator
    ("Trail 25 Pack | REI Co-op", "Garnix Blog: Hardware-Attested Nix Builds")."""
    folded, d = h1.casefold(), declared.casefold()
    if d.startswith(folded):
        rest = d[len(folded):]
        m = _SEPARATOR.match(rest)
        extra = rest[m.end():] if m else ""
    elif d.endswith(folded):
        rest = d[:len(d) - len(folded)]
        m = _SEPARATOR.search(rest)
        extra = rest[:m.start()] if m and m.end() == len(rest) else ""
    else:
        return False
    # A logo h1 decorates nothing: the headline is longer than the name beside it, unless
    # that name is the site's own ("Shop | JOCO Cups"), when the h1 cannot be the logo.
    return bool(extra.strip()) and _words(extra) <= MAX_NAME_DECORATION_WORDS \
        and (_words(extra) < _words(h1) or _is_site_name(extra.strip(), site_names))


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
                or _is_site_name(h, c.site_names):
            continue
        s = max((_sim(h, r) for r in refs), default=0.0)
        if _leads(h, refs):
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
#: part of the headline.
_PERMALINK = re.compile(r"\s*[¶§#]$")
#: A chapter or lesson number before a heading ("3.1 Git Branching", "15 - Tutorial: ..."):
#: the heading's place in a book or course, which its ``<title>`` and declared titles leave out.
#: A bare number followed by words ("10 Things I Wish...") counts the items and stays, and so
#: does a year before a separator ("2024 - Pros & Cons ...": four digits are not a section).
_SECTION_NUMBER = re.compile(r"^\d+(?:\.\d+)+\.?\s+(?=\w)|^\d{1,3}\s+[-–—:]\s+(?=\w)")


#: Trademark signs after a brand ("Crusher® ANC 2"): marks of the brand, which the page's
#: ``<title>`` and metadata leave out; no gold title of modern-dev, readability-meta or
#: l3s-gn1 keeps one.
_TRADEMARK = re.compile(r"(?<=\w)[®™]")


#: A URL path segment spelling at least this many words is a slug made from the headline.
MIN_SLUG_WORDS = 3
#: A heading is the one the slug spells when at least this share of its words are in the slug
#: and of the slug's words are in it (slugs drop function words and may be cut short).
MIN_SLUG_COVERAGE = 0.75
#: A slug outvotes the h1 like ``<title>`` only with at least this many words: three-word
#: segments are as often a section's path ("latest-national-sport", "mental-health-trends":
#: the two pages of l3s-gn1 and modern-dev half a that 3 loses, against one gained by 4).
MIN_SLUG_WORDS_OVER_H1 = 4
_SLUG_SPLIT = re.compile(r"[-_+.~,]+|%20")
_SLUG_WORD = re.compile(r"[^\W_]+")
#: Function words a slug may leave out.
_SLUG_STOP = frozenset(("a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "is",
                        "by", "with", "as", "s"))


def slug_words(url: str | None) -> tuple[str, ...]:
    """The words of the URL path segment that spells the most words (at least
    ``MIN_SLUG_WORDS``; "Sacred_Heart_wins_debut_as_No__1.htm"), lower-cased; () without one.
    CMSs make that segment from the headline when the story is published."""
    if not url:
        return ()
    path = urlsplit(url).path
    best: list[str] = []
    for segment in path.split("/"):
        segment = re.sub(r"\.[a-z]{2,5}$", "", unquote(segment), flags=re.IGNORECASE)
        words = [w for w in _SLUG_SPLIT.split(segment.casefold()) if w and not w.isdigit()]
        if len(words) > len(best) and all(_SLUG_WORD.fullmatch(w) for w in words):
            best = words
    return tuple(best) if len(best) >= MIN_SLUG_WORDS else ()


def _slug_spells(text: str, url_words: tuple[str, ...]) -> bool:
    """Whether the URL slug ``url_words`` spells ``text`` (apostrophes dropped: "Wilson's"
    is "wilsons" in a slug)."""
    if not url_words:
        return False
    words = [w for w in _SLUG_WORD.findall(re.sub(r"['’‘]", "", text.casefold()))
             if w not in _SLUG_STOP]
    slug = [w for w in url_words if w not in _SLUG_STOP]
    if not words or not slug:
        return False
    in_slug = sum(w in url_words for w in words) / len(words)
    in_text = sum(w in words for w in slug) / len(slug)
    return min(in_slug, in_text) >= MIN_SLUG_COVERAGE


def _clean_heading(text: str) -> str:
    return _SECTION_NUMBER.sub("", _PERMALINK.sub("", _TRADEMARK.sub("", text))) or text


def choose_title(c: TitleCandidates) -> str | None:
    """The headline of the page, or None when it names nothing."""
    c = replace(c, headings=tuple((k, _clean_heading(normalize_space(h))) for k, h in c.headings))
    title = _choose(c)
    if not title:
        return title
    if _ELLIPSIS.search(title):
        # A title cut short for sharing ("... the trend in the watch..."): the heading or
        # ``<title>`` it was cut from is the whole headline.
        stem = _ELLIPSIS.sub("", title).casefold()
        for text in (*(h for k, h in c.headings if k == "h1"), *_strict_parts(c.doc_title)):
            full = normalize_space(text)
            if len(full) > len(stem) and full.casefold().startswith(stem):
                title = full
                break
    return _MARKDOWN_HEADING.sub("", title) or title


def _choose(c: TitleCandidates) -> str | None:
    """The headline by the first step that settles it, most trusted evidence first: the
    publisher's declared titles, the URL's slug, paper 003's Sim to ``<title>``, then what is
    left (meta titles, share links, headline-long headings, ``<title>`` cut at a separator)."""
    declared = _declared_on_page(c)
    whole = normalize_space(c.doc_title).casefold()
    if all(t.casefold() == whole for t in declared):
        printed = _printed_over_copy(declared, c)
        if printed is not None:
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
    declared = [t for t in declared if not _is_site_name(t, c.site_names)
                and len(t) <= MAX_TITLE_CHARS]
    page_texts = [normalize_space(c.doc_title)] + [normalize_space(h) for _k, h in c.headings]
    return [t for t in declared if any(_agrees(t, p) for p in page_texts if p)]


def _slug_headings(c: TitleCandidates) -> list[str]:
    """The headings the URL's slug spells, in document order."""
    return [normalize_space(h) for _k, h in c.headings
            if _slug_spells(normalize_space(h), c.url_words)]


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
            and not _slug_spells(printed, c.url_words):
        # The URL's slug spells another heading: the CMS made the slug from that headline,
        # and the h1 only shares words with ``<title>`` (a site's name printed as a logo).
        return spelled[0]
    # An h1 printing a date or a section beside the headline ("Headline (14/01/2008)",
    # "Headline - Men's College Basketball") when the page also prints the headline alone
    # (another h1, a ``<title>`` part printed as a line): that one is the headline. (Parts of
    # ``<title>`` the page does not print are no evidence: a printed "Tutorial: Sweep, Loft,
    # and Extrude" is the headline of its page.)
    return _undecorated(printed, [normalize_space(h) for k, h in c.headings
                                  if k in ("h1", "line")])


def _declared_or_its_h1(declared: list[str], c: TitleCandidates) -> str:
    """The first declared title, or the h1 it decorates with the site's or section's name."""
    # A declared title that is the page's h1 plus a separator and more ("Kayaks | REI
    # Co-op", "Garnix Blog: Attested Builds") is the printed headline decorated with the
    # site's or section's name: the h1 is the headline.
    for kind, h in c.headings:
        h = normalize_space(h)
        if kind == "h1" and h and _decorates(h, declared[0], c.site_names) and not any(
                h.casefold() == n.casefold() for n in c.site_names):
            return h
    # The publisher's declared title (JSON-LD headline, Dublin Core, Open Graph) is taken
    # as written: it is the title the page gives itself for sharing and indexing.
    return declared[0]


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
    segments = [p.strip() for p in _SEPARATOR.split(whole) if p.strip()]
    long_segments = [p for p in segments[:-1] if _words(p) >= MIN_SEGMENT_WORDS
                     and not _is_site_name(p, c.site_names)]
    return _TitleView(whole=whole, doc=strip_site_name(c.doc_title or "", c.site_names),
                      headings=headings, segments=segments, long_segments=long_segments,
                      metas=[t for t in metas if not _is_site_name(t, c.site_names)])


def _named_h1_under_site_title(v: _TitleView, c: TitleCandidates) -> str | None:
    """``<title>`` is the site's name alone: the page's first h1 naming something else is the
    headline, however short ("Red-hot frontrunners"), before meta titles that copy the site's
    name with a slogan."""
    folded = v.whole.casefold()
    keywords = folded.count(",") >= MIN_KEYWORD_COMMAS
    if not folded or not (_DOMAIN.match(folded) or any(
            "." in n and _abbreviates(folded, n, any_rest=keywords) for n in c.site_names)):
        return None
    named = [h for k, h in v.headings if k in STRONG_KINDS and _words(h) >= MIN_WORDS_NAMED_H1
             and not _is_site_name(h, c.site_names)]
    return named[0] if named else None


def _h1_of_first_segment(v: _TitleView, c: TitleCandidates) -> str | None:
    """"Headline - Site" with the page's one h1 printing exactly "Headline": the h1 is the
    headline however short it is (Sim to the whole ``<title>`` may favour a longer heading)."""
    h1s = [h for kind, h in v.headings if kind == "h1"]
    if len(v.segments) >= 2 and len(h1s) == 1 and h1s[0].casefold() == v.segments[0].casefold() \
            and not _is_site_name(h1s[0], c.site_names):  # not the logo of "Site » Headline"
        return h1s[0]
    return None


def _story_under_section(v: _TitleView, c: TitleCandidates) -> str | None:
    """"cbs4denver.com - Sports Wire" over an h1 "Sports Wire": ``<title>`` names the host and
    a section that the h1 prints, as on the section's own page; the headline-long heading
    right under that h1 is the story's (a wire story in its section's template)."""
    section = _section_of_host(c)
    if section is None:
        return None
    after = [h for h in v.headings[section + 1:][:1] if _words(h[1]) >= MIN_HEADLINE_WORDS
             and h[0] in HEADING_KINDS_UNDER_SECTION]
    return after[0][1] if after else None


def _most_like_title(v: _TitleView, c: TitleCandidates) -> str | None:
    """Paper 003's choice: the heading with the highest Sim (2*LCS/(|a|+|b|)) to ``<title>``
    (whole, undecorated, its long segments, the meta titles), if at least
    ``MIN_HEADING_SIMILARITY``; without its decoration, or in the metadata's exact wording."""
    references = [r for r in (v.whole, v.doc, *v.long_segments, *v.metas) if r]
    best, best_sim = None, 0.0
    for _kind, h in v.headings:
        s = max((_sim(h, r) for r in references), default=0.0)
        if s > best_sim + 1e-9:
            best, best_sim = h, s
    if best is None or best_sim < MIN_HEADING_SIMILARITY:
        return None
    best = _undecorated(best, [v.doc, _longest_part(v.doc), *v.metas,
                               *_strict_parts(c.doc_title)])
    # The publisher's metadata headline, when it is the same text, keeps its exact wording
    # (a meta title copying ``<title>`` is no other wording: "Clips: Headline" where the page
    # prints "Headline").
    doc_whole = v.whole.casefold()
    for m in (strip_site_name(t, c.site_names) for t in (*c.declared_titles, *c.meta_titles)
              if normalize_space(t) and normalize_space(t).casefold() != doc_whole):
        if _sim(m, best) >= SAME_TITLE_SIMILARITY and len(m) >= len(best):
            return m
    return best


def _shared_title(c: TitleCandidates) -> str | None:
    """No declared title, and none of the page's headings is like ``<title>``: the title the
    page gives its share links is what it calls itself (a site-name ``<title>``, a "Bookmark
    with:" heading are not)."""
    shared = strip_site_name(normalize_space(c.shared_title), c.site_names)
    if shared and not _is_site_name(shared, c.site_names):
        return shared
    return None


def _strong_heading(v: _TitleView, c: TitleCandidates) -> str | None:
    """``<title>`` resembles no heading: it names the site or section ("New York Post Online
    Edition: Breaking News"), and a long h1 or headline-marked element is the headline."""
    # A logo heading ("Archive of Our Own beta") repeats a short (site) part of ``<title>``.
    short_segments = [p for p in v.segments if p not in v.long_segments]
    headings = v.headings
    strong = [h for k, h in headings if k in STRONG_KINDS and _words(h) >= MIN_HEADLINE_WORDS
              and not _is_site_name(h, c.site_names)
              and not any(_sim(h, seg) >= MIN_HEADING_SIMILARITY for seg in short_segments)]
    if not strong and len(headings) == 1 and _words(headings[0][1]) >= MIN_HEADLINE_WORDS \
            and any(_is_site_name(p, c.site_names) for p in v.segments) \
            and not _is_site_name(headings[0][1], c.site_names) \
            and not any(_sim(headings[0][1], seg) >= MIN_HEADING_SIMILARITY
                        for seg in short_segments):
        # A page whose one heading (no h1) is headline-long, under a ``<title>`` of the site's
        # name and a section: that heading titles the page, whatever its level (a table
        # layout's "<h3> Blues rout Jackets </h3>"). (Under a ``<title>`` without the site's
        # name, a lone h2 may be a widget's: "Subscribe to our newsletter".)
        strong = [headings[0][1]]
    return _undecorated(strong[0], [v.doc, _longest_part(v.doc)]) if strong else None


def _cut_title(v: _TitleView, c: TitleCandidates) -> str | None:
    """The last resort: ``<title>`` cut at a separator (without one, a headline-long heading)."""
    doc = v.doc
    if not doc:
        long_enough = [h for _k, h in v.headings if _words(h) >= MIN_HEADLINE_WORDS]
        return (long_enough or [h for _k, h in v.headings] or [None])[0]
    # "Headline-Section-Site" cut with bare hyphens, which headlines also use ("Kyung-ju"):
    # the cut whose left part the URL slug spells is the headline.
    for m in re.finditer(r"(?<=\S)-(?=\S)", doc):
        if _slug_spells(doc[:m.start()], c.url_words):
            return doc[:m.start()]
    cuts = _segments(doc)
    if cuts and v.headings:
        kept, s = max(((k, max(_sim(k, h) for _k, h in v.headings)) for k, _d in cuts),
                      key=lambda t: t[1])
        if s >= MIN_HEADING_SIMILARITY and _words(kept) >= 2:
            return kept
    return _longest_part(doc)


def _shown_as(text: str, c: TitleCandidates) -> str | None:
    """The heading or ``<title>`` part that reads as ``text`` (at least
    ``SAME_TITLE_SIMILARITY`` alike, most alike first), or None."""
    text = strip_site_name(_TAG.sub("", text), c.site_names)
    shown = [normalize_space(h) for _k, h in c.headings] + title_segments(c.doc_title) + \
        _strict_parts(c.doc_title)
    scored = [(_sim(text, t), t) for t in shown if t and not _is_site_name(t, c.site_names)]
    best = max(scored, default=(0.0, None), key=lambda st: st[0])
    return best[1] if best[0] >= SAME_TITLE_SIMILARITY else None


_TAG = re.compile(r"<[^>]{1,40}>")


#: Heading levels that may hold the story's headline under a section's h1.
HEADING_KINDS_UNDER_SECTION = ("h2", "h3")


def _section_of_host(c: TitleCandidates) -> int | None:
    """Index in ``c.headings`` of the h1 printing the section of a ``<title>`` made of a host
    name and a section of at most ``MAX_NAME_DECORATION_WORDS`` words, else None."""
    parts = _strict_parts(c.doc_title)
    if len(parts) != 2 or sum(bool(_DOMAIN.match(p)) for p in parts) != 1:
        return None
    section = next(p for p in parts if not _DOMAIN.match(p)).casefold()
    if _words(section) > MAX_NAME_DECORATION_WORDS:
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
    if _slug_spells(title, c.url_words):
        return True
    others = (*c.declared_titles, *c.meta_titles, c.shared_title or "")
    return any(_sim(title, strip_site_name(t, c.site_names)) >= MIN_HEADING_SIMILARITY
               for t in others if normalize_space(t))


def title_agrees(title: str | None, c: TitleCandidates) -> bool:
    """Whether ``title`` is like ``<title>`` (whole, undecorated, or a long segment of it) or a
    declared title, and is not the site's name: evidence that it is the headline, not a logo
    or section name."""
    if not title:
        return False
    if any(normalize_space(t).casefold() == title.casefold() for t in c.declared_titles):
        return True  # the publisher's own headline (even when a site-name tag repeats it)
    if _is_site_name(title, c.site_names):
        return False
    if _slug_spells(title, c.url_words):
        return True
    doc = normalize_space(c.doc_title)
    segments = [p for p in title_segments(doc)
                if _words(p) >= MIN_SEGMENT_WORDS and not _is_site_name(p, c.site_names)]
    references = [r for r in (doc, strip_site_name(doc, c.site_names), *segments,
                              *c.declared_titles, *c.meta_titles, c.shared_title)
                  if normalize_space(r)]
    if any(_sim(title, r) >= MIN_HEADING_SIMILARITY for r in references):
        return True
    # An h1 the chooser took as printing the headline (``_printed_headline``: like the
    # declared title or ``<title>``, or leading ``<title>`` before a separator) has the same
    # evidence here.
    h1s = {_clean_heading(normalize_space(h)).casefold() for k, h in c.headings if k == "h1"}
    return title.casefold() in h1s and (
        _leads(title, references) or
        any(_sim(title, r) >= PRINTED_H1_SIMILARITY for r in references))
