"""What every path of the pipeline shares: pages parsed once (``Parsed``), failures turned
into error records (``_guarded``), the page-level fields read on the untouched tree, and
one page's run: the page extractor, then its ``PagePlan`` of site-level steps."""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

import lxml.html

from sitesift.errors import DecodeError, EmptyPageError, PageError, ParseError, ProfileError
from sitesift.fields.authors import thread_author
from sitesift.fields.list_titles import Link, learn_site_titles, menu_names, page_links
from sitesift.fields.metadata import Metadata, extract_metadata
from sitesift.fields.title_place import near_heading
from sitesift.methods.interface import Decision, Reading, SiteMethod, SitePage
from sitesift.methods.page.content import Content, extract_content
from sitesift.methods.page.kind import PageSignals, kind_of_type, page_kind
from sitesift.options import Options
from sitesift.output.render import to_text
from sitesift.parse.dom import drop_keep_tail
from sitesift.parse.html import read_html
from sitesift.parse.links import page_links as all_links
from sitesift.record import Page, Record
from sitesift.timelimit import time_limit

if TYPE_CHECKING:
    from sitesift.methods.auto.choose import Stage
    from sitesift.methods.auto.recurrence import Printed
    from sitesift.methods.siblings.site import Verdict
    from sitesift.methods.template.features import PageFeatures
    from sitesift.methods.template.profile import SiteProfile
    from sitesift.methods.visual.segmenter import VisualSegmenter
    from sitesift.parse.signatures import RelaxedLabels
    from sitesift.profiles.store import ProfileStore
    from sitesift.render import BrowserPool
    from sitesift.segment.blocks import Block


log = logging.getLogger(__name__)


@dataclass(slots=True)
class Parsed:
    """A page parsed once, with what every method reads before the tree is edited."""

    root: lxml.html.HtmlElement
    #: None until read (``Extractor._read``): pages a template wrapper reads never need it.
    meta: Metadata | None
    features: PageFeatures | None = None
    #: Item links (title-like anchors), read before content extraction prunes the tree.
    links: list[Link] = dataclasses.field(default_factory=list)
    #: ``auto``: the main text after each step of the DOM methods (``methods.auto.choose``).
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
    #: extractor (``methods.auto.recurrence.printed_lines``).
    printed: list[Printed] = dataclasses.field(default_factory=list)
    #: ``auto``: a label memo the site's pages share (``RelaxedLabels``: a label is a function
    #: of tag, class and id, and the pages of a site share most of them).
    labels: RelaxedLabels | None = None
    #: ``meta`` is read but the links are not (a template's field sources read the fields, or
    #: a wrapper gave the page back): ``Extractor._read_all`` reads them.
    links_unread: bool = False
    #: What reading the page gave up on (a limit the parser read up to, a step that took too
    #: long and the cheaper path taken instead): the record's ``warnings``.
    warnings: list[str] = dataclasses.field(default_factory=list)
    #: The parser cut the page at the element limit: a part of a page too big for the
    #: methods' cost, read by the cheap path (``PipelineBase._read_text``) and left out of
    #: every site-level method.
    cut: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a method behind the interface (``methods.interface.SiteMethod``) on one
    page: the method, the site's model, the page as the method sees it."""

    method: SiteMethod[Any]
    model: Any
    page: SitePage
    #: False: the method only looks at the page and observes what the page extractor found
    #: (a learning page of a cluster without a template still teaches the profile where its
    #: main block sits); its ``apply`` does not run.
    applies: bool = True


@dataclass(frozen=True, slots=True)
class PagePlan:
    """What the site-level methods do to one page after the page extractor, in order: the
    steps of the methods behind the interface (the template method's DeleteSame, paper 000,
    then in ``auto`` the sibling method's noise blocks, paper 004; or the one method of its
    path), each on what the steps before it left. The empty plan is the page method alone."""

    #: The page's template's content container (None: the whole page), where the page
    #: extractor looks for the main content.
    within: lxml.html.HtmlElement | None = None
    steps: tuple[Step, ...] = ()
    #: The page as a method read it itself (``SiteMethod.read``), instead of the page
    #: extractor and the steps; ``read_by``: that method's name, the record's ``method``.
    reading: Reading | None = None
    read_by: str = ""

    @property
    def site_steps(self) -> bool:
        """Whether any site-level step applies (``auto`` then reads what its own steps
        need)."""
        return any(step.applies for step in self.steps)


PAGE_ONLY = PagePlan()

#: A page whose extraction ran out of its time limit gets this share of the limit again for
#: the cheap path (``PipelineBase._read_text``: the page parsed again and its visible text
#: read, no heuristics); past that it is an error record (a hard time-out). The cheap path
#: takes 0.1-0.3 s on a 100,000-element page, 2-3 s on a 20 MB page of text.
FALLBACK_TIME_SHARE = 0.5


class PipelineBase:
    """Options, the profile store and the browser of a run, and the steps every
    method's path takes."""

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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _prepare(
        self, pages: list[Page], *, read: bool = True,
    ) -> tuple[list[Record], dict[int, Parsed]]:
        """A record per page, and the pages that parsed (``read``: with metadata and links)."""
        records = [Record(id=p.id, url=p.url, site=p.site) for p in pages]
        parsed: dict[int, Parsed] = {}
        for i, page in enumerate(pages):
            result = self._parsed(records[i], page, read=read)
            if isinstance(result, Parsed) and result.cut:  # (its record now; no site method)
                self._finished(records[i], page, result)
            elif isinstance(result, Parsed):
                parsed[i] = result
        return records, parsed

    def _parse(self, page: Page, *, read: bool = True) -> Parsed:
        html, warnings = page.html, []
        if len(html) > self.options.max_page_bytes:
            warnings.append(
                f"limit: page of {len(html):,} characters exceeds the limit of "
                f"{self.options.max_page_bytes:,} (Options.max_page_bytes); it is read up to "
                "there")
            html = html[:self.options.max_page_bytes]
        tree = read_html(html, max_elements=self.options.max_page_elements)
        parsed = Parsed(root=tree.root, meta=None, warnings=warnings + tree.warnings,
                        cut=tree.cut)
        if read:
            self._read(page, parsed)
        return parsed

    def _parsed(self, record: Record, page: Page, *, read: bool = True) -> Parsed | None:
        """``_parse`` under the page's guard; where reading the page's metadata fails (runs
        out of time, a bug), the page parsed again without it (a warning says so)."""
        def bare(reason: str) -> Parsed:
            parsed = self._parse(page, read=False)
            parsed.meta = Metadata()
            parsed.warnings.append(f"{reason}; the page's title, date and author are not read")
            return parsed

        step = functools.partial(self._parse, page, read=read)
        result = self._guarded(record, page, step, fallback=bare if read else None)
        return result if isinstance(result, Parsed) else None

    @staticmethod
    def _read(page: Page, parsed: Parsed) -> None:
        """Metadata and links of the untouched tree (the content methods prune it after)."""
        parsed.meta = extract_metadata(parsed.root, url=page.url, crawled=page.crawled)
        parsed.links = read_links(page, parsed.root)

    def _guarded(self, record: Record, page: Page, step: Callable[[], object], *,
                 fallback: Callable[[str], object] | None = None,
                 seconds: float | None = None) -> object:
        """Run ``step`` under the page's time limit (``seconds``: another); any failure
        becomes the record's error (and clears its fields). Returns the step's result, None on
        failure. ``fallback``: the cheaper path taken when ``step`` fails on a document it
        has (it ran out of time, hit a limit or a bug; given the failure's message), under
        ``FALLBACK_TIME_SHARE`` of the limit: the record's error only when it fails too."""
        if page.error:
            record.error = page.error
            return None
        limit = self.options.page_timeout if seconds is None else seconds
        error = None
        try:
            with time_limit(limit):
                return step()
        except NO_DOCUMENT as exc:  # (nothing a cheaper path could read)
            record.error = str(exc)
        except PageError as exc:
            error = str(exc)
        except RecursionError:
            error = "extract: page structure too deep to process"
        except MemoryError:
            record.error = "extract: out of memory on this page"
        except Exception as exc:  # a bug in an extractor must not lose the page
            log.exception("internal error on page %s", page.id)
            error = f"internal: {type(exc).__name__}: {exc}"
        _clear(record, keep=("cluster", "warnings"))
        if error is None:
            return None
        if fallback is None:
            record.error = error
            return None
        share = limit * FALLBACK_TIME_SHARE if limit else None
        return self._guarded(record, page, functools.partial(fallback, error),
                             seconds=share or 0)

    def _finished(self, record: Record, page: Page, parsed: Parsed,
                  plan: PagePlan | None = None) -> Content | None:
        """``_finish`` under the page's guard, with the cheap path when it fails; returns
        what ``_finish`` does, None when the page failed or took the cheap path."""
        step = functools.partial(self._finish, record, page, parsed, plan or PAGE_ONLY)
        fallback = functools.partial(self._read_text_again, record, page, parsed)
        found = self._guarded(record, page, step, fallback=fallback)
        return found if isinstance(found, Content) and record.method != TEXT_METHOD else None

    def _alone(self, record: Record, page: Page, parsed: Parsed, what: str) -> None:
        """A page whose site-level ``what`` failed (the record's error says how): read by the
        page method alone, said in its warnings, instead of an error record."""
        said = f"{record.error} ({what}); the page is read by the page method alone"
        record.error = None
        # (parsed again: the failed step may have edited the tree; its metadata stands)
        fresh = self._guarded(record, page, functools.partial(self._parse, page, read=False))
        if isinstance(fresh, Parsed):
            fresh.meta = parsed.meta
            fresh.warnings = [*parsed.warnings, said]
            self._finished(record, page, fresh)

    def _read_all(
        self, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed],
    ) -> list[int]:
        """Read metadata and links of the ``members`` that lack them; returns those that have
        them (a page whose reading fails becomes an error record)."""
        kept = []
        for i in members:
            if parsed[i].meta is None:
                self._guarded(records[i], pages[i], functools.partial(
                    self._read, pages[i], parsed[i]))
            elif parsed[i].links_unread:
                parsed[i].links = read_links(pages[i], parsed[i].root)
            if parsed[i].meta is not None:
                kept.append(i)
        return kept

    def _features(
        self, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], *, structure: bool, labels: RelaxedLabels,
    ) -> list[int]:
        """Compute the site features of ``members`` (in place); returns those that have them
        (a page whose features fail is read by the page method alone)."""
        from sitesift.methods.template.features import page_features
        from sitesift.parse.signatures import TextHashes

        texts = TextHashes()  # (the members' pages are one site's: they share their texts)
        kept = []
        for i in members:
            step = functools.partial(page_features, parsed[i].root, structure=structure,
                                     strings=False, labels=labels, texts=texts)
            features = self._guarded(records[i], pages[i], step)
            if features is not None:
                parsed[i].features = features  # type: ignore[assignment]
                kept.append(i)
            elif records[i].error is not None and not pages[i].error:
                self._alone(records[i], pages[i], parsed[i], "site features")
        return kept

    def _group_by_site(
        self, pages: list[Page], parsed: dict[int, Parsed]
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
            from sitesift.methods.template.cluster import discover_sites

            labels = discover_sites([parsed[i].root for i in unknown])
            for i, label in zip(unknown, labels, strict=True):
                groups[f"site-{int(label)}"].append(i)
        discovered = {f"site-{int(label)}" for label in labels} if unknown else set()
        return groups, discovered

    def _learn_titles(
        self, members: list[int], pages: list[Page], parsed: dict[int, Parsed],
    ) -> None:
        """Choose the titles of a site's pages again, knowing the site's <title> decoration
        and the anchor texts linking to each page (``fields.list_titles``, paper 003).

        A failure here keeps the page-level titles: it must not cost any page its record."""
        try:
            site = learn_site_titles(
                [(pages[i].id, meta.title_candidates if (meta := parsed[i].meta) else None,
                  parsed[i].links) for i in members])
            site = dataclasses.replace(site, menu=menu_names(
                [all_links(parsed[i].root, pages[i].url) for i in members]))
        except Exception:
            log.exception("learning the titles of a site failed; page-level titles kept")
            return
        for i in members:
            meta = parsed[i].meta
            candidates = meta.title_candidates if meta is not None else None
            if meta is None or candidates is None:
                continue
            try:
                title, read = site.read(candidates, url=pages[i].url, page_id=pages[i].id)
            except Exception:
                log.exception("choosing the title of page %s failed; page-level title kept",
                              pages[i].id)
                continue
            parsed[i].meta = dataclasses.replace(meta, title=title, title_candidates=read)

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

    def _run_page(self, record: Record, page: Page, parsed: Parsed, plan: PagePlan) -> None:
        """One page of a site by its plan (``_finish``, under the page's guard), then each
        step's ``observe`` of what the page extractor found (None where the page failed)."""
        found = self._finished(record, page, parsed, plan)
        for step in plan.steps:
            try:
                step.method.observe(step.model, step.page, found)  # type: ignore[arg-type]
            except Exception:  # a bug in learning must not cost the page its record
                log.exception("the %s method's observing of page %s failed",
                              step.method.name, page.id)

    def _read_by(
        self, step: Step, page: Page, parsed: dict[int, Parsed], i: int,
    ) -> Reading | None:
        """``step``'s method reads page ``i`` itself (``SiteMethod.read``); None: the page
        extractor reads it. A reading without a content answers None: the metadata it read
        replaces the page's, and where it edited the tree the page is parsed again (its
        metadata kept: read on the untouched tree, or the method's)."""
        reading = step.method.read(step.model, step.page)
        if reading is None or reading.content is not None:
            return reading
        if reading.meta is not None:
            parsed[i].meta = reading.meta
        if not reading.edited:
            return None
        fresh = self._parse(page, read=False)
        fresh.meta = parsed[i].meta  # (read from the untouched tree)
        fresh.links_unread = True
        parsed[i] = fresh
        return None

    def _finish(
        self, record: Record, page: Page, parsed: Parsed, plan: PagePlan = PAGE_ONLY,
    ) -> Content:
        """Fill ``record`` by the page extractor, then ``plan``'s site-level steps; returns the
        content as the page extractor found it (before any site method's deletions), whose
        main block tells where a template's content sits. A page a method read itself
        (``plan.reading``) is filled from that reading; a page cut at a limit, by the cheap
        path."""
        if parsed.cut:
            return self._read_text(record, page, parsed)
        if plan.reading is not None and plan.reading.content is not None:
            record.method = plan.read_by
            record.extra.update(plan.reading.extra)
            if plan.reading.meta is not None:
                parsed.meta = plan.reading.meta
            self._fill(record, parsed, plan.reading.content)
            return plan.reading.content
        seen, blocks, verdicts = self._look(parsed, plan)
        content = found = extract_content(parsed.root, url=page.url, within=plan.within)
        self._stage(parsed, "page", content)
        if self.options.method == "auto" and plan.site_steps:
            from sitesift.methods.auto.slots import pictured

            parsed.pictured = pictured(content.nodes)
        content, methods, decided = self._run_plan(parsed, plan, content, seen)
        record.method = "+".join(methods) or "page"
        if self.options.method == "auto":
            parsed.content = content
        self._fill(record, parsed, content)
        for name, decision, removed in decided:
            if removed:
                record.extra[name] = {"removed": removed}
            carry_out(record, decision)
        if blocks is not None and self.options.blocks:
            from sitesift.methods.siblings.method import SiblingLook
            from sitesift.segment.blocks import labelled_blocks

            # (the verdicts as the sibling step left them: it may keep blocks it judged)
            judged = next((look for look in seen if isinstance(look, SiblingLook)), None)
            if judged is not None:
                verdicts = judged.verdicts

            record.extra["blocks"] = labelled_blocks(
                blocks, content, verdicts, title=parsed.meta.title)
        return found

    def _read_text(self, record: Record, page: Page, parsed: Parsed) -> Content:
        """The cheap path: the record's text is the visible text of the page's body, in page
        order, without the page extractor's heuristics or any site-level step (for a page
        whose methods would cost too much); its fields are the page's metadata."""
        if parsed.meta is None:
            self._read(page, parsed)
        body = parsed.root.find("body")
        content = Content(page_type="other", nodes=(body if body is not None else parsed.root,))
        parsed.stages = []
        record.method = TEXT_METHOD
        self._fill(record, parsed, content)
        return content

    def _read_text_again(self, record: Record, page: Page, parsed: Parsed,
                         reason: str) -> None:
        """``_read_text`` of the page parsed again (the steps that ran out of time edited
        the tree), said in the record's ``warnings``."""
        fresh = self._parse(page, read=False)
        fresh.meta = parsed.meta  # (read from the untouched tree, when it was)
        said = f"{reason}; the record holds the page's visible text (the cheap path)"
        fresh.warnings = [*parsed.warnings, said]
        self._read_text(record, page, fresh)

    def _look(
        self, parsed: Parsed, plan: PagePlan,
    ) -> tuple[list[Any], Block | None, dict[int, Verdict] | None]:
        """What the plan's steps read of the untouched tree, before the page extractor edits
        it (each step's ``look``); the DOM blocks of the ``--blocks`` output (the sibling
        step's, with its verdicts, when it runs); ``auto``'s headline leads, paragraph places
        and printed lines."""
        seen = [step.method.look(step.model, step.page) for step in plan.steps]
        blocks = verdicts = None
        if self.options.blocks:
            from sitesift.methods.siblings.method import SiblingLook
            from sitesift.segment.blocks import segment_blocks

            judged = next((look for look in seen if isinstance(look, SiblingLook)), None)
            if judged is not None:
                blocks, verdicts = judged.top, judged.verdicts
            else:
                blocks = segment_blocks(parsed.root, texts=True)
        if self.options.method == "auto" and plan.site_steps:
            from sitesift.methods.auto.recurrence import printed_lines
            from sitesift.methods.auto.restore import headline_leads, paragraph_places

            parsed.leads = headline_leads(parsed.root)
            parsed.places = paragraph_places(parsed.root, parsed.labels)
            parsed.printed = printed_lines(parsed.root, parsed.labels)
        return seen, blocks, verdicts

    def _run_plan(
        self, parsed: Parsed, plan: PagePlan, content: Content, seen: list[Any],
    ) -> tuple[Content, list[str], list[tuple[str, Decision, list[dict[str, str]]]]]:
        """Each step's decision on the page extractor's content, in order (a block removed by
        any goes); returns the content left, the methods that ran, and the steps' decisions
        with what each removed (their fields are set once the record is filled)."""
        methods: list[str] = []
        decided = []
        for step, looked in zip(plan.steps, seen, strict=True):
            if not step.applies:
                continue
            decision = step.method.apply(step.model, step.page, content, looked)
            if decision is None:
                continue
            # A decision of neither content nor removals deleted nothing (``Decision``): the
            # text after it is the text before it, rendered once.
            same = decision.content is None and not decision.remove
            content, removed = _removed(content, decision)
            if decision.credit:
                methods.append(step.method.name)
            decided.append((step.method.name, decision, removed))
            self._stage(parsed, "+".join(methods), content, same=same)
        return content, methods, decided

    def _fill(self, record: Record, parsed: Parsed, content: Content) -> None:
        """The record's fields from the page's metadata and its main content."""
        record.title = near_heading(parsed.meta, content.nodes, parsed.root,
                                    list_page=content.page_type == "list")
        record.author = parsed.meta.author
        record.published = parsed.meta.published
        record.text = parsed.stages[-1].text if parsed.stages else content.text
        record.page_type = content.page_type
        # (a page a method read itself has no kind yet: read from its tree and type)
        record.kind = content.kind if content.kind is not None else \
            page_kind(parsed.root, record.url, PageSignals(page_type=content.page_type))
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
        if parsed.warnings:
            record.extra["warnings"] = list(parsed.warnings)

    def _stage(self, parsed: Parsed, method: str, content: Content, *,
               same: bool = False) -> None:
        """``auto``: keep the main text as it stands after ``method``'s step (``same``: the
        step changed nothing, so the last stage's text and Markdown stand)."""
        if self.options.method != "auto":
            return
        from sitesift.methods.auto.choose import Stage

        if same and parsed.stages:
            last = parsed.stages[-1]
            parsed.stages.append(Stage(method, last.text, last.markdown))
            return
        markdown = content.markdown if self.options.output_format == "markdown" else None
        parsed.stages.append(Stage(method, content.text, markdown))

    def _choose_stage(self, record: Record, parsed: Parsed) -> None:
        """``auto``: the stage of the DOM methods to answer with (``methods.auto.choose``). Only
        pages whose methods disagree keep their stages (for a visual vote)."""
        from sitesift.methods.auto.choose import choose

        choice = choose(parsed.stages)
        if choice.disagree is None:
            parsed.stages = []
            return
        record.text, record.method = choice.stage.text, choice.stage.method
        if choice.stage.markdown is not None:
            record.extra["markdown"] = choice.stage.markdown
        record.extra["auto"] = {"disagree": choice.reason()}


#: Failures where no document is there to read by a cheaper path.
NO_DOCUMENT = (DecodeError, EmptyPageError, ParseError)
#: The record's ``method`` when the cheap path read the page (``PipelineBase._read_text``).
TEXT_METHOD = "text"


def _clear(record: Record, *, keep: tuple[str, ...]) -> None:
    """Empty ``record``'s fields and its extras but those named in ``keep``."""
    record.title = record.author = record.published = record.text = None
    record.page_type = record.kind = record.method = None
    record.extra = {k: v for k, v in record.extra.items() if k in keep}


def site_pages(
    site: str, members: list[int], pages: list[Page], parsed: dict[int, Parsed],
) -> list[SitePage]:
    """The pages of one site as a method sees them (``SitePage.index``: their place in
    ``members``)."""
    return [SitePage(id=pages[i].id, url=pages[i].url, root=parsed[i].root,
                     meta=parsed[i].meta, html=pages[i].html, index=j,  # type: ignore[arg-type]
                     site=site)
            for j, i in enumerate(members)]


def _removed(content: Content, decision: Decision) -> tuple[Content, list[dict[str, str]]]:
    """The main content after ``decision``'s deletions (its content, then its removals done on
    the tree), and each removal's text and reason."""
    content = decision.content if decision.content is not None else content
    if not decision.remove:
        return content, []
    removed = []
    for el, reason in decision.remove:
        removed.append({"text": to_text([el]), "reason": reason})
        drop_keep_tail(el)
    gone = {id(el) for el, _reason in decision.remove}
    return dataclasses.replace(
        content, nodes=tuple(n for n in content.nodes if id(n) not in gone)), removed


def carry_out(record: Record, decision: Decision) -> None:
    """Set on ``record`` the fields, text and posts ``decision`` gives (None keeps its own)."""
    for name in ("page_type", "text", "author", "published", "title"):
        value = getattr(decision, name)
        if value is not None:
            setattr(record, name, value)
    if decision.page_type is not None:
        # A site-level method's type holds the kind as the page's own type does.
        record.kind = kind_of_type(record.kind, decision.page_type)
    if decision.posts is not None:
        record.extra["posts"] = list(decision.posts)


def read_links(page: Page, root: lxml.html.HtmlElement) -> list[Link]:
    try:
        return page_links(root, page.url)
    except Exception:  # links are an extra: a bug there must not cost the page its record
        log.exception("reading the links of page %s failed", page.id)
        return []
