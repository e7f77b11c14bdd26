import collections
import json

import numpy as np
import pytest
from shared_data import DATA

from sitesift.methods.template.cluster import (
    SITE_CUT,
    cluster_pages,
    discover_sites,
    discover_templates,
    string_similarity,
)
from sitesift.methods.template.features import page_features, page_strings
from sitesift.methods.template.istm import page_structure, similarity_matrix
from sitesift.parse import parse_html
from sitesift.parse.signatures import stable_hash

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
         "lambda", "mu", "nu", "xi"]


def _story(i: int, paragraphs: int = 3) -> str:
    """Article text that differs from page to page."""
    return "".join(
        f"<p>{' '.join(WORDS[(i * 7 + k * 3 + j) % len(WORDS)] for j in range(12))} {i}-{k}</p>"
        for k in range(paragraphs)
    )


def _site_a(i: int, *, extra: str = "") -> str:
    return (
        '<html><body><div class="header"><a>Home</a><a>World</a><a>Sport</a></div>'
        f'<div class="nav"><ul><li>Politics</li><li>Business</li></ul></div>{extra}'
        f'<div class="article"><h1>Story number {i}</h1>{_story(i, 2 + i % 3)}</div>'
        '<div class="footer"><p>Copyright Daily A</p><p>Contact the newsroom</p></div>'
        "</body></html>"
    )


def _site_b(i: int) -> str:
    return (
        '<html><body><table id="layout"><tr><td class="menu"><b>Start</b><b>Archive</b>'
        "<b>About B Weekly</b></td>"
        f'<td class="main"><h2>Report {i}</h2>{_story(i + 50, 1 + i % 2)}</td></tr></table>'
        '<p class="legal">B Weekly Ltd, all rights reserved</p></body></html>'
    )


def _site_c(i: int) -> str:
    return (
        '<html><body><header id="top"><nav><span>Index</span><span>Opinion</span>'
        "<span>Culture pages</span></nav></header>"
        f'<main><article><h1>Column {i}</h1>{_story(i + 90, 3)}</article>'
        '<aside class="related"><em>More from C Journal</em></aside></main>'
        "<footer><small>C Journal 2024</small></footer></body></html>"
    )


def _istm(pages: list[str]) -> np.ndarray:
    return similarity_matrix(
        [page_structure(parse_html(p), relaxed=True) for p in pages], relaxed=True
    )


def test_two_templates_separate() -> None:
    pages = [_site_a(i) for i in range(4)] + [_site_b(i) for i in range(4)]
    labels = cluster_pages(_istm(pages))
    assert labels.tolist() == [0, 0, 0, 0, 1, 1, 1, 1]


def test_one_template_stays_together_despite_an_inserted_block() -> None:
    ad = '<div class="ad"><img src="x.png"><span>Buy now</span></div>'
    pages = [_site_a(i) for i in range(4)] + [_site_a(9, extra=ad)]
    sim = _istm(pages)
    assert sim[0, 4] < sim[0, 1]  # the block costs something...
    assert cluster_pages(sim).tolist() == [0] * 5  # ...but not the cluster


def test_sites_are_found_from_shared_strings_on_a_small_mix() -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    makers = [_site_a, _site_b, _site_c]
    order = [(s, i) for i in range(4) for s in range(3)]  # sites interleaved
    roots = [parse_html(makers[s](i)) for s, i in order]
    labels = discover_sites(roots)
    truth = [s for s, _ in order]
    assert sklearn_metrics.adjusted_rand_score(truth, labels) == 1.0
    assert labels[:3].tolist() == [0, 1, 2]  # numbered by each cluster's first page


def test_a_page_without_strings_is_a_site_of_its_own() -> None:
    skeleton = ('<html><body><div id="app"><header></header><div class="shell"></div>'
                "<footer></footer></div></body></html>")
    pages = [skeleton, _site_a(1), skeleton, _site_a(2)]
    assert discover_sites([parse_html(p) for p in pages]).tolist() == [0, 1, 2, 1]


def test_discover_templates_splits_templates_inside_a_site() -> None:
    # a section front of site A: same menu and footer lines, another layout
    list_page = (
        '<html><body><table class="front"><tr><td><a>Home</a><a>World</a><a>Sport</a></td>'
        "<td><ul><li>Politics</li><li>Business</li></ul></td></tr>"
        + "".join(f"<tr><td><a>Headline {k}</a></td><td>summary</td></tr>" for k in range(8))
        + '</table><p class="small">Copyright Daily A</p><p>Contact the newsroom</p>'
        "</body></html>"
    )
    pages = [_site_a(i) for i in range(3)] + [list_page] + [_site_b(i) for i in range(3)]
    feats = [page_features(parse_html(p)) for p in pages]
    sites, templates = discover_templates(feats)
    assert sites.tolist() == [0, 0, 0, 0, 1, 1, 1]  # the list page belongs to site A...
    assert templates.tolist() == [0, 0, 0, 1, 2, 2, 2]  # ...but not to its article template
    given, templates2 = discover_templates(feats, sites=["b.com"] * 3 + ["a.com"] * 4)
    assert given.tolist() == [0, 0, 0, 1, 1, 1, 1]
    assert templates2.tolist() == [0, 0, 0, 1, 2, 2, 2]  # the list page alone in site a.com
    with pytest.raises(ValueError):
        discover_templates(feats, sites=[0, 1])


def test_degenerate_inputs() -> None:
    assert cluster_pages(np.zeros((0, 0))).tolist() == []
    assert cluster_pages(np.ones((1, 1))).tolist() == [0]
    assert cluster_pages(np.ones((2, 2))).tolist() == [0, 0]
    assert cluster_pages(np.eye(2)).tolist() == [0, 1]
    same = [_site_a(1)] * 3
    assert cluster_pages(_istm(same)).tolist() == [0, 0, 0]
    assert discover_sites([parse_html(p) for p in same]).tolist() == [0, 0, 0]
    assert discover_sites([]).tolist() == []
    sites, templates = discover_templates([parse_html(_site_a(1))])
    assert sites.tolist() == [0] and templates.tolist() == [0]
    with pytest.raises(ValueError):
        cluster_pages(np.ones((2, 3)))
    with pytest.raises(ValueError):
        cluster_pages(np.array([[1.0, np.nan], [np.nan, 1.0]]))


def test_cluster_pages_leaves_the_input_alone_and_numbers_by_first_page() -> None:
    sim = np.array([[1.0, 0.0, 0.9], [0.0, 1.0, 0.1], [0.9, 0.1, 1.0]])
    before = sim.copy()
    assert cluster_pages(sim).tolist() == [0, 1, 0]
    assert np.array_equal(sim, before)
    # asymmetric input is averaged: 0.9 and 0.5 give 0.7, above 1 - TEMPLATE_CUT
    asym = np.array([[1.0, 0.9], [0.5, 1.0]])
    assert cluster_pages(asym).tolist() == [0, 0]
    assert cluster_pages(asym, threshold=0.2).tolist() == [0, 1]


def _hashes(*texts: str) -> np.ndarray:
    return np.array([stable_hash(t) for t in texts], dtype=np.uint64)


def test_string_similarity_ignores_strings_of_one_page_and_needs_evidence() -> None:
    a = _hashes("Home", "News", "Sport", "only in a 1", "only in a 2")
    b = _hashes("Home", "News", "Sport", "only in b")
    c = _hashes("Home", "Weather")
    d = _hashes("Weather", "Shop")
    sim = string_similarity([a, b, c, d], evidence=0.0)
    # a and b: the strings of one page only leave no trace; c's "Weather" is repeated (d)
    assert sim[0, 1] == pytest.approx(1.0)
    assert sim[0, 2] == pytest.approx(1 / 4)
    smoothed = string_similarity([a, b, c, d])
    assert smoothed[0, 1] == pytest.approx(3 / 8)
    # one shared string alone stays below the cut, whatever else the pages hold
    pair = string_similarity([_hashes("Home", "x"), _hashes("Home", "y")])
    assert 1 - pair[0, 1] > SITE_CUT
    assert np.allclose(np.diag(smoothed), 1.0) and np.allclose(smoothed, smoothed.T)
    assert string_similarity([]).shape == (0, 0)


def test_page_strings_take_short_visible_texts_only() -> None:
    root = parse_html(
        "<html><head><title>Title text</title></head><body><div>Menu  entry\n</div>"
        "<script>var hidden = 1;</script>after script<p>" + "long " * 30 + "</p>"
        "<p>x</p><span>Footer line</span></body></html>"
    )
    before = parse_html("<p>a</p>")  # a separate tree: page_strings must not edit its input
    assert set(page_strings(root).tolist()) == set(
        _hashes("Menu entry", "after script", "Footer line").tolist()
    )
    assert page_strings(before).size == 0  # one character is not a string


def _load(name: str, per_site: int) -> list[tuple[str, object]]:
    from sitesift.input.encoding import decode_html

    seen: collections.Counter[str] = collections.Counter()
    out = []
    for line in (DATA / name / "pages.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if seen[row["site"]] >= per_site:
            continue
        seen[row["site"]] += 1
        text, _ = decode_html((DATA / name / row["file"]).read_bytes())
        out.append((f"{name}/{row['site']}", page_features(parse_html(text), signatures=False)))
    return out


@pytest.mark.skipif(not DATA.is_dir(), reason=f"evaluation data not found at {DATA}")
def test_sites_of_the_big9_and_cleanportal_mix_are_found() -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    pages = [p for name in ("big9-2005", "big9-2009", "cleanportal") for p in _load(name, 5)]
    truth = [t for t, _ in pages]
    labels = discover_sites([f for _, f in pages])
    # 5 pages of each of 22 sites: 0.931 measured (fewer repeated strings than with all 251
    # pages, which give 0.981, docs/design/template.md); relaxed ISTM alone gives about 0.9
    assert sklearn_metrics.adjusted_rand_score(truth, labels) >= 0.9
