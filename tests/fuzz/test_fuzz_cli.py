"""Property-based fuzzing of the command line: ``extract`` (folders, manifests, stdin JSONL,
WARC), ``eval``, ``learn`` + ``extract --profiles`` and ``urls cluster`` on generated input.

Properties: no exception escapes (a traceback), exit codes as ``--help`` documents them (0 all
pages extracted, 1 some error records, 2 usage or input error), exactly one record per input
page in input order, every error record says what was wrong (a known kind, never
``internal``), and a profile store that always opens with every profile readable.
"""

from __future__ import annotations

import io
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzz_inputs import ERROR, FUZZ, IDS, MARKUP, ODD_TEXT, PAGE_BYTES, counted
from hypothesis import given
from hypothesis import strategies as st

from sitesift import cli
from sitesift.profiles.store import ProfileStore


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()  # nothing a failed case before left behind
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def records_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.split("\n") if line]


def check_records(records: list[dict], ids: list[str], code: int) -> None:
    """One record per page, in order, errors that say what was wrong, the exit code."""
    assert [r["id"] for r in records] == ids
    errors = [r["error"] for r in records if r["error"] is not None]
    assert all(ERROR.match(e) for e in errors), errors
    assert code == (1 if errors else 0)


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A fresh folder per generated case (pytest's tmp_path is one per test)."""
    with tempfile.TemporaryDirectory(prefix="sitesift-fuzz-") as name:
        yield Path(name)


def _fresh(root: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=root))


# --- extract --------------------------------------------------------------------------------

@FUZZ
@given(pages=st.lists(PAGE_BYTES, min_size=1, max_size=5))
def test_extract_folder(pages: list[bytes], workdir: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
    folder = _fresh(workdir) / "site"
    folder.mkdir()
    names = [f"p{i:02d}.html" for i in range(len(pages))]
    for name, data in zip(names, pages, strict=True):
        (folder / name).write_bytes(data)
    code, out, _ = run(["extract", str(folder), "-q"], capsys)
    check_records(records_of(out), names, code)
    counted("extract_folder", len(pages))


@st.composite
def manifest_lines(draw: st.DrawFn) -> list[tuple[str, object]]:
    """(kind, content) per manifest line: a JSON entry with inline HTML or a file, a line of
    garbage, or a blank line."""
    lines: list[tuple[str, object]] = []
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        kind = draw(st.sampled_from(["html", "file", "garbage", "blank"]))
        entry: dict[str, object] = {"id": draw(IDS), "site": "fuzz.test"}
        if kind == "html":
            entry["html"] = draw(MARKUP)
        elif kind == "file":
            entry["file"] = draw(PAGE_BYTES)
        elif kind == "garbage":
            lines.append((kind, draw(ODD_TEXT.filter(lambda t: "\n" not in t and t.strip()))))
            continue
        lines.append((kind, entry))
    return lines


def _expected_id(entry: object, fallback: str) -> str:
    """The id the input documents: the entry's id as text, stripped, else ``<file>#<line>``;
    a lone surrogate (no UTF-8 text holds one) reads as U+FFFD."""
    value = entry.get("id") if isinstance(entry, dict) else None
    text = str(value).strip() if value is not None else ""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace") or fallback


@FUZZ
@given(lines=manifest_lines(), ascii_only=st.booleans())
def test_extract_manifest(lines: list[tuple[str, object]], ascii_only: bool, workdir: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    root = _fresh(workdir)
    manifest = root / "pages.jsonl"
    text, ids = [], []
    for lineno, (kind, content) in enumerate(lines, 1):
        if kind == "blank":
            text.append("  ")
            continue
        if kind == "garbage":
            text.append(str(content))
            ids.append(f"{manifest}#{lineno}")
            continue
        entry = dict(content)  # type: ignore[call-overload]
        if kind == "file":
            (root / f"f{lineno}.html").write_bytes(entry.pop("file"))
            entry["file"] = f"f{lineno}.html"
        text.append(json.dumps(entry, ensure_ascii=ascii_only))
        ids.append(_expected_id(entry, f"{manifest}#{lineno}"))
    manifest.write_text("\n".join(text) + "\n", encoding="utf-8", errors="surrogatepass")
    code, out, _ = run(["extract", str(manifest), "-q"], capsys)
    if not ids:
        assert code == 0 and out == ""
        counted("extract_manifest")
        return
    check_records(records_of(out), ids, code)
    counted("extract_manifest", len(ids))


JSON_TEXT = ODD_TEXT | st.just("\ud800 lone surrogate")


@FUZZ
@given(rows=st.lists(st.one_of(
    st.fixed_dictionaries({"id": IDS, "html": MARKUP | JSON_TEXT},
                          optional={"url": JSON_TEXT, "site": JSON_TEXT}),
    st.fixed_dictionaries({"id": IDS}),
    ODD_TEXT.filter(lambda t: "\n" not in t and t.strip()),
), min_size=1, max_size=6))
def test_extract_stdin_jsonl(rows: list[object], capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [json.dumps(r) if isinstance(r, dict) else str(r) for r in rows]
    ids = [_expected_id(r, f"-#{n}") for n, r in enumerate(rows, 1)]
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code, out, _ = run(["extract", "-", "-q"], capsys)
    check_records(records_of(out), ids, code)
    counted("extract_stdin", len(ids))


@st.composite
def warc_records(draw: st.DrawFn) -> list[dict]:
    return draw(st.lists(st.fixed_dictionaries({
        "uri": st.sampled_from(["http://a.fuzz.test/p", "https://b.fuzz.test/q?x=1",
                                "/relative?q=1", "", "dns:a.fuzz.test", None]),
        "status": st.sampled_from(["200 OK", "404 Not Found", "301 Moved"]),
        "type": st.sampled_from(["text/html", "text/html; charset=gbk", "image/png"]),
        "payload": PAGE_BYTES,
    }), min_size=1, max_size=5))


@FUZZ
@given(records=warc_records(), gzipped=st.booleans(), cut=st.none() | st.floats(0, 1))
def test_extract_warc(records: list[dict], gzipped: bool, cut: float | None, workdir: Path,
                      capsys: pytest.CaptureFixture[str]) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = _fresh(workdir) / ("crawl.warc.gz" if gzipped else "crawl.warc")
    expected = []
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=gzipped)
        for item in records:
            http = StatusAndHeaders(item["status"], [("Content-Type", item["type"])],
                                    protocol="HTTP/1.1")
            record = writer.create_warc_record("http://placeholder.test/", "response",
                                               payload=io.BytesIO(item["payload"]),
                                               http_headers=http)
            if item["uri"] is None:
                record.rec_headers.remove_header("WARC-Target-URI")
            else:
                record.rec_headers.replace_header("WARC-Target-URI", item["uri"])
            writer.write_record(record)
            if item["status"].startswith("2") and item["type"].startswith("text/html"):
                expected.append(record.rec_headers.get_header("WARC-Record-ID"))
    if cut is not None:  # a download cut short
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * cut)])
    code, out, _ = run(["extract", str(path), "-q"], capsys)
    got = records_of(out)
    if cut is None:
        check_records(got, expected, code)
    else:  # the pages before the cut, then at most one error record for the cut
        ids = [r["id"] for r in got]
        whole = max(len(ids) - 1, 0)
        assert ids[:whole] == expected[:whole]
        assert all(ERROR.match(r["error"]) for r in got if r["error"])
        assert code in (0, 1)
    counted("extract_warc", len(got))


# --- eval -------------------------------------------------------------------------------------

@FUZZ
@given(gold=st.lists(st.fixed_dictionaries(
    {"id": st.sampled_from(["a", "b", "c"])},
    optional={"body": JSON_TEXT, "title": JSON_TEXT, "date": JSON_TEXT,
              "page_type": st.sampled_from(["detail", "list", "odd"])}), max_size=4),
    predictions=st.lists(st.fixed_dictionaries(
        {"id": st.sampled_from(["a", "b", "x"]), "text": JSON_TEXT | st.none()},
        optional={"title": JSON_TEXT, "published": JSON_TEXT}), max_size=4),
    garbage=st.booleans(), ascii_only=st.booleans())
def test_eval(gold: list[dict], predictions: list[dict], garbage: bool, ascii_only: bool,
              workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _fresh(workdir)

    def write(path: Path, rows: list[dict]) -> None:
        text = "".join(json.dumps(r, ensure_ascii=ascii_only) + "\n" for r in rows)
        path.write_text(text + ("{not json\n" if garbage else ""), "utf-8",
                        errors="surrogatepass")

    write(root / "gold.jsonl", gold)
    write(root / "pred.jsonl", predictions)
    code, out, err = run(["eval", str(root), str(root / "pred.jsonl"), "--json"], capsys)
    ids = [g["id"] for g in gold]
    # Written unescaped, a lone surrogate makes the file invalid UTF-8: an input error.
    surrogate = not ascii_only and "\\ud800" in repr(gold + predictions)
    valid = (not garbage and not surrogate and len(set(ids)) == len(ids)
             and all(g.get("page_type", "detail") != "odd" for g in gold))
    if valid:
        assert code == 0, err
        assert json.loads(out)["pages"] == len(gold)
    else:
        assert code == 2 and re.match(r"sitesift( eval)?: error: \S", err), err
    counted("eval", len(gold))


# --- learn + extract --profiles ---------------------------------------------------------------

@FUZZ
@given(stories=st.lists(st.tuples(ODD_TEXT, MARKUP), min_size=1, max_size=5),
       junk=st.lists(PAGE_BYTES, max_size=2), damaged=st.booleans())
def test_learn_then_extract_with_profiles(
    stories: list[tuple[str, str]], junk: list[bytes], damaged: bool, workdir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = _fresh(workdir)
    folder = root / "site"
    folder.mkdir()
    for i, (title, body) in enumerate(stories):
        (folder / f"s{i}.html").write_text(
            f"<html><head><title>{title}</title></head><body><div id='nav'><a href='/'>Home"
            f"</a></div><div class='story'><h1>{title}</h1><p>{body}</p></div><div id='foot'>"
            "Copyright</div></body></html>", "utf-8", errors="surrogatepass")
    for i, data in enumerate(junk):
        (folder / f"z{i}.html").write_bytes(data)
    db = root / "profiles.db"
    if damaged:  # a store file that is no store: an input error, never a traceback
        db.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)
        code, _, err = run(["learn", str(folder), "--profiles", str(db), "-q"], capsys)
        assert code == 2 and err.startswith("sitesift: error: "), err
        counted("learn_damaged_store")
        return
    assert run(["learn", str(folder), "--profiles", str(db), "-q"], capsys)[0] == 0
    with ProfileStore(db) as store:
        for row in store.sites():
            store.get(row["site"])  # every saved profile reads back
    code, out, _ = run(["extract", str(folder), "--profiles", str(db), "-q"], capsys)
    names = sorted(p.name for p in folder.iterdir())
    check_records(records_of(out), names, code)
    counted("learn_extract_profiles", len(names))


# --- urls cluster -----------------------------------------------------------------------------

@FUZZ
@given(urls=st.lists(st.one_of(
    st.sampled_from(["http://a.test/news/2024/01/story-1.html", "https://a.test/tag/x",
                     "http://a.test/news/2024/02/story-22.html", "/relative", "mailto:x@y",
                     "http://[::1", "http://a.test/%zz", "http://例え.jp/パス?q=値#frag"]),
    ODD_TEXT), max_size=12))
def test_urls_cluster(urls: list[str], workdir: Path,
                      capsys: pytest.CaptureFixture[str]) -> None:
    path = _fresh(workdir) / "urls.txt"
    path.write_text("\n".join(urls) + "\n", "utf-8", errors="surrogatepass")
    code, out, _ = run(["urls", "cluster", str(path), "--json"], capsys)
    assert code == 0
    clusters = records_of(out)
    assert all(isinstance(c, dict) for c in clusters)
    counted("urls_cluster", len(urls))
