"""The saved-profile steps of ``TemplateMethod`` (assign, the wrapper's ``read``, signatures),
called directly: what the pipeline's template path only orders; and its model saved as JSON
(``to_profile``) and read back (``from_profile``), run through ``Extractor.extract_with``."""

import json
from pathlib import Path

import pytest
from test_wrapper import learned_store, stories

from sitesift import Extractor, Options
from sitesift.errors import ProfileError
from sitesift.fields.metadata import Metadata
from sitesift.methods.interface import SitePage
from sitesift.methods.template.method import TemplateMethod
from sitesift.methods.template.profile import PROFILE_VERSION, SiteProfile
from sitesift.methods.template.profile_data import profile_from_data, profile_to_data
from sitesift.parse import parse_html
from sitesift.parse.signatures import RelaxedLabels
from sitesift.profiles.serialize import profile_to_bytes
from sitesift.record import Record


def _profile(tmp_path: Path) -> SiteProfile:
    with learned_store(tmp_path) as store:
        profile = store.get("harbour")
    assert profile is not None and profile.templates[0].wrapper is not None
    return profile


def test_assign_finds_the_template_its_fields_and_the_wrapper(tmp_path: Path) -> None:
    profile = _profile(tmp_path)
    (page,) = stories(1, start=20)
    root = parse_html(page.html)
    model = TemplateMethod.saved(profile)
    site_page = SitePage(id=page.id, url=page.url, root=root, meta=Metadata())
    assigned = TemplateMethod(wrappers=True).assign_page(model, site_page)
    assert model.assigned == {0: assigned} and model.templates == {0: assigned.template}
    assert assigned.template is profile.templates[0]
    assert assigned.wrapped is not None and assigned.wrapped.container is not None
    assert assigned.meta is not None and assigned.meta.title == "Story number 20 of the harbour"
    reading = TemplateMethod(wrappers=True).read(model, site_page)
    assert reading is not None and reading.extra == {"wrapper": True}
    content = reading.content
    assert content is not None and content.page_type == assigned.template.wrapper.page_type
    assert "Lead sentence of story 20." in content.text
    assert "Quay Street" not in content.text  # the footer lies outside the container


def test_without_wrappers_assign_reads_neither_fields_nor_wrapper(tmp_path: Path) -> None:
    profile = _profile(tmp_path)
    (page,) = stories(1, start=20)
    root = parse_html(page.html)
    assigned = TemplateMethod().assign(profile, root, RelaxedLabels(), page.url)
    assert assigned.template is profile.templates[0]
    assert assigned.meta is None and assigned.wrapped is None
    top = assigned.within if assigned.within is not None else root
    signatures = TemplateMethod.signatures(root, assigned.within, RelaxedLabels()).signatures
    assert signatures is not None and top in signatures


def test_a_page_of_another_layout_gets_no_template(tmp_path: Path) -> None:
    profile = _profile(tmp_path)
    root = parse_html("<html><body><table><tr><td>A price list</td></tr></table></body></html>")
    assigned = TemplateMethod(wrappers=True).assign(profile, root, RelaxedLabels(), None)
    assert assigned.template is None and assigned.within is None and assigned.wrapped is None


def _records(records: list[Record]) -> list[dict[str, object]]:
    """Records as dicts, without the cluster the template path names (``extract_with`` does
    not: it is no field of the interface's)."""
    out = []
    for record in records:
        data = record.to_dict()
        data.pop("cluster", None)
        out.append(data)
    return out


def test_a_saved_model_goes_to_json_text_and_back_with_the_same_records(
    tmp_path: Path,
) -> None:
    new = stories(4, start=10)
    options = Options(method="template")
    with learned_store(tmp_path) as store:
        profile = store.get("harbour")
        assert profile is not None
        by_store = list(Extractor(options, profiles=store).extract_many(new))
    method = TemplateMethod(wrappers=True)
    data = method.to_profile(TemplateMethod.saved(profile))
    assert data is not None and data["version"] == PROFILE_VERSION
    text = json.dumps(data)
    model = method.from_profile(json.loads(text))
    assert model.profile is not None
    assert profile_to_bytes(model.profile) == profile_to_bytes(profile)
    assert method.to_profile(model) == data
    records, models = Extractor(options).extract_with(method, new, models={"harbour": model})
    again, _ = Extractor(options).extract_with(method, new, models={"harbour": model})
    assert all(r.method == "template" and r.extra.get("wrapper") for r in records)
    assert _records(records) == _records(by_store) == _records(again)
    assert models["harbour"].assigned  # (a fresh model, its pages assigned)
    assert not model.assigned  # the model given stays as it was


def test_a_saved_model_without_wrappers_cleans_its_pages_by_deleteSame(
    tmp_path: Path,
) -> None:
    new = stories(3, start=10)
    options = Options(method="template", wrappers=False)
    with learned_store(tmp_path) as store:
        profile = store.get("harbour")
        assert profile is not None
        by_store = list(Extractor(options, profiles=store).extract_many(new))
    method = TemplateMethod()
    model = method.from_profile(json.loads(json.dumps(
        method.to_profile(TemplateMethod.saved(profile)))))
    records, _ = Extractor(options).extract_with(method, new, models={"harbour": model})
    assert all(r.method == "template" and not r.extra.get("wrapper") for r in records)
    assert "Quay Street" not in (records[0].text or "")  # the template's footer deleted
    assert _records(records) == _records(by_store)


def test_a_model_learned_through_the_interface_is_saved_and_applied(tmp_path: Path) -> None:
    method = TemplateMethod()
    _records_learned, models = Extractor(Options(method="template")).extract_with(
        method, stories(6))
    data = method.to_profile(models["harbour"])
    assert data is not None
    model = method.from_profile(json.loads(json.dumps(data)))
    records, _ = Extractor(Options(method="template")).extract_with(
        method, stories(2, start=10), models={"harbour": model})
    assert [r.method for r in records] == ["template", "template"]
    assert "Lead sentence of story 10." in (records[0].text or "")


def test_profile_data_of_another_version_or_corrupt_is_refused(tmp_path: Path) -> None:
    data = profile_to_data(_profile(tmp_path))
    for bad in ({**data, "version": PROFILE_VERSION - 1}, {**data, "format": "other"},
                {**data, "templates": [{**data["templates"][0], "counts": "@@"}]},
                {**data, "templates": [{**data["templates"][0], "paths": ""}]},
                {**data, "site": 3}, [data]):
        with pytest.raises(ProfileError):
            profile_from_data(bad)
    assert profile_to_bytes(profile_from_data(json.loads(json.dumps(data)))) \
        == profile_to_bytes(_profile(tmp_path))
