"""The page's kind, one of WCXB's seven: article, forum, product, collection, listing,
documentation, service. Decided once per page by a small learned model (``model.py``, trained
by ``benchmarks/train_kind.py``) over features that carry across sites (``features.py``): the
page extractor calls ``decide_kind`` once it has measured the page (``Content.kind``);
``page_kind`` reads one page's kind alone.

The kind and the page type (detail, list, thread, other) agree (``TYPE_KINDS``): the page
type is decided first, by rules of its own, and the kind is the model's best among the kinds
that type allows ("other", no decision, allows every kind). Letting the kind set the type
instead would type more pages right on modern-dev (cross-validated by site, 0.933 of the
pages with a gold type against 0.899) but changes the page types of forum and list-detail
pages that the page-type rules get right: it is not done. Held to the type, the kind is
right on 0.847 of modern-dev's pages cross-validated by site (0.858 free). A site-level
method's page type (the forum method's) is held to the same way (``kind_of_type``).
"""

from __future__ import annotations

import lxml.html

from sitesift.methods.page.kind.features import PageSignals, kind_features, signal_features
from sitesift.methods.page.kind.model import KINDS, KindModel, load_model

__all__ = ["KINDS", "TYPE_KINDS", "KindModel", "PageSignals", "decide_kind", "kind_features",
           "kind_of_type", "load_model", "page_kind", "signal_features"]

#: The kinds each page type allows, the first where a kind read before the type disagrees
#: with it (``kind_of_type``). A product, a documentation page or a service page is one page
#: of its own, a detail; "other" is the page extractor's no-decision: every kind.
TYPE_KINDS: dict[str, tuple[str, ...]] = {
    "detail": ("article", "product", "documentation", "service"),
    "list": ("listing", "collection"),
    "thread": ("forum",),
    "other": KINDS,
}


def decide_kind(seen: dict[str, float], signals: PageSignals) -> str:
    """The kind of a page from its tree's features (``kind_features``, read untouched) and
    what the page extractor measured (``signals``): the model's best among the kinds its page
    type allows (``TYPE_KINDS``)."""
    return MODEL.predict({**seen, **signal_features(signals)},
                         TYPE_KINDS.get(signals.page_type or "", KINDS))


def page_kind(root: lxml.html.HtmlElement, url: str | None = None,
              signals: PageSignals | None = None) -> str:
    """The kind of the page under ``root`` (untouched) at ``url``; ``signals``: what the page
    extractor measured, when known (without them, the page type and its measures count as
    unknown). Read only."""
    return decide_kind(kind_features(root, url), signals or PageSignals())


def kind_of_type(kind: str | None, page_type: str | None) -> str | None:
    """The kind that agrees with a page type decided after it (at site level): ``kind`` when
    the type allows it, else the type's first kind (``TYPE_KINDS``)."""
    allowed = TYPE_KINDS.get(page_type or "")
    if not allowed or kind in allowed:
        return kind
    return allowed[0]


#: The model shipped with the package (``kind_model.json``), read once at import: plain data
#: that never changes during a run.
MODEL = load_model()
