"""DOM nodes to plain text or Markdown.

Plain text: one paragraph per block element, paragraphs separated by a blank line, ``<br>``
as a line break, white space collapsed except in ``<pre>``. Markdown keeps headings, lists,
block quotes, code blocks, simple tables and (optionally) links. Both walk iteratively.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

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
        raw = _SPACES.sub(" ", "".join(self.pieces))
        self.pieces = []
        lines = [ln.strip(" ") for ln in raw.split("\n")]
        text = "\n".join(ln for ln in lines if ln)
        text = text.replace("\x00", "\n").replace("\x01", " ").strip("\n")
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
        pre_depth = 0
        lists: list[list[int]] = []  # per open list: [is_ordered, next number]
        quote_depth = 0
        skip_until: etree._Element | None = None
        marked: set[etree._Element] = set()  # inline elements that got opening marks
        for event, el in walk(node):
            is_el = _is_element(el)
            tag = el.tag if is_el else ""
            if skip_until is not None:
                if event == END and el is skip_until:
                    skip_until = None
                    out.add(el.tail if el is not node else None, pre=pre_depth > 0)
                continue
            if event == START:
                if tag in SKIP_TAGS or not is_el:
                    continue
                if tag == "table" and _is_simple_table(el):
                    out.flush()
                    table = _table_markdown(el, links)
                    if table:
                        out.paragraphs.append(table)
                    skip_until = el
                    continue
                if tag in BLOCK_TAGS:
                    out.flush()
                    out.prefix = "> " * quote_depth
                if tag in HEADING_TAGS:
                    out.prefix += "#" * int(tag[1]) + " "
                elif tag in ("ul", "ol", "menu", "dir"):
                    lists.append([tag == "ol", 1])
                elif tag == "li":
                    indent = "  " * max(0, len(lists) - 1)
                    if lists and lists[-1][0]:
                        out.prefix += f"{indent}{lists[-1][1]}. "
                        lists[-1][1] += 1
                    else:
                        out.prefix += f"{indent}- "
                elif tag == "blockquote":
                    quote_depth += 1
                    out.prefix = "> " * quote_depth
                elif tag == "pre":
                    pre_depth += 1
                    out.pieces.append("```\x00")
                elif tag == "br":
                    out.newline()
                elif pre_depth == 0 and tag in _INLINE_MARKS and el.text_content().strip():
                    marked.add(el)
                    if tag == "code":
                        out.pieces.append("`")
                    elif tag in ("strong", "b"):
                        out.pieces.append("**")
                    elif tag in ("em", "i"):
                        out.pieces.append("*")
                    elif tag == "a" and links and el.get("href"):
                        out.pieces.append("[")
                text = el.text
                out.add(text if pre_depth else (_md_escape(text) if text else text),
                        pre=pre_depth > 0)
            else:
                if is_el and tag not in SKIP_TAGS:
                    if tag == "pre":
                        out.pieces.append("\x00```")
                        pre_depth -= 1
                    elif el in marked:
                        if tag == "code":
                            out.pieces.append("`")
                        elif tag in ("strong", "b"):
                            out.pieces.append("**")
                        elif tag in ("em", "i"):
                            out.pieces.append("*")
                        elif tag == "a" and links and el.get("href"):
                            out.pieces.append(f"]({el.get('href')})")
                    if tag in ("ul", "ol", "menu", "dir") and lists:
                        lists.pop()
                    elif tag == "blockquote":
                        quote_depth = max(0, quote_depth - 1)
                    if tag in BLOCK_TAGS:
                        out.flush()
                        out.prefix = "> " * quote_depth
                    elif tag in ("td", "th"):
                        out.add(" ")
                if el is not node:
                    tail = el.tail
                    out.add(tail if pre_depth else (_md_escape(tail) if tail else tail),
                            pre=pre_depth > 0)
        out.flush()
    return "\n\n".join(out.paragraphs)
