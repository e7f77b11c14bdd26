"""URL structure clustering (paper 001): the paper's worked examples and small sites."""

from __future__ import annotations

import math

import numpy as np

from sitesift.cli import main
from sitesift.methods.forum.urls import (
    DIGITS,
    LETTERS,
    MIXED,
    Resolver,
    block_type,
    cluster_urls,
    dissimilarity,
    log_dissimilarity,
    split_url,
    structure_vectors,
)

PAPER_URLS = [
    "http://example.com/query.php?id=001&grade=100",
    "http://example.com/query.php?id=001&grade=99",
    "http://example.com/query.php?id=002&grade=100",
    "http://example.com/query.php?id=002&grade=99",
    "http://example.com/query.php?id=003",
]


def test_structure_vectors_match_the_papers_table() -> None:
    vec = structure_vectors(PAPER_URLS, fold_ids=False)
    assert vec.width == 6
    # Value codes in order of first appearance; u5 padded with the empty value 0.
    assert vec.codes.tolist() == [
        [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 7], [1, 2, 3, 8, 5, 6], [1, 2, 3, 8, 5, 7],
        [1, 2, 3, 9, 0, 0],
    ]
    assert [block_type(b) for b in ("query", "001", "a1", "")] == [LETTERS, DIGITS, MIXED, 0]


def test_ids_are_folded_so_a_kind_named_after_an_id_stays_one_cluster() -> None:
    """URLs whose id stands before the kind's own words (``?topic=5.0``, ``?topic=5.msg15``,
    ``?topic=5.new``): with every id its own value they group by topic, one cluster each;
    folded, each kind is one cluster, and kinds named by a parameter that neither URL holds
    (``board`` beside ``topic``) part, while profiles stay apart from both."""
    base = "http://forum.test/index.php"
    urls = [f"{base}?topic={t}.0" for t in range(1, 41)]
    urls += [f"{base}?topic={t}.msg{t * 3}#msg{t * 3}" for t in range(1, 41)]
    urls += [f"{base}?topic={t}.new#new" for t in range(1, 41)]
    urls += [f"{base}?board={b}.{p}" for b in range(1, 4) for p in (0, 20, 40)]
    urls += [f"{base}?action=profile;u={u}" for u in range(1, 13)]
    assert structure_vectors(urls[:2]).codes[0].tolist() == \
        structure_vectors(urls[:2]).codes[1].tolist()
    clustering = cluster_urls(urls)
    label = clustering.label_of
    topics = {label(u) for u in urls[:40]}
    assert len(topics) == 1
    assert {label(u) for u in urls[120:129]}.isdisjoint(topics)
    assert {label(u) for u in urls[129:]}.isdisjoint(topics | {label(urls[120])})
    rule = clustering.resolver(topics.pop())
    assert rule.match(urls[5]) and not rule.match(urls[121]) and not rule.match(urls[130])


def test_dissimilarity_is_n_factorial_over_ns_factorial() -> None:
    # The paper's examples: N = 5, Ns = 4 gives 5; Ns = 2 gives 60.
    assert round(math.exp(log_dissimilarity(np.array([4]), 5)[0])) == 5
    assert round(math.exp(log_dissimilarity(np.array([2]), 5)[0])) == 60
    assert dissimilarity(PAPER_URLS[0], PAPER_URLS[0]) == 0.0
    # A 60-block URL would overflow N! in floats; in log space it is fine.
    assert np.isfinite(log_dissimilarity(np.array([1]), 200)).all()


def test_split_url_keeps_separators_and_decodes() -> None:
    assert split_url("http://h/a/b.html?x=%E4%B8%AD") == [
        ("/", "a"), ("/", "b"), (".", "html"), ("?", "x"), ("=", "中")]
    assert split_url("http://h/archiver/") == [("/", "archiver"), ("/", "")]


def _site() -> tuple[list[str], list[str]]:
    urls, kinds = [], []
    for t in range(1, 40):
        urls.append(f"http://f.test/show.php?tid={t}")
        kinds.append("thread")
        urls.append(f"http://f.test/show.php?tid={t}&page=2")
        kinds.append("thread")
    for f in range(1, 30):
        urls.append(f"http://f.test/list.php?fid={f}&order=new")
        kinds.append("list")
    for u in range(1, 25):
        urls.append(f"http://f.test/user/{u}/profile")
        kinds.append("other")
    return urls, kinds


def test_clusters_separate_kinds_and_rule_finds_all_threads() -> None:
    urls, kinds = _site()
    clustering = cluster_urls(urls)
    for label in clustering.sizes():
        assert len({kinds[i] for i in clustering.members(label)}) == 1
    rule = clustering.resolver(clustering.label_of(urls[0]))
    assert rule.filter(urls) == [u for u, k in zip(urls, kinds, strict=True) if k == "thread"]
    # Unseen ids of the same shape match; other shapes do not.
    assert rule.match("http://f.test/show.php?tid=123456")
    assert not rule.match("http://f.test/show.php?fid=3")
    assert not rule.match("http://f.test/list.php?fid=3&order=new")


def test_resolver_keeps_few_values_and_types_many() -> None:
    rows = [split_url(f"/a/{v}/{i}") for v in ("x", "y") for i in range(10)]
    rule = Resolver.learn(rows)
    assert rule.match("/a/x/77") and not rule.match("/a/z/1") and not rule.match("/a/x/b")
    assert "<digits>" in rule.describe()


def test_cli_urls_cluster(tmp_path, capsys) -> None:
    urls, _ = _site()
    path = tmp_path / "urls.txt"
    path.write_text("\n".join(urls), encoding="utf-8")
    assert main(["urls", "cluster", str(path), "--topic", urls[0]]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("topic; its rule accepts 78 URLs")
    assert "regex:" in out


def test_rule_types_are_exact() -> None:
    urls, _ = _site()
    clustering = cluster_urls(urls)
    thread_rule = clustering.resolver(clustering.label_of(urls[0]))  # type: ignore[arg-type]
    assert thread_rule.match("http://f.test/show.php?tid=7")
    assert not thread_rule.match("http://f.test/show.php?tid=7a")  # mixed, not digits
    assert not thread_rule.match("http://f.test/show.php?tid=")
