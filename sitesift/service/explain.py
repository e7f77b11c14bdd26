"""The template method's decisions on one page, as blocks with reasons, for the inspector.

The pipeline's records say what was kept, not what was removed nor why. This module runs
the same steps as a template run with a saved profile (``Extractor._finish`` with a plan):
the page extractor chooses the main block (inside the template's content container when the
profile knows it), then DeleteSame (``template.delete_shared``) removes the subtrees the
template's pages share; each removed subtree becomes a ``template`` block whose reason says
how many of the template's pages hold it. Removed subtrees without text (a
shared ``<br>`` or image) are not listed. Blocks have the shape of the sibling method's
record ``blocks`` (``xpath``, ``text``, ``label``, ``reason``), XPaths as lxml writes them.
"""

from __future__ import annotations

import math
from typing import Any

from sitesift.methods.template.profile import SiteProfile
from sitesift.record import Page

__all__ = ["template_blocks"]

#: Characters of a block's text shown with it.
TEXT_CHARS = 200


def template_blocks(page: Page, profile: SiteProfile | None) -> list[dict[str, Any]]:
    """The main block the page extractor chose (``content``) and, when the page fits a
    template of ``profile``, what DeleteSame removed from it (``template``), in that order.
    Empty when the page cannot be parsed."""
    from sitesift.methods.page.content import extract_content
    from sitesift.methods.template.features import page_features
    from sitesift.methods.template.template import SHARED_FRACTION, PathFinder, delete_shared
    from sitesift.parse import parse_html

    try:
        root = parse_html(page.html)
    except Exception:  # the record already says why the page failed
        return []
    tree = root.getroottree()
    # Paths before the extractor edits the tree (this also keeps each element's proxy, so
    # the map still finds the elements after they are detached).
    paths = {el: tree.getpath(el) for el in root.iter() if isinstance(el.tag, str)}
    features = page_features(root, structure=False, strings=False)
    model = None
    finder = PathFinder(root)
    if profile is not None:  # as the pipeline does (by anchors, or all signatures)
        model, share, _signatures = profile.assign_page(finder)
    within = finder.find(model.container) if model and model.container else None
    content = extract_content(root, url=page.url, within=within)
    where = " inside the template's content container" if within is not None else ""
    blocks = [_block(paths, node, "content", f"main block chosen by the page extractor{where}")
              for node in content.nodes]
    if model is None:
        return blocks
    need = max(1, math.ceil(SHARED_FRACTION * model.pages))
    for node in content.nodes:
        for removed in delete_shared(node, model, signatures=features.signatures):
            if not removed.text_content().strip():
                continue  # a shared <br>, image or empty cell: nothing to show
            held = model.count.get(features.signatures.get(removed, -1), 0)  # type: ignore[union-attr]
            blocks.append(_block(
                paths, removed, "template",
                f"held by {held} of the {model.pages} pages of template {model.cluster} "
                f"(template from {need}; page fits it with {share:.0%} of its shared parts)"))
    return blocks


def _block(paths: dict[Any, str], element: Any, label: str, reason: str) -> dict[str, Any]:
    text = " ".join(element.text_content().split())
    return {"xpath": paths.get(element), "text": text[:TEXT_CHARS], "label": label,
            "reason": reason}
