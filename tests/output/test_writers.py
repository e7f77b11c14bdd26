import io
import json

from sitesift.output import open_writer
from sitesift.record import RECORD_FIELDS, Record


def test_jsonl_writes_every_core_field_in_order_and_keeps_unicode() -> None:
    out = io.StringIO()
    open_writer(out, "jsonl").write(Record(id="1", title="港城新闻", text="正文"))
    line = out.getvalue()
    assert line.endswith("\n") and "港城新闻" in line
    assert list(json.loads(line)) == list(RECORD_FIELDS)


def test_jsonl_appends_extra_fields_after_core_fields() -> None:
    out = io.StringIO()
    open_writer(out, "jsonl").write(Record(id="1", extra={"cluster": 3}))
    assert list(json.loads(out.getvalue()))[-1] == "cluster"


def test_markdown_documents_have_front_matter_title_and_body() -> None:
    out = io.StringIO()
    writer = open_writer(out, "markdown")
    writer.write(Record(id="a", title="Tide", extra={"markdown": "## Sub\n\n- one\n- two"}))
    writer.write(Record(id="b", error="empty: the page is empty"))
    text = out.getvalue()
    assert text.startswith("---\nid: \"a\"\ntitle: \"Tide\"\n---\n\n# Tide\n\n## Sub")
    assert 'error: "empty: the page is empty"' in text
    assert text.count("---\n") == 4


def test_markdown_falls_back_to_plain_text() -> None:
    out = io.StringIO()
    open_writer(out, "markdown").write(Record(id="a", text="first\n\nsecond"))
    assert out.getvalue().rstrip().endswith("first\n\nsecond")
