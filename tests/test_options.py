import dataclasses

import pytest

from sitesift import Options, UsageError


def test_defaults_are_valid() -> None:
    opts = Options()
    assert opts.method == "auto" and opts.page_timeout == 10.0


def test_keyword_only_and_frozen() -> None:
    with pytest.raises(TypeError):
        Options("page")  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Options().method = "page"  # type: ignore[misc]


@pytest.mark.parametrize(
    "changes",
    [
        {"method": "magic"},
        {"output_format": "xml"},
        {"site_key": "host"},
        {"page_timeout": 0},
        {"page_timeout": -1.0},
        {"max_page_bytes": 0},
        {"max_page_elements": 0},
        {"max_page_elements": True},
        {"sibling_tag_similarity": 0},
        {"sibling_text_similarity": 1.5},
        {"sibling_max_slide": -1},
        {"site_titles": "yes"},
        {"site_sample": 0},
        {"batch_pages": 1.5},
    ],
)
def test_invalid_values_are_rejected_with_a_clear_message(changes: dict) -> None:
    with pytest.raises(UsageError) as info:
        Options(**changes)
    assert str(next(iter(changes))).split("_")[0] in str(info.value)


def test_replace_validates() -> None:
    assert Options().replace(method="page").method == "page"
    with pytest.raises(UsageError):
        Options().replace(method="nope")
