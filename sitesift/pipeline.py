"""From pages to records: the one place that runs extractors and turns failures into records.

``Extractor`` owns the options of a run. ``extract`` handles one page with the single-page
method; ``extract_many`` a batch, in input order, one record per page whatever happens to it.
With a site-level method (``template``) the batch is grouped by site first: a site's pages are
learned together, then each page is cleaned with the template of its cluster. The ``visual``
method renders pages in a browser pool (kept open until ``close()``) and segments each rendering.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import lxml.etree
import lxml.html

from sitesift.compare.list_titles import Link, learn_site_titles, page_links
from sitesift.errors import PageError, PageLimitError, ProfileError
from sitesift.extract.authors import thread_author
from sitesift.extract.content import Content, extract_content
from sitesift.extract.metadata import Metadata, extract_metadata
from sitesift.extract.title_place import near_heading
from sitesift.methods.interface import SiteMethod, SitePage
from sitesift.options import SITE_METHODS, Options
from sitesift.output.render import to_text
from sitesift.parse import parse_html
from sitesift.parse.dom import drop_keep_tail
from sitesift.record import Page, Record
from sitesift.similarity import shingle_prf
from sitesift.timelimit import time_limit

if TYPE_CHECKING:
    from sitesift.compare.features import PageFeatures
    from sitesift.compare.profile import SiteProfile
    from sitesift.compare.siblings import SiblingSite
    from sitesift.compare.signatures import RelaxedLabels
    from sitesift.compare.slots import Printed
    from sitesift.compare.store import ProfileStore
    from sitesift.compare.template import PathFinder, Step, TemplateModel
    from sitesift.compare.wrapper import LearningPage, Votes
    from sitesift.extract.choose import Stage
    from sitesift.extract.pagetype import ForumSite
    from sitesift.render import BrowserPool, Rendering
    from sitesift.segment.visual import VisualSegmenter

__all__ = ["Extractor", "extract_html"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Wrapped:
    """A page its template's wrapper reads: its paths, and its content container."""

    finder: PathFinder
    container: lxml.html.HtmlElement


@dataclass(slots=True)
class _Parsed:
    """A page parsed once, with what every method reads before the tree is edited."""

    root: lxml.html.HtmlElement
    #: None until read (``Extractor._read``): pages a template wrapper reads never need it.
    meta: Metadata | None
    features: PageFeatures | None = None
    #: Item links (title-like anchors), read before content extraction prunes the tree.
    links: list[Link] = dataclasses.field(default_factory=list)
    #: ``auto``: the main text after each step of the DOM methods (``extract.choose``).
    stages: list[Stage] = dataclasses.field(default_factory=list)
    #: ``auto``: the main block after the DOM methods' steps (the field-slot step edits it).
    content: Content | None = None
    #: ``auto``: the main block's elements right after a picture, read before the steps.
    pictured: set[lxml.html.HtmlElement] = dataclasses.field(default_factory=set)
    #: ``auto``: the block after each headline, read before the page extractor edits the tree.
    leads: dict[str, lxml.html.HtmlElement] | None = None
    #: ``auto``: the page's paragraphs and their places, read before the page extractor.
    places: dict[lxml.html.HtmlElement, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    #: ``auto``: the page's lines of several words and their places, read before the page
    #: extractor (``compare.slots.printed_lines``).
    printed: list[Printed] = dataclasses.field(default_factory=list)
    #: ``meta`` is read but the links are not (a template's field sources read the fields, or
    #: a wrapper gave the page back): ``Extractor._read_all`` reads them.
    links_unread: bool = False


class Extractor:
    """Runs one configured extraction over pages. Holds options and, optionally, the store of
    saved site profiles; nothing else carries over from one page or run to the next."""

    def __init__(
        self, options: Options | None = None, *, profiles: ProfileStore | None = None
    ) -> None:
        self.options = options or Options()
        self.profiles = profiles
        self._pool: BrowserPool | None = None
        self._segmenter: VisualSegmenter | None = None

    def close(self) -> None:
        """Close the browser the ``visual`` method opened (if any)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def __enter__(self) -> Extractor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one page -------------------------------------------------------------------------

    def extract(self, page: Page) -> Record:
        """The record of ``page`` by the single-page method; failures become ``error``
        records, never exceptions."""
        if self.options.method == "visual":
            return next(self._extract_visual([page]))
        record = Record(id=page.id, url=page.url, site=page.site)
        parsed = self._guarded(record, page, functools.partial(self._parse, page))
        if isinstance(parsed, _Parsed):
            self._guarded(record, page, functools.partial(self._finish, record, page, parsed))
        return record

    # -- a batch ---------------------------------------------------------------------------

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

    def _learn_titles(
        self, members: list[int], pages: list[Page], parsed: dict[int, _Parsed],
    ) -> None:
        """Choose the titles of a site's pages again, knowing the site's <title> decoration
        and the anchor texts linking to each page (``compare.list_titles``, paper 003).

        A failure here keeps the page-level titles: it must not cost any page its record."""
        try:
            site = learn_site_titles(
                [(pages[i].id, meta.title_candidates if (meta := parsed[i].meta) else None,
                  parsed[i].links) for i in members])
        except Exception:
            log.exception("learning the titles of a site failed; page-level titles kept")
            return
        for i in members:
            meta = parsed[i].meta
            candidates = meta.title_candidates if meta is not None else None
            if meta is None or candidates is None:
                continue
            try:
                title = site.choose(candidates, url=pages[i].url, page_id=pages[i].id)
            except Exception:
                log.exception("choosing the title of page %s failed; page-level title kept",
                              pages[i].id)
                continue
            parsed[i].meta = dataclasses.replace(meta, title=title,
                                                 title_candidates=site.cleaned(candidates))

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
        parsed: dict[int, _Parsed], *, lasting: bool,
    ) -> SiteProfile | None:
        """``learn`` of one site: its templates afresh; its forum rules afresh too with the
        forum method (kept as saved when these pages show no forum), else kept as saved."""
        forum = None
        if self.options.method == "forum" and len(members) >= 2:  # before trees are edited
            forum = self._forum_site(site, members, pages, parsed, None)
        profile = self._extract_site(site, members, pages, records, parsed, lasting=lasting,
                                     relearn=True)
        if profile is not None and forum is not None and forum.is_forum:
            profile = forum.profile(site, profile)
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
        }.get(self.options.method, self._extract_site)
        for site, members in groups.items():
            extract_site(site, members, pages, records, parsed, lasting=site not in discovered)
        return records

    def _prepare(
        self, pages: list[Page], *, read: bool = True,
    ) -> tuple[list[Record], dict[int, _Parsed]]:
        """A record per page, and the pages that parsed (``read``: with metadata and links)."""
        records = [Record(id=p.id, url=p.url, site=p.site) for p in pages]
        parsed: dict[int, _Parsed] = {}
        for i, page in enumerate(pages):
            step = functools.partial(self._parse, page, read=read)
            result = self._guarded(records[i], page, step)
            if isinstance(result, _Parsed):
                parsed[i] = result
        return records, parsed

    def _read_all(
        self, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, _Parsed],
    ) -> list[int]:
        """Read metadata and links of the ``members`` that lack them; returns those that have
        them (a page whose reading fails becomes an error record)."""
        kept = []
        for i in members:
            if parsed[i].meta is None:
                self._guarded(records[i], pages[i], functools.partial(
                    self._read, pages[i], parsed[i]))
            elif parsed[i].links_unread:
                parsed[i].links = _links(pages[i], parsed[i].root)
            if parsed[i].meta is not None:
                kept.append(i)
        return kept

    def _features(
        self, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, _Parsed], *, structure: bool, labels: RelaxedLabels,
    ) -> list[int]:
        """Compute the site features of ``members`` (in place); returns those that have them
        (a page whose features fail becomes an error record)."""
        from sitesift.compare.features import page_features

        kept = []
        for i in members:
            step = functools.partial(page_features, parsed[i].root, structure=structure,
                                     strings=False, labels=labels)
            features = self._guarded(records[i], pages[i], step)
            if features is not None:
                parsed[i].features = features  # type: ignore[assignment]
                kept.append(i)
        return kept

    def _group_by_site(
        self, pages: list[Page], parsed: dict[int, _Parsed]
    ) -> tuple[dict[str, list[int]], set[str]]:
        """Pages by site key, and the names of the sites found by site discovery (pages
        without a key): those names hold for this run only, so they are never saved."""
        groups: dict[str, list[int]] = defaultdict(list)
        unknown = []
        for i in sorted(parsed):
            if pages[i].site is not None:
                groups[pages[i].site].append(i)
            else:
                unknown.append(i)
        if unknown:
            from sitesift.compare.cluster import discover_sites

            labels = discover_sites([parsed[i].root for i in unknown])
            for i, label in zip(unknown, labels, strict=True):
                groups[f"site-{int(label)}"].append(i)
        discovered = {f"site-{int(label)}" for label in labels} if unknown else set()
        return groups, discovered

    def _extract_site(
        self,
        site: str,
        members: list[int],
        pages: list[Page],
        records: list[Record],
        parsed: dict[int, _Parsed],
        *,
        lasting: bool,
        relearn: bool = False,
        siblings: SiblingSite | None = None,
    ) -> SiteProfile | None:
        """Records of one site's pages (in ``records``); returns the profile applied or learned
        (None when no page had features, or with the siblings method). ``lasting``: the site
        has a name beyond this run, so its profile is read from and written to the store (when
        there is one). ``relearn``: learn even when the store holds a profile (``learn``).
        ``siblings``: the site's sibling index over ``members`` (``auto``): a block removed
        by either method goes."""
        if self.options.method == "siblings":
            self._extract_siblings(site, members, pages, records, parsed)
            return None
        from sitesift.compare.signatures import RelaxedLabels
        from sitesift.compare.site import learn_site, with_anchors, with_containers, with_wrappers
        from sitesift.compare.template import container_key, element_steps
        from sitesift.compare.wrapper import WrapperLearner

        labels = RelaxedLabels()  # the pages of one site share most element labels
        store = self.profiles if lasting else None
        saved = self._saved(site, lasting)
        profile = None if relearn else saved
        # The forum method's rules, saved with the profile, outlive learning the templates
        # (a profile holding them only, or ``learn``).
        forum_rules = saved.forum if saved is not None else None
        if profile is not None and not profile.templates:
            profile = None  # saved by the forum method (its rules only): learn the templates
        place = {i: j for j, i in enumerate(members)}  # positions in the sibling index
        containers: list[lxml.html.HtmlElement | None]
        learner: WrapperLearner | None = None
        if profile is not None:
            members, models, containers, clusters = self._apply_saved(
                site, members, pages, records, parsed, profile, labels)
            if not members:
                return profile
            member = False
        else:
            members = self._read_all(members, pages, records, parsed)
            self._learn_titles(members, pages, parsed)
            members = self._features(members, pages, records, parsed, structure=True,
                                     labels=labels)
            if not members:
                return None
            features = [parsed[i].features for i in members]
            containers = [None] * len(members)
            learned = learn_site(site, features)  # type: ignore[arg-type]
            # A profile that will be saved learns its templates' content containers from
            # where the page extractor finds the main block, and their anchors (paths read
            # before it edits the trees); with the template method alone, their wrappers.
            saving = store is not None or relearn
            steps = [element_steps(parsed[i].root, labels=labels) if saving else {}
                     for i in members]
            if saving:
                learned = with_anchors(learned, features,  # type: ignore[arg-type]
                                       [(parsed[i].root, steps[j]) for j, i in enumerate(members)])
            if saving and siblings is None:
                learner = WrapperLearner(labels)
            models, clusters, member = learned.templates, learned.clusters, True  # type: ignore[assignment]
        keys: list[tuple[tuple[int, int], ...] | None] = []
        for j, i in enumerate(members):
            record, model = records[i], models[j]
            record.site = record.site or site
            record.extra["cluster"] = clusters[j]
            finish = functools.partial(
                self._finish, record, pages[i], parsed[i], model, member=member,
                within=containers[j], siblings=(siblings, place[i]) if siblings else None,
            )
            if learner is not None:
                learner.before(j, parsed[i].root)
            content = self._guarded(record, pages[i], finish)
            if profile is None and saving:
                ok = isinstance(content, Content)
                keys.append(container_key(content.nodes[0], steps[j], parsed[i].root)
                            if ok else None)
                if learner is not None:
                    learner.after(j, content.nodes[0] if ok else None)
        if profile is None:
            learned = with_containers(learned, keys) if saving else learned
            if learner is not None:
                learned = with_wrappers(learned, [
                    _learning_page(learner.votes[j], key, pages[i], records[i])
                    if j in learner.votes and key is not None else None
                    for j, (i, key) in enumerate(zip(members, keys, strict=True))],
                    labels=labels)
            profile = learned.profile
            if forum_rules is not None:
                profile = dataclasses.replace(profile, forum=forum_rules)
            if not profile.templates and saved is not None and saved.templates:
                # Pages that teach no template (too few of a kind) say nothing against the
                # saved ones: relearning from them would drop data, not correct it.
                log.warning("site %s: %d page(s) teach no template; its saved profile "
                            "(%d template(s)) is kept", site, len(members), len(saved.templates))
                profile = saved
            elif store is not None:
                store.put(profile)
        return profile

    def _apply_saved(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, _Parsed], profile: SiteProfile, labels: RelaxedLabels,
    ) -> tuple[list[int], list[TemplateModel | None], list[lxml.html.HtmlElement | None],
               list[str]]:
        """A site's pages with its saved profile: each page's template from its anchors.
        Pages of a template with a wrapper are read by it (compare/wrapper.py) and their
        records filled here; returns the other pages (for the full method) with their
        templates, content containers and cluster ids. Those get the content signatures of
        their container (compare/template.py, steps 5 and 6)."""
        found = {i: self._guarded(records[i], pages[i], functools.partial(
            self._assign, profile, parsed[i], labels, pages[i])) for i in members}
        read = {}  # pages a wrapper read: their main blocks
        for i in members:
            if found[i] is not None and found[i][2] is not None:  # type: ignore[index]
                main = self._guarded(records[i], pages[i], functools.partial(
                    self._wrap, pages[i], parsed, i, found))
                if main is not None:
                    read[i] = main
        rest = self._read_all([i for i in members if found[i] is not None
                               and i not in read and records[i].error is None],
                              pages, records, parsed)
        self._learn_titles(sorted(rest + list(read)), pages, parsed)
        for i, main in read.items():
            self._guarded(records[i], pages[i], functools.partial(
                self._finish_wrapped, records[i], parsed[i], site, found[i][0],  # type: ignore[index]
                main))
        for i in rest:
            if found[i][0] is not None:  # type: ignore[index]
                self._guarded(records[i], pages[i], functools.partial(
                    self._signatures, parsed[i], found[i][1], labels))  # type: ignore[index]
        models = [found[i][0] for i in rest]  # type: ignore[index]
        containers = [found[i][1] for i in rest]  # type: ignore[index]
        clusters = [m.cluster if m else f"{site}#new-{j}" for j, m in enumerate(models)]
        return rest, models, containers, clusters

    def _assign(
        self, profile: SiteProfile, parsed: _Parsed, labels: RelaxedLabels, page: Page,
    ) -> tuple[TemplateModel | None, lxml.html.HtmlElement | None, _Wrapped | None]:
        """The saved template of a page and its content container there (None: the whole
        page), and, when the template's wrapper reads it, what the wrapper needs. With the
        template method and wrappers on, a template's field sources give the page its title,
        date and author (``parsed.meta``) when the page has them all where learned."""
        from sitesift.compare.features import PageFeatures
        from sitesift.compare.template import PathFinder

        finder = PathFinder(parsed.root, labels=labels)
        model, _share, signatures = profile.assign_page(finder, exact=False)
        if signatures is not None:
            parsed.features = PageFeatures(signatures=signatures)
        if model is None:
            return None, None, None
        container = finder.find(model.container)  # (<body> for the empty path)
        within = container if model.container else None
        if self.options.method != "template" or not self.options.wrappers:
            return model, within, None
        if model.fields is not None:
            values = model.fields.read(finder, url=page.url)
            if values is not None:
                parsed.meta = Metadata(title=values["title"], author=values["author"],
                                       published=values["published"])
                parsed.links_unread = True
        if model.wrapper is not None and container is not None:
            return model, within, _Wrapped(finder, container)
        return model, within, None

    @staticmethod
    def _signatures(
        parsed: _Parsed, within: lxml.html.HtmlElement | None, labels: RelaxedLabels,
    ) -> None:
        """Content signatures of the content container (or the page), which DeleteSame reads."""
        from sitesift.compare.features import PageFeatures
        from sitesift.compare.template import content_signatures

        if parsed.features is None:
            top = within if within is not None else parsed.root
            parsed.features = PageFeatures(signatures=content_signatures(top, labels=labels))

    def _wrap(
        self, page: Page, parsed: dict[int, _Parsed], i: int,
        found: dict[int, tuple[TemplateModel | None, lxml.html.HtmlElement | None,
                               _Wrapped | None] | None],
    ) -> lxml.html.HtmlElement | None:
        """Read page ``i`` with its template's wrapper: the page-level metadata first when its
        field sources did not read it (``_assign``), links on list pages (their records carry
        them), then its main block. A page the wrapper does not fit (``Wrapper.fits``), or
        fails on, is parsed again and left to the full method on the whole page (``found[i]``
        says so): returns None."""
        model, _within, wrapped = found[i]  # type: ignore[misc]
        wrapper = model.wrapper
        if parsed[i].meta is None:
            parsed[i].meta = extract_metadata(parsed[i].root, url=page.url)
        if wrapper.page_type == "list":
            parsed[i].links = _links(page, parsed[i].root)
        main = wrapped.container
        try:
            kept = wrapper.apply(main, model.container, labels=wrapped.finder.labels)
            if wrapper.fits(main, kept):
                return main
        except PageError:
            raise
        except Exception:  # a bug in the fast path must not cost the page: the full method
            log.exception("the wrapper of %s failed on page %s", model.cluster, page.id)
        fresh = self._parse(page, read=False)
        fresh.meta = parsed[i].meta  # (read from the untouched tree)
        fresh.links_unread = True
        parsed[i] = fresh
        found[i] = (model, None, None)
        return None

    def _finish_wrapped(
        self, record: Record, parsed: _Parsed, site: str, model: TemplateModel,
        main: lxml.html.HtmlElement,
    ) -> None:
        """Fill ``record`` of a page that its template's wrapper read (``_wrap``): its main
        block as the wrapper left it, its fields as read (placed as the page method places
        them when the page-level metadata read them)."""
        from sitesift.output.render import to_markdown, to_text

        wrapper, meta = model.wrapper, parsed.meta
        assert wrapper is not None and meta is not None
        record.site = record.site or site
        record.extra["cluster"] = model.cluster
        record.method = "template"
        record.extra["wrapper"] = True
        record.title = near_heading(meta, [main], parsed.root,
                                    list_page=wrapper.page_type == "list")
        record.published, record.author = meta.published, meta.author
        record.text = to_text([main])
        record.page_type = wrapper.page_type
        if record.page_type == "list":
            record.extra["links"] = [link.to_dict() for link in parsed.links]
        if self.options.output_format == "markdown":
            record.extra["markdown"] = to_markdown([main])

    def _extract_siblings(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, _Parsed],
    ) -> None:
        """Paper 004: each page against its same-layer pages (one page alone: the page method)."""
        self._learn_titles(members, pages, parsed)
        index = self._sibling_index(site, members, pages, parsed)
        for j, i in enumerate(members):
            records[i].site = records[i].site or site
            same = (index, j) if index is not None else None
            finish = functools.partial(self._finish, records[i], pages[i], parsed[i], siblings=same)
            self._guarded(records[i], pages[i], finish)

    def _sibling_index(
        self, site: str, members: list[int], pages: list[Page], parsed: dict[int, _Parsed],
    ) -> SiblingSite | None:
        """The site's sibling index over its untouched trees (None for one page, or when
        indexing fails: those pages keep the other methods)."""
        from sitesift.compare.siblings import SiblingSite

        if len(members) < 2:
            return None
        try:
            return SiblingSite(
                [parsed[i].root for i in members], [pages[i].url for i in members],
                tag_similarity=self.options.sibling_tag_similarity,
                text_similarity=self.options.sibling_text_similarity,
                max_slide=self.options.sibling_max_slide,
            )
        except Exception:  # a bug in indexing must not lose the site: page method
            log.exception("indexing the pages of site %s failed", site)
            return None

    def _forum_site(
        self, site: str, members: list[int], pages: list[Page], parsed: dict[int, _Parsed],
        saved: SiteProfile | None,
    ) -> ForumSite | None:
        """Page types and forum rules of a site, from its untouched trees (None on failure:
        the pages keep the page method's types)."""
        from sitesift.extract.pagetype import apply_forum_site

        try:
            return apply_forum_site([parsed[i].root for i in members],
                                    [pages[i].url for i in members], saved,
                                    htmls=[pages[i].html for i in members])
        except Exception:  # a bug in site learning must not lose the site's pages
            log.exception("forum rules failed on site %s; its pages get the page method", site)
            return None

    def _saved(self, site: str, lasting: bool) -> SiteProfile | None:
        """The site's saved profile; None when there is none, no store, or the site's name
        holds for this run only. A stale or corrupt profile is None too: learned again."""
        store = self.profiles if lasting else None
        if store is None:
            return None
        try:
            return store.get(site)
        except ProfileError as exc:
            log.warning("%s; learning it again", exc)
            return None

    def _extract_auto_site(
        self,
        site: str,
        members: list[int],
        pages: list[Page],
        records: list[Record],
        parsed: dict[int, _Parsed],
        *,
        lasting: bool,
    ) -> None:
        """``auto``: every method the site's pages give evidence for. One page: the page
        method. Several: templates (paper 000) and sibling blocks (paper 004) both remove
        noise (a block removed by either goes: on every dev set at least as good as the
        better of the two, docs/siblings.md); the site's URL clusters and post rules (paper
        001) give page types, and thread pages their posts."""
        if len(members) < 2:
            for i in members:
                records[i].site = records[i].site or site
                finish = functools.partial(self._finish, records[i], pages[i], parsed[i])
                self._guarded(records[i], pages[i], finish)
            return
        saved = self._saved(site, lasting)
        # Both read the untouched trees, so they run before any page is extracted.
        forum = self._forum_site(site, members, pages, parsed, saved)
        index = self._sibling_index(site, members, pages, parsed)
        profile = self._extract_site(site, members, pages, records, parsed, lasting=lasting,
                                     siblings=index)
        self._field_slots(site, members, pages, records, parsed)
        if self.options.visual_fallback:
            self._visual_vote([i for i in members if parsed[i].stages], pages, records, parsed)
        if forum is None:
            return
        for j, i in enumerate(members):
            # A forum thread's posts are its main text; a news story's comments are posts too,
            # but the story is the main text and holds none of them: those pages stay articles.
            # Nor does a thread's text replace a main text it holds little of (a story's
            # standfirst read as a "first post"): what it would drop lies outside any post.
            posts = forum.posts[j]
            if posts and not (any(_holds(records[i].text, post["text"]) for post in posts)
                              and _thread_holds(posts, records[i].text)):
                forum.posts[j] = []
        forum.fill([records[i] for i in members])
        store = self.profiles if lasting else None
        if store is not None and forum.is_forum and (saved is None or saved.forum is None):
            store.put(forum.profile(site, profile))

    def _field_slots(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, _Parsed],
    ) -> None:
        """``auto``: delete from each page's main text the lines its cluster's pages show to be
        fields (``compare.slots``: bylines, datelines, section labels). Pages whose DOM
        methods disagree keep the stage chosen for them. The pages of clusters too small to
        show a place (under ``MIN_CLUSTER_PAGES``) are pooled: one site names its fields
        alike across its layouts (auto body char F1 whole/a/b, zh-sites 0.9778/0.9794/0.9759
        -> 0.9781/0.9801/0.9759, 163's two-page clusters; big9, cleanportal, list-detail
        equal; the whole site as one group instead: big9-2005 nymag -0.0017)."""
        from sitesift.compare.slots import (
            MIN_CLUSTER_PAGES,
            dropped_paragraphs,
            field_lines,
            left_out_lines,
            standfirsts,
        )

        clusters: dict[object, list[int]] = defaultdict(list)
        for i in members:
            if records[i].error is None and parsed[i].content is not None \
                    and not parsed[i].stages and records[i].page_type != "list":
                clusters[records[i].extra.get("cluster")].append(i)
        small = [i for found in clusters.values() if len(found) < MIN_CLUSTER_PAGES for i in found]
        groups = [found for found in clusters.values() if len(found) >= MIN_CLUSTER_PAGES]
        for found in [*groups, small]:
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
                                     pictures=[parsed[i].pictured for i in found])
                left_out = left_out_lines([(parsed[i].printed, parsed[i].content.nodes)  # type: ignore[union-attr]
                                           for i in found])
            except Exception:  # a bug here must not cost the site its records
                log.exception("field slots failed on site %s", site)
                continue
            for i, lines, more in zip(found, fields, left_out, strict=True):
                lines = [*lines, *(el for el in more if el not in lines)]
                if lines:
                    self._guarded(records[i], pages[i], functools.partial(
                        self._drop_fields, records[i], parsed[i], lines))
            try:
                leads = standfirsts([(parsed[i].root, records[i].title,
                                      parsed[i].content.nodes) for i in found],  # type: ignore[union-attr]
                                    leads=[parsed[i].leads for i in found])
            except Exception:  # a bug here must not cost the site its records
                log.exception("standfirsts failed on site %s", site)
                continue
            for i, lead in zip(found, leads, strict=True):
                if lead and records[i].text is not None:
                    records[i].text = f"{lead}\n\n{records[i].text}"
                    records[i].method = f"{records[i].method}+standfirst"
                    if "markdown" in records[i].extra:
                        records[i].extra["markdown"] = f"{lead}\n\n{records[i].extra['markdown']}"

    def _restore(self, record: Record, parsed: _Parsed,
                 paragraphs: list[lxml.html.HtmlElement]) -> None:
        """Give the main text back the ``paragraphs`` its cluster's pages show to be story
        (``compare.slots.dropped_paragraphs``), in page order."""
        content = parsed.content
        assert content is not None
        order = {el: k for k, el in enumerate(parsed.root.iter(lxml.etree.Element))}
        nodes = sorted([*content.nodes, *paragraphs], key=lambda el: order.get(el, -1))
        parsed.content = dataclasses.replace(content, nodes=tuple(nodes))
        record.text = parsed.content.text
        record.method = f"{record.method}+restored"
        if self.options.output_format == "markdown":
            record.extra["markdown"] = parsed.content.markdown

    def _drop_fields(self, record: Record, parsed: _Parsed,
                     lines: list[lxml.html.HtmlElement]) -> None:
        from sitesift.compare.slots import delete_fields
        from sitesift.extract.choose import text_size

        content = parsed.content
        assert content is not None
        if delete_fields(content.nodes, lines, text_size(record.text or "")):
            record.text = content.text
            record.method = f"{record.method}+fields"
            if self.options.output_format == "markdown":
                record.extra["markdown"] = content.markdown

    def _extract_forum_site(
        self,
        site: str,
        members: list[int],
        pages: list[Page],
        records: list[Record],
        parsed: dict[int, _Parsed],
        *,
        lasting: bool,
    ) -> None:
        """Forum method (paper 001, ``sitesift.extract.pagetype``): the site's post rule and
        URL clusters give page types and posts; every page also gets the page method's
        fields. A saved profile's forum rules are reused, new ones saved."""
        store = self.profiles if lasting else None
        saved = self._saved(site, lasting)
        self._learn_titles(members, pages, parsed)
        # Forum rules read the untouched trees, so they run before the page method edits them.
        forum = self._forum_site(site, members, pages, parsed, saved)
        for i in members:
            self._guarded(records[i], pages[i],
                          functools.partial(self._finish, records[i], pages[i], parsed[i]))
        if forum is None:
            return
        forum.fill([records[i] for i in members])
        if store is not None and forum.post_rule is not None and (saved is None or
                                                                  saved.forum is None):
            store.put(forum.profile(site, saved))

    def _extract_visual(self, pages: Iterable[Page]) -> Iterator[Record]:
        """Pages render in the browser pool ahead of the consumer (``render_concurrency`` at
        once); each is parsed for its metadata, then segmented from its rendering (paper 002).
        A missing browser raises ``BrowserUnavailable`` here, before any record."""
        pool = self._open_browser()
        limit = self.options.max_page_bytes
        ahead, pages = itertools.tee(pages)
        futures = pool.render_many(
            "" if p.error or len(p.html) > limit else p.html for p in ahead
        )
        for page, future in zip(pages, futures, strict=True):
            record = Record(id=page.id, url=page.url, site=page.site)
            parsed = self._guarded(record, page, functools.partial(self._parse, page))
            if isinstance(parsed, _Parsed):
                step = functools.partial(self._finish_visual, record, parsed, future.result)
                self._guarded(record, page, step)
            yield record

    def _open_browser(self) -> BrowserPool:
        """The browser pool and visual segmenter, opened on first use (``BrowserUnavailable``
        without Chromium or Playwright)."""
        from sitesift.render import BrowserPool
        from sitesift.segment.visual import VisualSegmenter

        if self._pool is None:
            self._pool = BrowserPool(
                concurrency=self.options.render_concurrency, timeout=self.options.page_timeout,
                javascript=self.options.render_javascript,
            )
            self._segmenter = VisualSegmenter(self.options.visual)
        return self._pool

    def _visual_vote(
        self, disagreeing: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, _Parsed],
    ) -> None:
        """``auto`` with a browser: the pages whose DOM methods disagree are rendered, and the
        visual method's text picks among their DOM answers (``extract.choose.vote``). A page
        that fails to render keeps the answer chosen without the browser."""
        from sitesift.extract.choose import choose, vote

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

    def _finish_visual(
        self, record: Record, parsed: _Parsed, rendering: Callable[[], Rendering]
    ) -> None:
        # The page-level title placed by the DOM story (cheap next to rendering): a site's name
        # in <title> would otherwise veto the headline's visual cues.
        placed = near_heading(parsed.meta, extract_content(parsed.root, url=record.url).nodes,
                              parsed.root)
        seg = self._segmenter.segment(  # type: ignore[union-attr]
            rendering(), declared_title=placed)
        record.method = "visual"
        record.title = seg.title_text or placed
        record.published = seg.time or parsed.meta.published
        record.author = parsed.meta.author
        record.text = seg.text
        record.extra["visual"] = {
            "blocks": len(seg.root.leaves()), "body_blocks": len(seg.body),
            "title": "visual" if seg.title_text else "metadata",
            "time": "visual" if seg.time else ("metadata" if record.published else None),
        }

    # -- a site-level method given as an object (docs/architecture.md) -------------------

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
        self, record: Record, page: Page, parsed: _Parsed, method: SiteMethod[Any],
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

    # -- steps -----------------------------------------------------------------------------

    def _guarded(self, record: Record, page: Page, step: Callable[[], object]) -> object:
        """Run ``step`` under the page's time limit; any failure becomes the record's error
        (and clears its fields). Returns the step's result, None on failure."""
        if page.error:
            record.error = page.error
            return None
        try:
            with time_limit(self.options.page_timeout):
                return step()
        except PageError as exc:
            record.error = str(exc)
        except RecursionError:
            record.error = "extract: page structure too deep to process"
        except MemoryError:
            record.error = "extract: out of memory on this page"
        except Exception as exc:  # a bug in an extractor must not lose the page
            log.exception("internal error on page %s", page.id)
            record.error = f"internal: {type(exc).__name__}: {exc}"
        record.title = record.author = record.published = record.text = None
        record.page_type = record.method = None
        record.extra = {k: v for k, v in record.extra.items() if k == "cluster"}
        return None

    def _parse(self, page: Page, *, read: bool = True) -> _Parsed:
        if len(page.html) > self.options.max_page_bytes:
            raise PageLimitError(
                f"page of {len(page.html):,} characters exceeds the limit of "
                f"{self.options.max_page_bytes:,} (Options.max_page_bytes)"
            )
        parsed = _Parsed(root=parse_html(page.html, max_elements=self.options.max_page_elements),
                         meta=None)
        if read:
            self._read(page, parsed)
        return parsed

    @staticmethod
    def _read(page: Page, parsed: _Parsed) -> None:
        """Metadata and links of the untouched tree (the content methods prune it after)."""
        parsed.meta = extract_metadata(parsed.root, url=page.url)
        parsed.links = _links(page, parsed.root)

    def _finish(
        self,
        record: Record,
        page: Page,
        parsed: _Parsed,
        model: TemplateModel | None = None,
        *,
        member: bool = False,
        within: lxml.html.HtmlElement | None = None,
        siblings: tuple[SiblingSite, int] | None = None,
    ) -> Content:
        """Fill ``record``; returns the content as the page extractor found it (before any
        site method's deletions), whose main block tells where a template's content sits.
        ``within``: the template's content container; ``siblings``: the site's sibling index
        and this page's place in it."""
        blocks = None
        if self.options.blocks or siblings is not None:
            from sitesift.segment.blocks import segment_blocks

            # (before the content extractor edits the tree; texts for the --blocks output only)
            blocks = segment_blocks(parsed.root, texts=self.options.blocks)
        verdicts = siblings[0].judge(siblings[1], blocks) if siblings and blocks else None
        site_steps = self.options.method == "auto" and (model is not None or siblings is not None)
        if site_steps:
            from sitesift.compare.slots import (
                headline_leads,
                paragraph_places,
                pictured,
                printed_lines,
            )

            parsed.leads = headline_leads(parsed.root)
            parsed.places = paragraph_places(parsed.root)
            parsed.printed = printed_lines(parsed.root)
        content = found = extract_content(parsed.root, url=page.url, within=within)
        self._stage(parsed, "page", content)
        if site_steps:
            parsed.pictured = pictured(content.nodes)
        # Both removals may apply (a block removed by either goes): template, then siblings.
        methods = []
        # ``auto`` reads a list page's items whole: the labels its items share with the
        # items of other list pages ("Top rated", "Save 25%") are the items' own, as their
        # headlines are (the sibling step below skips list pages for that reason).
        listed = self.options.method == "auto" and content.page_type == "list"
        if model is not None and parsed.features is not None and not listed:
            from sitesift.compare.site import clean_content

            content = clean_content(content, parsed.features, model, member=member,
                                    items=self.options.method == "auto")
            methods.append("template")
            self._stage(parsed, "template", content)
        # Paper 004 is for articles: on a list page the items' headlines recur, as headlines,
        # in the articles they link to, and would all go.
        if verdicts is not None and blocks is not None and content.page_type == "detail":
            from sitesift.compare.siblings import clean_content as clean_siblings

            content = clean_siblings(content, blocks, verdicts)
            methods.append("siblings")
            self._stage(parsed, "+".join(methods), content)
        record.method = "+".join(methods) or "page"
        if self.options.method == "auto":
            parsed.content = content
        record.title = near_heading(parsed.meta, content.nodes, parsed.root,
                                    list_page=content.page_type == "list")
        record.author = parsed.meta.author
        record.published = parsed.meta.published
        record.text = parsed.stages[-1].text if parsed.stages else content.text
        record.page_type = content.page_type
        if content.posts:  # a thread seen alone (the forum method may type it again)
            record.extra["posts"] = [dict(post) for post in content.posts]
            if record.page_type == "thread":
                record.author = thread_author(record.author, content.posts)
        if record.page_type == "list":
            record.extra["links"] = [link.to_dict() for link in parsed.links]
        if self.options.output_format == "markdown":
            record.extra["markdown"] = content.markdown
        if parsed.stages:
            self._choose_stage(record, parsed)
        if blocks is not None and self.options.blocks:
            from sitesift.segment.blocks import labelled_blocks

            record.extra["blocks"] = labelled_blocks(
                blocks, content, verdicts, title=parsed.meta.title)
        return found

    def _stage(self, parsed: _Parsed, method: str, content: Content) -> None:
        """``auto``: keep the main text as it stands after ``method``'s step."""
        if self.options.method != "auto":
            return
        from sitesift.extract.choose import Stage

        markdown = content.markdown if self.options.output_format == "markdown" else None
        parsed.stages.append(Stage(method, content.text, markdown))

    def _choose_stage(self, record: Record, parsed: _Parsed) -> None:
        """``auto``: the stage of the DOM methods to answer with (``extract.choose``). Only
        pages whose methods disagree keep their stages (for a visual vote)."""
        from sitesift.extract.choose import choose

        choice = choose(parsed.stages)
        if choice.disagree is None:
            parsed.stages = []
            return
        record.text, record.method = choice.stage.text, choice.stage.method
        if choice.stage.markdown is not None:
            record.extra["markdown"] = choice.stage.markdown
        record.extra["auto"] = {"disagree": choice.reason()}


#: Share of a post's word 4-grams the page's main text must hold (for one post at least) for
#: ``auto`` to read the page as a forum thread.
THREAD_MIN_HELD = 0.5
#: Share of the page method's main text (word 4-grams) a thread's text (its posts joined) must
#: hold for ``auto`` to answer with the posts. On the thread pages of forum-dz, forum-flux and
#: forum-awful the posts hold 0.88, 0.73 and 0.51 of it at least (the rest: author panels,
#: signatures); on a news page read as a forum (issue 18) a 123-character "first post" held
#: 0.04 of a 2,800-character story. 0.25 lies between.
THREAD_MIN_SHARE = 0.25


def _learning_page(votes: Votes, key: tuple[Step, ...], page: Page,
                   record: Record) -> LearningPage:
    """What learning a template's wrapper needs of one of its learning pages, extracted."""
    from sitesift.compare.wrapper import LearningPage

    return LearningPage(votes, key, page.html, page.url, record.text, record.page_type,
                        {"title": record.title, "published": record.published,
                         "author": record.author})


def _links(page: Page, root: lxml.html.HtmlElement) -> list[Link]:
    try:
        return page_links(root, page.url)
    except Exception:  # links are an extra: a bug there must not cost the page its record
        log.exception("reading the links of page %s failed", page.id)
        return []


def _holds(text: str | None, post: str | None) -> bool:
    """Whether ``text`` holds most of ``post``: the recall of the post's word 4-grams (every
    CJK character a word), as the body scorer counts them."""
    if not post or not post.strip():
        return False
    return shingle_prf(post, text or "")[1] >= THREAD_MIN_HELD


def _thread_holds(posts: list[dict[str, Any]], text: str | None) -> bool:
    """Whether the thread's text (``posts`` joined) holds at least ``THREAD_MIN_SHARE`` of the
    page's main ``text``, so that answering with the posts drops no main text."""
    thread = "\n".join(post["text"] or "" for post in posts)
    return not (text or "").strip() or shingle_prf(text, thread)[1] >= THREAD_MIN_SHARE


def extract_html(html: str, *, url: str | None = None, options: Options | None = None) -> Record:
    """Convenience for one page held as a string: ``extract_html(html).text``."""
    return Extractor(options).extract(Page(id=url or "page", url=url, html=html))
