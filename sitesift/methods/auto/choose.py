"""``auto``'s per-page choice between the answers of its DOM methods, and the visual vote.

On a site of several pages ``auto`` runs the page extractor, then deletes from its main block
what the site's templates (paper 000) and same-layer pages (paper 004) show to be noise. Each
site method is a *step* that only deletes, so its answer is a stage of one text:

    page  ->  page - template parts  ->  page - template parts - sibling blocks

The steps are right to delete a byline, a share bar, a "related" list: small parts of the main
text. A step that deletes most of the main text the step before it kept *disagrees* with it
about where the content is, and the dev sets show who is right then: the same article twice
in a site (a syndicated story, a copy under two URLs) recurs in a same-layer page, so paper
004 reads the article itself as noise (l3s-gn1: two pages of localnewsleader.com lost 94 and
100 % of their text; docs/design/auto.md). So:

* a step that keeps less than ``MIN_STEP_KEPT`` of its input's characters is not taken: the
  answer is the last stage before it, and the page is marked as disagreeing;
* with a browser configured (``Options.visual_fallback``), a disagreeing page is rendered and
  segmented by the visual method (paper 002), which reads neither templates nor siblings; its
  text votes: the stage whose text overlaps it most (character F1) is the answer. The visual
  text itself is never the answer: on the three sets measured the visual method alone is below
  the page method (docs/design/visual.md: char F1 0.948/0.969/0.864 against 0.968/0.980/0.905). Nor
  is the browser asked about milder disagreements: there it favours the stage that deleted
  less, wrongly more often than rightly (docs/design/auto.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from sitesift.similarity import char_prf, f1

__all__ = ["MIN_STEP_KEPT", "Choice", "Stage", "choose", "least_kept", "text_size", "vote"]

#: A site method's step must keep at least this share of the characters of the main text it
#: was given. Tuned on the dev sets with bodies (docs/design/auto.md):
#: every value from 0.1 to 0.4 gives the same scores (0.25 flags six pages there, each a copy
#: of an article the sibling step deleted 89-100 % of); 0.25 is the middle of that range.
MIN_STEP_KEPT = 0.25


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a page's main text: ``method`` names the steps that made it
    ("page", "template", "template+siblings")."""

    method: str
    text: str
    markdown: str | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """The stage taken, and why: ``disagree`` names the step that was not taken (None when
    every step was)."""

    stage: Stage
    disagree: str | None = None

    def reason(self) -> str | None:
        if self.disagree is None:
            return None
        return (f"{self.disagree} would keep less than {MIN_STEP_KEPT:.0%} of the main text: "
                f"{self.stage.method} taken")


def text_size(text: str) -> int:
    """Characters without white space (a step that only re-flows lines deletes nothing).
    ``str.split()`` cuts at exactly the characters ``str.isspace`` names, in C."""
    return sum(map(len, text.split()))


def least_kept(stages: Sequence[Stage]) -> float:
    """The smallest share of its input's characters any step kept (1.0 with no step)."""
    sizes = [text_size(s.text) for s in stages]
    return min([b / a for a, b in itertools.pairwise(sizes) if a] or [1.0])


def choose(stages: Sequence[Stage], *, min_kept: float = MIN_STEP_KEPT) -> Choice:
    """The last stage every step up to which kept at least ``min_kept`` of its input.

    ``stages`` start with the page extractor's answer, each next one a step further."""
    if not stages:
        raise ValueError("choose needs at least the page extractor's stage")
    taken = stages[0]
    for stage in stages[1:]:
        before = text_size(taken.text)
        if before and text_size(stage.text) < min_kept * before:
            last = stage.method.rsplit("+", 1)[-1]
            return Choice(taken, disagree=last)
        taken = stage
    return Choice(taken)


def vote(
    stages: Sequence[Stage], visual_text: str, default: Stage | None = None,
) -> tuple[Stage, dict[str, float]]:
    """The stage whose text agrees most with the visual method's (character F1, the body
    scorer's measure), and every stage's agreement. Ties go to ``default`` (the choice made
    without the browser), then to the earlier stage (deleting less). The caller skips the
    vote when the visual text is empty (nothing survived pruning)."""
    agreement = {s.method: round(f1(*char_prf(visual_text, s.text)), 4) for s in stages}
    best = max(stages, key=lambda s: (agreement[s.method], s is default))
    return best, agreement
