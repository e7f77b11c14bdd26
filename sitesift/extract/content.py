"""Single-page main-content extraction (placeholder until the density extractor lands)."""

from __future__ import annotations

from dataclasses import dataclass

import lxml.html

__all__ = ["Content", "extract_content"]


@dataclass(frozen=True, slots=True)
class Content:
    text: str
    markdown: str
    page_type: str | None = None


def extract_content(root: lxml.html.HtmlElement, *, url: str | None = None) -> Content:
    body = root.find("body")
    text = body.text_content().strip() if body is not None else ""
    return Content(text=text, markdown=text)
