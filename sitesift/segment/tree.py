"""What every block tree of the segment stage shares (DOM blocks, visual blocks)."""

from __future__ import annotations

from typing import Protocol, TypeVar

__all__ = ["leaves"]


class _Node(Protocol):
    @property
    def children(self) -> list: ...  # type: ignore[type-arg]


N = TypeVar("N", bound=_Node)


def leaves(top: N) -> list[N]:
    """The finest blocks under ``top`` (itself when it is a leaf), in page order; iterative,
    as block trees can be as deep as the page."""
    out: list[N] = []
    stack = [top]
    while stack:
        block = stack.pop()
        if block.children:
            stack.extend(reversed(block.children))
        else:
            out.append(block)
    return out
