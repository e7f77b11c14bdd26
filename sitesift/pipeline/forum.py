"""The forum method's path (paper 001, ``sitesift.methods.forum``): the site's URL clusters
and post rule give page types and posts (``ForumMethod``, run through the interface); its
rules are read from and kept in the site's profile."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sitesift.pipeline.base import Parsed
from sitesift.pipeline.site_method import SiteMethodPath
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.methods.forum.method import ForumMethod
    from sitesift.methods.forum.site import ForumSite
    from sitesift.methods.template.profile import SiteProfile


class ForumPath(SiteMethodPath):
    """The forum method over one site's pages."""

    def _extract_forum_site(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], *, lasting: bool,
    ) -> None:
        """Forum method (paper 001, ``sitesift.methods.forum``): the site's post rule and
        URL clusters give page types and posts; every page also gets the page method's
        fields. A saved profile's forum rules are reused, new ones saved."""
        from sitesift.methods.forum.method import ForumMethod

        saved = self._saved(site, lasting)
        method = ForumMethod()
        forum = self._run_method(method, site, members, pages, records, parsed,
                                 saved=saved_forum(method, saved))
        if forum is not None and (saved is None or saved.forum is None):
            self._keep_forum(site, method, forum, saved, len(members), lasting=lasting)

    def _keep_forum(
        self, site: str, method: ForumMethod, forum: ForumSite, base: SiteProfile | None,
        pages: int, *, lasting: bool,
    ) -> None:
        """Save the site's forum rules (when it is a forum) in ``base`` or a new profile."""
        rules = method.to_profile(forum)
        if lasting and self.profiles is not None and rules is not None:
            self.profiles.put(forum_profile(site, rules, pages, base))


def saved_forum(method: ForumMethod, saved: SiteProfile | None) -> ForumSite | None:
    """The forum model of a saved profile (None: it holds no forum rules)."""
    return method.from_profile(saved.forum) if saved is not None and saved.forum else None


#: Share of a post's word 4-grams the page's main text must hold (for one post at least) for
#: ``auto`` to read the page as a forum thread.
THREAD_MIN_HELD = 0.5


#: Share of the page method's main text (word 4-grams) a thread's text (its posts joined) must
#: hold for ``auto`` to answer with the posts. On the thread pages of forum-dz, forum-flux and
#: forum-awful the posts hold 0.88, 0.73 and 0.51 of it at least (the rest: author panels,
#: signatures); on a news page read as a forum (issue 18) a 123-character "first post" held
#: 0.04 of a 2,800-character story. 0.25 lies between.
THREAD_MIN_SHARE = 0.25


def forum_profile(site: str, rules: Mapping[str, Any], pages: int,
                  saved: SiteProfile | None) -> SiteProfile:
    """``saved`` (or a new profile of a site of ``pages`` pages) holding the forum ``rules``."""
    from sitesift.methods.template.profile import SiteProfile

    if saved is not None:
        return dataclasses.replace(saved, forum=dict(rules))
    return SiteProfile(site=site, pages=pages, forum=dict(rules))


def holds_post(text: str | None, post: str | None) -> bool:
    """Whether ``text`` holds most of ``post``: the recall of the post's word 4-grams (every
    CJK character a word), as the body scorer counts them."""
    from sitesift.similarity import shingle_prf  # (auto's alone: the page method needs none)

    if not post or not post.strip():
        return False
    return shingle_prf(post, text or "")[1] >= THREAD_MIN_HELD


def thread_holds(posts: list[dict[str, Any]], text: str | None) -> bool:
    """Whether the thread's text (``posts`` joined) holds at least ``THREAD_MIN_SHARE`` of the
    page's main ``text``, so that answering with the posts drops no main text."""
    from sitesift.similarity import shingle_prf  # (as in ``holds_post``)

    thread = "\n".join(post["text"] or "" for post in posts)
    return not (text or "").strip() or shingle_prf(text, thread)[1] >= THREAD_MIN_SHARE
