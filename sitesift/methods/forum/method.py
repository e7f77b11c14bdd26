"""The forum method behind the site-level interface (``sitesift.methods.interface``).

``learn``: the site's post rule (KSF) and thread-URL rule (USC) from its untouched pages, or
the saved rules read again over these pages (their posts); ``review``: once every page has the
page method's record, the page types of the whole site (``ForumSite.page_types``) and, on a
thread, its posts as the main text (``ForumSite.decide``). ``look`` and ``apply`` do nothing:
the forum reads pages whole, never cuts their main content. The model is saved as its rules
(``ForumSite.rules``; ``SiteProfile.forum``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sitesift.fields.post_rules import PostRule
from sitesift.methods.forum import site as forum_site
from sitesift.methods.forum.site import ForumSite
from sitesift.methods.forum.urls import Resolver
from sitesift.methods.interface import Decision, SiteMethod, SitePage
from sitesift.methods.page.content import Content
from sitesift.record import Record

__all__ = ["ForumMethod"]


class ForumMethod(SiteMethod[ForumSite]):
    """Paper 001 as a ``SiteMethod[ForumSite]``."""

    name = "forum"

    def learn(self, pages: Sequence[SitePage], saved: ForumSite | None = None) -> ForumSite:
        """What the site's pages say about their types; ``saved``'s rules skip learning them."""
        rules: dict[str, Any] = {}
        if saved is not None and saved.post_rule is not None:
            rules["post_rule"] = saved.post_rule
            rules["more_rules"] = saved.more_rules
            if saved.thread_rule is not None:
                rules["thread_regex"] = saved.thread_rule.regex
        return forum_site.learn_site_types(  # (looked up here: tests break it on purpose)
            [page.root for page in pages], [page.url for page in pages],
            htmls=[page.html for page in pages], **rules)

    def look(self, model: ForumSite, page: SitePage) -> None:
        return None

    def apply(self, model: ForumSite, page: SitePage, content: Content,
              seen: None) -> Decision | None:
        return None

    def review(self, model: ForumSite, pages: Sequence[SitePage],
               records: Sequence[Record]) -> list[Decision | None]:
        return model.decide(records)

    def to_profile(self, model: ForumSite) -> Mapping[str, Any] | None:
        """The post rule and thread-URL rule (None: the site is no forum)."""
        return model.rules() if model.is_forum else None

    def from_profile(self, data: Mapping[str, Any]) -> ForumSite:
        """The saved rules, as a model of no pages for ``learn`` to read the pages with."""
        regex = data.get("thread_regex")
        more = tuple(PostRule.from_dict(dict(rule)) for rule in data.get("more_rules") or ())
        return ForumSite([], [], [], [], PostRule.from_dict(dict(data)),
                         thread_rule=Resolver.from_regex(regex) if regex is not None else None,
                         more_rules=more)
