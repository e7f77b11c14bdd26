"""Site-level extraction: learn a site's templates from its pages, then clean each page with
the template of its cluster. The paper-000 pieces live in ``istm``, ``cluster`` and
``template``; this module puts them in order for one site and keeps the bookkeeping
(cluster ids, which page fell back to the single-page method, and why)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from lxml import etree

from sitesift.methods.page.content import Content
from sitesift.methods.template.features import PageFeatures
from sitesift.methods.template.istm import similarity_matrix
from sitesift.methods.template.profile import SiteProfile
from sitesift.methods.template.template import (
    Step,
    TemplateModel,
    common_container,
    delete_shared,
    learn_anchors,
    learn_template,
)
from sitesift.methods.template.wrapper import LearningPage, learn_wrapper
from sitesift.parse.signatures import RelaxedLabels

__all__ = [
    "LearnedSite",
    "delete_template",
    "learn_site",
    "with_anchors",
    "with_containers",
    "with_wrappers",
]

T = TypeVar("T")

#: A cluster needs this many pages before its shared parts count as template: with one page
#: nothing is shared, and the page falls back to the single-page method.
MIN_TEMPLATE_PAGES = 2


@dataclass(frozen=True, slots=True)
class LearnedSite:
    """A site's profile plus, for each learning page, its cluster id and template (None when
    its cluster is too small to have one)."""

    profile: SiteProfile
    clusters: list[str]
    templates: list[TemplateModel | None]


def learn_site(site: str, features: Sequence[PageFeatures]) -> LearnedSite:
    """Cluster the site's pages on ISTM and learn a template per cluster of 2+ pages."""
    import numpy as np  # (as scipy: only learning needs it, never applying a profile)

    from sitesift.methods.template.cluster import cluster_pages  # scipy: only learning needs it

    n = len(features)
    for f in features:
        f.need("structure", "signatures")
    structures = [f.structure for f in features]
    sim = similarity_matrix(structures, relaxed=True)  # type: ignore[arg-type]
    labels = cluster_pages(sim) if n else np.zeros(0, dtype=int)
    clusters = [f"{site}#{int(k)}" for k in labels]
    templates: list[TemplateModel | None] = [None] * n
    models = []
    for k in sorted(set(labels.tolist())):
        members = [i for i in range(n) if labels[i] == k]
        if len(members) < MIN_TEMPLATE_PAGES:
            continue
        model = learn_template(
            f"{site}#{k}",
            [features[i].signatures.values() for i in members],  # type: ignore[union-attr]
            [structures[i] for i in members],  # type: ignore[misc]
            sim[np.ix_(members, members)],
        )
        models.append(model)
        for i in members:
            templates[i] = model
    sizes = sorted((labels == k).sum().item() for k in set(labels.tolist()))
    profile = SiteProfile(
        site=site, pages=n, templates=tuple(models),
        info={"cluster_sizes": sizes[::-1]},
    )
    return LearnedSite(profile, clusters, templates)


def with_anchors(
    learned: LearnedSite,
    features: Sequence[PageFeatures],
    trees: Sequence[tuple[etree._Element, Mapping[etree._Element, Step]]],
) -> LearnedSite:
    """``learned`` with each template's anchors, from its learning pages (``features`` and
    (root, element steps) of each, in order, read before extraction edits the trees)."""
    pages = [(root, steps, f.signatures) if f.signatures is not None else None
             for f, (root, steps) in zip(features, trees, strict=True)]
    return _per_template(learned, pages, lambda model, held: replace(
        model, anchors=learn_anchors(model, held)))


def with_containers(
    learned: LearnedSite, keys: Sequence[tuple[Step, ...] | None]
) -> LearnedSite:
    """``learned`` with each template's content container: the common path of its learning
    pages' main blocks (``keys``, one per learning page in order; None for a page that failed
    extraction, left out)."""
    return _per_template(learned, keys, lambda model, held: replace(
        model, container=common_container(held)))


def with_wrappers(
    learned: LearnedSite, pages: Sequence[LearningPage | None], *, labels: RelaxedLabels,
) -> LearnedSite:
    """``learned`` with a wrapper for each template whose pages read alike (after
    ``with_containers``: a wrapper reads the content container) and the field sources of each
    template that has one for every field. ``pages``: one per learning page in order, None for
    a page that failed extraction."""
    def update(model: TemplateModel, held: list[LearningPage]) -> TemplateModel:
        wrapper, fields = learn_wrapper(model.container, held, labels=labels)
        return replace(model, wrapper=wrapper, fields=fields)

    return _per_template(learned, pages, update)


def _per_template(
    learned: LearnedSite, items: Sequence[T | None],
    update: Callable[[TemplateModel, list[T]], TemplateModel],
) -> LearnedSite:
    """``learned`` with each template replaced by ``update(template, items of its learning
    pages)``; ``items`` has one entry per learning page in order, None to leave a page out."""
    by_cluster: dict[str, list[T]] = {}
    for model, item in zip(learned.templates, items, strict=True):
        if model is not None and item is not None:
            by_cluster.setdefault(model.cluster, []).append(item)
    new = {model.cluster: update(model, by_cluster.get(model.cluster, []))
           for model in learned.profile.templates}
    return LearnedSite(
        replace(learned.profile, templates=tuple(new.values())),
        learned.clusters,
        [new[m.cluster] if m is not None else None for m in learned.templates],
    )


def delete_template(
    content: Content, features: PageFeatures, model: TemplateModel, *, member: bool,
    items: bool = False, edges: bool = False,
) -> int:
    """Delete ``model``'s template subtrees from the page extractor's ``content`` (in place:
    the pipeline's own tree; the text is rendered when read); returns how many subtrees went
    (0: the tree is as it was, so a text rendered from it before still holds).

    The page extractor runs first, on the whole page, because the template's own parts are
    cues it reads (a shared "Comments" heading tells it what follows is not the story); the
    template then removes what the chosen block still shares with the cluster's pages
    (bylines, share bars, ads, related links inside the story's container). ``member``: the
    page was one of the model's learning pages, so it is no reference of itself; ``items``:
    repeated items stay whole (``delete_shared``); ``edges``: only what lies at an edge of the
    main block's own text goes (``in_middle``)."""
    features.need("signatures")
    return sum(len(delete_shared(node, model, signatures=features.signatures, member=member,
                                 items=items, edges=edges))
               for node in content.nodes)
