"""``auto``'s path: every method the site's pages give evidence for, then the site's field
slots, a visual vote where the DOM methods disagree, and the forum's posts where they
hold the page's text."""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections import defaultdict
from typing import TYPE_CHECKING

import lxml.etree
import lxml.html

from sitesift.pipeline.base import Parsed, Step, site_pages
from sitesift.pipeline.forum import ForumPath, saved_forum
from sitesift.pipeline.siblings import SiblingsPath
from sitesift.pipeline.template import TemplatePath
from sitesift.pipeline.visual import VisualPath
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.methods.auto.site_types import OwnPart
    from sitesift.methods.interface import SitePage
    from sitesift.parse.signatures import RelaxedLabels

log = logging.getLogger(__name__)


class AutoPath(TemplatePath, SiblingsPath, ForumPath, VisualPath):
    """``auto`` over one site's pages."""

    def _extract_auto_site(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], *, lasting: bool,
    ) -> None:
        """``auto``: every method the site's pages give evidence for. One page: the page
        method. Several: templates (paper 000) and sibling blocks (paper 004) both remove
        noise (a block removed by either goes: on every dev set at least as good as the
        better of the two, docs/design/siblings.md); the site's URL clusters and post rules (paper
        001) give page types, and thread pages their posts."""
        if len(members) < 2:
            for i in members:
                records[i].site = records[i].site or site
                self._finished(records[i], pages[i], parsed[i])
            return
        from sitesift.methods.auto.threads import reads_as_thread
        from sitesift.methods.forum.method import ForumMethod
        from sitesift.parse.signatures import RelaxedLabels

        saved = self._saved(site, lasting)
        labels = RelaxedLabels()
        for i in members:
            parsed[i].labels = labels
        seen = site_pages(site, members, pages, parsed)
        # Both read the untouched trees, so they learn before any page is extracted.
        forum_method, siblings = ForumMethod(), self._siblings()
        forum = self._learn_with(forum_method, site, seen, saved_forum(forum_method, saved))
        own = self._own_parts(site, seen)
        index = self._learn_with(siblings, site, seen)
        steps = {i: (Step(siblings, index, page),) for i, page in zip(members, seen, strict=True)
                 } if index is not None else {}
        profile = self._extract_site(site, members, pages, records, parsed, lasting=lasting,
                                     steps=steps)
        self._field_slots(site, members, pages, records, parsed, labels)
        if self.options.visual_fallback:
            self._visual_vote([i for i in members if parsed[i].stages], pages, records, parsed)
        if forum is None:
            return
        for j, i in enumerate(members):
            if forum.posts[j] and not reads_as_thread(forum.posts[j], records[i].text):
                forum.posts[j] = []  # (the page stays what the page method read)
        self._review(forum_method, site, forum, seen, [records[i] for i in members])
        if not forum.is_forum and own is not None:
            self._own_types([records[i] for i in members], own, forum.archives,
                            forum.own_posts)
        if saved is None or saved.forum is None:
            self._keep_forum(site, forum_method, forum, profile, len(members), lasting=lasting)

    @staticmethod
    def _own_parts(site: str, seen: list[SitePage]) -> list[OwnPart] | None:
        """What each page adds to the site's template (``methods.auto.site_types``), read on
        the untouched trees; None when the reading fails (the types stand)."""
        from sitesift.methods.auto.site_types import own_parts

        try:
            return own_parts([page.root for page in seen], [page.url for page in seen])
        except Exception:  # a bug here must not cost the site its records
            log.exception("own parts failed on site %s", site)
            return None

    @staticmethod
    def _own_types(records: list[Record], own: list[OwnPart], lists: list[bool],
                   posts: list[bool]) -> None:
        """Page types from what each page adds to the template (``site_types``), with the
        reason in the record (``extra["auto"]["page_type"]``)."""
        from sitesift.methods.auto.site_types import site_types
        from sitesift.methods.page.kind import kind_of_type

        listed = lists if len(lists) == len(records) else [False] * len(records)
        typed = site_types([r.page_type for r in records], own, listed, posts,
                           dated=[bool(r.published) for r in records])
        for record, change in zip(records, typed, strict=True):
            if change is None or record.error is not None or change[0] == record.page_type:
                continue
            record.extra["auto"] = {**record.extra.get("auto", {}),
                                    "page_type": f"{record.page_type} -> {change[0]}: "
                                                 f"{change[1]}"}
            record.page_type = change[0]
            record.kind = kind_of_type(record.kind, change[0])  # (the type holds the kind)

    def _field_slots(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], labels: RelaxedLabels | None = None,
    ) -> None:
        """``auto``: delete from each page's main text the lines its cluster's pages show to be
        fields (``methods.auto.slots``: bylines, datelines, section labels). Pages whose DOM
        methods disagree keep the stage chosen for them. The pages of clusters too small to
        show a place (under ``MIN_CLUSTER_PAGES``) are pooled: one site names its fields
        alike across its layouts (auto body char F1 whole/a/b, zh-sites 0.9778/0.9794/0.9759
        -> 0.9781/0.9801/0.9759, 163's two-page clusters; big9, cleanportal, list-detail
        equal; the whole site as one group instead: big9-2005 nymag -0.0017)."""
        from sitesift.methods.auto.slots import MIN_CLUSTER_PAGES

        clusters: dict[object, list[int]] = defaultdict(list)
        for i in members:
            if records[i].error is None and parsed[i].content is not None \
                    and not parsed[i].stages and records[i].page_type != "list":
                clusters[records[i].extra.get("cluster")].append(i)
        small = [i for found in clusters.values() if len(found) < MIN_CLUSTER_PAGES for i in found]
        groups = [found for found in clusters.values() if len(found) >= MIN_CLUSTER_PAGES]
        for found in [*groups, small]:
            self._slot_group(site, found, pages, records, parsed, labels)

    def _slot_group(
        self, site: str, found: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], labels: RelaxedLabels | None = None,
    ) -> None:
        """One group of ``_field_slots``: paragraphs given back, field lines deleted, then
        standfirsts put first; a step that fails leaves the group's later steps out.
        ``labels``: the site's label memo."""
        from sitesift.methods.auto.recurrence import left_out_lines
        from sitesift.methods.auto.restore import dropped_paragraphs, standfirsts
        from sitesift.methods.auto.slots import field_lines

        try:
            back = dropped_paragraphs([(parsed[i].places, parsed[i].content.nodes)  # type: ignore[union-attr]
                                       for i in found])
        except Exception:  # a bug here must not cost the site its records
            log.exception("paragraph places failed on site %s", site)
            back = [[] for _ in found]
        for i, paragraphs in zip(found, back, strict=True):
            if paragraphs:
                self._guarded(records[i], pages[i], functools.partial(
                    self._restore, records[i], parsed[i], paragraphs))
        try:
            fields = field_lines([parsed[i].content.nodes for i in found],  # type: ignore[union-attr]
                                 labels, pictures=[parsed[i].pictured for i in found])
            left_out = left_out_lines([(parsed[i].printed, parsed[i].content.nodes)  # type: ignore[union-attr]
                                       for i in found])
        except Exception:  # a bug here must not cost the site its records
            log.exception("field slots failed on site %s", site)
            return
        for i, lines, more in zip(found, fields, left_out, strict=True):
            lines = [*lines, *(el for el in more if el not in lines)]
            if lines:
                self._guarded(records[i], pages[i], functools.partial(
                    self._drop_fields, records[i], parsed[i], lines))
        try:
            leads = standfirsts([(parsed[i].root, records[i].title,
                                  parsed[i].content.nodes) for i in found],  # type: ignore[union-attr]
                                labels, leads=[parsed[i].leads for i in found])
        except Exception:  # a bug here must not cost the site its records
            log.exception("standfirsts failed on site %s", site)
            return
        for i, lead in zip(found, leads, strict=True):
            if lead and records[i].text is not None:
                records[i].text = f"{lead}\n\n{records[i].text}"
                records[i].method = f"{records[i].method}+standfirst"
                if "markdown" in records[i].extra:
                    records[i].extra["markdown"] = f"{lead}\n\n{records[i].extra['markdown']}"

    def _restore(self, record: Record, parsed: Parsed,
                 paragraphs: list[lxml.html.HtmlElement]) -> None:
        """Give the main text back the ``paragraphs`` its cluster's pages show to be story
        (``methods.auto.restore.dropped_paragraphs``), in page order."""
        content = parsed.content
        assert content is not None
        order = {el: k for k, el in enumerate(parsed.root.iter(lxml.etree.Element))}
        nodes = sorted([*content.nodes, *paragraphs], key=lambda el: order.get(el, -1))
        parsed.content = dataclasses.replace(content, nodes=tuple(nodes))
        record.text = parsed.content.text
        record.method = f"{record.method}+restored"
        if self.options.output_format == "markdown":
            record.extra["markdown"] = parsed.content.markdown

    def _drop_fields(self, record: Record, parsed: Parsed,
                     lines: list[lxml.html.HtmlElement]) -> None:
        from sitesift.methods.auto.choose import text_size
        from sitesift.methods.auto.slots import delete_fields

        content = parsed.content
        assert content is not None
        if delete_fields(content.nodes, lines, text_size(record.text or ""), item=content.item):
            record.text = content.text
            record.method = f"{record.method}+fields"
            if self.options.output_format == "markdown":
                record.extra["markdown"] = content.markdown

    def _visual_vote(
        self, disagreeing: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed],
    ) -> None:
        """``auto`` with a browser: the pages whose DOM methods disagree are rendered, and the
        visual method's text picks among their DOM answers (``methods.auto.choose.vote``). A page
        that fails to render keeps the answer chosen without the browser."""
        from sitesift.methods.auto.choose import choose, vote

        seen = self._extract_visual([pages[i] for i in disagreeing])
        for i, visual in zip(disagreeing, seen, strict=True):
            stages, record = parsed[i].stages, records[i]
            if visual.error or not visual.text or record.error:
                continue
            stage, agreement = vote(stages, visual.text, default=choose(stages).stage)
            record.text, record.method = stage.text, f"{stage.method}+visual"
            if stage.markdown is not None:
                record.extra["markdown"] = stage.markdown
            record.extra["auto"] = {**record.extra.get("auto", {}), "visual": agreement}
