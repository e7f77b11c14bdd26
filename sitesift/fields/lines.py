"""A page's visible text as printed lines, walked from an element down or up.

Field searches read the text near the headline the way a reader sees it: block elements start
a new line, hidden elements (scripts, styles, form controls) print nothing, and a walk stops
after about a budget of characters, so that a page is never turned into text whole.
"""

from __future__ import annotations

import lxml.html
from lxml import etree

from sitesift.fields.title_text import normalize_space

__all__ = ["HIDDEN_TAGS", "lines_after", "lines_before"]


#: Elements whose text is not read as printed lines (a ``<title>`` misplaced into the body by a
#: wrapper before ``<html>`` is not shown either).
HIDDEN_TAGS = frozenset(("script", "style", "noscript", "template", "svg", "math", "head", "title",
                   "select", "option", "textarea", "iframe", "object", "button"))
_BLOCK = frozenset((
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "th", "thead", "tr",
    "ul", "center", "caption",
))



def _glued(before: str, text: str) -> bool:
    """Whether ``text`` of a new inline element (or the tail after one) would glue onto a
    number ending ``before`` into another token: "<span>28.09.19</span><span>12:44</span>"
    prints as two fields, not "28.09.1912:44"; "<span>18</span><span>2009</span>" is a day and
    a year, "2025</time><a>Julian K. Arni" a date and a name; nor a lower-case letter to a
    capital ("Written by" + "AAA Travel Editor"). Other letters after letters stay glued
    (inline markup inside a word: a drop cap), as do letters after a number ("1<sup>st</sup>")."""
    if not before:
        return False
    first = text[0]
    if before[-1].islower():
        # "<span>Written by</span><span>AAA Travel Editor</span>": a lower-case letter
        # before a capital at an element boundary ends one word and starts another (a label
        # and its value, two menu items), not a word's inside.
        return first.isupper()
    if not before[-1].isdigit():
        return False
    return first.isdigit() or (first.isupper() and text[1:2].islower())


class _Lines:
    """Builds text lines (a new line at each block element) until ``budget`` characters."""

    __slots__ = ("budget", "current", "lines", "used")

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.current: list[str] = []
        self.lines: list[str] = []
        self.used = 0

    @property
    def full(self) -> bool:
        return self.used >= self.budget

    def add(self, text: str | None) -> None:
        if text:
            self.current.append(text)

    def flush(self) -> None:
        if not self.current:  # most block boundaries close no text
            return
        line = normalize_space("".join(self.current))
        self.current.clear()
        if line:
            self.lines.append(line)
            self.used += len(line)

    def walk(self, top: lxml.html.HtmlElement) -> None:
        """Text of ``top`` and its descendants (not ``top``'s tail), iteratively.

        (The hot loop of reading a page's fields: ``add`` and ``full`` inlined.)"""
        walker = etree.iterwalk(top, events=("start", "end"))
        current = self.current
        for event, el in walker:
            tag = el.tag  # (only elements: this walk yields no comments)
            if event == "start":
                if tag in HIDDEN_TAGS:
                    walker.skip_subtree()
                    continue
                if tag in _BLOCK:
                    if current:
                        self.flush()
                    if self.used >= self.budget:
                        return
                text = el.text
                if text:
                    if current and _glued(current[-1], text):
                        current.append(" ")
                    current.append(text)
            else:
                if current and tag in _BLOCK:
                    self.flush()
                if el is not top:
                    tail = el.tail
                    if tail:
                        if current and _glued(current[-1], tail):
                            current.append(" ")
                        current.append(tail)


def lines_after(anchor: lxml.html.HtmlElement, stop: lxml.html.HtmlElement,
                budget: int) -> list[str]:
    """Visible text lines from ``anchor`` on in document order, within ``stop``, about
    ``budget`` characters."""
    out = _Lines(budget)
    node: lxml.html.HtmlElement | None = anchor
    while node is not None and not out.full:
        out.walk(node)
        if node is stop:
            break
        out.add(node.tail)
        nxt = node.getnext()
        while nxt is None and node is not None:
            node = node.getparent()
            if node is None or node is stop:
                break
            if node.tag in _BLOCK:
                out.flush()
            out.add(node.tail)
            nxt = node.getnext()
        node = nxt
    out.flush()
    return out.lines


def lines_before(anchor: lxml.html.HtmlElement, stop: lxml.html.HtmlElement,
                 budget: int) -> list[str]:
    """Visible text lines just above ``anchor`` (nearest first), about ``budget`` characters.

    Walks backwards in document order. A preceding subtree with little text is read whole;
    a big one (a navigation block, a whole header) is entered from its end instead, so that
    only its last lines are read.
    """
    out: list[str] = []
    used = 0

    def add(text: str | None) -> None:
        nonlocal used
        line = normalize_space(text)
        if line:
            out.append(line)
            used += len(line)

    parent = anchor.getparent()
    cur = anchor.getprevious()
    while parent is not None and used < budget:
        if cur is None:  # the start of ``parent``: its own leading text, then one level up
            if parent.tag not in HIDDEN_TAGS:
                add(parent.text)
            if parent is stop:
                break
            cur, parent = parent.getprevious(), parent.getparent()
            continue
        add(cur.tail)
        if not isinstance(cur.tag, str) or cur.tag in HIDDEN_TAGS:
            cur = cur.getprevious()
        elif len(cur) and len(_STRING(cur)) > budget * WHOLE_SUBTREE_FACTOR:
            parent, cur = cur, cur[-1]
        else:
            piece = _Lines(budget * WHOLE_SUBTREE_FACTOR)
            piece.walk(cur)
            piece.flush()
            for line in reversed(piece.lines):
                out.append(line)
                used += len(line)
            cur = cur.getprevious()
    return out


_STRING = etree.XPath("string()")
#: A preceding subtree with more text than this many times the budget is entered from its end
#: instead of being read whole (its first lines are far from the headline).
WHOLE_SUBTREE_FACTOR = 4
