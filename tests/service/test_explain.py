from pathlib import Path

from service_pages import BOILERPLATE, article_page

from sitesift import Extractor, Options
from sitesift.profiles.store import ProfileStore
from sitesift.record import Page
from sitesift.service.explain import template_blocks

SITE = "gazette.example"


def _pages(n: int) -> list[Page]:
    return [Page(id=f"p{i}", site=SITE, html=article_page(i)) for i in range(n)]


def test_template_decisions_name_what_went_and_why(tmp_path: Path) -> None:
    with ProfileStore(tmp_path / "p.db") as store:
        Extractor(Options(method="template"), profiles=store).learn(_pages(4))
        profile = store.get(SITE)
    page = Page(id="new", site=SITE, html=article_page(7))
    blocks = template_blocks(page, profile)
    content = [b for b in blocks if b["label"] == "content"]
    assert len(content) == 1 and "story 7" in content[0]["text"]
    assert content[0]["xpath"].startswith("/html/body")
    shared = [b for b in blocks if b["label"] == "template"]
    boilerplate = [b for b in shared if BOILERPLATE in b["text"]]
    assert len(boilerplate) == 1 and "of the 4 pages of template" in boilerplate[0]["reason"]
    assert all("story 7" not in b["text"] for b in shared)  # the article itself stays


def test_without_profile_only_the_main_block_and_a_broken_page_gives_none() -> None:
    blocks = template_blocks(_pages(1)[0], None)
    assert [b["label"] for b in blocks] == ["content"]
    assert template_blocks(Page(id="x", html=""), None) == []
