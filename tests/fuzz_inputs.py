"""Generated inputs of the fuzz suite (tests/fuzz) and its case count.

Each property test runs ``FUZZ_EXAMPLES`` generated cases: a few in the test suite, as many as
``SITESIFT_FUZZ_EXAMPLES`` says in a benchmark run (benchmarks/fuzz.py), which also reads the
count of cases and of pages each test checked from the file ``SITESIFT_FUZZ_REPORT`` names.
"""

from __future__ import annotations

import atexit
import codecs
import json
import os
import re
from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Cases per property test: few in CI (the suite stays fast), many in a benchmark run.
FUZZ_EXAMPLES = int(os.environ.get("SITESIFT_FUZZ_EXAMPLES") or 12)
#: No example database: it would write a .hypothesis folder into the working tree.
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.large_base_example, HealthCheck.function_scoped_fixture],
)

#: What a record's error must look like: a known kind, then what was wrong. ``internal``
#: (a bug caught by the pipeline) is not among them.
ERROR = re.compile(r"(input|decode|empty|parse|limit|timeout|extract|engine): \S")

_COUNTS: Counter[str] = Counter()


def counted(test: str, pages: int = 0) -> None:
    """Count one generated case of ``test`` (and the pages it checked)."""
    _COUNTS[f"{test}:cases"] += 1
    _COUNTS[f"{test}:pages"] += pages


def _report() -> None:
    path = os.environ.get("SITESIFT_FUZZ_REPORT")
    if path and _COUNTS:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(dict(_COUNTS)) + "\n")


atexit.register(_report)


# --- text and markup ----------------------------------------------------------------------------

#: Characters that break naive readers: line separators ``str.splitlines`` cuts at, NUL and
#: other controls, a BOM mid-text, lone surrogates' neighbours, right-to-left and combining
#: marks, astral characters, CJK.
ODD_CHARS = "\x00\x01\x0b\x0c\x1c\x85\u2028\u2029\ufeff\ufffd\u200b\u202e\u0301\U0001f600中文\r\t"
ODD_TEXT = st.text(alphabet=st.sampled_from(ODD_CHARS) | st.characters(codec="utf-8"),
                   max_size=40)
TAGS = [
    "<html>", "</html>", "<head>", "</head>", "<body>", "</body>", "<title>", "</title>",
    "<p>", "</p>", "<div class='c'>", "</div>", "<h1>", "</h1>", "<a href='/x'>", "</a>",
    "<br>", "<table><tr><td>", "</td></tr></table>", "<script>", "</script>", "<style>",
    "</style>", "<!--", "-->", "<meta charset='gbk'>", "<?xml version='1.0' encoding='utf-16'?>",
    "&amp;", "&#0;", "&#xD800;", "&nbsp;", "<", ">", "<article>", "</article>", "<li>",
]
MARKUP = st.lists(st.sampled_from(TAGS) | ODD_TEXT | st.just("Some words of a story here. "),
                  max_size=60).map("".join)
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "gb18030",
             "big5", "shift_jis", "cp1252", "koi8-r"]
BOMS = [b"", codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE]


@st.composite
def encoded_markup(draw: st.DrawFn) -> bytes:
    """Markup in some encoding, perhaps behind a byte-order mark that does not match it."""
    text = draw(MARKUP)
    data = text.encode(draw(st.sampled_from(ENCODINGS)), "replace")
    return draw(st.sampled_from(BOMS)) + data


@st.composite
def shaped_tree(draw: st.DrawFn) -> bytes:
    """Deep or wide trees: nesting past the parser's limit, thousands of siblings."""
    n = draw(st.integers(min_value=1, max_value=3000))
    tag = draw(st.sampled_from(["div", "span", "p", "li", "td", "b"]))
    if draw(st.booleans()):
        return f"<html><body>{f'<{tag}>' * n}deep text".encode()
    return f"<html><body>{f'<{tag}>item</{tag}>' * n}</body></html>".encode()


@st.composite
def truncated(draw: st.DrawFn) -> bytes:
    data = draw(encoded_markup())
    return data[: draw(st.integers(min_value=0, max_value=len(data)))]


#: The bytes of one page: random, encoded markup, cut markup, deep or wide trees.
PAGE_BYTES = st.one_of(st.binary(max_size=2000), encoded_markup(), truncated(), shaped_tree())
#: Page ids as manifests and stdin give them: missing, empty, blank, repeated, odd.
IDS = st.one_of(st.none(), st.just(""), st.just("  "), st.sampled_from(["a", "b"]), ODD_TEXT,
                st.integers())
