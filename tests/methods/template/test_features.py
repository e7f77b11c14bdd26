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
