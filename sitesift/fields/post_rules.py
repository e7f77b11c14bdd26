"""What KSF (paper 001, ``fields.posts``) learns of a forum and how a page is read with it:
the class rule (the paper's extraction rule, a CSS selector such as ``td.message``), a post's
frame (how far a post reaches above its body) and its author's rule (step 5 of ``fields.posts``),
and ``PostRule``, which cuts a page into posts ``{"author", "published", "text"}``. The page
method reads a lone thread's posts with these rules too (``methods.page.thread``), learned on
the one page; ``fields.posts`` learns them from a few thread pages of a forum.

Nothing here names an engine's classes or URLs: every selector comes from the pages.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from sitesift.fields.date_forms import MonthFirst, iter_dates, text_month_first
from sitesift.output.render import to_text
from sitesift.parse.dom import SKIP_TAGS, is_hidden, text_weight

__all__ = [
    "AUTHOR_MAX_CHARS",
    "AUTHOR_MIN_COVERAGE",
    "DATETIME",
    "DEFAULT_DEPTH",
    "EN_DATETIME",
    "ClassRule",
    "PostRule",
    "author_rule",
    "class_owner",
    "has_stable_class",
    "post_container",
    "stable_classes",
    "text_pieces",
]

#: Author: the longest name-like text (characters without spaces).
AUTHOR_MAX_CHARS = 40
#: Author: the share of posts that must have the author element (forum-awful: 0.76, some
#: names sit in nested elements with classes of their own).
AUTHOR_MIN_COVERAGE = 0.6
#: Post container depth when no sample has two posts (bodies sit this many levels below).
DEFAULT_DEPTH = 3

#: A class token carrying an id (``post-123``): one item's, never every post's.
_ID = re.compile(r"\d{3,}")
#: A post's time stamp as forums print it: numeric ("2024-03-01 10:00", "2024年3月1日 10:00")
#: or English ("March 1, 2024, 10:00 AM").
DATETIME = re.compile(
    r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?\s*(\d{1,2}):(\d{2})")
EN_DATETIME = re.compile(
    r"\b([A-Z][a-z]{2,8})\.? (\d{1,2}), (\d{4}),? (\d{1,2}):(\d{2})\s*([AaPp][Mm])?")
#: A clock time ("09:03 AM", "16:26"): a post's time stamp in any of its forms, never a name.
_CLOCK = re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?![\d:])")



# -- extraction rule --------------------------------------------------------------------------

def stable_classes(el: etree._Element) -> tuple[str, ...]:
    """Class tokens that can name every post alike: per-item tokens carrying ids
    (``post-123``, ``userid-4567``) are dropped."""
    return tuple(sorted({c for c in (el.get("class") or "").split() if not _ID.search(c)}))


@dataclass(frozen=True, slots=True)
class ClassRule:
    """A class-based selector (tag + classes), the paper's extraction rule."""

    tag: str
    classes: tuple[str, ...]

    @classmethod
    def of(cls, el: etree._Element) -> ClassRule:
        return cls(el.tag if isinstance(el.tag, str) else "*", stable_classes(el))

    @property
    def css(self) -> str:
        return self.tag + "".join("." + c for c in self.classes)

    @property
    def xpath(self) -> str:
        tests = "".join(
            f"[contains(concat(' ', normalize-space(@class), ' '), ' {c} ')]"
            for c in self.classes if "'" not in c)
        return f".//{self.tag}{tests}"

    def matches(self, el: etree._Element) -> bool:
        return el.tag == self.tag and set(self.classes) <= set((el.get("class") or "").split())

    def select(self, root: etree._Element) -> list[etree._Element]:
        """Matching elements in document order, outermost only (a match inside a match is
        part of it)."""
        found = root.xpath(self.xpath)
        chosen = set()
        out = []
        for el in found:
            if any(a in chosen for a in el.iterancestors()):
                continue
            chosen.add(el)
            out.append(el)
        return out


# -- reading a page ---------------------------------------------------------------------------

def has_stable_class(el: etree._Element) -> bool:
    """Whether ``stable_classes(el)`` is not empty, without sorting them (a walk up asks it
    of every element it passes)."""
    classes = el.get("class")
    return bool(classes) and any(not _ID.search(c) for c in classes.split())


def class_owner(el: etree._Element) -> etree._Element | None:
    """Nearest element (``el`` or above) with a stable class: who a line belongs to."""
    node: etree._Element | None = el
    while node is not None:
        if isinstance(node.tag, str) and has_stable_class(node):
            return node
        node = node.getparent()
    return None


def text_pieces(root: etree._Element) -> list[tuple[etree._Element, str]]:
    """(holder, line) pairs in document order: an element's text belongs to it, its tail to
    its parent. Skipped and hidden subtrees give nothing but their tails. (lxml's own walk,
    in C: a comment or processing instruction comes as one event, its tail the parent's.)"""
    out: list[tuple[etree._Element, str]] = []
    walker = etree.iterwalk(root, events=("start", "end", "comment", "pi"))
    # (``isspace`` instead of a stripped copy, most texts between blocks being white space
    # alone, and ``normalize_space`` written out)
    for event, el in walker:
        if event == "start":
            if el.tag in SKIP_TAGS or is_hidden(el):
                walker.skip_subtree()
            else:
                text = el.text
                if text and not text.isspace():
                    out.append((el, " ".join(text.split())))
            continue
        if el is not root:
            tail = el.tail
            if tail and not tail.isspace():
                parent = el.getparent()
                if parent is not None:
                    out.append((parent, " ".join(tail.split())))
    return out


# -- a post's frame and its author -----------------------------------------------------------

def post_container(body: etree._Element, depth: int) -> etree._Element:
    node = body
    for _ in range(depth):
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node


def _outside(container: etree._Element, body: etree._Element) -> list[tuple[etree._Element, str]]:
    """Text pieces of ``container`` outside ``body`` (the post's frame: author, date...)."""
    inside = set(body.iter())
    return [(h, line) for h, line in text_pieces(container) if h not in inside]


def _is_name(line: str) -> bool:
    return 0 < text_weight(line) <= AUTHOR_MAX_CHARS and not DATETIME.search(line) \
        and not EN_DATETIME.search(line) and not _CLOCK.search(line) \
        and any(ch.isalpha() for ch in line)


def _name_owner(holder: etree._Element, container: etree._Element) -> etree._Element | None:
    """The classed element a frame text belongs to, inside the post (a name in a bare
    ``<b>`` belongs to its classed parent); None when only the post itself has a class."""
    owner = class_owner(holder)
    if owner is None or owner is container:
        return None
    return owner if any(a is container for a in owner.iterancestors()) else None


def _lead_name(container: etree._Element, body: etree._Element) -> str | None:
    """A post without the author element (a guest's or an anonymous post shows a bare name,
    "匿名", where members' names are links): the first name-like text of its frame before
    its body, where every post shows its poster."""
    inside = set(body.iter())
    for holder, line in text_pieces(container):
        if holder in inside:
            return None
        if _is_name(line):
            return line
    return None


def author_rule(pages: Iterable[Sequence[etree._Element]], depth: int) -> ClassRule | None:
    """``_learn_author`` over given post bodies (per page), ``depth`` levels below their
    posts."""
    first_seen: dict[ClassRule, list[int]] = defaultdict(list)
    texts: dict[ClassRule, set[str]] = defaultdict(set)
    posts = 0
    for bodies in pages:
        for b in bodies:
            posts += 1
            seen: set[ClassRule] = set()
            container = post_container(b, depth)
            for rank, (holder, line) in enumerate(_outside(container, b)):
                owner = _name_owner(holder, container)
                if owner is None or not _is_name(line):
                    continue
                # One candidate per class token: variants ("author", "author vip") still
                # share the token that names them all.
                for token in stable_classes(owner):
                    rule = ClassRule(owner.tag, (token,))
                    if rule in seen:
                        continue
                    seen.add(rule)
                    first_seen[rule].append(rank)
                    texts[rule].add(line)
    if not posts:
        return None
    candidates = [
        (sorted(ranks)[len(ranks) // 2], rule) for rule, ranks in first_seen.items()
        if len(ranks) >= AUTHOR_MIN_COVERAGE * posts and (len(texts[rule]) >= 2 or posts == 1)
    ]
    return min(candidates, key=lambda c: c[0])[1] if candidates else None


@dataclass(frozen=True, slots=True)
class PostRule:
    """What KSF learned about one forum: the post-body rule, how far a post reaches above its
    body, and the author's rule. Stored in the site profile as a plain dict."""

    body: ClassRule
    depth: int = DEFAULT_DEPTH
    author: ClassRule | None = None
    #: Samples whose vote went to ``body``, and samples used.
    votes: int = 0
    samples: int = 0
    info: dict[str, Any] = field(default_factory=dict, compare=False)

    def posts(self, root: etree._Element,
              month_first: MonthFirst | None = None) -> list[dict[str, str | None]]:
        """The page's posts in page order: author, published ("YYYY-MM-DD HH:MM" as the
        forum shows it) and text. Empty when the rule finds no post body. ``month_first``:
        how the site's ambiguous numeric dates read (``date_forms.learned_month_first``);
        None: as the page's own dates show (``page_month_first``)."""
        bodies = self.body.select(root)
        if bodies and month_first is None:
            month_first = page_month_first(root)
        return [post for body in bodies if (post := self.post(body, month_first))]

    def post(self, body: etree._Element,
             month_first: MonthFirst | None = True) -> dict[str, str | None] | None:
        """The post whose body is ``body`` (None when it holds no text)."""
        container = post_container(body, self.depth)
        frame = _outside(container, body)
        author = None
        if self.author is not None:
            author = next((line for h, line in frame if _is_name(line) and
                           (o := _name_owner(h, container)) is not None and
                           self.author.matches(o)), None) or _lead_name(container, body)
        text = to_text([body])
        if not text.strip():
            return None
        order = True if month_first is None else month_first
        return {"author": author, "published": post_time(container, body, frame, order),
                "text": text}

    def to_dict(self) -> dict[str, Any]:
        return {
            "body": [self.body.tag, list(self.body.classes)], "depth": self.depth,
            "author": [self.author.tag, list(self.author.classes)] if self.author else None,
            "votes": self.votes, "samples": self.samples,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PostRule:
        author = data.get("author")
        return cls(
            body=ClassRule(data["body"][0], tuple(data["body"][1])),
            depth=int(data["depth"]),
            author=ClassRule(author[0], tuple(author[1])) if author else None,
            votes=int(data.get("votes", 0)), samples=int(data.get("samples", 0)),
        )


def page_month_first(root: etree._Element, default: MonthFirst = True) -> MonthFirst:
    """How one page's ambiguous numeric dates read, from its unambiguous ones
    (``date_forms.text_month_first``), else ``default``."""
    return text_month_first(" ".join(line for _, line in text_pieces(root)), default)


def _stamp(iso: str) -> str | None:
    """"YYYY-MM-DD HH:MM" of an ISO date with a time (None without one: a day alone is a
    member's join date or a birthday more often than a post's time)."""
    return iso[:16].replace("T", " ") if "T" in iso else None


def post_time(container: etree._Element, body: etree._Element,
              frame: list[tuple[etree._Element, str]],
              month_first: MonthFirst = True) -> str | None:
    """A post's time as its frame prints it, "YYYY-MM-DD HH:MM": a ``<time>`` element of the
    frame first (its printed text, read in ``month_first``'s order, else its ``datetime``: a
    poster's join date may stand above it in plain text), else the first date with a clock
    time in the frame's lines (or across two of them), in any form ``date_forms`` reads
    ("2025-3-1 10:00", "01/03/2025 08:00", "08-12-2025, 05:29 PM", "March 1, 2024, 10:00 AM").
    """
    inside = set(body.iter())
    for el in container.iter("time"):
        if el in inside:
            continue
        for value in (" ".join(el.text_content().split()), el.get("datetime") or ""):
            for _pos, iso in iter_dates(value, month_first=month_first):
                if (stamp := _stamp(iso)) is not None:
                    return stamp
    # (line by line first; then the frame's lines joined: a date and its clock time in two
    # elements, "<span>08-12-2025</span> <span>05:29 PM</span>")
    for text in (*(line for _, line in frame), " ".join(line for _, line in frame)):
        for _pos, iso in iter_dates(text, month_first=month_first):
            if (stamp := _stamp(iso)) is not None:
                return stamp
    return None
