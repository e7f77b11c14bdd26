import sitesift


def test_all_names_exist_and_are_sorted() -> None:
    for name in sitesift.__all__:
        assert hasattr(sitesift, name), name
    assert sorted(sitesift.__all__) == list(sitesift.__all__)


def test_exported_members_are_the_documented_surface() -> None:
    assert set(sitesift.__all__) == {
        "DecodeError", "EmptyPageError", "ExtractionError", "Extractor", "InputError", "Options",
        "Page", "PageError", "PageTimeout", "ParseError", "ProfileError", "Record", "SiftError",
        "UsageError", "__version__", "extract_html",
    }


def test_library_logs_through_a_null_handler() -> None:
    import logging

    handlers = logging.getLogger("sitesift").handlers
    assert any(isinstance(h, logging.NullHandler) for h in handlers)
