"""What the service runs in its worker pool, away from the event loop: learning a site,
extracting a page with the site's saved profile, summarising a profile.

Each call opens the profile store by path (a ``ProfileStore`` is cheap to open, and a
connection must not cross processes), so the same functions run in worker processes (the
default: the per-page time limit of ``Options.page_timeout`` works only in a process's main
thread) or in threads (``workers=0``, for tests)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from sitesift.options import Options
from sitesift.record import Page

__all__ = ["Job", "blocks_supported", "run_job", "summarise_profile", "warm_up"]


def warm_up() -> None:
    """Import what learning and extraction need (scipy, lxml, the store) in a new worker, so
    that the first requests do not pay for it (about a second a process)."""
    import sitesift.methods.template.cluster
    import sitesift.methods.template.site
    import sitesift.pipeline
    import sitesift.profiles.store  # noqa: F401


def blocks_supported() -> bool:
    """Whether this sitesift's ``Options`` has ``blocks`` (records listing content and noise
    blocks with reasons, from the sibling method); without it the inspector highlights the
    extracted text only."""
    return any(f.name == "blocks" for f in dataclasses.fields(Options))


@dataclass(frozen=True, slots=True)
class Job:
    """Extract ``page`` (if any) after learning its site from ``learn`` (if any)."""

    options: Options
    store: str
    page: Page | None = None
    learn: tuple[Page, ...] = ()
    #: Ask for the record's ``blocks`` (the inspector), when the pipeline has them.
    blocks: bool = False


@dataclass(frozen=True, slots=True)
class JobResult:
    record: dict[str, Any] | None
    #: Summary of the profile learned by this job (None: nothing learned).
    learned: dict[str, Any] | None
    #: With ``Job.blocks``: the template method's decisions on the page (``explain``).
    template_blocks: list[dict[str, Any]] | None = None


def run_job(job: Job) -> JobResult:
    """Learn, then extract: a page of a site with a saved profile is cleaned with it
    (``template``), any other page by the single-page method."""
    from sitesift.pipeline import Extractor
    from sitesift.profiles.store import ProfileStore

    options = job.options
    if job.blocks and blocks_supported():
        options = options.replace(blocks=True)
    with ProfileStore(job.store) as store:
        learned = None
        if job.learn:
            extractor = Extractor(options.replace(method="template"), profiles=store)
            profiles = extractor.learn(job.learn)
            if profiles:
                learned = {"site": profiles[0].site, "pages": profiles[0].pages,
                           "templates": len(profiles[0].templates)}
        if job.page is None:
            return JobResult(None, learned)
        page = job.page
        if page.site is not None and page.site in store:
            extractor = Extractor(options.replace(method="template"), profiles=store)
            record = next(iter(extractor.extract_many([page])))
        else:
            record = Extractor(options.replace(method="page")).extract(page)
        explained = None
        if job.blocks:
            from sitesift.errors import ProfileError
            from sitesift.service.explain import template_blocks

            try:
                profile = store.get(page.site) if page.site is not None else None
            except ProfileError:  # the record above was made without it, too
                profile = None
            explained = template_blocks(page, profile)
    return JobResult(record.to_dict(), learned, explained)


def summarise_profile(store_path: str, site: str, pages: tuple[Page, ...]) -> dict[str, Any]:
    """The saved profile of ``site`` for people: its templates (cluster, pages, number of
    template subtrees, content container), learning facts, and which template each of the
    recent ``pages`` belongs to now (``assigned``: page id -> cluster, None for none). The
    container is shown as an XPath on a recent page of its template, as its steps mean
    nothing to a reader."""
    from sitesift.errors import ProfileError
    from sitesift.methods.template.template import PathFinder
    from sitesift.methods.template.wrapper import reading_summary
    from sitesift.parse import parse_html
    from sitesift.profiles.store import ProfileStore

    with ProfileStore(store_path) as store:
        try:
            profile = store.get(site)
        except ProfileError as exc:
            return {"site": site, "error": str(exc)}
        row = next((r for r in store.sites() if r["site"] == site), None)
    if profile is None:
        return {"site": site, "profile": None}
    xpaths: dict[str, str] = {}
    assigned: dict[str, str | None] = {}
    for page in pages:
        assigned[page.id] = None
        try:
            root = parse_html(page.html)
            finder = PathFinder(root)
            model, _share, _signatures = profile.assign_page(finder)
        except Exception:  # a page that fails is only not shown
            continue
        assigned[page.id] = model.cluster if model is not None else None
        if model is None or model.cluster in xpaths or not model.container:
            continue
        element = finder.find(model.container)
        if element is not None:
            xpaths[model.cluster] = root.getroottree().getpath(element)
    return {
        "site": site,
        "pages": profile.pages,
        "version": profile.version,
        "updated": row["updated"] if row else None,
        "bytes": row["bytes"] if row else None,
        "info": profile.info,
        "templates": [
            {"cluster": t.cluster, "pages": t.pages, "template_subtrees": len(t.count),
             "container_depth": len(t.container), "container": xpaths.get(t.cluster),
             **reading_summary(t)}
            for t in profile.templates
        ],
        "assigned": assigned,
    }
