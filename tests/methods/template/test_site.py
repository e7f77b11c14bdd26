import json
from pathlib import Path

import pytest

from sitesift import Extractor, Options, Page
from sitesift.methods.template.features import page_features
from sitesift.methods.template.site import learn_site
from sitesift.parse import parse_html

REPO = Path(__file__).resolve().parents[3]
LAYOUT = """<html><body><header class="top"><a href="/">Harbour</a><a href="/city">City</a>
<a href="/port">Port</a></header><main><article><h1>{t}</h1><p>{b}</p><p>{b2}</p></article>
<aside class="most-read"><h3>Most read</h3><ul><li><a>Tide barrier</a></li><li><a>Ferry</a></li>
</ul></aside></main><footer>© Harbour News · About · Contact</footer></body></html>"""
OTHER = """<html><body><table><tr><td class="menu">Menu</td><td>{t}</td></tr></table>
<div id="x"><span>{b}</span></div></body></html>"""


def site_pages(n: int) -> list[Page]:
    pages = [
        Page(id=f"a{i}", site="harbour", html=LAYOUT.format(
            t=f"Story {i}", b=f"Paragraph one of story {i}, with words.",
            b2=f"Paragraph two of story {i}, with more words."))
        for i in range(n)
    ]
    pages.append(Page(id="odd", site="harbour", html=OTHER.format(t="Odd", b="Lone page text.")))
    return pages


def test_learn_site_clusters_templates_and_leaves_a_singleton_without_one() -> None:
    pages = site_pages(4)
    learned = learn_site("harbour", [page_features(parse_html(p.html)) for p in pages])
    assert len(learned.profile.templates) == 1
    assert learned.clusters[:4] == ["harbour#0"] * 4 and learned.clusters[4] == "harbour#1"
    assert learned.templates[4] is None


def test_template_method_records_carry_method_and_cluster() -> None:
    records = list(Extractor(Options(method="template")).extract_many(site_pages(4)))
    assert [r.id for r in records] == ["a0", "a1", "a2", "a3", "odd"]
    assert {r.method for r in records[:4]} == {"template"} and records[4].method == "page"
    assert all("cluster" in r.to_dict() for r in records)
    assert "Most read" not in (records[0].text or "")
    assert "Paragraph two of story 0" in (records[0].text or "")


def test_the_template_method_runs_through_the_interface() -> None:
    """``TemplateMethod`` (DeleteSame, paper 000) is a site-level method like any
    (``methods.interface``): given to ``extract_with`` it learns the site's templates and
    cleans each page as ``--method template`` does without a profile store (which runs its
    step so too; that path also learns the site's titles and says each page's cluster)."""
    from sitesift.methods.template.method import TemplateMethod

    pages = site_pages(4)
    by_path = list(Extractor(Options(method="template")).extract_many(pages))
    records, models = Extractor(Options(method="page")).extract_with(TemplateMethod(), pages)
    model = models["harbour"]
    assert list(model.clusters) == [r.extra["cluster"] for r in by_path]
    for record, expected in zip(records, by_path, strict=True):
        expected.extra.pop("cluster")
        assert record.to_dict() == expected.to_dict()
    assert "Most read" not in (records[0].text or "") and records[4].method == "page"


def test_a_bad_page_in_a_site_batch_is_an_error_record_and_the_rest_go_on() -> None:
    pages = [*site_pages(3), Page(id="empty", site="harbour", html="")]
    records = list(Extractor(Options(method="template")).extract_many(pages))
    assert records[-1].error and records[-1].error.startswith("empty")
    assert all(r.error is None for r in records[:-1])


def test_saved_profiles_are_applied_without_learning_again(tmp_path: Path) -> None:
    from sitesift.profiles.store import ProfileStore

    with ProfileStore(tmp_path / "p.db") as store:
        Extractor(Options(method="template"), profiles=store).learn(site_pages(4))
        assert "harbour" in store
        new = [Page(id="new", site="harbour", html=LAYOUT.format(
            t="New story", b="A fresh first paragraph.", b2="And a second one."))]
        (record,) = Extractor(Options(method="template"), profiles=store).extract_many(new)
    assert record.method == "template" and record.to_dict()["cluster"] == "harbour#0"
    assert "Most read" not in (record.text or "") and "fresh first paragraph" in record.text


def test_a_saved_profile_knows_its_content_container_and_gives_the_learned_text(
    tmp_path: Path,
) -> None:
    from sitesift.profiles.store import ProfileStore

    pages = site_pages(4)
    with ProfileStore(tmp_path / "p.db") as store:
        (profile,) = Extractor(Options(method="template"), profiles=store).learn(pages)
        # <body> > <main> > <article>: the deepest element around every page's story.
        assert len(profile.templates[0].container) == 2
        assert store.get("harbour").templates[0].container == profile.templates[0].container
        # the header and the footer recognise the template's pages without hashing them all
        assert profile.templates[0].anchors == store.get("harbour").templates[0].anchors
        assert len(profile.templates[0].anchors) >= 2
        applied = list(Extractor(Options(method="template"), profiles=store).extract_many(pages))
    learned = list(Extractor(Options(method="template")).extract_many(pages))
    assert [r.text for r in applied] == [r.text for r in learned]


def test_template_method_on_the_examples_site() -> None:
    from sitesift.input import iter_pages

    pages = iter_pages([str(REPO / "examples")])
    records = list(Extractor(Options(method="template")).extract_many(pages))
    articles = [r for r in records if "articles/" in r.id]
    assert articles and all(r.method == "template" for r in articles)
    assert all("Most read" not in (r.text or "") for r in articles)
    json.dumps([r.to_dict() for r in records])  # records stay JSON-serialisable


@pytest.mark.parametrize("n", [0, 1])
def test_tiny_sites(n: int) -> None:
    learned = learn_site("s", [page_features(parse_html(p.html)) for p in site_pages(n)[:n]])
    assert learned.profile.pages == n and not learned.profile.templates


def test_sites_found_by_clustering_are_never_saved(tmp_path: Path) -> None:
    from sitesift.profiles.store import ProfileStore

    pages = [Page(id=p.id, html=p.html) for p in site_pages(4)]  # no site, no URL
    with ProfileStore(tmp_path / "p.db") as store:
        records = list(Extractor(Options(method="template"), profiles=store).extract_many(pages))
        assert store.sites() == []
        Extractor(Options(method="template"), profiles=store).learn(pages)
        assert store.sites() == []
    assert records[0].site and records[0].site.startswith("site-")
    assert records[0].method == "template"


def test_a_saved_profile_does_not_claim_a_page_of_another_layout(tmp_path: Path) -> None:
    from sitesift.profiles.store import ProfileStore

    with ProfileStore(tmp_path / "p.db") as store:
        Extractor(Options(method="template"), profiles=store).learn(site_pages(4))
        stranger = Page(id="s", site="harbour", html=OTHER.format(t="New", b="Other text."))
        (record,) = Extractor(Options(method="template"), profiles=store).extract_many([stranger])
    assert record.method == "page" and record.to_dict()["cluster"] == "harbour#new-0"


def test_a_saved_profile_meets_empty_markupless_and_bodiless_pages(tmp_path: Path) -> None:
    from sitesift.profiles.store import ProfileStore

    with ProfileStore(tmp_path / "p.db") as store:
        Extractor(Options(method="template"), profiles=store).learn(site_pages(4))
        batch = [
            Page(id="empty", site="harbour", html=""),
            Page(id="plain", site="harbour", html="just words, no markup"),
            Page(id="headless", site="harbour", html="<p>A lone paragraph without a body.</p>"),
            Page(id="new", site="harbour", html=LAYOUT.format(
                t="New story", b="A fresh first paragraph.", b2="And a second one.")),
        ]
        records = list(Extractor(Options(method="template"), profiles=store).extract_many(batch))
    assert [r.id for r in records] == ["empty", "plain", "headless", "new"]
    assert records[0].error and records[1].error  # an error record each, nothing lost
    assert records[2].error is None and records[2].method == "page"  # no template fits it
    assert "lone paragraph" in (records[2].text or "")
    assert records[3].method == "template" and "fresh first paragraph" in (records[3].text or "")
