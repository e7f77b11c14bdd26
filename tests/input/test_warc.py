"""WARC input: written here with warcio, then read back through iter_pages."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from sitesift.input import iter_pages

ZH = "中国经济在过去一年里保持了稳定的发展，国家统计局今天发布的数据显示，全国生产总值比上年增长。"


def html_doc(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body><p>{body}</p></body></html>"


def response(
    writer: WARCWriter,
    url: str,
    payload: bytes,
    content_type: str | None,
    status: str = "200 OK",
    extra: list[tuple[str, str]] | None = None,
):
    headers = [("Content-Type", content_type)] if content_type else []
    headers += extra or []
    http = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
    record = writer.create_warc_record(
        url, "response", payload=io.BytesIO(payload), http_headers=http
    )
    writer.write_record(record)
    return record.rec_headers.get_header("WARC-Record-ID")


def request(writer: WARCWriter, url: str) -> None:
    http = StatusAndHeaders(
        "GET / HTTP/1.1", [("Host", "example.com")], is_http_request=True
    )
    writer.write_record(
        writer.create_warc_record(url, "request", payload=io.BytesIO(b""), http_headers=http)
    )


def write_warc(path: Path, *, gzipped: bool) -> list[str]:
    """A small crawl: requests, HTML and non-HTML responses, a redirect, a 404, metadata and a
    resource record. Returns the record ids of the HTML pages, in order."""
    ids: list[str] = []
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=gzipped)
        writer.write_record(
            writer.create_warcinfo_record(path.name, {"software": "test"})
        )
        request(writer, "http://news.example.co.uk/a")
        # GBK without any meta: only the HTTP header says so.
        ids.append(response(
            writer, "http://news.example.co.uk/a", html_doc("新闻", ZH).encode("gbk"),
            "text/html; charset=GBK",
        ))
        request(writer, "http://news.example.co.uk/logo.png")
        response(writer, "http://news.example.co.uk/logo.png", b"\x89PNG\r\n\x1a\n", "image/png")
        response(writer, "http://news.example.co.uk/old", b"<html>moved</html>", "text/html",
                 status="301 Moved Permanently", extra=[("Location", "/a")])
        response(writer, "http://news.example.co.uk/gone", b"<html>not found</html>",
                 "text/html", status="404 Not Found")
        # Content-Encoding gzip: warcio undoes it.
        ids.append(response(
            writer, "https://www.example.com:8443/b",
            gzip.compress(html_doc("Café", "naïve “quotes”").encode("utf-8")),
            "application/xhtml+xml; charset=utf-8", extra=[("Content-Encoding", "gzip")],
        ))
        response(writer, "http://news.example.co.uk/data.json", b'{"a": 1}', "application/json")
        writer.write_record(writer.create_warc_record(
            "http://news.example.co.uk/a", "metadata", payload=io.BytesIO(b"outlinks: none"),
            warc_content_type="application/warc-fields",
        ))
        resource = writer.create_warc_record(
            "http://blog.example.org/c", "resource",
            payload=io.BytesIO(html_doc("Resource", "stored page").encode("utf-8")),
            warc_content_type="text/html",
        )
        writer.write_record(resource)
        ids.append(resource.rec_headers.get_header("WARC-Record-ID"))
    return ids


@pytest.mark.parametrize("name", ["crawl.warc", "crawl.warc.gz"])
def test_warc_yields_html_responses_only(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    ids = write_warc(path, gzipped=name.endswith(".gz"))
    pages = list(iter_pages([str(path)]))
    assert [p.id for p in pages] == ids
    assert all(p.error is None and p.source == str(path) for p in pages)
    first, second, third = pages
    assert first.url == "http://news.example.co.uk/a"
    assert first.encoding == "gb18030"
    assert ZH in first.html and "<title>新闻</title>" in first.html
    assert first.site == "example.co.uk"
    assert second.encoding == "utf-8"
    assert "naïve “quotes”" in second.html
    assert second.site == "example.com"
    assert third.url == "http://blog.example.org/c" and "stored page" in third.html


def test_truncated_warc_gz_ends_that_file_with_an_error_page(tmp_path: Path) -> None:
    whole = tmp_path / "whole.warc.gz"
    ids = write_warc(whole, gzipped=True)
    data = whole.read_bytes()
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(data[: len(data) - 40])  # inside the last (resource) record
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "x.html").write_text("<html><body>after</body></html>")

    pages = list(iter_pages([str(cut), str(folder)]))
    assert [p.id for p in pages[:2]] == ids[:2]
    assert all(p.error is None for p in pages[:2])
    broken = pages[2]
    assert broken.error is not None and broken.error.startswith("input: ")
    assert "truncated" in broken.error or "unreadable" in broken.error
    # the next input is still read
    assert [p.id for p in pages[3:]] == ["x.html"]


def test_truncated_plain_warc(tmp_path: Path) -> None:
    whole = tmp_path / "whole.warc"
    ids = write_warc(whole, gzipped=False)
    data = whole.read_bytes()
    cut = tmp_path / "cut.warc"
    cut.write_bytes(data[: data.rindex(b"stored page") - 5])
    pages = list(iter_pages([str(cut)]))
    assert [p.id for p in pages[:2]] == ids[:2]
    assert len(pages) == 3 and pages[2].error is not None and "truncated" in pages[2].error


def test_corrupt_record_stops_the_file_cleanly(tmp_path: Path) -> None:
    whole = tmp_path / "whole.warc"
    ids = write_warc(whole, gzipped=False)
    data = whole.read_bytes()
    # Break the version line of the record after the first HTML response.
    first_html = data.index(b"text/html; charset=GBK")
    at = data.index(b"WARC/1", first_html)
    bad = tmp_path / "bad.warc"
    bad.write_bytes(data[:at] + b"GARBAGE/9" + data[at + 9:])

    pages = list(iter_pages([str(bad)]))
    assert pages[0].id == ids[0] and pages[0].error is None
    assert len(pages) == 2
    assert pages[1].id == f"{bad}#{at}"
    assert pages[1].error is not None and "unreadable WARC record" in pages[1].error


def test_not_gzip_member_per_record(tmp_path: Path) -> None:
    plain = tmp_path / "plain.warc"
    write_warc(plain, gzipped=False)
    whole_gz = tmp_path / "single-member.warc.gz"
    whole_gz.write_bytes(gzip.compress(plain.read_bytes()))
    pages = list(iter_pages([str(whole_gz)]))
    # warcio refuses a file gzipped as one member after the first record: one error, no crash.
    assert pages and pages[-1].error is not None and pages[-1].error.startswith("input: ")


def test_oversized_payload_becomes_error(tmp_path: Path) -> None:
    path = tmp_path / "big.warc"
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=False)
        rid = response(writer, "http://example.com/", b"<html>" + b"x" * 5000 + b"</html>",
                       "text/html")
        small = response(writer, "http://example.com/s", b"<html>small</html>", "text/html")
    pages = list(iter_pages([str(path)], max_page_bytes=1000))
    assert [p.id for p in pages] == [rid, small]
    assert pages[0].error is not None and "exceeds" in pages[0].error
    assert pages[1].html == "<html>small</html>"


def test_html_without_content_type_is_sniffed(tmp_path: Path) -> None:
    path = tmp_path / "nohdr.warc"
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=False)
        rid = response(writer, "http://example.com/", b"  <!DOCTYPE html><html>hi</html>", None)
        response(writer, "http://example.com/x", b"plain text, no markup", None)
    assert [p.id for p in iter_pages([str(path)])] == [rid]


def test_empty_warc_yields_nothing(tmp_path: Path) -> None:
    path = tmp_path / "empty.warc.gz"
    path.write_bytes(b"")
    assert list(iter_pages([str(path)])) == []


def test_warc_recognised_by_content_whatever_its_name(tmp_path: Path) -> None:
    path = tmp_path / "crawl.dat"
    ids = write_warc(path, gzipped=True)
    assert [p.id for p in iter_pages([str(path)])] == ids


def test_record_without_target_uri_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "handmade.warc.gz"
    payload = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html>x</html>"
    record = (
        b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\n"
        b"Content-Type: application/http; msgtype=response\r\n"
        b"Content-Length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload + b"\r\n\r\n"
    )
    path.write_bytes(gzip.compress(record))
    pages = list(iter_pages([str(path)]))
    assert len(pages) == 1 and pages[0].id == "<urn:uuid:1>"
    assert pages[0].error == "input: response record without WARC-Target-URI"


def raw_response(writer: WARCWriter, uri: str | None, message: bytes,
                 kind: str = "application/http; msgtype=response") -> str:
    """A response record holding ``message`` (an HTTP message), whatever its target URI."""
    record = writer.create_warc_record(  # (warcio would parse the message of an http: URI)
        "urn:test", "response", payload=io.BytesIO(message), warc_content_type=kind,
    )
    if uri is None:
        record.rec_headers.remove_header("WARC-Target-URI")
    else:
        record.rec_headers.replace_header("WARC-Target-URI", uri)
    writer.write_record(record)
    return record.rec_headers.get_header("WARC-Record-ID")


@pytest.mark.parametrize("gzipped", [False, True])
def test_every_html_response_gives_a_page_even_with_an_unusable_uri_or_header(
    tmp_path: Path, gzipped: bool
) -> None:
    """A relative or missing target URI, or an HTTP header that cannot be parsed: an error page
    for that record, and the records after it are read as usual."""
    page = html_doc("Query", "a page served at a relative address").encode()
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
    path = tmp_path / "odd.warc"
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=gzipped)
        ids = [response(writer, "http://a.example.com/1", page, "text/html"),
               raw_response(writer, "/bigquery?q=1", http),
               raw_response(writer, None, http),
               raw_response(writer, "http://a.example.com/2", b"\x00\x01garbage" + page),
               response(writer, "http://a.example.com/3", page, "text/html")]
        raw_response(writer, "dns:a.example.com", b"a.example.com. 60 IN A 10.0.0.1\n",
                     "text/dns")
        raw_response(writer, "/style.css", b"HTTP/1.1 200 OK\r\nContent-Type: text/css\r\n\r\np{}")
    pages = list(iter_pages([str(path)]))
    assert [p.id for p in pages] == ids
    assert [p.error is None for p in pages] == [True, False, False, False, True]
    assert "'/bigquery?q=1'" in pages[1].error and "absolute" in pages[1].error  # type: ignore[operator]
    assert "without WARC-Target-URI" in pages[2].error  # type: ignore[operator]
    assert "HTTP" in pages[3].error  # type: ignore[operator]
    assert all(p.error.startswith("input: ") for p in pages[1:4])  # type: ignore[union-attr]
