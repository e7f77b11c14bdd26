import random

import numpy as np
import pytest

from sitesift.methods.template.istm import (
    istm_reference,
    page_structure,
    position_weights,
    similarity_matrix,
)
from sitesift.parse import parse_html


def test_position_weights_are_symmetric_edges_heavier_and_sum_to_one() -> None:
    w = position_weights(5)
    assert w == pytest.approx(w[::-1])
    assert w[0] > w[1] > w[2] and sum(w) == pytest.approx(1.0)
    # formula (8): |(N-1)/2 - m| + 1 for N = 5 is 3, 2, 1, 2, 3 over 11
    assert w == pytest.approx([3 / 11, 2 / 11, 1 / 11, 2 / 11, 3 / 11])


PAGE = """<html><body><div class="head"><a>Home</a><a>News</a></div>
<div class="main"><h1>T</h1><p>one</p><p>two</p></div><div class="foot"><p>c</p></div>
<script>var x;</script></body></html>"""


def test_identical_pages_have_similarity_one_and_scripts_do_not_count() -> None:
    a = parse_html(PAGE)
    b = parse_html(PAGE.replace("<script>var x;</script>", ""))
    assert istm_reference(a, b) == pytest.approx(1.0)


def test_a_changed_block_costs_its_weight_only() -> None:
    a = parse_html(PAGE)
    b = parse_html(PAGE.replace("<p>two</p>", "<p>two</p><p>three</p>"))
    # main block (middle of 3, weight 1/(2+1+2)... = 1/5) differs in child count: sigma = 0
    assert istm_reference(a, b) == pytest.approx(1 - 1 / 5)


def test_different_roots_score_zero() -> None:
    a = parse_html(PAGE)
    b = parse_html(PAGE.replace("<body>", '<body class="x">'))
    assert istm_reference(a, b) == 0.0


def _random_page(rng: random.Random, depth: int = 0) -> str:
    if depth > 3 or rng.random() < 0.25:
        return rng.choice(["<span>x</span>", "<b>y</b>", "<i>z</i>", "<p>t</p>"])
    tag = rng.choice(["div", "ul", "section"])
    cls = rng.choice(["", ' class="a"', ' class="b"'])
    kids = "".join(_random_page(rng, depth + 1) for _ in range(rng.randint(1, 4)))
    return f"<{tag}{cls}>{kids}</{tag}>"


def test_fast_matrix_equals_reference_on_random_trees() -> None:
    rng = random.Random(7)
    base = [_random_page(rng) for _ in range(4)]
    pages = []
    for _ in range(12):  # variations of a few blocks, so pairs share a lot
        blocks = [b if rng.random() < 0.7 else _random_page(rng) for b in base]
        pages.append(parse_html("<html><body>" + "".join(blocks) + "</body></html>"))
    fast = similarity_matrix([page_structure(p) for p in pages])
    slow = np.array([[istm_reference(a, b) for b in pages] for a in pages])
    assert np.allclose(fast, slow)
    assert np.allclose(np.diag(fast), 1.0)
    off = fast[~np.eye(len(pages), dtype=bool)]
    assert ((off > 0) & (off < 1)).any()  # the comparison is not trivial


def test_relaxed_similarity_survives_an_inserted_block() -> None:
    a = parse_html(PAGE)
    b = parse_html(PAGE.replace('<div class="main">', '<div class="ad">ad</div><div class="main">'))
    strict = similarity_matrix([page_structure(a), page_structure(b)])[0, 1]
    relaxed = similarity_matrix(
        [page_structure(a, relaxed=True), page_structure(b, relaxed=True)], relaxed=True
    )[0, 1]
    assert strict == 0.0 and relaxed > 0.6


def test_deep_pages_do_not_recurse() -> None:
    deep = parse_html("<html><body>" + "<div>" * 2000 + "x")  # (the parser keeps 2,048)
    assert istm_reference(deep, deep) == pytest.approx(1.0)
    assert similarity_matrix([page_structure(deep)] * 2)[0, 1] == pytest.approx(1.0)
