"""DOM signatures shared by the site-level methods: node labels (paper 000, Def. 8), stable
hashes, and the structural view of a page (script, style and other non-visual nodes left out,
since pages of one template differ in them all the time)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from lxml import etree

from sitesift.parse.dom import SKIP_TAGS

__all__ = [
    "MASK64",
    "PARENT_MULTIPLIER",
    "POSITION_MULTIPLIER",
    "TEXT_MEMO_MAX_CHARS",
    "RelaxedLabels",
    "TextHashes",
    "combine",
    "node_label",
    "stable_hash",
    "structural_children",
    "structure_root",
]

MASK64 = (1 << 64) - 1
#: Attributes whose *values* name parts of a template; for any other attribute only its name
#: counts (href, src, alt... change from page to page inside one template).
VALUED_ATTRIBUTES = frozenset({"class", "id"})
_DIGITS = re.compile(r"\d+")
#: A class or id value made of anything but name characters (a URL, a sentence) is data, not
#: the name of a template part: only the attribute's presence counts then.
_NAME_VALUE = re.compile(r"^[\w\s-]*$")
#: Multipliers of the path hash (``combine``): large odd 64-bit constants (from the golden
#: ratio and splitmix). Public for the loops that write ``combine`` out (a call per element
#: and per child is a fifth of a page's signatures).
PARENT_MULTIPLIER = 0x9E3779B97F4A7C15
POSITION_MULTIPLIER = 0xBF58476D1CE4E5B9


def stable_hash(text: str) -> int:
    """A 64-bit hash that is the same in every process (profiles are saved and reloaded)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def combine(parent: int, index: int, label: int) -> int:
    """Hash of a node at ``index`` under a parent of hash ``parent``: equal iff (very likely)
    the whole root-to-node path of labels and positions is equal."""
    return (parent * PARENT_MULTIPLIER + (index + 1) * POSITION_MULTIPLIER + label) & MASK64


def structural_children(el: etree._Element) -> list[etree._Element]:
    """Element children that take part in the page's visual structure."""
    return [c for c in el if isinstance(c.tag, str) and c.tag not in SKIP_TAGS]


def node_label(el: etree._Element, n_children: int, *, names: bool = True) -> str:
    """Def. 8 of paper 000 minus position (positions enter through the path): tag name,
    attribute set and number of children (left out when ``n_children`` < 0). Digits in
    class/id values are folded, as ids like ``post-18231`` vary per page inside one template.
    ``names=False`` keeps only class and id (presentational attributes such as ``bgcolor``
    come and go inside one template)."""
    attrs = []
    for name in sorted(el.attrib):
        if name in VALUED_ATTRIBUTES and _NAME_VALUE.match(el.attrib[name]):
            value = " ".join(sorted(_DIGITS.sub("0", el.attrib[name]).split()))
            attrs.append(f"{name}={value}")
        elif names:
            attrs.append(name)
    count = f"/{n_children}" if n_children >= 0 else ""  # < 0: leave the count out
    return f"{el.tag}[{','.join(attrs)}]{count}"


#: Longest text (as the tree has it) whose hash ``TextHashes`` keeps: the texts a site's pages
#: share are its template's menu entries, labels and footer lines; of the 34,460 leaf texts
#: of the 251 pages of big9-2005, big9-2009 and cleanportal that another page of their site
#: prints too, 34,243 are this short, and longer ones (a story's paragraphs) seldom repeat.
TEXT_MEMO_MAX_CHARS = 80


class TextHashes:
    """``stable_hash`` of a text with its white space folded (runs as one space, none at the
    ends; 0 for no text), memoised by the text as the tree has it: the pages of one site
    print their template's texts alike (72 % of the leaf texts of the 251 pages of
    big9-2005, big9-2009 and cleanportal are printed by another page of their site). One per
    site or batch (an object the caller holds, never a module-level cache); only texts up to
    ``TEXT_MEMO_MAX_CHARS`` are kept."""

    def __init__(self) -> None:
        self._memo: dict[str, int] = {}

    def folded(self, raw: str) -> int:
        found = self._memo.get(raw)
        if found is None:
            text = " ".join(raw.split())
            found = stable_hash(text) if text else 0
            if len(raw) <= TEXT_MEMO_MAX_CHARS:
                self._memo[raw] = found
        return found


class RelaxedLabels:
    """``node_label(el, -1, names=False)`` and its stable hash, memoised by (tag, class, id):
    a page has thousands of elements but few distinct labels. One per page or batch of pages
    (an object the caller holds, never a module-level cache)."""

    def __init__(self) -> None:
        self._memo: dict[tuple[str, str | None, str | None], tuple[str, int]] = {}

    @property
    def known(self) -> Callable[[tuple[str, str | None, str | None]], tuple[str, int] | None]:
        """The memo's lookup by ``(tag, class, id)`` (None: not met yet, ``get`` it): a loop
        over many elements that has read the tag already looks the rest up without a call per
        element (``content_signatures``, ``PathFinder.find``, the wrapper's walk)."""
        return self._memo.get

    def get(self, el: etree._Element, names: list[str] | None = None) -> tuple[str, int]:
        """``names``: ``el.keys()`` when the caller has read them (``is_hidden`` takes them
        too): then a value is read only for a name that is there (most elements have no id,
        many no class), the same key as ``(tag, get("class"), get("id"))``. (Without them two
        ``get`` calls cost less than ``keys()`` and the one ``get`` most elements need.)"""
        if names is None:
            key = (el.tag, el.get("class"), el.get("id"))
        else:
            key = (el.tag, el.get("class") if "class" in names else None,
                   el.get("id") if "id" in names else None)
        found = self._memo.get(key)
        if found is None:
            text = node_label(el, -1, names=False)
            found = self._memo[key] = (text, stable_hash(text))
        return found


def structure_root(root: etree._Element) -> etree._Element:
    """The node whose children are the page's first-level blocks: ``<body>`` (the children of
    ``<html>`` are just head and body), or below it while a wrapper has a single structural
    child (``<body><div id="page">...``): the blocks are what the wrapper splits into."""
    node = root.find("body")
    if node is None:
        node = root
    while True:
        children = structural_children(node)
        if len(children) != 1:
            return node
        node = children[0]
