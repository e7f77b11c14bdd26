"""The saved-profile steps of ``TemplateMethod`` (assign, the wrapper's ``read``, signatures),
called directly: what the pipeline's template path only orders."""

from pathlib import Path

from test_wrapper import learned_store, stories

from sitesift.fields.metadata import Metadata
from sitesift.methods.interface import SitePage
from sitesift.methods.template.method import TemplateMethod
from sitesift.methods.template.profile import SiteProfile
from sitesift.parse import parse_html
from sitesift.parse.signatures import RelaxedLabels


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
