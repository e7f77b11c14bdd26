"""Item links by URL structure: the crawl learns, per host, which URLs are article pages.

``UrlStructurePolicy`` answers the crawler's questions (``policy.CrawlPolicy``) with the page
cues of ``DefaultPolicy`` until it has learned a host's URLs, and from then on by learned URL
rules (paper 001's URL structure clustering, ``methods/forum/urls.py``):

1. Population and evidence. Every URL of a host the crawl sees (pages parsed and the links
   they hold, at most ``max_urls``) joins the host's population. Evidence per URL:
   *typed* by the page-type model when the page was fetched and parsed (``detail``, or a list
   page: ``list``); *votes* from list pages, +1 where the URL sits in the page's repeated items
   (``DefaultPolicy.item_links``); other links get none (on real list pages many articles sit
   outside the repeated items: lead stories, cards of other layouts); where a learned rule
   overrules the page's structure, the vote goes the rule's way (a topic link in repeated
   items, refused by the topic rule, votes -1; an article outside them +1).
   A typed page weighs ``typed_weight`` votes; an untyped URL weighs the sign of its votes.
2. Learning (every time the evidence has grown by ``relearn_share``, and at least
   ``relearn_min`` pieces, since the last time; never per page): the population is clustered
   by URL structure (``cluster_urls``: structure vectors, KNN-DPC). In each cluster the members
   with positive weight give an *item rule* (``Resolver.learn`` over them, not the whole
   cluster: a small sample may merge a list URL with its articles). The rule is kept when it
   covers at least ``min_votes`` weight and at least ``min_share`` of the typed weight and of
   the voted weight it matches is positive. The members with negative weight give a
   *non-item rule*; a cluster whose item rule is refused on evidence, or that has non-items
   only, is non-item as a whole (its full rule: a list-typed topic page makes every topic URL
   a non-item). A cluster with too little evidence for an item rule keeps only its
   non-items' rule (a section front page next to two of its articles).
3. Use. ``item_links``: links that fit an item rule, wherever they sit on the page, plus the
   page's repeated-item links that fit no rule (URL shapes not learned yet), minus those that
   fit a non-item rule. ``is_list_page``: a page whose URL fits an item rule confirmed by
   ``min_votes`` detail-typed pages is a detail page, known without running the page-type
   model on it; others as ``DefaultPolicy``. ``same_layer_links``: the links that fit the same
   learned rule as the page (its cluster), else ``same_layer_links`` (folder and shape).

Cost: rules are applied as one compiled regex (a named group per kind: item, non-item); learning is
O(``max_urls``^2) and happens O(log n) times per host. State lives in the policy object; the
crawler saves its evidence (``state``) in the frontier and a resumed crawl ``restore``s it
(the rules are learned again from it, once per host), so it does not start from nothing.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from lxml import etree

from sitesift.crawl.policy import DefaultPolicy, same_layer_links
from sitesift.methods.forum.urls import Resolver, cluster_urls, split_url
from sitesift.methods.forum.urls import _target as url_target
from sitesift.methods.page.content import extract_content
from sitesift.parse.links import Link

__all__ = ["HostModel", "UrlStructurePolicy"]

DETAIL, LIST = "detail", "list"


@dataclass(frozen=True, slots=True)
class Rule:
    """One learned URL rule: the URLs it matches are items (article pages) or not."""

    resolver: Resolver
    item: bool
    #: Item rules only: backed by at least ``min_votes`` pages the page-type model read as detail.
    confirmed: bool = False


@dataclass(slots=True)
class HostModel:
    """What the crawl knows about one host's URLs: population, evidence, learned rules."""

    #: URL -> net votes (repeated item on a list page +1, other link of a list page -1).
    votes: dict[str, int] = field(default_factory=dict)
    #: URL -> page type of the fetched page (``detail`` or ``list``).
    typed: dict[str, str] = field(default_factory=dict)
    rules: list[Rule] = field(default_factory=list)
    #: All rules as one regex, item rules first, each kind a named group: one match per URL.
    kinds: re.Pattern[str] | None = None
    evidence: int = 0  # pieces of evidence taken so far
    learned_at: int = 0  # ... and at the last learning
    learnings: int = 0

    def is_item(self, url: str) -> bool | None:
        """True / False when a learned rule says so (item rules first); None: no rule fits."""
        if self.kinds is None:
            return None
        found = self.kinds.fullmatch(url_target(url))
        return None if found is None else found.lastgroup == "item"

    def rule_of(self, url: str) -> Rule | None:
        return next((rule for rule in self.rules if rule.resolver.match(url)), None)


@dataclass(slots=True)
class UrlStructurePolicy:
    """``CrawlPolicy`` that learns item URLs per host (module docstring). Thresholds: stated
    defaults, set by hand on the crawl tests' sites; not tuned on an evaluation set."""

    #: Page cues used before a host's rules are learned, and for its repeated items.
    page: DefaultPolicy = field(default_factory=DefaultPolicy)
    #: URLs per host kept for clustering (O(n^2) learning: 1,000 URLs take about 0.15 s).
    max_urls: int = 1000
    #: Weight of an item rule's positive evidence needed to keep it; also the number of
    #: detail-typed pages that confirm it (after which its pages skip the page-type model).
    min_votes: int = 3
    #: Share of the typed, and of the voted, weight an item rule matches that must be positive.
    min_share: float = 0.7
    #: A page typed by the page-type model weighs this many link votes.
    typed_weight: int = 3
    #: Learn again when the evidence grew by this share since the last learning...
    relearn_share: float = 0.25
    #: ... and by at least this many pieces.
    relearn_min: int = 4
    seed: int = 0
    hosts: dict[str, HostModel] = field(default_factory=dict)
    _random: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)

    # -- the crawler's questions ----------------------------------------------------------------

    def is_list_page(self, url: str, links: Sequence[Link], root: etree._Element) -> bool:
        model = self._host(url)
        self._see(model, [link.url for link in links])
        rule = model.rule_of(url)
        if rule is not None and rule.item and rule.confirmed:
            return False  # an article by its URL: no page-type model run needed
        # The page-type model on a copy (it edits the tree it reads); DefaultPolicy's cues
        # decide the pages it calls "other".
        page_type = extract_content(copy.deepcopy(root)).page_type
        is_list = page_type == "list" or (
            page_type == "other" and self.page.list_cues(url, links, root))
        if self.page.post_titles(url, root):
            # Post titles: a page of whole posts (which the page-type model reads as an
            # article) or an article with its related posts under it; its titles are followed
            # either way. Measured on the dev sets, no cue told the two apart reliably (forum
            # threads and listicles with linked section headings look alike), so such a page
            # is evidence only when the model calls it a list.
            if is_list:
                self._type(model, url, LIST)
            self._maybe_learn(model)
            return True
        if page_type == DETAIL or is_list:
            self._type(model, url, DETAIL if page_type == DETAIL else LIST)
        self._maybe_learn(model)
        return is_list

    def item_links(self, url: str, links: Sequence[Link], root: etree._Element) -> list[Link]:
        model = self._host(url)
        repeated = self.page.item_links(url, links, root)
        in_items = {link.url for link in repeated}
        # One vote per URL and page. Other links get none: on real list pages many articles
        # sit outside the repeated items (lead stories, cards of other layouts).
        self._see(model, [link.url for link in links])
        for target in in_items:
            if target != url:
                self._vote(model, target, 1)
        self._maybe_learn(model)
        if model.kinds is None:
            return repeated
        out = []
        verdicts: dict[str, bool] = {}
        for link in links:
            if link.url == url:
                continue
            verdict = verdicts.get(link.url)
            if verdict is None:
                verdict = model.is_item(link.url)
                if verdict is None:
                    verdict = link.url in in_items
                elif verdict != (link.url in in_items):
                    # The rules overrule the page's structure: the vote goes their way.
                    self._vote(model, link.url, 2 if verdict else -2)
                verdicts[link.url] = verdict
            if verdict:
                out.append(link)
        return out

    def same_layer_links(self, url: str, links: Sequence[Link]) -> list[Link]:
        rule = self._host(url).rule_of(url)
        if rule is None:
            return same_layer_links(url, links)
        seen = {url}
        out = []
        for link in links:
            if link.url not in seen and rule.resolver.match(link.url):
                seen.add(link.url)
                out.append(link)
        return out

    # -- saved with the frontier ---------------------------------------------------------------

    def state(self) -> dict[str, object]:
        """The evidence per host, as JSON-able data (rules are learned again from it)."""
        return {host: {"votes": model.votes, "typed": model.typed, "evidence": model.evidence,
                       "learnings": model.learnings}
                for host, model in self.hosts.items()}

    def restore(self, state: dict[str, object]) -> None:
        """Take the evidence of ``state`` (``state()`` of an earlier run) and learn each host's
        rules from it."""
        for host, saved in state.items():
            if not isinstance(saved, dict):
                continue
            model = HostModel(votes={str(k): int(v) for k, v in saved["votes"].items()},
                              typed={str(k): str(v) for k, v in saved["typed"].items()},
                              evidence=int(saved["evidence"]))
            self.learn(model)
            model.learnings = int(saved.get("learnings", 0)) + 1
            self.hosts[host] = model

    # -- evidence -------------------------------------------------------------------------------

    def _host(self, url: str) -> HostModel:
        return self.hosts.setdefault(urlsplit(url).netloc, HostModel())

    def _room(self, model: HostModel, url: str) -> bool:
        """Whether ``url`` is in the population (added while there is room)."""
        if url in model.votes or url in model.typed:
            return True
        if len(model.votes) < self.max_urls:
            model.votes[url] = 0
            return True
        return False

    def _see(self, model: HostModel, urls: Sequence[str]) -> None:
        for url in urls:
            if len(model.votes) >= self.max_urls:
                break
            model.votes.setdefault(url, 0)

    def _make_room(self, model: HostModel) -> None:
        """A full population makes room for evidence: a random URL without any goes."""
        bare = [u for u, v in model.votes.items() if v == 0 and u not in model.typed]
        if bare:
            del model.votes[self._random.choice(bare)]

    def _vote(self, model: HostModel, url: str, vote: int) -> None:
        if not self._room(model, url):
            self._make_room(model)
            if not self._room(model, url):
                return
        before = model.votes[url]
        model.votes[url] = after = before + vote
        # Evidence is news: a URL voted on first, or whose vote changes sign (the menu on
        # every list page is no new evidence each time).
        if (before > 0) != (after > 0) or (before < 0) != (after < 0):
            model.evidence += 1

    def _type(self, model: HostModel, url: str, page_type: str) -> None:
        if not self._room(model, url):
            self._make_room(model)
            if not self._room(model, url):
                return
        if model.typed.get(url) != page_type:
            model.typed[url] = page_type
            model.evidence += 1

    def _weight(self, model: HostModel, url: str) -> int:
        typed = model.typed.get(url)
        if typed is not None:
            return self.typed_weight if typed == DETAIL else -self.typed_weight
        votes = model.votes.get(url, 0)
        return (votes > 0) - (votes < 0)

    # -- learning -------------------------------------------------------------------------------

    def _maybe_learn(self, model: HostModel) -> None:
        grown = model.evidence - model.learned_at
        if grown >= max(self.relearn_min, self.relearn_share * model.learned_at):
            self.learn(model)

    def learn(self, model: HostModel) -> None:
        """Step 2 of the module docstring: cluster the host's URLs, learn the rules."""
        model.learned_at = model.evidence
        model.learnings += 1
        urls = sorted(model.votes)
        if len(urls) < 2:
            return
        clustering = cluster_urls(urls)
        weights = {url: self._weight(model, url) for url in urls}
        rules: list[Rule] = []
        for label in clustering.sizes():
            members = [urls[i] for i in clustering.members(label)]
            positive = [u for u in members if weights[u] > 0]
            negative = [u for u in members if weights[u] < 0]
            item = self._item_rule(model, members, positive, weights)
            if item is False or (item is None and not positive and negative):
                # Refused on evidence, or nothing but non-items: the cluster is non-item.
                rules.append(Rule(clustering.resolver(label), False))
                continue
            if item is not None:
                rules.append(item)
            if negative:  # the non-items of a cluster with items (or too few to tell)
                rules.append(Rule(Resolver.learn(split_url(u) for u in negative), False))
        rules.sort(key=lambda rule: not rule.item)  # item rules first
        model.rules = rules
        model.kinds = _union(rules)

    def _item_rule(self, model: HostModel, members: list[str], positive: list[str],
                   weights: dict[str, int]) -> Rule | bool | None:
        """The cluster's item rule; None: too little evidence; False: refused on evidence."""
        if sum(weights[u] for u in positive) < self.min_votes:
            return None
        resolver = Resolver.learn(split_url(u) for u in positive)
        matched = [u for u in members if resolver.match(u)]
        typed = [weights[u] for u in matched if u in model.typed]
        voted = [weights[u] for u in matched if u not in model.typed and weights[u]]
        for group in (typed, voted):
            total = sum(abs(w) for w in group)
            if total and sum(w for w in group if w > 0) < self.min_share * total:
                return False
        details = sum(model.typed.get(u) == DETAIL for u in matched)
        return Rule(resolver, True, confirmed=details >= self.min_votes)


def _union(rules: list[Rule]) -> re.Pattern[str] | None:
    """One regex for all rules (item rules first): one match call per URL, however many."""
    groups = []
    for name, item in (("item", True), ("other", False)):
        kind = [f"(?:{rule.resolver.regex})" for rule in rules if rule.item == item]
        if kind:
            groups.append(f"(?P<{name}>{'|'.join(kind)})")
    return re.compile("|".join(groups)) if groups else None
