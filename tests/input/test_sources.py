"""iter_pages over manifests, folders, stdin and single files; input validation."""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path

import pytest

from sitesift.errors import InputError, UsageError
from sitesift.input import iter_pages
from sitesift.record import Page

ZH = "中国经济在过去一年里保持了稳定的发展，国家统计局今天发布的数据显示，全国生产总值比上年增长。"


def write_manifest(path: Path, lines: list[object | str]) -> None:
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    path.write_text(text + "\n", encoding="utf-8")


@pytest.fixture
def manifest_set(tmp_path: Path) -> Path:
    pages = tmp_path / "set" / "pages"
    pages.mkdir(parents=True)
    (pages / "a.html").write_bytes(
        f"<html><head><meta charset=gb2312></head><body>{ZH}</body></html>".encode("gbk")
    )
    (pages / "b.html").write_text("<html><body>café</body></html>", encoding="utf-8")
    (pages / "c.html").write_bytes(b"")
    manifest = tmp_path / "set" / "pages.jsonl"
    write_manifest(manifest, [
        {"id": "a", "url": "https://news.example.co.uk/x/1.html", "site": None,
         "file": "pages/a.html"},
        {"id": "b", "url": None, "site": "given-site", "file": "pages/b.html"},
        "",  # blank lines are skipped
        {"id": "missing", "url": "http://example.com/m", "site": None,
         "file": "pages/nope.html"},
        '{"id": "broken", "url": ',
        {"id": "c", "url": None, "site": None, "file": "pages/c.html"},
        {"id": "inline", "url": "http://10.0.0.1:8080/p", "html": "<p>inline</p>"},
        {"id": "nofile", "url": None},
        "[1, 2]",
    ])
    return manifest


def test_manifest(manifest_set: Path) -> None:
    pages = list(iter_pages([str(manifest_set)]))
    by_id = {p.id: p for p in pages}
    assert [p.id for p in pages] == [
        "a", "b", "missing", f"{manifest_set}#5", "c", "inline", "nofile", f"{manifest_set}#9",
    ]
    assert all(p.source == str(manifest_set) for p in pages)

    a = by_id["a"]
    assert a.error is None and a.encoding == "gb18030" and ZH in a.html
    assert a.url == "https://news.example.co.uk/x/1.html" and a.site == "example.co.uk"
    b = by_id["b"]
    assert b.html == "<html><body>café</body></html>" and b.site == "given-site"
    assert b.url is None

    missing = by_id["missing"]
    assert missing.error is not None and missing.error.startswith("input: file not found")
    assert missing.site == "example.com" and missing.url == "http://example.com/m"
    broken = by_id[f"{manifest_set}#5"]
    assert broken.error is not None and broken.error.startswith("input: bad JSON on line 5")

    c = by_id["c"]  # empty file: a page with no text; the parser makes it an "empty" record
    assert c.error is None and c.html == "" and c.site is None

    assert by_id["inline"].html == "<p>inline</p>" and by_id["inline"].site == "10.0.0.1"
    assert by_id["nofile"].error is not None and "no \"file\"" in by_id["nofile"].error
    assert "not a JSON object" in (by_id[f"{manifest_set}#9"].error or "")


def test_site_key_none_mode(manifest_set: Path, tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "p.html").write_text("<p>x</p>")
    pages = list(iter_pages([str(manifest_set), str(folder)], site_key="none"))
    assert pages and all(p.site is None for p in pages)


def test_empty_manifest(tmp_path: Path) -> None:
    manifest = tmp_path / "empty.jsonl"
    manifest.write_bytes(b"")
    assert list(iter_pages([str(manifest)])) == []


def test_folder(tmp_path: Path) -> None:
    root = tmp_path / "example.org"
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / "b.html").write_text("<p>b</p>")
    (root / "A.HTM").write_bytes("<p>é</p>".encode("cp1252"))
    (root / "sub" / "c.htm").write_text("<p>c</p>")
    (root / "sub" / "deeper" / "d.html").write_text("<p>d</p>")
    (root / "sub" / "notes.txt").write_text("not a page")
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / "loop").symlink_to(root, target_is_directory=True)

    pages = list(iter_pages([str(root)]))
    assert [p.id for p in pages] == ["A.HTM", "b.html", "sub/c.htm", "sub/deeper/d.html"]
    assert all(p.url is None and p.source == str(root) for p in pages)
    assert all(p.site == "example.org" for p in pages)
    assert pages[0].html == "<p>é</p>" and pages[0].encoding == "cp1252"


def test_folder_trailing_slash_keeps_folder_name(tmp_path: Path) -> None:
    root = tmp_path / "siteA"
    root.mkdir()
    (root / "p.html").write_text("<p>x</p>")
    assert [p.site for p in iter_pages([str(root) + "/"])] == ["siteA"]
    # Path objects work too, and Page.source is always a string
    assert [p.source for p in iter_pages([root])] == [str(root)]  # type: ignore[list-item]


def test_folder_with_random_and_binary_files(tmp_path: Path) -> None:
    rng = random.Random(7)
    (tmp_path / "random.html").write_bytes(bytes(rng.randrange(1, 256) for _ in range(3000)))
    (tmp_path / "image.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    (tmp_path / "empty.html").write_bytes(b"")
    pages = {p.id: p for p in iter_pages([str(tmp_path)])}
    assert (pages["random.html"].error or "").startswith("decode: binary data")
    assert pages["image.html"].error is not None
    assert pages["image.html"].error.startswith("decode: binary data")
    assert pages["empty.html"].error is None and pages["empty.html"].html == ""


def test_stdin_jsonl() -> None:
    stream = io.StringIO(
        json.dumps({"id": "s1", "url": "https://www.example.com/a", "html": "<p>一</p>"}) + "\n"
        + "not json\n"
        + "\n"
        + json.dumps({"id": "s3", "url": None}) + "\n"
        + json.dumps({"id": "s4", "url": None, "site": "mine", "html": "<p>x</p>"}) + "\n"
    )
    pages = list(iter_pages(["-"], stdin=stream))
    assert [p.id for p in pages] == ["s1", "-#2", "s3", "s4"]
    assert pages[0] == Page(
        id="s1", url="https://www.example.com/a", site="example.com", html="<p>一</p>",
        encoding=None, source="-",
    )
    assert pages[1].error is not None and pages[1].error.startswith("input: bad JSON on line 2")
    assert pages[2].error is not None and "no \"html\"" in pages[2].error
    assert pages[3].site == "mine"


def test_stdin_default_reads_sys_stdin_bytes_as_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = (json.dumps({"id": "u", "url": None, "html": "<p>中文</p>"}, ensure_ascii=False)
           + "\n").encode("utf-8")
    fake = io.TextIOWrapper(io.BytesIO(raw), encoding="latin-1")
    monkeypatch.setattr("sys.stdin", fake)
    assert [p.html for p in iter_pages(["-"])] == ["<p>中文</p>"]


def test_single_html_file(tmp_path: Path) -> None:
    page = tmp_path / "one.html"
    page.write_bytes(f"<html><body>{ZH}</body></html>".encode("gb18030"))
    (result,) = list(iter_pages([str(page)]))
    assert result.id == "one.html" and result.encoding == "gb18030" and ZH in result.html
    assert result.site is None


def test_oversized_file_becomes_error(tmp_path: Path) -> None:
    (tmp_path / "big.html").write_bytes(b"<p>" + b"x" * 2000 + b"</p>")
    (page,) = list(iter_pages([str(tmp_path)], max_page_bytes=1000))
    assert page.error is not None and "exceeds the limit" in page.error


def test_a_file_is_read_as_far_as_the_limit_whatever_its_size_says(tmp_path: Path) -> None:
    # (the size is asked first; a pipe has none, a growing file more than it said)
    from sitesift.input.sources import _read_at_most

    data = b"<p>" + b"x" * 3000 + b"</p>"
    path = tmp_path / "page.html"
    path.write_bytes(data)
    for limit in (1, 100, len(data), len(data) + 1, 10 * len(data)):
        with path.open("rb") as fh:
            assert _read_at_most(fh, limit) == data[:limit]
        read, write = os.pipe()
        os.write(write, data)
        os.close(write)
        with os.fdopen(read, "rb") as fh:
            assert _read_at_most(fh, limit) == data[:limit]


def test_inputs_in_order(manifest_set: Path, tmp_path: Path) -> None:
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "z.html").write_text("<p>z</p>")
    stream = io.StringIO(json.dumps({"id": "s", "url": None, "html": "<p>s</p>"}) + "\n")
    ids = [p.id for p in iter_pages([str(folder), "-", str(manifest_set)], stdin=stream)]
    assert ids[:3] == ["z.html", "s", "a"]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: str(d / "missing.jsonl"), "input not found"),
        (lambda d: _touch(d / "notes.txt"), "unknown input type"),
        (lambda d: _touch(d / "archive.arc.gz"), "unknown input type"),
    ],
)
def test_bad_input_raises_before_any_page_is_read(tmp_path: Path, make, message: str) -> None:
    good = tmp_path / "good"
    good.mkdir()
    (good / "p.html").write_text("<p>p</p>")
    stream = io.StringIO()
    with pytest.raises(InputError, match=message):
        # No iteration: the call itself must fail, before the good input is touched.
        iter_pages([str(good), make(tmp_path)], stdin=stream)


def test_stdin_twice_is_an_input_error() -> None:
    with pytest.raises(InputError, match="more than once"):
        iter_pages(["-", "-"], stdin=io.StringIO())


def test_bad_site_key_mode() -> None:
    with pytest.raises(UsageError):
        iter_pages([], site_key="domain")


def test_single_string_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        iter_pages(str(tmp_path))  # type: ignore[arg-type]


def test_no_inputs_no_pages() -> None:
    assert list(iter_pages([])) == []


def _touch(path: Path) -> str:
    path.write_text("x")
    return str(path)


def test_jsonl_inputs_split_on_newline_only(tmp_path: Path) -> None:
    html = "<p>a\x85b\u2028c\u2029d</p>"
    line = json.dumps({"id": "n", "url": None, "html": html}, ensure_ascii=False) + "\n"
    manifest = tmp_path / "pages.jsonl"
    manifest.write_text(line + line.replace('"n"', '"m"'), "utf-8")
    assert [(p.id, p.html, p.error) for p in iter_pages([str(manifest)])] == [
        ("n", html, None), ("m", html, None)]
    raw = io.TextIOWrapper(io.BytesIO(line.encode("utf-8")), encoding="utf-8")
    assert [(p.html, p.error) for p in iter_pages(["-"], stdin=raw)] == [(html, None)]


def test_a_lone_carriage_return_does_not_end_a_manifest_line(tmp_path: Path) -> None:
    manifest = tmp_path / "pages.jsonl"
    good = json.dumps({"id": "g", "url": None, "html": "<p>x</p>"})
    manifest.write_bytes(b"junk\r\x00\n" + good.encode() + b"\r\n")
    pages = list(iter_pages([str(manifest)]))
    assert [p.id for p in pages] == [f"{manifest}#1", "g"]
    assert pages[1].error is None


def test_lone_surrogates_in_json_strings_become_replacement_characters() -> None:
    line = json.dumps({"id": "s\ud800", "url": "http://a.test/\udfff", "html": "<p>\ud83d\ude00"
                       "\ud800</p>"}) + "\n"
    (page,) = iter_pages(["-"], stdin=io.StringIO(line))
    assert (page.id, page.url, page.html) == ("s\ufffd", "http://a.test/\ufffd",
                                              "<p>\U0001f600\ufffd</p>")
    page.html.encode("utf-8")  # writable


def test_an_unusable_url_is_an_input_error_record() -> None:
    lines = "".join(json.dumps({"id": i, "url": u, "html": "<p>x</p>"}) + "\n"
                    for i, u in [("bad", "http://[::1"), ("ok", "http://a.test/")])
    pages = list(iter_pages(["-"], stdin=io.StringIO(lines)))
    assert [p.id for p in pages] == ["bad", "ok"]
    assert (pages[0].error or "").startswith("input: unusable URL") and pages[1].error is None
