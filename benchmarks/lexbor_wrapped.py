"""Lexbor (selectolax) against lxml on the pages a saved profile reads: parse speed, tree
agreement, and whether a wrapped page's container and its text come out alike.

    python benchmarks/lexbor_wrapped.py MANIFEST PROFILES.db RECORDS.jsonl

``RECORDS.jsonl``: ``sitesift extract MANIFEST --profiles PROFILES.db`` output (its ``wrapper``
and ``cluster`` fields say which pages a wrapper read and with which template). Prints, in
CPU seconds (best of 3): lxml's parse (``lxml.html.document_fromstring`` and sitesift's
``parse_html``) and Lexbor's; then, over the distinct pages (ids without ``#n``): on how many
the element sequence below ``<body>`` (tag, class, id; ``tbody`` left out) and the folded body
text are the same; and for each wrapped page, whether its template's container path (relaxed
labels and ordinals, as ``PathFinder`` follows them) leads to a container on Lexbor's tree,
walking through the ``tbody`` an HTML5 parser implies, and whether that container's text
(white space folded, scripts and styles out) is lxml's. Needs ``pip install selectolax``.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lxml import etree

from sitesift.input import iter_pages
from sitesift.methods.template.paths import PathFinder
from sitesift.parse.dom import SKIP_TAGS
from sitesift.parse.html import parse_html
from sitesift.parse.signatures import node_label, stable_hash
from sitesift.profiles.serialize import profile_from_bytes


class _Node:
    """A Lexbor node as ``node_label`` reads an lxml element (tag and attributes)."""

    def __init__(self, node: Any) -> None:
        self.tag = node.tag
        self.attrib = {k: v or "" for k, v in node.attributes.items()}


def _label(node: Any) -> int:
    return stable_hash(node_label(_Node(node), -1, names=False))


def _children(node: Any, keep_tbody: bool) -> list[Any]:
    """Structural element children; an attribute-less ``tbody`` (implied by the HTML5 parser,
    absent from libxml2's tree) is walked through unless the path asks for a tbody."""
    out = []
    for child in node.iter(include_text=False):
        if child.tag.startswith(("-", "_", "!")) or child.tag in SKIP_TAGS:
            continue
        if child.tag == "tbody" and not child.attributes and not keep_tbody:
            out.extend(_children(child, False))
        else:
            out.append(child)
    return out


def _find(body: Any, key: tuple[tuple[int, int], ...], tbody: int) -> Any:
    node = body
    for label, ordinal in key:
        same = [c for c in _children(node, label == tbody) if _label(c) == label]
        if ordinal >= len(same):
            return None
        node = same[ordinal]
    return node


def _lxml_text(el: etree._Element) -> str:
    pieces = el.xpath(".//text()[not(ancestor::script or ancestor::style "
                      "or ancestor::noscript)]")
    return " ".join(" ".join(pieces).split())


def _lexbor_text(node: Any, parser: Callable[[bytes], Any]) -> str:
    tree = parser(node.html.encode("utf-8"))
    for bad in tree.css("script, style, noscript"):
        bad.decompose()
    return " ".join((tree.body.text(deep=True, separator=" ") if tree.body else "").split())


def _best(func: Callable[[], object], rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        func()
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("manifest")
    parser.add_argument("profiles")
    parser.add_argument("records")
    args = parser.parse_args(argv)
    try:
        from selectolax.lexbor import LexborHTMLParser
    except ImportError:
        raise SystemExit("selectolax is not installed (pip install selectolax)") from None
    import lxml.html

    tbody = stable_hash(node_label(type("T", (), {"tag": "tbody", "attrib": {}})(), -1,
                                   names=False))
    pages = list(iter_pages([args.manifest]))
    data = [p.html.encode("utf-8") for p in pages if p.html]
    n = len(data)
    for name, func in (
        ("lxml.html.document_fromstring", lambda: [lxml.html.document_fromstring(d)
                                                   for d in data]),
        ("sitesift parse_html", lambda: [parse_html(p.html) for p in pages if p.html]),
        ("Lexbor", lambda: [LexborHTMLParser(d) for d in data]),
    ):
        seconds = _best(func)
        print(f"{name}: {seconds:.3f} s CPU for {n} pages ({n / seconds:.0f} pages/s)")
    with sqlite3.connect(args.profiles) as db:
        profiles = {site: profile_from_bytes(blob)
                    for site, blob in db.execute("SELECT site, data FROM profiles")}
    records = {}
    for line in Path(args.records).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records[record["id"]] = record
    distinct = same_elements = same_text = wrapped = found = same_container = 0
    for page in pages:
        if "#" in page.id or not page.html:
            continue
        distinct += 1
        root = parse_html(page.html)
        tree = LexborHTMLParser(page.html.encode("utf-8"))
        body, sbody = root.find("body"), tree.body
        if body is None or sbody is None:
            continue
        ours = [(el.tag, el.get("class"), el.get("id")) for el in body.iter(etree.Element)
                if el.tag != "tbody"]
        theirs = [(nd.tag, nd.attributes.get("class"), nd.attributes.get("id"))
                  for nd in sbody.traverse()
                  if nd.tag != "tbody" and not nd.tag.startswith(("-", "_", "!"))]
        same_elements += ours == theirs
        same_text += " ".join(body.text_content().split()) == \
            " ".join(sbody.text(deep=True).split())
        record = records.get(page.id)
        if not record or not record.get("wrapper") or page.site not in profiles:
            continue
        model = next(t for t in profiles[page.site].templates if t.cluster == record["cluster"])
        wrapped += 1
        container = _find(sbody, model.container, tbody)
        if container is None:
            continue
        found += 1
        own = PathFinder(root).find(model.container)
        same_container += own is not None and \
            _lxml_text(own) == _lexbor_text(container, LexborHTMLParser)
    print(f"{distinct} distinct pages: the same elements below <body> on {same_elements}, "
          f"the same body text on {same_text}")
    print(f"{wrapped} wrapped: container found on Lexbor's tree {found}, the same container "
          f"text {same_container}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
