import numpy as np
import pytest

from sitesift.methods.template.features import page_features
from sitesift.methods.template.site import learn_site
from sitesift.parse import parse_html

PAGE = ("<html><body><div class='nav'><a>Home</a><a>News</a></div>"
        "<p>Story text here.</p></body></html>")


def test_features_are_computed_only_when_asked_for() -> None:
    root = parse_html(PAGE)
    full = page_features(root)
    assert full.structure is not None and full.signatures and full.strings is not None
    assert full.strings.dtype == np.uint64 and len(full.strings) >= 3  # Home, News, the story
    bare = page_features(root, structure=False, strings=False)
    assert bare.structure is None and bare.strings is None and bare.signatures


def test_a_method_missing_a_feature_says_which_and_how_to_get_it() -> None:
    bare = page_features(parse_html(PAGE), structure=False)
    with pytest.raises(ValueError, match=r"'structure'.*structure=True"):
        learn_site("s", [bare, bare])


def test_one_walk_gives_the_structure_and_signatures_the_two_functions_give() -> None:
    # (page_features walks the page once for both; each function alone is the reference:
    # skipped tags, comments and their tails, a wrapper over the blocks, repeated labels)
    from sitesift.methods.template.istm import page_structure
    from sitesift.methods.template.template import content_signatures
    from sitesift.parse.signatures import RelaxedLabels

    html = ("<html><head><title>T</title></head><body><div id='page'>"
            "<div class='nav'><a>Home</a> | <a>News</a><!-- menu --> tail</div>"
            "<script>var x;</script><div class='ad'></div><div class='ad'>Ad</div>"
            "<p>Story <b>text</b> here.<noscript><p>no</p></noscript> more</p>"
            "<ul><li>a</li><li>b<select><option>o</option></select></li></ul>"
            "<div class='foot'>Footer 2026</div></div></body></html>")
    for page in (html, html.replace("<body><div id='page'>", "<body>"), PAGE):
        one, two = parse_html(page), parse_html(page)
        labels = RelaxedLabels()
        walked = page_features(one, strings=False, labels=RelaxedLabels())
        structure = page_structure(two, relaxed=True, labels=labels)
        signatures = content_signatures(two, labels=labels)
        assert walked.structure is not None and walked.signatures is not None
        assert walked.structure.paths.tolist() == structure.paths.tolist()
        assert walked.structure.weights.tolist() == structure.weights.tolist()
        assert [(one.getroottree().getpath(el), h) for el, h in walked.signatures.items()] \
            == [(two.getroottree().getpath(el), h) for el, h in signatures.items()]
