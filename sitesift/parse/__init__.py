"""HTML text to a DOM tree (lxml, chosen by measurement: docs/design/architecture.md)."""

from sitesift.parse.html import parse_html

__all__ = ["parse_html"]
