"""Step 1 of paper 004 (Yuan et al. 2006): the same-layer pages of a target page, those sharing
the longest URL directory prefix with it (widened until ``MIN_SIBLINGS`` pages are in)."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

__all__ = ["same_layer"]

#: Same layer: widen the URL prefix until this many siblings are in (when the site has them).
MIN_SIBLINGS = 3

# -- 1. same layer -----------------------------------------------------------------------------


def _directories(url: str | None) -> tuple[str, ...] | None:
    """Host and directory segments of ``url`` (the file name left out), None without a URL."""
    if not url:
        return None
    parts = urlsplit(url)
    if not parts.netloc:
        return None
    return (parts.netloc.lower(), *parts.path.split("/")[1:-1])


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def same_layer(
    urls: Sequence[str | None], target: int, *, minimum: int = MIN_SIBLINGS,
    directories: Sequence[tuple[str, ...] | None] | None = None,
) -> list[int]:
    """Indices of the same-layer pages of ``urls[target]``: those sharing the longest directory
    prefix with it, widened to shorter prefixes until ``minimum`` pages are in; every other page
    of the site when the URLs are unknown or share no directory beyond the host.
    ``directories``: ``_directories`` of each URL, when the caller asks for many targets
    (splitting every URL again for each target is quadratic in the site's pages)."""
    dirs = directories if directories is not None else [_directories(u) for u in urls]
    others = [i for i in range(len(urls)) if i != target]
    mine = dirs[target]
    if mine is None:
        return others
    shared = []
    for i in others:
        theirs = dirs[i]
        shared.append(_common(mine, theirs) if theirs is not None else 0)
    levels = sorted(set(shared), reverse=True)
    for level in levels:
        if level < 1:  # not even the host: no layer to speak of
            break
        chosen = [i for i, s in zip(others, shared, strict=True) if s >= level]
        if len(chosen) >= min(minimum, len(others)):
            return chosen
    return others
