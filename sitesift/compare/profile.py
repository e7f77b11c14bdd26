"""A site's learned profile: its templates, saved and reused so that new pages of a known site
are cleaned without clustering the site again."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sitesift.compare.istm import PageStructure, similarity_matrix
from sitesift.compare.template import TemplateModel

__all__ = ["ASSIGN_MIN_SIMILARITY", "PROFILE_VERSION", "SiteProfile"]

#: Version of the profile format and of the signatures in it; a store refuses profiles of
#: another version (learn again). 2: content signatures hash label and text separately.
PROFILE_VERSION = 2
#: A new page joins the template whose medoid it resembles most when the relaxed ISTM
#: similarity reaches this; below it the page is of no known template (page mode, or learn).
ASSIGN_MIN_SIMILARITY = 0.5


@dataclass(frozen=True, slots=True)
class SiteProfile:
    """Templates learned from ``pages`` pages of ``site``."""

    site: str
    pages: int
    templates: tuple[TemplateModel, ...] = ()
    version: int = PROFILE_VERSION
    #: Free-form facts for people reading the profile (learning time, cluster sizes...).
    info: dict[str, object] = field(default_factory=dict)

    def assign(self, structure: PageStructure) -> tuple[TemplateModel | None, float]:
        """The template a new page belongs to (None when none is close enough), and the
        similarity to its medoid."""
        if not self.templates:
            return None, 0.0
        sims = similarity_matrix(
            [structure, *(t.medoid for t in self.templates)], relaxed=True
        )[0, 1:]
        best = int(np.argmax(sims))
        if sims[best] < ASSIGN_MIN_SIMILARITY:
            return None, float(sims[best])
        return self.templates[best], float(sims[best])
