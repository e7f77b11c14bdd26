"""Title, author, publication time (placeholder until the metadata extractors land)."""

from __future__ import annotations

from dataclasses import dataclass

import lxml.html

__all__ = ["Metadata", "extract_metadata"]


@dataclass(frozen=True, slots=True)
class Metadata:
    title: str | None = None
    author: str | None = None
    published: str | None = None


def extract_metadata(root: lxml.html.HtmlElement, *, url: str | None = None) -> Metadata:
    title = root.findtext(".//title")
    return Metadata(title=title.strip() if title else None)
