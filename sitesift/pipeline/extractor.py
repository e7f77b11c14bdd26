"""The ``Extractor``: the public surface of the pipeline, and which path a run takes.

The paths live beside it, one module per method (``template``, ``siblings``, ``forum``,
``visual``, ``auto``), over the steps they share (``base``)."""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from sitesift.methods.interface import SiteMethod, SitePage
from sitesift.options import SITE_METHODS, Options
from sitesift.output.render import to_text
from sitesift.parse.dom import drop_keep_tail
from sitesift.pipeline.auto import AutoPath
from sitesift.pipeline.base import Parsed
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
        parsed = self._guarded(record, page, functools.partial(self._parse, page))
        if isinstance(parsed, Parsed):
            self._guarded(record, page, functools.partial(self._finish, record, page, parsed))
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
            finish = functools.partial(self._finish, records[i], pages[i], parsed[i])
            self._guarded(records[i], pages[i], finish)
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
        forum = None
        if self.options.method == "forum" and len(members) >= 2:  # before trees are edited
            forum = self._forum_site(site, members, pages, parsed, None)
        profile = self._extract_site(site, members, pages, records, parsed, lasting=lasting,
                                     relearn=True)
        if profile is not None and forum is not None and forum.is_forum:
            profile = forum_profile(site, forum, profile)
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
        return records

    def extract_with(
        self, method: SiteMethod[Any], pages: Iterable[Page], *,
        models: Mapping[str, Any] | None = None,
    ) -> tuple[list[Record], dict[str, Any]]:
        """Records of ``pages`` by ``method`` (``sitesift.methods.interface``), and the model
        of each site that has one. Pages are grouped by site and parsed once; a site's model is
        taken from ``models`` (e.g. read back with ``method.from_profile``) or learned from its
        untouched trees; each page is looked at by the method (untouched), gets the page
        method's record, then the method's decision.
        A site whose learning fails keeps the page method; a page whose step fails becomes an
        error record, as everywhere."""
        batch = list(pages)
        records, parsed = self._prepare(batch)
        groups, _discovered = self._group_by_site(batch, parsed)
        learned: dict[str, Any] = {}
        for site, members in groups.items():
            seen = [SitePage(id=batch[i].id, url=batch[i].url, root=parsed[i].root,
                             meta=parsed[i].meta) for i in members]  # type: ignore[arg-type]
            model = (models or {}).get(site)
            if model is None:
                model = self._learn_with(method, site, seen)
            if model is not None:
                learned[site] = model
            for i, site_page in zip(members, seen, strict=True):
                records[i].site = records[i].site or site
                step = functools.partial(self._finish_with, records[i], batch[i], parsed[i],
                                         method, model, site_page)
                self._guarded(records[i], batch[i], step)
        return records, learned

    @staticmethod
    def _learn_with(method: SiteMethod[Any], site: str, pages: list[SitePage]) -> Any:
        """``method.learn`` on one site; None (the page method) when it fails."""
        try:
            return method.learn(pages)
        except Exception:  # a bug in learning must not lose the site's pages
            log.exception("learning site %s with method %s failed; its pages get the page "
                          "method", site, method.name)
            return None

    def _finish_with(
        self, record: Record, page: Page, parsed: Parsed, method: SiteMethod[Any],
        model: Any, site_page: SitePage,
    ) -> None:
        """``method``'s look at the untouched page, the page method's record, then ``method``'s
        decision carried out on it."""
        if model is None:
            self._finish(record, page, parsed)
            return
        seen = method.look(model, site_page)
        content = self._finish(record, page, parsed)
        decision = method.apply(model, site_page, content, seen)
        removed = []
        for el, reason in decision.remove:
            removed.append({"text": to_text([el]), "reason": reason})
            drop_keep_tail(el)
        gone = {id(el) for el, _reason in decision.remove}
        content = dataclasses.replace(
            content, nodes=tuple(n for n in content.nodes if id(n) not in gone))
        record.text = content.text
        if "markdown" in record.extra:
            record.extra["markdown"] = content.markdown
        for name in ("title", "published", "author", "page_type"):
            value = getattr(decision, name)
            if value is not None:
                setattr(record, name, value)
        record.method = method.name
        record.extra[method.name] = {"removed": removed}


def extract_html(html: str, *, url: str | None = None, options: Options | None = None) -> Record:
    """Convenience for one page held as a string: ``extract_html(html).text``."""
    return Extractor(options).extract(Page(id=url or "page", url=url, html=html))
