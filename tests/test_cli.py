import gzip
import io
import json
import os
import sys
from pathlib import Path

import pytest

from sitesift import cli

REPO = Path(__file__).resolve().parents[1]
ARTICLE = (
    "<html><head><title>Ferry timetable</title></head><body><nav><a href='/'>Home</a></nav>"
    "<article><h1>Ferry timetable</h1><p>A new winter timetable for the island ferries takes "
    "effect on Monday, with fewer crossings at midday and an extra early boat.</p></article>"
    "</body></html>"
)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_parse_args_builds_validated_options() -> None:
    args = cli.parse_args(["extract", "x", "--method", "page", "--page-timeout", "0"])
    assert args.options.method == "page" and args.options.page_timeout is None
    assert not args.options.site_titles
    assert cli.parse_args(["extract", "x", "--site-titles"]).options.site_titles
    assert not args.options.visual_fallback
    assert cli.parse_args(["extract", "x", "--visual-fallback"]).options.visual_fallback
    assert cli.parse_args(["bench", "x", "--visual-fallback"]).options.visual_fallback
    assert args.options.wrappers
    assert not cli.parse_args(["extract", "x", "--no-wrappers"]).options.wrappers
    assert args.options.max_page_elements == 100_000
    limited = cli.parse_args(["extract", "x", "--max-page-elements", "7"])
    assert limited.options.max_page_elements == 7


@pytest.mark.parametrize(
    "argv",
    [[], ["extract"], ["extract", "x", "--method", "nope"], ["extract", "-", "-"],
     ["extract", "x", "--page-timeout", "abc"], ["frobnicate"]],
)
def test_usage_errors_exit_with_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.parse_args(argv)
    assert info.value.code == 2


def test_help_teaches_inputs_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.parse_args(["extract", "--help"])
    text = capsys.readouterr().out
    assert "WARC" in text and "Exit codes" in text and "--site-key" in text


def test_extract_examples_prints_one_record_per_page(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["extract", str(REPO / "examples"), "-q"], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert len(records) == len(list((REPO / "examples").rglob("*.html")))
    assert all(r["error"] is None and r["text"] for r in records)
    assert any("跨海大桥" in r["text"] for r in records)
    # The index page is a list of the site's stories, the others its articles.
    assert {r["id"].rsplit("/", 1)[-1]: r["page_type"] for r in records}["index.html"] == "list"
    assert {r["page_type"] for r in records if not r["id"].endswith("index.html")} == {"detail"}


def test_extract_siblings_with_blocks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["extract", str(REPO / "examples"), "-q", "--method", "siblings",
                        "--blocks"], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and all(r["error"] is None for r in records)
    assert {r["method"] for r in records} <= {"siblings", "page"}
    blocks = [b for r in records for b in r["blocks"]]
    assert blocks and {b["label"] for b in blocks} == {"content", "noise"}
    assert all(b["xpath"].startswith("/html") and b["reason"] for b in blocks)


def test_missing_input_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["extract", "/no/such/place"], capsys)
    assert code == 2 and "/no/such/place" in err


def test_stdin_input_and_output_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [{"id": "a", "url": "https://news.example.co.uk/a.html", "html": ARTICLE},
             {"id": "b", "url": None, "html": ""}]
    data = "\n".join(json.dumps(x) for x in lines).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    out_file = tmp_path / "out" / "records.jsonl"
    code, _, err = run(["extract", "-", "-o", str(out_file)], capsys)
    records = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert code == 1  # page b is empty: an error record, and exit code 1
    assert [r["id"] for r in records] == ["a", "b"]
    assert records[0]["site"] == "example.co.uk" and "winter timetable" in records[0]["text"]
    assert records[1]["error"].startswith("empty")
    assert "1 with an error" in err


def test_markdown_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.html").write_text(ARTICLE, encoding="utf-8")
    code, out, _ = run(["extract", str(tmp_path), "--format", "markdown", "-q"], capsys)
    assert code == 0 and out.startswith("---\nid: \"a.html\"") and "# Ferry timetable" in out


def test_malformed_inputs_each_get_a_record_and_the_run_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "empty.html").write_bytes(b"")
    (pages / "random.html").write_bytes(os.urandom(4096))
    (pages / "nobody.html").write_text("<html><head><title>t</title></head></html>")
    (pages / "deep.html").write_text("<html><body>" + "<div><span>" * 10_000 + "deep text")
    (pages / "huge.html").write_text(
        "<html><body>" + "<p>Twenty megabytes of paragraphs, every one the same.</p>" * 380_000
    )
    (pages / "good.html").write_text(ARTICLE)
    manifest = tmp_path / "pages.jsonl"
    entries = [{"id": p.stem, "url": None, "site": "s", "file": f"pages/{p.name}"}
               for p in sorted(pages.iterdir())]
    entries.insert(2, {"id": "missing", "url": None, "site": "s", "file": "pages/missing.html"})
    manifest.write_text("\n".join(json.dumps(e) for e in entries) + "\n")
    warc = tmp_path / "truncated.warc.gz"
    warc.write_bytes(gzip.compress(b"WARC/1.0\r\nWARC-Type: response\r\n" + b"x" * 500)[:200])

    out_file = tmp_path / "out.jsonl"
    argv = ["extract", str(manifest), str(warc), "-o", str(out_file), "-q", "--page-timeout", "5"]
    code, _, _ = run(argv, capsys)
    records = {r["id"]: r for r in map(json.loads, out_file.read_text().splitlines())}
    assert code == 1
    assert set(entries_id["id"] for entries_id in entries) <= set(records)
    assert records["good"]["error"] is None
    huge = records["huge"]
    assert huge["error"] is None or huge["error"].startswith(("timeout", "limit")), huge["error"]
    assert records["missing"]["error"].startswith("input")
    for bad in ("empty", "missing"):
        assert records[bad]["error"], bad
    warc_records = [r for key, r in records.items() if key not in {e["id"] for e in entries}]
    assert warc_records and all(r["error"] for r in warc_records)


def test_learn_then_list_show_apply_and_delete_profiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "profiles.db")
    examples = str(REPO / "examples")
    assert run(["learn", examples, "--profiles", db, "-q"], capsys)[0] == 0
    code, out, _ = run(["profiles", "list", "--profiles", db], capsys)
    assert code == 0 and out.startswith("examples\t")
    code, out, _ = run(["profiles", "show", "examples", "--profiles", db, "--json"], capsys)
    shown = json.loads(out)
    assert code == 0 and shown["site"] == "examples" and shown["templates"]
    # (examples/ mixes its list page into the articles' template: no wrapper, and it says so)
    assert {"wrapper", "fields"} <= shown["templates"][0].keys()
    code, out, _ = run(["extract", examples, "--profiles", db, "-q"], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and any(r["method"] == "template" for r in records)
    assert all("cluster" in r for r in records)
    assert run(["profiles", "delete", "examples", "--profiles", db], capsys)[0] == 0
    assert run(["profiles", "show", "examples", "--profiles", db], capsys)[0] == 1


@pytest.mark.parametrize("argv", [
    ["extract", "x/", "--workers", "2", "-o", "o.jsonl"],
    ["extract", "x/", "--format", "parquet", "-o", "o.parquet"],
    ["extract", "x/", "--engine", "local"],
    ["extract", "x/", "--engine", "local", "--scheduler", "tcp://h:8786", "-o", "o.jsonl"],
])
def test_engine_options_are_cross_checked(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.parse_args(argv)
    assert exit_info.value.code == 2


def test_extract_on_the_local_engine_writes_parts_and_a_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pages = tmp_path / "site"
    pages.mkdir()
    for i in range(3):
        (pages / f"p{i}.html").write_text(f"<html><body><p>Page {i} has words.</p></body></html>")
    out = tmp_path / "out" / "run.jsonl"
    code, _, err = run(["extract", str(pages), "--engine", "local", "--workers", "2",
                        "-o", str(out)], capsys)
    assert code == 0 and "3 page(s) in 1 part(s)" in err
    manifest = json.loads((out.parent / "run.manifest.json").read_text())
    (part,) = manifest["parts"]
    assert manifest["complete"] and (out.parent / part["file"]).is_file()
    assert part["file"].startswith("run-") and part["file"].endswith(".jsonl.gz")


def test_learn_keeps_every_saved_forum_rule_and_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`learn` relearns a site's templates; it must not drop the rules the forum method saved,
    nor replace learned templates by a profile without any (one page teaches no template)."""
    from forum_pages import site

    from sitesift.profiles.serialize import profile_to_bytes
    from sitesift.profiles.store import ProfileStore

    rows = [{"id": str(k), "url": u, "site": "forum.test", "html": h}
            for k, (u, h, _) in enumerate(site())]
    manifest, one = tmp_path / "pages.jsonl", tmp_path / "one.jsonl"
    manifest.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    one.write_text(json.dumps(rows[0]) + "\n", "utf-8")
    db = str(tmp_path / "p.db")
    assert run(["extract", str(manifest), "--method", "forum", "--profiles", db, "-q"],
               capsys)[0] == 0
    with ProfileStore(db) as store:
        forum = store.get("forum.test").forum  # type: ignore[union-attr]
    assert forum
    assert run(["learn", str(manifest), "--profiles", db, "-q"], capsys)[0] == 0
    with ProfileStore(db) as store:
        learned = store.get("forum.test")
    assert learned is not None and learned.forum == forum and learned.templates
    shown = json.loads(run(["profiles", "show", "forum.test", "--profiles", db, "--json"],
                           capsys)[1])
    assert shown["forum"] == forum and len(shown["templates"]) == len(learned.templates)
    assert run(["learn", str(one), "--profiles", db, "-q"], capsys)[0] == 0
    with ProfileStore(db) as store:
        kept = store.get("forum.test")
    assert kept is not None and profile_to_bytes(kept) == profile_to_bytes(learned)


def test_a_killed_learn_leaves_a_readable_store_and_a_rerun_completes(tmp_path: Path) -> None:
    """`learn` SIGKILLed at a random point (after 0 to 3 sites are saved): the store opens,
    every saved profile reads back whole, and learning again saves every site once."""
    import random
    import subprocess

    from killing import kill_at_random

    from sitesift.profiles.store import ProfileStore

    def page(site: str, i: int) -> str:  # pages big enough that learning takes seconds
        nav = "".join(f"<li><a href='/c{k}'>Section {k}</a></li>" for k in range(60))
        body = "".join(f"<p>Paragraph {j} of story {i} on {site}: the harbour board met again "
                       "on the tide barrier and the ferries.</p>" for j in range(30))
        return (f"<html><head><title>Story {i}</title></head><body><nav><ul>{nav}</ul></nav>"
                f"<article><h1>Story {i}</h1>{body}</article><footer>{site}</footer></body></html>")

    sites = [f"site{s}.example" for s in range(12)]
    rows = [{"id": f"{s}-{i}", "url": f"https://{site}/{i}.html", "site": site,
             "html": page(site, i)} for i in range(30) for s, site in enumerate(sites)]
    manifest, db = tmp_path / "pages.jsonl", tmp_path / "p.db"
    manifest.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    argv = [sys.executable, "-m", "sitesift", "learn", str(manifest), "--profiles", str(db),
            "-q"]

    def saved() -> list[str]:
        if not db.exists():
            return []
        with ProfileStore(db) as store:
            return [row["site"] for row in store.sites()]

    assert kill_at_random(argv, random.Random(1), lambda: len(saved()))  # after 1 site
    with ProfileStore(db) as store:
        for site in saved():
            assert store.get(site) is not None
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, check=False)
    assert done.returncode == 0, done.stderr
    assert sorted(saved()) == sorted(sites)


def test_a_quiet_page_extract_of_a_utf8_page_leaves_tqdm_and_charset_guessing_unloaded(
        tmp_path: Path) -> None:
    # Start-up is part of what a user waits for: the progress bar loads only to be shown, the
    # statistical charset guess only for a page that needs one, the forum's and the sibling
    # method's modules (numpy among them: 0.1 s of CPU) only for a site-level method.
    page = tmp_path / "p.html"
    page.write_text("<html><head><meta charset='utf-8'></head><body><p>The barrier closed "
                    "at noon today.</p></body></html>", encoding="utf-8")
    program = ("import sys; from sitesift import cli; code = cli.main(['extract', sys.argv[1], "
               "'--method', 'page', '-q', '-o', sys.argv[2]]); "
               "print(code, 'tqdm' in sys.modules, 'charset_normalizer' in sys.modules, "
               "'numpy' in sys.modules, 'sitesift.methods.siblings.site' in sys.modules)")
    import subprocess

    done = subprocess.run([sys.executable, "-c", program, str(page), str(tmp_path / "o.jsonl")],
                          capture_output=True, text=True, cwd=Path(__file__).parents[1])
    assert done.stdout.split() == ["0", "False", "False", "False", "False"], done.stderr
    assert json.loads((tmp_path / "o.jsonl").read_text())["text"]


def test_extract_and_learn_raise_the_collectors_threshold_while_they_run_in_one_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    seen = []
    for name in ("run_extract", "run_learn", "run_urls"):
        monkeypatch.setattr(cli, name, lambda args: seen.append(gc.get_threshold()) or 0)
    before = gc.get_threshold()
    run(["extract", "pages.jsonl", "-q"], capsys)
    run(["learn", "pages.jsonl", "--profiles", str(tmp_path / "p.db")], capsys)
    run(["urls", "cluster", "urls.txt"], capsys)
    monkeypatch.setattr(cli.engine_cli, "run_from_args",
                        lambda args: seen.append(gc.get_threshold()) or 0)
    run(["extract", "pages.jsonl", "--engine", "local", "-q", "-o", str(tmp_path / "o.jsonl")],
        capsys)
    # (with --engine memory is the limit: Python's own threshold)
    assert seen == [(cli.BATCH_GC_THRESHOLD, *before[1:])] * 2 + [before] * 2
    assert gc.get_threshold() == before  # (restored after the command)
