"""Extractors compared in ``run_peers.py``: sitesift and its peers behind one small interface.

Each ``Peer`` turns one decoded page into a prediction dict (``text``, ``title``, ``published``,
``author``) and says which of those fields it produces, so metrics of fields it never claims to
produce are left out of the tables instead of showing as zeros. Every peer is called with the
settings its documentation presents as the normal use; none is tuned on the evaluation sets.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import lxml.html

from sitesift.options import Options
from sitesift.pipeline import Extractor
from sitesift.record import Page

__all__ = ["PEERS", "Peer", "make_peer"]

Prediction = dict[str, Any]
#: Fields every extractor may produce, with the metric keys that score each.
FIELD_METRICS: dict[str, tuple[str, ...]] = {
    "text": ("shingle_p", "shingle_r", "shingle_f1", "char_p", "char_r", "char_f1",
             "with_found", "without_absent", "snippet_f1"),
    "title": ("title_exact", "title_char_f1"),
    "published": ("date_acc",),
    "author": ("author_exact",),
    "page_type": ("page_type_acc",),
}
#: Block elements after which readability's summary HTML gets a line break, so that words of
#: consecutive paragraphs are not glued together when the fragment is turned into text.
BLOCK_TAGS = frozenset({
    "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
    "table", "tr", "td", "th", "section", "article", "header", "footer", "figure", "figcaption",
    "dd", "dt", "dl", "hr",
})


#: Characters of a page sampled to guess whether it is Chinese, and the share of CJK characters
#: among CJK characters + Latin words above which it is. Markup is Latin, so a Chinese page with
#: heavy markup still has a share of ~0.3 or more; English pages are near 0.
CJK_SAMPLE_CHARS = 200_000
CJK_SHARE = 0.2
_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


@dataclass(frozen=True)
class Peer:
    """One extractor: ``name``, the ``fields`` it produces and ``run(page) -> prediction``."""

    name: str
    fields: frozenset[str]
    run: Callable[[Page], Prediction]
    #: True when the extractor guards its own time per page (sitesift's pipeline does).
    self_guarded: bool = False
    #: Site-level extractors read a whole set at once (they learn from a site's pages
    #: together); their time is that of the whole batch, learning included.
    run_batch: Callable[[Sequence[Page]], list[Prediction]] | None = None


def _date_string(value: Any) -> str | None:
    if isinstance(value, datetime | date):
        return value.strftime("%Y-%m-%d")
    return str(value) if value else None


def _fragment_text(fragment: str) -> str:
    """Text of an HTML fragment with a line break after every block element."""
    if not fragment or not fragment.strip():
        return ""
    root = lxml.html.fragment_fromstring(fragment, create_parent="div")
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag in BLOCK_TAGS:
            el.tail = "\n" + (el.tail or "")
    lines = (" ".join(line.split()) for line in root.text_content().splitlines())
    return "\n".join(line for line in lines if line)


def _sitesift() -> Peer:
    extractor = Extractor(Options(method="page"))

    def run(page: Page) -> Prediction:
        return extractor.extract(page).to_dict()

    return Peer("sitesift", frozenset({"text", "title", "published", "author", "page_type"}),
                run, self_guarded=True)


def _sitesift_batch(method: str) -> Callable[[], Peer]:
    """A site-level method of sitesift: it reads the whole set at once."""

    def make() -> Peer:
        extractor = Extractor(Options(method=method))

        def run(page: Page) -> Prediction:
            return extractor.extract(page).to_dict()

        def run_batch(pages: Sequence[Page]) -> list[Prediction]:
            return [r.to_dict() for r in extractor.extract_many(pages)]

        return Peer(f"sitesift-{method}", frozenset({"text", "title", "published", "author",
                                                     "page_type"}), run, self_guarded=True,
                    run_batch=run_batch)

    return make


def _trafilatura() -> Peer:
    import trafilatura

    def run(page: Page) -> Prediction:
        # One call gives the text of extract(output_format="txt", include_comments=False) and the
        # metadata of bare_extraction; comments are left out because no gold body has them.
        doc = trafilatura.bare_extraction(
            page.html, url=page.url, with_metadata=True, include_comments=False
        )
        if doc is None:
            return {}
        text = unicodedata.normalize("NFC", doc.text or "")
        return {"text": text, "title": doc.title, "published": doc.date, "author": doc.author}

    return Peer("trafilatura", frozenset({"text", "title", "published", "author"}), run)


def _readability() -> Peer:
    from readability import Document

    def run(page: Page) -> Prediction:
        doc = Document(page.html, url=page.url)
        return {"text": _fragment_text(doc.summary(html_partial=True)),
                "title": doc.short_title()}

    return Peer("readability-lxml", frozenset({"text", "title"}), run)


def _gne() -> Peer:
    from gne import GeneralNewsExtractor

    extractor = GeneralNewsExtractor()

    def run(page: Page) -> Prediction:
        out = extractor.extract(page.html)
        return {"text": out.get("content"), "title": out.get("title"),
                "published": out.get("publish_time"), "author": out.get("author")}

    return Peer("gne", frozenset({"text", "title", "published", "author"}), run)


def _mostly_cjk(html: str) -> bool:
    """True when CJK characters are a large share of the page's letters (a cheap language cue)."""
    sample = html[:CJK_SAMPLE_CHARS]
    cjk = len(_CJK_CHAR.findall(sample))
    letters = cjk + len(_LATIN_WORD.findall(sample))
    return letters > 0 and cjk / letters > CJK_SHARE


def _goose() -> Peer:
    from goose3 import Goose
    from goose3.text import StopWordsChinese

    # goose3 scores text by stop words split on spaces; its documented way to handle Chinese is
    # a second configuration with jieba-based StopWordsChinese, chosen here per page.
    goose = Goose({"enable_image_fetching": False})
    goose_zh = Goose({"enable_image_fetching": False, "stopwords_class": StopWordsChinese})

    def run(page: Page) -> Prediction:
        chosen = goose_zh if _mostly_cjk(page.html) else goose
        article = chosen.extract(raw_html=page.html, url=page.url)
        return {"text": article.cleaned_text, "title": article.title,
                "published": _date_string(article.publish_date),
                "author": ", ".join(article.authors) if article.authors else None}

    return Peer("goose3", frozenset({"text", "title", "published", "author"}), run)


def _resiliparse() -> Peer:
    from resiliparse.extract.html2text import extract_plain_text

    def run(page: Page) -> Prediction:
        return {"text": extract_plain_text(page.html, main_content=True)}

    return Peer("resiliparse", frozenset({"text"}), run)


def _htmldate() -> Peer:
    from htmldate import find_date

    def run(page: Page) -> Prediction:
        return {"published": find_date(page.html, url=page.url, original_date=True)}

    return Peer("htmldate", frozenset({"published"}), run)


#: Extractor name -> factory (import and set-up happen once, outside the timed loop).
PEERS: dict[str, Callable[[], Peer]] = {
    "sitesift": _sitesift,
    "sitesift-template": _sitesift_batch("template"),
    "sitesift-auto": _sitesift_batch("auto"),
    "trafilatura": _trafilatura,
    "readability-lxml": _readability,
    "gne": _gne,
    "goose3": _goose,
    "resiliparse": _resiliparse,
    "htmldate": _htmldate,
}


def make_peer(name: str) -> Peer:
    return PEERS[name]()
