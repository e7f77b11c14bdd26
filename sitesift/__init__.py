"""sitesift: clean records from crawled web pages, learning from many pages of a site at once."""

from __future__ import annotations

import logging

from sitesift.errors import (
    DecodeError,
    EmptyPageError,
    ExtractionError,
    InputError,
    PageError,
    PageTimeout,
    ParseError,
    ProfileError,
    SiftError,
    UsageError,
)
from sitesift.options import Options
from sitesift.pipeline import Extractor, extract_html
from sitesift.record import Page, Record

__version__ = "0.1.0"

__all__ = [
    "DecodeError",
    "EmptyPageError",
    "ExtractionError",
    "Extractor",
    "InputError",
    "Options",
    "Page",
    "PageError",
    "PageTimeout",
    "ParseError",
    "ProfileError",
    "Record",
    "SiftError",
    "UsageError",
    "__version__",
    "extract_html",
]

logging.getLogger(__name__).addHandler(logging.NullHandler())
