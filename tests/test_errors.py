import pytest

from sitesift import errors


def test_every_error_derives_from_sift_error() -> None:
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), errors.SiftError)


@pytest.mark.parametrize(
    ("cls", "kind"),
    [
        (errors.DecodeError, "decode"),
        (errors.EmptyPageError, "empty"),
        (errors.ParseError, "parse"),
        (errors.PageTimeout, "timeout"),
        (errors.ExtractionError, "extract"),
    ],
)
def test_page_errors_render_with_their_kind(cls: type[errors.PageError], kind: str) -> None:
    assert issubclass(cls, errors.PageError)
    assert str(cls("went wrong")) == f"{kind}: went wrong"


def test_usage_error_is_a_value_error() -> None:
    assert issubclass(errors.UsageError, ValueError)


def test_profile_error_is_an_input_error() -> None:
    assert issubclass(errors.ProfileError, errors.InputError)
