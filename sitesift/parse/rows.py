"""Data rows: a label and the value beside it are one unit of a record.

A page of data prints its record as rows, each a label and a value: ``<dt>Year</dt>
<dd>1958</dd>``, ``<th>Weight</th><td>2 kg</td>``, or a row of two boxes whose first holds a
short line ending in a colon ("Condition:" beside "Used"). The label is the same on every page
of the template, the value its page's own. The site steps delete what the cluster's or the
same-layer pages share (DeleteSame, ``methods.template.template.delete_shared``; the sibling
method's noise blocks), so they would take the label and leave the value bare: "1958" with
nothing to say what it is. Where the value stays (it differs across the pages), the row is the
page's record and its label stays with it; where the whole row recurs ("Country of Origin"
"United States" on every item), the row as a whole is shared and goes as before. The label
alone recurring shows only that every record has that field, not that the row is template.

A row is markup's (``ROW_LABEL_TAGS``) or a box holding exactly the label and the value. A line
ending in a colon among a story's paragraphs or above a list ("On the Net:" before a story's
closing links, "Latest Comments:" over the comments) heads a section, not a row: it is left to
the site steps (big9-2005's nypost and l3s-gn1's news.com.au, whose gold drops those lines,
came back without that condition).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from lxml import etree

from sitesift.parse.dom import normalize_space, text_content, text_weight
from sitesift.parse.signatures import structural_children

__all__ = ["LABEL_MAX_CHARS", "ROW_LABEL_TAGS", "is_label", "labels_left",
           "labels_of_kept_values"]

#: Elements that are a row's label by markup: a definition list's term, a table's header cell
#: (the row around them may hold more than the two).
ROW_LABEL_TAGS = frozenset({"dt", "th"})
#: Longest label (characters without white space): a field's name ("Condition:", "Item
#: number:", "Country of Origin"), not a sentence or a heading over a section. Not tuned: 20,
#: 30 and 60 give the same auto records on modern-dev, cleanportal, big9-2005/2009, zh-sites,
#: list-detail and l3s-gn1 (the longest row label met is docs.python.org's "Changed in version
#: 3.1:", 20); half a holds no page it changes.
LABEL_MAX_CHARS = 30
#: How a label written as a line of its own ends (Latin and full-width colons).
LABEL_ENDINGS = (":", "\uff1a")


def _text(el: etree._Element) -> str:
    return normalize_space(text_content(el))


def is_label(el: etree._Element) -> bool:
    """Whether ``el`` reads as a field's label: a row label element, or a short line ending
    in a colon, of at most ``LABEL_MAX_CHARS`` characters."""
    text = _text(el)
    if not text or text_weight(text) > LABEL_MAX_CHARS:
        return False
    return el.tag in ROW_LABEL_TAGS or text.endswith(LABEL_ENDINGS)


def _is_row(label: etree._Element, value: etree._Element, cells: int) -> bool:
    """Whether ``label`` and the ``value`` right after it, two of ``cells`` siblings, are a
    row: a label beside a value with text that is no label itself, alone in their box unless
    markup says they are a row."""
    return ((cells == 2 or label.tag in ROW_LABEL_TAGS) and is_label(label)
            and bool(_text(value)) and not is_label(value))


def labels_of_kept_values(
    children: Sequence[etree._Element], shared: Callable[[etree._Element], bool],
) -> set[etree._Element]:
    """The ``shared`` children that are a row's label whose value, the child right after
    it, is not shared: the label of a value that is the page's own."""
    return {label for label, value in itertools.pairwise(children)
            if shared(label) and not shared(value) and _is_row(label, value, len(children))}


def _row_of(el: etree._Element) -> tuple[etree._Element, etree._Element | None, int]:
    """The cell ``el`` stands for (``el``, or the wrapper it is the only child of), the
    element right after that cell, and the number of cells of their box."""
    node = el
    while True:
        parent = node.getparent()
        if parent is None:
            return node, None, 1
        cells = structural_children(parent)
        try:
            at = cells.index(node)
        except ValueError:
            # A skipped element (a form control, a script, a frame) is no cell of any row;
            # a site step may still delete it as an owner of noise.
            return node, None, len(cells)
        if at + 1 < len(cells):
            return node, cells[at + 1], len(cells)
        if len(cells) != 1:
            return node, None, len(cells)
        node = parent


def labels_left(owners: Sequence[etree._Element]) -> set[etree._Element]:
    """Of the elements a site step is about to delete (``owners``), the row labels whose
    value stays: the value is not deleted with them and keeps text outside them (the
    sibling step's counterpart of ``labels_of_kept_values``)."""
    gone = set(owners)
    left = set()
    for el in owners:
        label, value, cells = _row_of(el)
        if value is None or value in gone or not _is_row(label, value, cells) \
                or any(a in gone for a in value.iterancestors()):
            continue
        inside = sum(text_weight(_text(o)) for o in gone
                     if o is not value and any(a is value for a in o.iterancestors()))
        if text_weight(_text(value)) > inside:
            left.add(el)
    return left
