"""The input stage on real pages of ../shared/data (skipped when the data is absent)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from shared_data import DATA

from sitesift.input import iter_pages

ZH_NEWS = DATA / "zh-news-dev"

#: A page may carry a few U+FFFD: truncated titles and stray bytes in the source itself.
MAX_REPLACEMENTS_PER_PAGE = 5
#: Share of the gold body's distinct Han characters that must appear in the decoded page.
MIN_GOLD_HAN_COVERAGE = 0.95
#: Share of a GBK page's non-ASCII characters that must be Han (Chinese), not mojibake.
MIN_HAN_SHARE = 0.6

_HAN = re.compile(r"[\u4e00-\u9fff]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@pytest.fixture(scope="module")
def zh_news() -> Path:
    if not (ZH_NEWS / "pages.jsonl").is_file():
        pytest.skip(f"evaluation data {ZH_NEWS} is absent (needs ../shared/data next to the repo)")
    return ZH_NEWS


def test_zh_news_pages_decode_as_chinese(zh_news: Path) -> None:
    gold = {}
    with (zh_news / "gold.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            item = json.loads(line)
            gold[item["id"]] = item.get("body") or ""
    pages = list(iter_pages([str(zh_news / "pages.jsonl")]))
    assert len(pages) == len(gold)
    gbk_pages = 0
    for page in pages:
        assert page.error is None, page.id
        assert page.html.count("\ufffd") <= MAX_REPLACEMENTS_PER_PAGE, page.id
        if page.encoding == "gb18030":
            gbk_pages += 1
            non_ascii = _NON_ASCII.findall(page.html)
            han = sum(1 for c in non_ascii if _HAN.match(c))
            assert han / len(non_ascii) >= MIN_HAN_SHARE, page.id
        wanted = set(_HAN.findall(gold[page.id]))
        if wanted:
            found = sum(1 for c in wanted if c in page.html)
            assert found / len(wanted) >= MIN_GOLD_HAN_COVERAGE, page.id
    # The set is mostly GBK/GB2312 pages, several without any declaration.
    assert gbk_pages >= len(pages) // 2
