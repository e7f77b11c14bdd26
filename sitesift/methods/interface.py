"""The interface of a site-level method: learn a model from a site's pages, apply it to one
page, save it in a profile (docs/architecture.md, "Adding a method").

What the five site-level methods have in common, read from their code:

=========  ==========================  ===========================  ====================
method     learn (untouched trees)     apply (one page)             save (profile)
=========  ==========================  ===========================  ====================
template   ``template.site``           ``template.site``            ``SiteProfile``
  (000)    ``.learn_site`` (clusters,  ``.clean_content``           templates
           shared subtrees,            (DeleteSame inside the page  (``profiles``
           containers, wrappers,       extractor's main block)      ``.serialize``)
           fields)
forum      ``forum.site``              ``ForumSite.fill`` (page     ``SiteProfile``
  (001)    ``.apply_forum_site``       type, posts)                 ``.forum``
           (post rule, URL clusters)
visual     none (one page's            ``VisualSegmenter.segment``  none
  (002)    rendering)                  (body, title, time)
titles     ``fields.list_titles``      ``SiteTitles.choose``        none
  (003)    ``.learn_site_titles``      (title)
siblings   ``siblings.site``           ``judge`` +                  none (the pages are
  (004)    ``.SiblingSite`` (same-     ``clean_content`` (noise     the model)
           layer pages' blocks)        blocks)
=========  ==========================  ===========================  ====================

Module names are under ``sitesift.methods`` unless they start with ``fields``.

The common shape is ``SiteMethod``, in three steps because every method reads a page's
untouched tree first and edits it after the page extractor chose the main content: ``learn``
reads a site's pages before any method edits their trees; ``look`` reads one page's untouched
tree for what ``apply`` will need (template: subtree signatures; siblings: the DOM blocks;
auto's slots: the headline's neighbours); ``apply`` takes the page, the page extractor's main
content and what ``look`` found, and answers with a ``Decision`` (elements to remove, each with
its reason, and fields to set), which the pipeline carries out, so that a method never writes
records itself; ``to_profile`` / ``from_profile`` turn a model into JSON-able data and back
(None: the model is not worth keeping).
``Extractor.extract_with`` runs any object of this shape end to end; the five methods above
keep their own paths through the pipeline (``sitesift.pipeline.<method>``) until they move
behind it (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from lxml import etree

from sitesift.fields.metadata import Metadata
from sitesift.methods.page.content import Content

__all__ = ["Decision", "Model", "SiteMethod", "SitePage"]


@dataclass(frozen=True, slots=True)
class SitePage:
    """One page of a site as a method sees it: parsed once, its metadata read, in input order.
    ``learn`` and ``look`` see the tree untouched; ``apply`` sees it after the page extractor
    pruned it."""

    id: str
    url: str | None
    root: etree._Element
    meta: Metadata


@dataclass(frozen=True, slots=True)
class Decision:
    """What a method does to one page. ``remove``: elements of the page extractor's main
    content to delete, each with the reason said in the record; a field left None keeps the
    page method's value."""

    remove: Sequence[tuple[etree._Element, str]] = ()
    title: str | None = None
    published: str | None = None
    author: str | None = None
    page_type: str | None = None


Model = TypeVar("Model")


class SiteMethod(Protocol[Model]):
    """A site-level method. ``name`` is what records say in ``method``."""

    name: str

    def learn(self, pages: Sequence[SitePage]) -> Model | None:
        """The site's model from its pages (None: nothing to learn, the page method stands)."""
        ...

    def look(self, model: Model, page: SitePage) -> Any:
        """What ``apply`` needs from ``page``'s untouched tree (read before the page extractor
        prunes it; the elements found stay valid after)."""
        ...

    def apply(self, model: Model, page: SitePage, content: Content, seen: Any) -> Decision:
        """What to do to ``page``, whose main content the page extractor chose; ``seen`` is what
        ``look`` found on it."""
        ...

    def to_profile(self, model: Model) -> Mapping[str, Any] | None:
        """``model`` as JSON-able data for a site profile (None: not worth keeping)."""
        ...

    def from_profile(self, data: Mapping[str, Any]) -> Model:
        """The model ``to_profile`` saved."""
        ...
