"""The ``Extractor``: the public surface of the pipeline, and which path a run takes.

The paths live beside it, one module per method (``template``, ``siblings``, ``forum``,
``visual``, ``auto``), over the steps they share (``base``) and the run of a method behind
the site-level interface (``site_method``)."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sitesift.methods.interface import SiteMethod
from sitesift.options import SITE_METHODS, Options
from sitesift.pipeline.auto import AutoPath
from sitesift.pipeline.base import Parsed, site_pages
from sitesift.pipeline.forum import forum_profile
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.methods.template.profile import SiteProfile


log = logging.getLogger(__name__)


class Extractor(AutoPath):
    """Runs one configured extraction over pages. Holds options and, optionally, the store of
    saved site profiles; nothing else carries over from one page or run to the next."""

    def extract(self, page: Page) -> Record:
        """The record of ``page`` by the single-page method; failures become ``error``
        records, never exceptions."""
        if self.options.method == "visual":
            return next(self._extract_visual([page]))
        record = Record(id=page.id, url=page.url, site=page.site)
        parsed = self._parsed(record, page)
        if parsed is not None:
            self._finished(record, page, parsed)
        return record

    def extract_many(self, pages: Iterable[Page]) -> Iterator[Record]:
        """Records of ``pages`` in input order. With the page method this streams (pages are
        read as records go out); site-level methods read the batch, group it by site, and
        yield the records once their sites are done."""
        if self.options.method == "visual":
            yield from self._extract_visual(pages)
            return
        if self.options.method == "auto" and self.options.visual_fallback:
            self._open_browser()  # a missing browser fails here, before any record
        if self.options.method not in SITE_METHODS:
            if self.options.site_titles:
                yield from self._extract_pages_by_site(list(pages))
                return
            for page in pages:
                yield self.extract(page)
            return
        yield from self._extract_sites(list(pages))

    def _extract_pages_by_site(self, pages: list[Page]) -> list[Record]:
        """The page method over a batch read whole, titles learned per given site key."""
        records, parsed = self._prepare(pages)
        groups: dict[str, list[int]] = defaultdict(list)
        for i in sorted(parsed):
            if pages[i].site is not None:
                groups[pages[i].site].append(i)
        for members in groups.values():
            self._learn_titles(members, pages, parsed)
        for i in sorted(parsed):
            self._finished(records[i], pages[i], parsed[i])
        return records

    def learn(self, pages: Iterable[Page]) -> list[SiteProfile]:
        """Learn the site profiles of ``pages`` (saved to the store when there is one), without
        returning records: each site is learned afresh, as in a template run, whatever the store
        holds. Pages that cannot be parsed are left out of learning."""
        batch = list(pages)
        records, parsed = self._prepare(batch)
        groups, discovered = self._group_by_site(batch, parsed)
        profiles = [
            self._learn_site(site, members, batch, records, parsed, lasting=site not in discovered)
            for site, members in groups.items()
        ]
        if discovered and self.profiles is not None:
            log.warning("%d site(s) found by clustering were not saved: their names hold for "
                        "this run only (give sites or URLs to save profiles)", len(discovered))
        return [p for p in profiles if p is not None]

    def _learn_site(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], *, lasting: bool,
    ) -> SiteProfile | None:
        """``learn`` of one site: its templates afresh; its forum rules afresh too with the
        forum method (kept as saved when these pages show no forum), else kept as saved."""
        if self.options.method == "siblings":  # nothing to learn: the pages are the model
            self._extract_siblings(site, members, pages, records, parsed, lasting=lasting)
            return None
        rules = None
        if self.options.method == "forum" and len(members) >= 2:  # before trees are edited
            from sitesift.methods.forum.method import ForumMethod

            method = ForumMethod()
            forum = self._learn_with(method, site, site_pages(site, members, pages, parsed))
            rules = method.to_profile(forum) if forum is not None else None
        profile = self._extract_site(site, members, pages, records, parsed, lasting=lasting,
                                     relearn=True)
        if profile is not None and rules is not None:
            profile = forum_profile(site, rules, len(members), profile)
            if lasting and self.profiles is not None:
                self.profiles.put(profile)
        return profile

    def _extract_sites(self, pages: list[Page]) -> list[Record]:
        # With saved profiles, pages that a template wrapper reads skip the page-level metadata
        # and links: ``_extract_site`` reads them for the other pages.
        records, parsed = self._prepare(
            pages, read=not (self.options.method == "template" and self.profiles is not None))
        groups, discovered = self._group_by_site(pages, parsed)
        extract_site = {
            "forum": self._extract_forum_site, "auto": self._extract_auto_site,
            "siblings": self._extract_siblings,
        }.get(self.options.method, self._extract_site)
        for site, members in groups.items():
            extract_site(site, members, pages, records, parsed, lasting=site not in discovered)
            # A site's trees and what was read off them (``Parsed``) once its records are
            # written: no later site reads them. Freed here, not all at the batch's end: the
            # same work, with fewer live objects for the collector's passes over the later
            # sites and a lower peak (502 pages of end_to_end.py in process: 524 -> 422 MB).
            for i in members:
                parsed.pop(i, None)
        return records

    def extract_with(
        self, method: SiteMethod[Any], pages: Iterable[Page], *,
        models: Mapping[str, Any] | None = None,
    ) -> tuple[list[Record], dict[str, Any]]:
        """Records of ``pages`` by ``method`` (``sitesift.methods.interface``), and the model
        of each site that has one. Pages are grouped by site and parsed once; a site's titles
        are learned (paper 003, as on every site-level path); its model is learned from its
        untouched trees, given the model ``models`` holds for it (e.g. read
        back with ``method.from_profile``) to reuse; each page is looked at by the method
        (untouched), gets the page method's record, then the method's decision; last, the
        method reviews the site's records.
        A site whose learning fails keeps the page method; a page whose step fails becomes an
        error record, as everywhere."""
        batch = list(pages)
        records, parsed = self._prepare(batch)
        groups, _discovered = self._group_by_site(batch, parsed)
        learned: dict[str, Any] = {}
        for site, members in groups.items():
            model = self._run_method(method, site, members, batch, records, parsed,
                                     saved=(models or {}).get(site))
            if model is not None:
                learned[site] = model
        return records, learned


def extract_html(html: str, *, url: str | None = None, options: Options | None = None,
                 crawled: datetime | date | None = None) -> Record:
    """Convenience for one page held as a string: ``extract_html(html).text``. ``crawled``:
    when the page was fetched (``Page.crawled``), which relative dates are read against."""
    return Extractor(options).extract(Page(id=url or "page", url=url, html=html,
                                           crawled=crawled))
