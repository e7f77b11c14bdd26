"""DOM nodes to plain text or Markdown.

Plain text: one paragraph per block element, paragraphs separated by a blank line, ``<br>``
as a line break, white space collapsed except in ``<pre>``. Markdown keeps headings, lists,
block quotes, code blocks, simple tables and (optionally) links. Both walk iteratively.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree

from sitesift.parse.dom import (
    BLOCK_TAGS,
    END,
    HEADING_TAGS,
    SKIP_TAGS,
    START,
    walk,
)

__all__ = ["to_markdown", "to_text"]

#: Runs of spaces left where inline pieces meet ("a " + " b").
_SPACES = re.compile(r" {2,}")
_NEWLINES = re.compile(r"\s*\n\s*")
#: Markdown characters escaped in ordinary text so they are not read as markup.
_MD_ESCAPE = re.compile(r"([\\`*_\[\]])")
#: Inline tags that get Markdown marks around their text.
_INLINE_MARKS = frozenset({"code", "strong", "b", "em", "i", "a"})


def _is_element(el: object) -> bool:
    return isinstance(el, etree._Element) and isinstance(el.tag, str)


class _Paragraphs:
    """Accumulates inline pieces and flushes them into paragraphs at block boundaries."""

    def __init__(self) -> None:
        self.paragraphs: list[str] = []
        self.pieces: list[str] = []
        self.prefix = ""

    def add(self, text: str | None, *, pre: bool = False) -> None:
        if not text:
            return
        if pre:
            # Protect newlines of preformatted text from the collapse in flush().
            self.pieces.append(text.replace("\n", "\x00").replace(" ", "\x01"))
        elif text.isspace():  # (most tails between blocks: the one space they fold to)
            self.pieces.append(" ")
        else:
            collapsed = " ".join(text.replace("\u200b", "").split())
            if not collapsed:
                self.pieces.append(" ")
                return
            if text[0].isspace():
                collapsed = " " + collapsed
            if text[-1].isspace():
                collapsed += " "
            self.pieces.append(collapsed)

    def newline(self) -> None:
        self.pieces.append("\n")

    def flush(self) -> None:
        if not self.pieces:  # (every block's start and end flushes: most find nothing)
            self.prefix = ""
            return
        raw = "".join(self.pieces)
        self.pieces = []
        if raw.isspace():  # (spaces and line breaks alone: no paragraph, as below)
            self.prefix = ""
            return
        # Each step only where its mark is there (most paragraphs are one line of single
        # spaces, no preformatted text): the same text as doing every step, for a third less
        # of the rendering's time.
        if "  " in raw:
            raw = _SPACES.sub(" ", raw)
        if "\n" in raw:
            text = "\n".join(ln for ln in (part.strip(" ") for part in raw.split("\n")) if ln)
        else:
            text = raw.strip(" ")  # (the one line, or nothing)
        if "\x00" in text or "\x01" in text:
            text = text.replace("\x00", "\n").replace("\x01", " ")
        text = text.strip("\n")
        if text.strip():
            self.paragraphs.append(self.prefix + text if self.prefix else text)
        self.prefix = ""


def to_text(nodes: Iterable[etree._Element]) -> str:
    """Readable text of ``nodes`` (each a subtree) in order; paragraphs split by a blank line.

    The tail of each given node is not part of it and is ignored.
    """
    out = _Paragraphs()
    for node in nodes:
        pre_depth = 0
        # lxml's own walk (C), as ``dom.walk`` orders it; a comment or processing instruction
        # comes as one event, and only its tail is text.
        for event, el in etree.iterwalk(node, events=("start", "end", "comment", "pi")):
            if event == "start":
                tag = el.tag
                if tag in SKIP_TAGS:
                    continue
                if tag in BLOCK_TAGS:
                    out.flush()
                if tag == "pre":
                    pre_depth += 1
                elif tag == "br":
                    out.newline()
                out.add(el.text, pre=pre_depth > 0)
                continue
            if event == "end":
                tag = el.tag
                if tag not in SKIP_TAGS:
                    if tag == "pre":
                        pre_depth -= 1
                    if tag in BLOCK_TAGS:
                        out.flush()
                    elif tag in ("td", "th"):
                        out.add(" ")
            if el is not node:
                out.add(el.tail, pre=pre_depth > 0)
        out.flush()
    return "\n\n".join(out.paragraphs)


def _md_escape(text: str) -> str:
    return _MD_ESCAPE.sub(r"\\\1", text)


def _is_simple_table(table: etree._Element) -> bool:
    """A data table: rows of cells without nested blocks, so a pipe table can show it."""
    rows = 0
    for el in table.iter(etree.Element):
        if el is table:
            continue
        if el.tag == "tr":
            rows += 1
        elif el.tag in BLOCK_TAGS and el.tag not in ("tr", "td", "th", "tbody", "thead",
                                                     "tfoot", "caption", "p"):
            return False
    return rows > 0


def _table_markdown(table: etree._Element, links: bool) -> str:
    rows: list[list[str]] = []
    for tr in table.iter("tr"):
        cells = [
            to_markdown([cell], links=links).replace("\n", " ").replace("|", "\\|").strip()
            for cell in tr
            if _is_element(cell) and cell.tag in ("td", "th")
        ]
        if cells:
            rows.append(cells)
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)


def to_markdown(nodes: Iterable[etree._Element], *, links: bool = False) -> str:
    """Markdown of ``nodes``: headings, lists, quotes, code blocks, tables; links if asked."""
    out = _Paragraphs()
    for node in nodes:
        markdown = _Markdown(out, node, links)
        for event, el in walk(node):
            markdown.step(event, el)
        out.flush()
    return "\n\n".join(out.paragraphs)


#: Inline marks, the same before and after the element's text (links: ``_mark``).
_MARKS = {"code": "`", "strong": "**", "b": "**", "em": "*", "i": "*"}
_LIST_TAGS = ("ul", "ol", "menu", "dir")


def _mark(el: etree._Element, tag: str, links: bool, *, opening: bool) -> str | None:
    """The mark before (``opening``) or after an inline element; None: no mark."""
    if tag == "a":
        if links and el.get("href"):
            return "[" if opening else f"]({el.get('href')})"
        return None
    return _MARKS.get(tag)


@dataclass(slots=True)
class _Markdown:
    """The walk of one node into ``out``: what is open around the current element (lists,
    quotes, code blocks, marked inline elements, a table written whole)."""

    out: _Paragraphs
    node: etree._Element
    links: bool
    pre_depth: int = 0
    lists: list[list[int]] = field(default_factory=list)  # per open list: [is_ordered, next]
    quote_depth: int = 0
    skip_until: etree._Element | None = None
    marked: set[etree._Element] = field(default_factory=set)  # inline elements given marks

    def step(self, event: int, el: etree._Element) -> None:
        if self.skip_until is not None:
            if event == END and el is self.skip_until:
                self.skip_until = None
                self.out.add(el.tail if el is not self.node else None, pre=self.pre_depth > 0)
            return
        if event == START:
            self._start(el)
        else:
            self._end(el)

    def _escaped(self, text: str | None) -> str | None:
        return text if self.pre_depth or not text else _md_escape(text)

    def _start(self, el: etree._Element) -> None:
        is_el = _is_element(el)
        tag = el.tag if is_el else ""
        if tag in SKIP_TAGS or not is_el:
            return
        out = self.out
        if tag == "table" and _is_simple_table(el):
            out.flush()
            table = _table_markdown(el, self.links)
            if table:
                out.paragraphs.append(table)
            self.skip_until = el
            return
        if tag in BLOCK_TAGS:
            out.flush()
            out.prefix = "> " * self.quote_depth
        self._open(el, tag)
        out.add(self._escaped(el.text), pre=self.pre_depth > 0)

    def _open(self, el: etree._Element, tag: str) -> None:
        out = self.out
        if tag in HEADING_TAGS:
            out.prefix += "#" * int(tag[1]) + " "
        elif tag in _LIST_TAGS:
            self.lists.append([tag == "ol", 1])
        elif tag == "li":
            indent = "  " * max(0, len(self.lists) - 1)
            if self.lists and self.lists[-1][0]:
                out.prefix += f"{indent}{self.lists[-1][1]}. "
                self.lists[-1][1] += 1
            else:
                out.prefix += f"{indent}- "
        elif tag == "blockquote":
            self.quote_depth += 1
            out.prefix = "> " * self.quote_depth
        elif tag == "pre":
            self.pre_depth += 1
            out.pieces.append("```\x00")
        elif tag == "br":
            out.newline()
        elif self.pre_depth == 0 and tag in _INLINE_MARKS and el.text_content().strip():
            self.marked.add(el)
            if mark := _mark(el, tag, self.links, opening=True):
                out.pieces.append(mark)

    def _end(self, el: etree._Element) -> None:
        is_el = _is_element(el)
        tag = el.tag if is_el else ""
        if is_el and tag not in SKIP_TAGS:
            self._close(el, tag)
        if el is not self.node:
            self.out.add(self._escaped(el.tail), pre=self.pre_depth > 0)

    def _close(self, el: etree._Element, tag: str) -> None:
        out = self.out
        if tag == "pre":
            out.pieces.append("\x00```")
            self.pre_depth -= 1
        elif el in self.marked and (mark := _mark(el, tag, self.links, opening=False)):
            out.pieces.append(mark)
        if tag in _LIST_TAGS and self.lists:
            self.lists.pop()
        elif tag == "blockquote":
            self.quote_depth = max(0, self.quote_depth - 1)
        if tag in BLOCK_TAGS:
            out.flush()
            out.prefix = "> " * self.quote_depth
        elif tag in ("td", "th"):
            out.add(" ")
