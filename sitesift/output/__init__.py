"""Writers of records: JSONL (one object a line) and Markdown (one document a record)."""

from sitesift.output.writers import MarkdownWriter, RecordWriter, open_writer

__all__ = ["MarkdownWriter", "RecordWriter", "open_writer"]
