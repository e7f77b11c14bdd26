"""Item links by learned URL rules (``UrlStructurePolicy``), against the topic site of
crawl_site.py and on hand-built pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from crawl_site import TOPICS, article, list_page, topic_site

from sitesift.crawl import crawl
from sitesift.crawl import urlpolicy as urlpolicy_module
from sitesift.crawl.crawler import Crawler
from sitesift.crawl.policy import DefaultPolicy, page_links
from sitesift.crawl.urlpolicy import UrlStructurePolicy
from sitesift.options import Options
from sitesift.parse.html import parse_html

#: One request at a time, so the pages are parsed in frontier order (shallowest, then oldest).
ONE_BY_ONE = Options(crawl_delay=0, crawl_timeout=2, crawl_depth=2, crawl_host_concurrency=1)
NEW_TOPICS = {f"/topic/{t}/" for t in TOPICS[3:]}
LEAD = "/news/2024/article-77.html"


def test_links_followed_by_the_learned_article_rule_not_from_a_topic_cluster(
    serve, tmp_path: Path
) -> None:
    """Articles 1-5 are read as detail pages and the first topic page as a list: from then on
    the lead article (alone in its <div>, no repeated structure) is followed because its URL
    fits the article rule, and topics 4-6 (repeated items with long anchors) are not, because
    topic URLs are a non-item cluster. Page cues alone do the opposite."""
    site = serve(topic_site())
    policy = UrlStructurePolicy()
    crawl([site.url("/news/")], tmp_path / "learned.warc.gz", ONE_BY_ONE, policy=policy)
    assert site.requests[LEAD] == 1
    assert not NEW_TOPICS & set(site.requests)
    model = policy.hosts[site.base.removeprefix("http://")]
    rule = model.rule_of(site.url(LEAD))
    assert rule is not None and rule.item and rule.confirmed
    assert model.is_item(site.url("/topic/roads/")) is not True

    cues = serve(topic_site())
    crawl([cues.url("/news/")], tmp_path / "cues.warc.gz", ONE_BY_ONE, policy=DefaultPolicy())
    assert cues.requests[LEAD] == 0
    assert set(cues.requests) >= NEW_TOPICS


def test_the_crawler_learns_by_default(serve, tmp_path: Path) -> None:
    site = serve(topic_site())
    crawler = Crawler(ONE_BY_ONE)
    crawler.run([site.url("/news/")], tmp_path / "c.warc.gz")
    assert isinstance(crawler.policy, UrlStructurePolicy)
    assert site.requests[LEAD] == 1


BASE = "http://example.org"


def _list(items: list[str], extra: str = "") -> tuple[str, list, object]:
    html = list_page([(href, f"Headline number {href[-8:]} of the day") for href in items])
    html = html.replace(b"<h1>", extra.encode() + b"<h1>")
    root = parse_html(html.decode())
    return root, page_links(f"{BASE}/news/", root)


def test_confirmed_article_urls_skip_the_page_type_model_and_siblings_follow_the_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    policy = UrlStructurePolicy()
    root, links = _list([f"/story/{i}.html" for i in range(1, 7)])
    assert policy.is_list_page(f"{BASE}/news/", links, root)
    assert len(policy.item_links(f"{BASE}/news/", links, root)) == 6
    for i in range(1, 5):  # four articles read by the page-type model: the rule is confirmed
        art = parse_html(article(f"Story {i}").decode())
        assert not policy.is_list_page(f"{BASE}/story/{i}.html", [], art)
    model = policy.hosts["example.org"]
    policy.learn(model)
    assert model.rule_of(f"{BASE}/story/999.html").confirmed

    def no_model(root: object) -> None:
        raise AssertionError("the page-type model ran on a page known by its URL")

    monkeypatch.setattr(urlpolicy_module, "extract_content", no_model)
    art = parse_html(article("Story 5").decode())
    assert not policy.is_list_page(f"{BASE}/story/5.html", [], art)
    # Same layer by the learned rule: other stories, not the list page or the menu.
    links = page_links(f"{BASE}/story/5.html", parse_html(
        "<html><body><a href='/story/6.html'>six</a><a href='/news/'>news</a>"
        "<a href='/about.html'>about</a><a href='/story/12345.html'>new id</a></body></html>"))
    assert [link.url for link in policy.same_layer_links(f"{BASE}/story/5.html", links)] == [
        f"{BASE}/story/6.html", f"{BASE}/story/12345.html"]


def test_the_population_stays_bounded() -> None:
    policy = UrlStructurePolicy(max_urls=50)
    root, links = _list([f"/story/{i}.html" for i in range(200)])
    policy.item_links(f"{BASE}/news/", links, root)
    model = policy.hosts["example.org"]
    assert len(model.votes) <= 50 and model.learnings >= 1


def test_the_learned_model_is_saved_with_the_frontier_and_restored_on_resume(
    serve, tmp_path: Path
) -> None:
    """Issue 19: a resumed crawl starts from the evidence of the earlier runs (saved in the
    frontier), not from nothing: its rules are the ones the first run learned."""
    site = serve(topic_site())
    warc = tmp_path / "c.warc.gz"
    first = UrlStructurePolicy()
    crawl([site.url("/news/")], warc, ONE_BY_ONE, policy=first)
    resumed = UrlStructurePolicy()
    stats = Crawler(ONE_BY_ONE, policy=resumed).run([site.url("/news/")], warc)
    assert stats.done == 0  # nothing left to fetch: all it knows comes from the frontier
    host = site.base.removeprefix("http://")
    before, after = first.hosts[host], resumed.hosts[host]
    assert after.votes == before.votes and after.typed == before.typed
    assert {rule.resolver.regex for rule in after.rules} == {
        rule.resolver.regex for rule in before.rules}
    assert after.is_item(site.url(LEAD)) is True
    assert after.is_item(site.url("/topic/roads/")) is not True
