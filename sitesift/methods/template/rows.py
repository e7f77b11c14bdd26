"""Data rows: a label and the value beside it are one unit of a record (issue 18).

A page of data prints its record as rows, each a label and a value: ``<dt>Year</dt>
<dd>1958</dd>``, ``<th>Weight</th><td>2 kg</td>``, or two boxes side by side whose first holds a
short line ending in a colon ("Condition:" beside "Used"). The label is the same on every page
of the template, the value its page's own. DeleteSame (``template.delete_shared``) deletes what
the cluster's pages share, so it would take the label and leave the value bare: "1958" with
nothing to say what it is. Where the value stays (it differs across the cluster), the row is
the page's record and its label stays with it; where the whole row recurs ("Country of Origin"
"United States" on every item), the row as a whole is shared and goes as before. The label
alone recurring shows only that every record has that field, not that the row is template.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from lxml import etree

__all__ = ["LABEL_MAX_CHARS", "LABEL_TAGS", "is_label", "labels_of_kept_values"]

#: Elements that are labels by markup: a definition list's term, a table's header cell, a
#: form's label.
LABEL_TAGS = frozenset({"dt", "th", "label"})
#: Longest label (characters without white space): a field's name ("Condition:", "Item
#: number:", "Country of Origin"), not a sentence or a heading over a section.
LABEL_MAX_CHARS = 30
#: How a label written as a line of its own ends (Latin and full-width colons).
LABEL_ENDINGS = (":", "\uff1a")


def _text(el: etree._Element) -> str:
    return " ".join(etree.tostring(el, method="text", encoding=str, with_tail=False).split())


def is_label(el: etree._Element) -> bool:
    """Whether ``el`` is a field's label: a label element, or a short line ending in a
    colon, of at most ``LABEL_MAX_CHARS`` characters."""
    text = _text(el)
    if not text or len("".join(text.split())) > LABEL_MAX_CHARS:
        return False
    return el.tag in LABEL_TAGS or text.endswith(LABEL_ENDINGS)


def labels_of_kept_values(
    children: Sequence[etree._Element], shared: Callable[[etree._Element], bool],
) -> set[etree._Element]:
    """The ``shared`` children that label the child right after them, which is not shared
    and holds text: the label of a row whose value is the page's own. A value that is itself
    a label (a header row of a table) is no value."""
    found = set()
    for label, value in itertools.pairwise(children):
        if shared(label) and not shared(value) and is_label(label) \
                and _text(value) and not is_label(value):
            found.add(label)
    return found
