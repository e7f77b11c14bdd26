"""site_key: given site, registrable domain (public-suffix aware), folder name, or None."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitesift.errors import UsageError
from sitesift.input import site_key
from sitesift.input.sitekey import registrable_domain


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://news.bbc.co.uk/2/hi/world/1.stm", "bbc.co.uk"),
        ("https://a.b.example.com/x?y=1#z", "example.com"),
        ("https://example.com", "example.com"),
        ("HTTP://WWW.Example.COM:8080/Path", "example.com"),
        ("http://user:pw@shop.example.com.au/", "example.com.au"),
        ("http://www.sina.com.cn/news", "sina.com.cn"),
        ("http://finance.ifeng.com/a/1.shtml", "ifeng.com"),
        ("http://alice.github.io/blog", "alice.github.io"),  # private suffix: one site per user
        ("http://news.example.com./a", "example.com"),  # trailing dot
        ("http://127.0.0.1:8000/a", "127.0.0.1"),
        ("http://[2001:db8::1]:443/a", "2001:db8::1"),
        ("http://localhost:3000/page", "localhost"),
        ("http://intranet/page", "intranet"),
        ("http://co.uk/", "co.uk"),  # a public suffix itself stays whole
        ("www.example.org/path/page.html", "example.org"),  # no scheme
        ("shop.example.org:8080/cart", "example.org"),  # no scheme, with a port
        ("http://www.例子.中国/新闻", "例子.中国"),
        ("http://www.xn--fsqu00a.xn--fiqs8s/", "xn--fsqu00a.xn--fiqs8s"),
        ("file:///tmp/page.html", None),
        ("mailto:someone@example.com", None),
        ("http://[broken/", None),
        ("", None),
    ],
)
def test_registrable_domain(url: str, expected: str | None) -> None:
    assert registrable_domain(url) == expected


def test_given_site_wins() -> None:
    assert site_key("http://news.bbc.co.uk/", " BBC News ", None) == "BBC News"
    assert site_key("http://news.bbc.co.uk/", "", None) == "bbc.co.uk"


def test_url_then_folder(tmp_path: Path) -> None:
    folder = tmp_path / "crawl-2024"
    folder.mkdir()
    assert site_key("http://x.example.com/", None, str(folder)) == "example.com"
    assert site_key(None, None, str(folder)) == "crawl-2024"
    assert site_key("file:///a.html", None, str(folder)) == "crawl-2024"


def test_source_that_is_not_a_folder_is_ignored(tmp_path: Path) -> None:
    manifest = tmp_path / "pages.jsonl"
    manifest.write_text("")
    assert site_key(None, None, str(manifest)) is None
    assert site_key(None, None, "-") is None
    assert site_key(None, None, None) is None


def test_mode_none() -> None:
    assert site_key("http://news.bbc.co.uk/", "given", "/tmp", mode="none") is None


def test_unknown_mode() -> None:
    with pytest.raises(UsageError):
        site_key("http://a.com/", None, None, mode="host")


def test_url_problem_names_urls_no_stage_can_split() -> None:
    from sitesift.input.sitekey import url_problem

    assert url_problem(None) is None and url_problem("http://a.test/x?q=1") is None
    assert url_problem("/relative") is None
    assert "Invalid IPv6 URL" in (url_problem("http://[::1/x") or "")
    assert "Port out of range" in (url_problem("http://a.test:99999/") or "")
