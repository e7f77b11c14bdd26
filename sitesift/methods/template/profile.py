"""A site's learned profile: its templates, saved and reused so that new pages of a known site
are cleaned without clustering the site again."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree

from sitesift.methods.template.template import (
    SHARED_FRACTION,
    PathFinder,
    TemplateModel,
    anchor_coverage,
    content_signatures,
)

__all__ = ["ASSIGN_MIN_COVERAGE", "PROFILE_VERSION", "SiteProfile"]

#: Version of the profile format and of the signatures in it; a store refuses profiles of
#: another version (learn again). 2: content signatures hash label and text separately.
#: 3: templates hold their content container. 4: and their anchors. 5: and their wrapper.
#: 6: field sources hold the place of the headline's element.
PROFILE_VERSION = 6
#: A new page joins the template whose shared subtrees it holds most of, when it holds at least
#: this share of them; below it the page is of no known template (page method). Measured on
#: big9-2005/2009, cleanportal and zh-sites (learn on half of each site, assign the other
#: half and one page of every other site): pages of the site hold a median 0.87 of their
#: template, pages of other sites at most 0.36 (big9 pages all share an archive toolbar).
ASSIGN_MIN_COVERAGE = 0.4


@dataclass(frozen=True, slots=True)
class SiteProfile:
    """Templates learned from ``pages`` pages of ``site``."""

    site: str
    pages: int
    templates: tuple[TemplateModel, ...] = ()
    version: int = PROFILE_VERSION
    #: Free-form facts for people reading the profile (learning time, cluster sizes...).
    info: dict[str, object] = field(default_factory=dict)
    #: A forum's learned rules (``sitesift.fields.post_rules.PostRule.to_dict`` plus
    #: ``thread_regex``); None for sites that are no forum or were learned without it.
    forum: dict[str, object] | None = None

    def assign(
        self, pages: Iterable[Iterable[int]]
    ) -> list[tuple[TemplateModel | None, float]]:
        """For each new page (its content signatures): the template it belongs to (None when
        none is close enough), and the share of that template's shared subtrees (those
        DeleteSame would delete) the page holds.

        Cheaper than ISTM against each template's medoid: the page's content signatures are
        computed for cleaning anyway, so a known page costs no structure walk. Each
        template's shared subtrees are listed once for all the pages."""
        cores = []
        for model in self.templates:
            need = max(1, math.ceil(SHARED_FRACTION * model.pages))
            cores.append((model, [h for h, c in model.count.items() if c >= need]))
        assigned: list[tuple[TemplateModel | None, float]] = []
        for signatures in pages:
            have = set(signatures)
            best, best_share = None, 0.0
            for model, core in cores:
                share = sum(h in have for h in core) / len(core) if core else 0.0
                if share > best_share:
                    best, best_share = model, share
            assigned.append((best if best_share >= ASSIGN_MIN_COVERAGE else None, best_share))
        return assigned

    def assign_page(
        self, page: PathFinder, *, exact: bool = True,
    ) -> tuple[TemplateModel | None, float, dict[etree._Element, int] | None]:
        """The template of a new page, the share of it the page holds, and the page's content
        signatures when they had to be computed. ``exact=False``: the same template, found
        hashing fewer anchors, with a share that is only a lower bound (the pipeline needs the
        template alone; the inspector shows the share).

        When every template has anchors, the page is recognised by them (the share of a
        template's anchors found at their paths): only the anchors are hashed. Otherwise (a
        template too varied to have any) by ``assign`` on all the page's signatures."""
        if self.templates and all(m.anchors for m in self.templates):
            best, best_share = None, 0.0
            last = len(self.templates) - 1
            for k, model in enumerate(self.templates):
                if exact:
                    share = anchor_coverage(page, model.anchors)
                else:
                    # Hash no more anchors than the choice needs: a template that cannot pass
                    # the best so far and the threshold is left as soon as that shows; the last
                    # one is taken as soon as it passes both (no later template can beat it).
                    # ``1e-9``: a share equal to the best does not replace it.
                    below = max(best_share, ASSIGN_MIN_COVERAGE - 1e-9)
                    share = anchor_coverage(
                        page, model.anchors, above=below,
                        enough=max(best_share + 1e-9, ASSIGN_MIN_COVERAGE) if k == last
                        else None)
                if share > best_share:
                    best, best_share = model, share
                if share == 1.0:
                    break  # no other template can hold more (the first of equals wins)
            return (best if best_share >= ASSIGN_MIN_COVERAGE else None), best_share, None
        signatures = content_signatures(page.root, labels=page.labels)
        ((model, share),) = self.assign([signatures.values()])
        return model, share, signatures
