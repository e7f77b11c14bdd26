"""The browser pool against the real Chromium. Few and small: one pool for the module; every
test skips with the install step when Chromium or Playwright is missing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitesift import Options
from sitesift.errors import BrowserUnavailable, PageTimeout, UsageError
from sitesift.pipeline import Extractor
from sitesift.record import Page
from sitesift.render import browser as browser_module
from sitesift.render.browser import BrowserPool, find_chromium

PARAGRAPH = "Visual segmentation keeps the paragraphs a reader sees in the middle. " * 4
PAGE = f"""<html><head><title>Site - Story</title>
<link rel="stylesheet" href="http://example.invalid/style.css"></head><body>
<div style="height:60px"><a href="/">Home</a> <a href="/n">News</a> <a href="/s">Sport</a></div>
<h1 style="font-size:32px;color:#a00;margin:30px 0">The headline of the story</h1>
<div style="font-size:12px">Published 2024-05-06 10:30</div>
<p>{PARAGRAPH}</p><p>{PARAGRAPH}</p>
<img src="http://example.invalid/pixel.png" width="10" height="10">
<script>document.body.innerHTML = "scripts ran";</script>
<div style="height:200px"></div><div>Copyright 2024 Example News, all rights reserved.</div>
</body></html>"""


def _need_browser() -> None:
    try:
        import playwright  # noqa: F401

        find_chromium()
    except (ImportError, BrowserUnavailable) as exc:
        pytest.skip(f"browser tests need Chromium and Playwright: {exc}")


@pytest.fixture(scope="module")
def pool() -> Iterator[BrowserPool]:
    _need_browser()
    with BrowserPool(concurrency=2, timeout=10) as p:
        yield p


def test_renders_offline_without_scripts(pool: BrowserPool) -> None:
    rendering = pool.render(PAGE)
    tags = [el.tag for el in rendering.elements]
    assert tags[0] == "body" and "h1" in tags and "script" not in tags
    h1 = rendering.elements[tags.index("h1")]
    assert h1.font_size == 32 and h1.color == "rgb(170, 0, 0)"
    texts = " ".join(k.text for el in rendering.elements for k in el.children
                     if not isinstance(k, int))
    assert "scripts ran" not in texts and "headline" in texts
    assert rendering.width >= 1366


def test_many_pages_in_order(pool: BrowserPool) -> None:
    pages = [f"<p>page {i}</p>" for i in range(5)]
    texts = [f.result().elements[1].children[0].text for f in pool.render_many(pages)]
    assert texts == [f"page {i}" for i in range(5)]


def test_hanging_page_times_out_and_pool_goes_on() -> None:
    _need_browser()
    with BrowserPool(concurrency=1, timeout=2, javascript=True) as p:
        with pytest.raises(PageTimeout):
            p.render("<p>x</p><script>while (true) {}</script>")
        assert p.render("<p>after</p>").elements


def test_missing_browser_names_the_install_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("SITESIFT_CHROMIUM", raising=False)
    with pytest.raises(BrowserUnavailable, match="apt-get install -y chromium") as caught:
        browser_module.find_chromium()
    assert isinstance(caught.value, UsageError)  # the CLI exits with code 2


def test_broken_executable_is_browser_unavailable(tmp_path: Path) -> None:
    _need_browser()
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    with pytest.raises(BrowserUnavailable, match="did not start"):
        BrowserPool(executable=str(fake), timeout=10)


def test_visual_method_in_the_pipeline() -> None:
    _need_browser()
    pages = [Page(id="a", html=PAGE), Page(id="b", html="", error="decode: bad bytes")]
    with Extractor(Options(method="visual", render_concurrency=2)) as extractor:
        records = list(extractor.extract_many(pages))
    good, bad = records
    assert good.method == "visual" and good.error is None
    assert good.title == "The headline of the story"
    assert good.published == "2024-05-06T10:30:00"
    assert PARAGRAPH.strip() in (good.text or "") and "Copyright" not in (good.text or "")
    assert bad.error == "decode: bad bytes"


def test_render_command_writes_a_picture(tmp_path: Path) -> None:
    _need_browser()
    from sitesift.cli import main

    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    out = tmp_path / "page.png"
    assert main(["render", str(page), "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_visual_method_without_browser_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("playwright")
    from sitesift.cli import main

    def missing() -> str:
        raise BrowserUnavailable(f"no Chromium executable found; {browser_module.INSTALL_HINT}")

    monkeypatch.setattr(browser_module, "find_chromium", missing)
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["extract", str(page), "--method", "visual", "-q"]) == 2
    assert "apt-get install -y chromium" in capsys.readouterr().err


def test_visual_title_when_the_document_title_is_the_site_name() -> None:
    # <title> names only the site and a logo h1 tops the page: the title placed by the story
    # (fields/title_place.py) is what the visual cues are ranked against.
    _need_browser()
    nav = "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(60))
    html = ("<html><head><title>Northeastern PA News | timesleader.com</title></head><body>"
            f"<h1>TIMES LEADER SPECIAL SECTIONS</h1><ul>{nav}</ul>"
            "<h2>Harbour barrier closed as surge tide nears</h2>"
            f"<div><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p></div></body></html>")
    with Extractor(Options(method="visual", render_concurrency=1)) as extractor:
        (record,) = extractor.extract_many([Page(id="a", html=html)])
    assert record.error is None
    assert record.title == "Harbour barrier closed as surge tide nears"
