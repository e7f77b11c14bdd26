"""What the service remembers of each site between requests: its recent pages, their last
records, and when its profile was learned, so that it can decide when to learn it again.

Why learn again at all: a profile learned from the first few pages of a site knows only the
templates those pages showed. The rule here (``SiteHistory.due``) learns a site

- first when ``min_learn_pages`` of its pages have arrived (a template needs a cluster of at
  least two pages; three give the clustering a choice),
- again when the pages seen have doubled since the last learning (so a site is learned
  O(log n) times over n pages, never once per page), or when ``relearn_unassigned`` pages
  since then fitted none of the profile's templates (a template the profile lacks).

Memory is bounded: ``recent_pages`` pages per site (the newest replace the oldest; the same
page posted again replaces its older copy) and ``max_sites`` sites, least recently used
forgotten first. A forgotten site keeps its saved profile in the store.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from sitesift.record import Page

__all__ = ["MemorySettings", "SiteHistory", "SiteMemory"]

#: Pages of a site before it is first learned (see the module docstring).
MIN_LEARN_PAGES = 3
#: Recent pages kept per site: what a relearning sees. 30 pages hold a site's main templates
#: (the dev sites have 10-30 pages) at a few MB per site.
RECENT_PAGES = 30
#: Sites kept in memory; beyond it the least recently used is forgotten (its profile stays).
MAX_SITES = 100
#: Pages that fitted no template since the last learning before the site is learned again.
RELEARN_UNASSIGNED = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class MemorySettings:
    """Bounds and learning schedule of ``SiteMemory``."""

    min_learn_pages: int = MIN_LEARN_PAGES
    recent_pages: int = RECENT_PAGES
    max_sites: int = MAX_SITES
    relearn_unassigned: int = RELEARN_UNASSIGNED

    def __post_init__(self) -> None:
        for name in ("min_learn_pages", "recent_pages", "max_sites", "relearn_unassigned"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ValueError(f"{name} must be a positive integer")
        if self.recent_pages < self.min_learn_pages:
            raise ValueError("recent_pages must be at least min_learn_pages")


@dataclass(slots=True)
class SiteHistory:
    """One site's recent pages (oldest first) and learning state."""

    site: str
    limit: int
    pages: deque[Page] = field(default_factory=deque)
    #: Last record (as a dict) of each recent page, by page id.
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Distinct pages received in all (not only those kept; a page sent again while it is
    #: still among the recent ones is not counted twice).
    seen: int = 0
    #: ``seen`` when the site was last learned (0: never).
    learned_at: int = 0
    #: Pages assigned to no template since the last learning.
    unassigned: int = 0
    #: Held while the site is being learned (by the service's event loop).
    learning: asyncio.Lock = field(default_factory=asyncio.Lock)

    def add(self, page: Page) -> None:
        """Keep ``page`` as the newest; an older copy of the same page id goes, and a page
        sent again does not count as more of the site (no relearning for re-fetches)."""
        if any(p.id == page.id for p in self.pages):
            self.pages = deque(p for p in self.pages if p.id != page.id)
            self.records.pop(page.id, None)
        else:
            self.seen += 1
        self.pages.append(page)
        while len(self.pages) > self.limit:
            self.records.pop(self.pages.popleft().id, None)

    def due(self, settings: MemorySettings) -> bool:
        """Whether the site should be learned (again) now."""
        if len(self.pages) < settings.min_learn_pages:
            return False
        if not self.learned_at:
            return True
        return (self.seen >= 2 * self.learned_at
                or self.unassigned >= settings.relearn_unassigned)

    def start_learning(self) -> tuple[Page, ...]:
        """Mark the site learned as of now; returns the pages to learn from."""
        self.learned_at, self.unassigned = self.seen, 0
        return tuple(self.pages)

    def note(self, record: dict[str, Any]) -> None:
        """Remember the record of a recent page; count it when it fitted no template."""
        if any(p.id == record["id"] for p in self.pages):
            self.records[record["id"]] = record
        if self.learned_at and "#new-" in str(record.get("cluster", "")):
            self.unassigned += 1

    def page(self, page_id: str) -> Page | None:
        return next((p for p in self.pages if p.id == page_id), None)


class SiteMemory:
    """Histories of the sites seen, least recently used first. Not thread-safe: the service
    uses it from the event loop only."""

    def __init__(self, settings: MemorySettings | None = None) -> None:
        self.settings = settings or MemorySettings()
        self._sites: OrderedDict[str, SiteHistory] = OrderedDict()

    def history(self, site: str) -> SiteHistory:
        """The history of ``site`` (created when new), marked as most recently used."""
        hist = self._sites.get(site)
        if hist is None:
            hist = self._sites[site] = SiteHistory(site, self.settings.recent_pages)
            while len(self._sites) > self.settings.max_sites:
                self._sites.popitem(last=False)
        self._sites.move_to_end(site)
        return hist

    def get(self, site: str) -> SiteHistory | None:
        return self._sites.get(site)

    def sites(self) -> list[str]:
        return sorted(self._sites)
