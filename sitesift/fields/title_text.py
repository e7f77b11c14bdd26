"""The text of titles: separators, the site's name, the URL's slug, and paper 003's Sim.

What ``titles`` compares candidates with: ``<title>`` cut at its separators ("Headline |
Site", "标题_新浪网"), a part that names the site (its name, a host name, an abbreviation of
the host: "tios" for "The Independent on Saturday") stripped, the words of the URL path segment
a CMS made from the headline, and Sim = 2*LCS/(|a|+|b|) between two texts; and how two
wordings of one headline relate: one decorates the other with a name (``decorates``, ``leads``),
one is the other without decoration (``undecorated``), the page shows a declared one
(``agrees``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit

from rapidfuzz.distance import Indel

__all__ = [
    "DOMAIN", "SEPARATOR", "SEPARATOR_STRICT", "abbreviates", "agrees", "decorates",
    "is_home_page", "is_site_name", "leads", "longest_part", "names_within", "normalize_space",
    "similarity", "slug_spells", "slug_words", "strict_parts", "strip_site_name", "title_cuts",
    "title_segments", "undecorated", "word_count",
]

#: A metadata title this similar to the chosen heading is taken to be the same headline.
SAME_TITLE_SIMILARITY = 0.9
#: A title segment holding the site name with at most this many more characters still names
#: the site ("The Star Online" for "thestar").
SITE_NAME_SLACK = 12
#: A segment cut from ``<title>`` is dropped as site decoration only if what remains has at least
#: this many characters (short remains are more likely a cut headline than a headline).
MIN_REMAINING_CHARS = 8
#: Separators between headline and site name in ``<title>``: spaced dashes, bars, colons, etc.,
#: and unspaced bars or underscores (common on Chinese sites: "标题_新浪网").
_SPLIT = (r"\s+[|\-–—:·•»>/~*]{1,2}\s+|\s*[|｜_]{1,2}\s*|\s*[-—–]{2,}\s*|\s+-(?=\S)|"
          r"(?<=\S)-\s+|\s*::\s*")
SEPARATOR_STRICT = re.compile(_SPLIT)
#: For stripping a known site name, "Site: Headline" counts too.
SEPARATOR = re.compile(_SPLIT + r"|:\s+")
#: A title part that is a host name ("CNN.com", "www.example.org") names the site.
DOMAIN = re.compile(r"^(?:www\.)?[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|info|biz|co|gov|edu|[a-z]{2})"
                     r"(?:\.[a-z]{2})?$", re.IGNORECASE)


def normalize_space(text: str | None) -> str:
    return " ".join((text or "").split())


def similarity(a: str, b: str) -> float:
    """Paper 003's Sim(I, J) = 2 * LCS(I, J) / (|I| + |J|), case-folded (rapidfuzz's Indel
    similarity is exactly this)."""
    return Indel.normalized_similarity(a.casefold(), b.casefold())


def title_cuts(title: str) -> list[tuple[str, str]]:
    """(kept part, dropped part) for every cut of ``title`` at one separator."""
    cuts = []
    for m in SEPARATOR.finditer(title):
        left, right = title[:m.start()].strip(), title[m.end():].strip()
        if left and right:
            cuts.append((left, right))
            cuts.append((right, left))
    return cuts


#: A host label spells a name from its words' starts only with at least this many letters
#: (shorter ones spell many phrases by chance).
MIN_ABBREVIATION_CHARS = 4


def abbreviates(part: str, host: str, *, any_rest: bool = False) -> bool:
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


def is_site_name(part: str, site_names: Iterable[str]) -> bool:
    """Whether one segment of a title is the site's name (a host name counts)."""
    if DOMAIN.match(part):
        return True
    if SEPARATOR_STRICT.search(part):
        return False
    # Compared without spaces: host names drop them ("Press TV" is presstv.ir).
    folded = part.casefold().replace(" ", "")
    for name in site_names:
        name = name.casefold().replace(" ", "")
        if not name:
            continue
        if folded == name or similarity(folded, name) >= SAME_TITLE_SIMILARITY:
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
        if DOMAIN.match(name) and title.casefold().startswith(name.casefold()) \
                and rest[:1].isspace() and not SEPARATOR.match(rest) \
                and len(rest.strip()) >= MIN_REMAINING_CHARS:
            title = rest.strip()
            break
    # "Headline(The Korea Times)", "Headline (from The Herald )": the site's name in
    # parentheses at the end.
    m = _PARENTHESIZED.search(title)
    if m and m.start() >= MIN_REMAINING_CHARS and WORD.search(m.group(1)) and (
            is_site_name(m.group(1).strip(), names) or _holds_host(m.group(1), names)):
        title = title[:m.start()].rstrip()
    changed = True
    while changed:
        changed = False
        for m in list(SEPARATOR.finditer(title))[::-1]:
            left, right = title[:m.start()].strip(), title[m.end():].strip()
            if not left or not right:
                continue
            if is_site_name(right, names) and len(left) >= MIN_REMAINING_CHARS:
                title, changed = left, True
                break
            if is_site_name(left, names) and len(right) >= MIN_REMAINING_CHARS:
                title, changed = right, True
                break
    return title


def title_segments(title: str | None) -> list[str]:
    """The pieces of ``title`` between separators (headline, section, site name...)."""
    return [p.strip() for p in SEPARATOR.split(normalize_space(title)) if p.strip()]


def longest_part(title: str) -> str:
    """The longest piece between separators: the headline when nothing else is known."""
    parts = [p.strip() for p in SEPARATOR_STRICT.split(title) if p and p.strip()]
    if len(parts) < 2:
        return title
    best = max(parts, key=len)
    # A title cut into many short pieces ("A - B - C") is more likely one headline with dashes.
    if len(best) < MIN_REMAINING_CHARS or len(best) * 2 < len(title) - len(best) * 0.5:
        return title
    return best


WORD = re.compile(r"[^\W\d_]+")


def strict_parts(title: str | None) -> list[str]:
    """Pieces of ``title`` between strict separators (not colons, which headlines use)."""
    return [p.strip() for p in SEPARATOR_STRICT.split(normalize_space(title)) if p.strip()]


def word_count(text: str) -> int:
    cjk = sum(1 for ch in text if "\u3400" <= ch <= "\u9fff" or "\u3040" <= ch <= "\u30ff")
    return len(text.split()) + cjk // 2


#: A URL path segment spelling at least this many words is a slug made from the headline.
MIN_SLUG_WORDS = 3
#: A heading is the one the slug spells when at least this share of its words are in the slug
#: and of the slug's words are in it (slugs drop function words and may be cut short).
MIN_SLUG_COVERAGE = 0.75
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


def is_home_page(url: str | None) -> bool:
    """Whether ``url`` is a site's front page: no path beyond "/" and no query ("https://fly.io/";
    "/?fArticleId=..." serves an article)."""
    if not url:
        return False
    parts = urlsplit(url)
    return bool(parts.netloc) and parts.path in ("", "/") and not parts.query


def slug_spells(text: str, url_words: tuple[str, ...]) -> bool:
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


#: The undecorated core keeps at least this share of the decorated text (shorter: a phrase of
#: the headline, not the headline without decoration).
MIN_CORE_SHARE = 0.4
#: Most words of decoration (site, section, date) around a headline in a heading or title.
MAX_DECORATION_WORDS = 5
#: A declared title at least this similar to ``<title>`` or a heading is shown by the page.
DECLARED_AGREEMENT = 0.5
#: Without ``<title>`` agreement, a heading needs this many words (or CJK characters / 2)
#: to be taken as the headline: logos and section names are shorter.
MIN_HEADLINE_WORDS = 4


def undecorated(best: str, others: Iterable[str]) -> str:
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
            if (SEPARATOR.search(" " + rest + " ") or re.search(r"\d", rest)) and \
                    len(WORD.findall(rest)) <= MAX_DECORATION_WORDS:
                core = other
    return core


def agrees(declared: str, text: str) -> bool:
    """Whether the page shows ``declared`` (a heading or ``<title>`` similar to it or holding
    it): a declared title matching nothing on the page is a section or campaign name."""
    a, b = declared.casefold(), text.casefold()
    return a in b or (b in a and len(b) >= MIN_REMAINING_CHARS) or \
        similarity(a, b) >= DECLARED_AGREEMENT


def leads(h1: str, references: Iterable[str]) -> bool:
    """Whether a reference title starts with ``h1`` and goes on past a separator: "Kayaks |
    REI Co-op", "Flexbox - Learn web development | MDN" print the h1 and then decorate it."""
    folded = h1.casefold()
    for ref in references:
        r = ref.casefold()
        rest = r[len(folded):]
        if r.startswith(folded) and rest and SEPARATOR.match(" " + rest + " ") is not None:
            return True
        # "Headline, deck - Site": some CMSs join the headline and the deck printed under it
        # with a comma; a headline-long h1 (a short one may be the first item of a list,
        # "Kayaks, Canoes and Paddles") ends at that comma.
        if r.startswith(folded) and re.match(r"\s*,\s", rest) and \
                word_count(h1) >= MIN_HEADLINE_WORDS:
            return True
    return False


_TITLE_WORD = re.compile(r"\w+")


def names_within(h1: str, references: Iterable[str]) -> bool:
    """Whether every word of ``h1`` is a word of one part of a reference title (between its
    separators) that has more words: "Camp Stoves" in "Camping Stoves: Top Rated Camp Stoves
    | REI Co-op", "T-Shirts & Tops" in "Men's Gym Tops & T-Shirts - Workout shirts from ...".
    A category's or product's page prints the thing's name as its heading and spells it out
    at more length in ``<title>`` for search engines; Sim to the longer part is low only
    because of the length."""
    words = _TITLE_WORD.findall(h1.casefold())
    if not words:
        return False
    for ref in references:
        for part in SEPARATOR.split(ref):
            part_words = _TITLE_WORD.findall(part.casefold())
            if len(part_words) > len(words) and all(w in part_words for w in words):
                return True
    return False


#: Words of the name a declared title adds to the h1 for it to count as decoration: site and
#: section names have 1-3 ("| Clay", "| MIT Sloan", "- Freightwaves Checkpoint", "Garnix
#: Blog:" on modern-dev half a), while a product's variant ("- Natural Grey (Light Grey
#: Sole)", 5) or a page before a book's name ("Plan and intended audience |", 4) is not one.
MAX_NAME_DECORATION_WORDS = 3


def decorates(h1: str, declared: str, site_names: Iterable[str] = ()) -> bool:
    """Whether ``declared`` is ``h1`` with a short name added before or after a separator
    ("Trail 25 Pack | REI Co-op", "Garnix Blog: Hardware-Attested Nix Builds")."""
    folded, d = h1.casefold(), declared.casefold()
    if d.startswith(folded):
        rest = d[len(folded):]
        m = SEPARATOR.match(rest)
        extra = rest[m.end():] if m else ""
    elif d.endswith(folded):
        rest = d[:len(d) - len(folded)]
        m = SEPARATOR.search(rest)
        extra = rest[:m.start()] if m and m.end() == len(rest) else ""
    else:
        return False
    # A logo h1 decorates nothing: the headline is longer than the name beside it, unless
    # that name is the site's own ("Shop | JOCO Cups"), when the h1 cannot be the logo.
    return bool(extra.strip()) and word_count(extra) <= MAX_NAME_DECORATION_WORDS \
        and (word_count(extra) < word_count(h1) or is_site_name(extra.strip(), site_names))
