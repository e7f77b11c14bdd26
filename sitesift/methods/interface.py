"""The interface of a site-level method: learn a model from a site's pages, apply it to one
page, save it in a profile (docs/design/architecture.md, "Adding a method").

What the five site-level methods have in common, read from their code:

=========  ==========================  ===========================  ====================
method     learn (untouched trees)     apply (one page)             save (profile)
=========  ==========================  ===========================  ====================
template   ``template.site``           ``template.site``            ``SiteProfile``
  (000)    ``.learn_site`` (clusters,  ``.delete_template``         templates
           shared subtrees,            (DeleteSame inside the page  (``template``
           containers, wrappers,       extractor's main block)      ``.profile_data``;
           fields)                                                  bytes: ``profiles``)
forum      ``forum.site``              ``ForumSite.decide`` (page   ``SiteProfile``
  (001)    ``.learn_site_types``       types, posts: ``review``)    ``.forum``
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

The common shape is ``SiteMethod``, in four steps because every method reads a page's
untouched tree first and edits it after the page extractor chose the main content: ``learn``
reads a site's pages before any method edits their trees (or refreshes a model saved in the
site's profile: forum's rules read the pages' posts again); ``look`` reads one page's untouched
tree for what ``apply`` will need (template: subtree signatures; siblings: the DOM blocks and
their verdicts); ``apply`` takes the page, the main content the page extractor (and the steps
before it) left and what ``look`` found, and answers with a ``Decision`` (elements to remove,
each with its reason, or the content left, and fields to set), which the pipeline carries out,
so that a method never writes records itself; ``review`` sees every page of the site once each
has its record, for what needs the whole site (forum: page types from URL clusters, a thread's
posts); ``to_profile`` / ``from_profile`` turn a model into JSON-able data and back (None: the
model is not worth keeping).
Two optional steps, which do nothing unless a method defines them (a method gets these
defaults by subclassing ``SiteMethod``): ``read``, before the page extractor, a reading of the
page by the method itself that replaces the page extractor's (template: a saved template's
wrapper reads its pages at learned places); ``observe``, after the page extractor, what it
found on a page, to feed the model being learned (template: where each page's main block
sits, its templates' content containers, and the votes its wrappers learn from).
``Extractor.extract_with`` runs any object of this shape end to end; the pipeline runs forum
(``methods.forum.method``), siblings (``methods.siblings.method``) and the template method
(``methods.template.method``: its DeleteSame, its wrappers' reading, its profile's learning
and a saved profile read back) through it; the template's saved-profile steps (a page's
assignment, its signatures, the profile kept) are also ``TemplateMethod`` methods beside the
interface, which its pipeline path calls in an order of its own (site titles), and
visual keeps a path of its own (``sitesift.pipeline.visual``; docs/design/architecture.md says what
the interface lacks for them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from lxml import etree

from sitesift.fields.metadata import Metadata
from sitesift.methods.page.content import Content
from sitesift.record import Record

__all__ = ["Decision", "Model", "Reading", "SiteMethod", "SitePage"]


@dataclass(frozen=True, slots=True)
class SitePage:
    """One page of a site as a method sees it: parsed once, its metadata read, in input order.
    ``learn`` and ``look`` see the tree untouched; ``apply`` sees it after the page extractor
    pruned it."""

    id: str
    url: str | None
    root: etree._Element
    #: As read when the site's pages were gathered (before site titles, ``fields.list_titles``).
    meta: Metadata
    #: The page's source: what the parser normalises away (forum: the root tags' classes).
    html: str = ""
    #: The page's place among the site's pages as ``learn`` got them.
    index: int = 0
    #: The site's key (``Page.site``, or the name site discovery gave it).
    site: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    """What a method does to one page. ``remove``: elements of the main content to delete, each
    with the reason said in the record; or ``content``: the main content the method's own
    deletions left (siblings removes loose runs of text, which no element stands for).
    Neither says the method deleted nothing inside the main content's nodes, leaving their
    subtrees as they were (``auto`` keeps the text it rendered before the step; siblings may
    have deleted blocks outside them). A field left None keeps the value the record has."""

    remove: Sequence[tuple[etree._Element, str]] = ()
    content: Content | None = None
    title: str | None = None
    published: str | None = None
    author: str | None = None
    page_type: str | None = None
    #: ``review``: the record's main text replaced (a forum thread: its posts joined).
    text: str | None = None
    #: ``review``: the page's posts, {author, published, text} in page order.
    posts: Sequence[Mapping[str, str | None]] | None = None
    #: The record names the method as its maker (``apply``: joined to the steps before it,
    #: "template+siblings"; ``review``: alone, its reading of the page replaces theirs).
    credit: bool = True


@dataclass(frozen=True, slots=True)
class Reading:
    """A page a method read itself, before and instead of the page extractor
    (``SiteMethod.read``): the record is filled from this main content, and no step of the
    page's plan runs on it. Without a content, the page extractor and the plan read the page
    (with ``meta`` where the method read that)."""

    #: The page's main content (its ``page_type`` and nodes, as the page extractor's).
    #: None: the method did not read it (its reading failed, or it read ``meta`` only), and
    #: the page extractor reads it.
    content: Content | None
    #: Set in the record's ``extra`` (template: ``{"wrapper": True}``).
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: The page's title, date and author as the method read them, in place of the page-level
    #: metadata (template: its field sources); None: the page-level metadata stands.
    meta: Metadata | None = None
    #: Without a content: the method edited the tree before it gave the page back, so the
    #: pipeline parses the page again for the page extractor (its metadata kept).
    edited: bool = True


Model = TypeVar("Model")


class SiteMethod(Protocol[Model]):
    """A site-level method. ``name`` is what records say in ``method``. A subclass inherits
    the optional steps' defaults (``read``, ``observe``: nothing)."""

    name: str

    def learn(self, pages: Sequence[SitePage], saved: Model | None = None) -> Model | None:
        """The site's model from its pages (None: nothing to learn, the page method stands).
        ``saved``: the model of the site's profile (``from_profile``), to reuse."""
        ...

    def look(self, model: Model, page: SitePage) -> Any:
        """What ``apply`` needs from ``page``'s untouched tree (read before the page extractor
        prunes it; the elements found stay valid after)."""
        ...

    def apply(self, model: Model, page: SitePage, content: Content, seen: Any) -> Decision | None:
        """What to do to ``page``, whose main content the page extractor chose; ``seen`` is what
        ``look`` found on it. None: the method does not apply to this page."""
        ...

    def read(self, model: Model, page: SitePage) -> Reading | None:
        """Optional: ``page`` read by the method itself, before the page extractor and instead
        of it; the pipeline has read the page's metadata (the reading may edit the tree).
        None (the default): the page extractor reads it."""
        return None

    def observe(self, model: Model, page: SitePage, found: Content | None) -> None:
        """Optional: after the page extractor (and the page's steps), what it found on
        ``page``: its main content before any method's step edited it (None: the page failed),
        for a model that learns from the page extractor's results. Called once per page of the
        plan, in the pages' order. The default does nothing."""
        return None

    def review(self, model: Model, pages: Sequence[SitePage],
               records: Sequence[Record]) -> Sequence[Decision | None]:
        """Once every page of the site has its record (``records[k]`` of ``pages[k]``): one
        decision per page for what needs the whole site (None: the record stands)."""
        ...

    def to_profile(self, model: Model) -> Mapping[str, Any] | None:
        """``model`` as JSON-able data for a site profile (None: not worth keeping)."""
        ...

    def from_profile(self, data: Mapping[str, Any]) -> Model:
        """The model ``to_profile`` saved."""
        ...
