"""The forum method's path (paper 001, ``sitesift.methods.forum``): the site's URL clusters
and post rule give page types and posts (``ForumMethod``, run through the interface); its
rules are read from and kept in the site's profile. (``auto``'s reading of a thread is its
own: ``methods.auto.threads``.)"""

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


def forum_profile(site: str, rules: Mapping[str, Any], pages: int,
                  saved: SiteProfile | None) -> SiteProfile:
    """``saved`` (or a new profile of a site of ``pages`` pages) holding the forum ``rules``."""
    from sitesift.methods.template.profile import SiteProfile

    if saved is not None:
        return dataclasses.replace(saved, forum=dict(rules))
    return SiteProfile(site=site, pages=pages, forum=dict(rules))
