"""Rendering saved pages in a real browser (Chromium via Playwright): boxes and styles."""

from sitesift.render.browser import BrowserPool, Element, Rendering, TextPiece

__all__ = ["BrowserPool", "Element", "Rendering", "TextPiece"]
