"""The input stage: pages out of manifests, folders, WARC files and stdin, decoded, with site keys.

``iter_pages`` is the entry point; ``decode_html`` and ``site_key`` are its parts, public for
callers that hold bytes or URLs of their own.
"""

from __future__ import annotations

from sitesift.input.encoding import decode_html
from sitesift.input.sitekey import site_key
from sitesift.input.sources import iter_pages

__all__ = ["decode_html", "iter_pages", "site_key"]
