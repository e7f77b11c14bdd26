"""The forum method's path (paper 001, ``sitesift.methods.forum``): the site's URL clusters
and post rule give page types and posts."""

from __future__ import annotations

import dataclasses
import functools
import logging
from typing import TYPE_CHECKING, Any

from sitesift.pipeline.base import Parsed, PipelineBase
from sitesift.record import Page, Record
from sitesift.similarity import shingle_prf

if TYPE_CHECKING:
    from sitesift.methods.forum.site import ForumSite
    from sitesift.methods.template.profile import SiteProfile


log = logging.getLogger(__name__)


class ForumPath(PipelineBase):
    """The forum method over one site's pages."""

    def _forum_site(
        self, site: str, members: list[int], pages: list[Page], parsed: dict[int, Parsed],
        saved: SiteProfile | None,
    ) -> ForumSite | None:
        """Page types and forum rules of a site, from its untouched trees (None on failure:
        the pages keep the page method's types)."""
        from sitesift.methods.forum.site import apply_forum_site

        try:
            return apply_forum_site([parsed[i].root for i in members],
                                    [pages[i].url for i in members],
                                    saved.forum if saved is not None else None,
                                    htmls=[pages[i].html for i in members])
        except Exception:  # a bug in site learning must not lose the site's pages
            log.exception("forum rules failed on site %s; its pages get the page method", site)
            return None

    def _extract_forum_site(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], *, lasting: bool,
    ) -> None:
        """Forum method (paper 001, ``sitesift.methods.forum.site``): the site's post rule and
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
            store.put(forum_profile(site, forum, saved))


#: Share of a post's word 4-grams the page's main text must hold (for one post at least) for
#: ``auto`` to read the page as a forum thread.
THREAD_MIN_HELD = 0.5


#: Share of the page method's main text (word 4-grams) a thread's text (its posts joined) must
#: hold for ``auto`` to answer with the posts. On the thread pages of forum-dz, forum-flux and
#: forum-awful the posts hold 0.88, 0.73 and 0.51 of it at least (the rest: author panels,
#: signatures); on a news page read as a forum (issue 18) a 123-character "first post" held
#: 0.04 of a 2,800-character story. 0.25 lies between.
THREAD_MIN_SHARE = 0.25


def forum_profile(site: str, forum: ForumSite, saved: SiteProfile | None) -> SiteProfile:
    """``saved`` (or a new profile) holding the site's forum rules."""
    from sitesift.methods.template.profile import SiteProfile

    if saved is not None:
        return dataclasses.replace(saved, forum=forum.rules())
    return SiteProfile(site=site, pages=len(forum.urls), forum=forum.rules())


def holds_post(text: str | None, post: str | None) -> bool:
    """Whether ``text`` holds most of ``post``: the recall of the post's word 4-grams (every
    CJK character a word), as the body scorer counts them."""
    if not post or not post.strip():
        return False
    return shingle_prf(post, text or "")[1] >= THREAD_MIN_HELD


def thread_holds(posts: list[dict[str, Any]], text: str | None) -> bool:
    """Whether the thread's text (``posts`` joined) holds at least ``THREAD_MIN_SHARE`` of the
    page's main ``text``, so that answering with the posts drops no main text."""
    thread = "\n".join(post["text"] or "" for post in posts)
    return not (text or "").strip() or shingle_prf(text, thread)[1] >= THREAD_MIN_SHARE
