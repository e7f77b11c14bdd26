"""Extractors compared in ``run_peers.py``: sitesift and its peers behind one small interface.

Each ``Peer`` turns one decoded page into a prediction dict (``text``, ``title``, ``published``,
``author``) and says which of those fields it produces, so metrics of fields it never claims to
produce are left out of the tables instead of showing as zeros. Every peer is called with the
settings its documentation presents as the normal use; none is tuned on the evaluation sets.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import lxml.html

from sitesift.options import Options
from sitesift.pipeline import Extractor
from sitesift.record import Page, Record

__all__ = ["PEERS", "RS_VENV", "Peer", "PeerUnavailable", "make_peer"]

Prediction = dict[str, Any]
#: Fields every extractor may produce, with the metric keys that score each.
FIELD_METRICS: dict[str, tuple[str, ...]] = {
    "text": ("shingle_p", "shingle_r", "shingle_f1", "char_p", "char_r", "char_f1",
             "with_found", "without_absent", "snippet_f1"),
    "title": ("title_exact", "title_char_f1"),
    "published": ("date_acc",),
    "author": ("author_exact",),
    "page_type": ("page_type_acc",),
    "kind": ("kind_acc",),
    "posts": ("posts_count_acc", "posts_char_f1", "posts_author_acc"),
}
#: The fields sitesift's records carry that a metric scores (``kind`` once records have it).
SITESIFT_FIELDS = frozenset(
    {"text", "title", "published", "author", "page_type", "posts"}
    | ({"kind"} & {f.name for f in dataclasses.fields(Record)})
)
#: The virtual environment rs-trafilatura runs in. Its wheels are built per CPython version
#: (0.1.1, the version measured, has a cp312 wheel and none for 3.11), so it runs in a venv of
#: its own, one subprocess per set; ``make_rs_venv`` makes it.
RS_VENV = Path(os.environ.get("SITESIFT_RS_VENV",
                              Path(__file__).resolve().parent / ".rs-venv"))
#: The program the rs-trafilatura venv runs: JSON lines {"id", "url", "html"} on stdin, one
#: prediction per line on stdout, a page's exception as an error prediction.
RS_RUNNER = """
import json, sys
import rs_trafilatura
for line in sys.stdin:
    page = json.loads(line)
    try:
        res = rs_trafilatura.extract(page["html"], url=page.get("url"))
        out = {"text": res.main_content, "title": res.title, "published": res.date,
               "author": res.author, "kind": res.page_type}
    except Exception as exc:
        out = {"error": repr(exc)}
    sys.stdout.write(json.dumps(out) + "\\n")
"""
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


class PeerUnavailable(RuntimeError):
    """A peer that cannot run here (not installed); the message says how to install it."""


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

    return Peer("sitesift", SITESIFT_FIELDS, run, self_guarded=True)


def _sitesift_batch(method: str) -> Callable[[], Peer]:
    """A site-level method of sitesift: it reads the whole set at once."""

    def make() -> Peer:
        extractor = Extractor(Options(method=method))

        def run(page: Page) -> Prediction:
            return extractor.extract(page).to_dict()

        def run_batch(pages: Sequence[Page]) -> list[Prediction]:
            return [r.to_dict() for r in extractor.extract_many(pages)]

        return Peer(f"sitesift-{method}", SITESIFT_FIELDS, run, self_guarded=True,
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


def make_rs_venv(python: str, venv: Path = RS_VENV, wheel: Path | None = None) -> Path:
    """Create the rs-trafilatura venv: ``PYTHON -m venv VENV``, then the binary wheel only
    (``pip download --only-binary :all: --no-deps rs-trafilatura``; no build from source), or
    ``wheel`` when given (a machine whose pip index lacks it), and its install. ``python`` must
    be a CPython 3.12 executable (with pyenv: ``~/.pyenv/versions/3.12.1/bin/python``)."""
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    wheels = venv / "wheels"
    pip = str(venv / "bin" / "pip")
    if wheel is not None:
        wheels.mkdir(parents=True, exist_ok=True)
        (wheels / wheel.name).write_bytes(wheel.read_bytes())
    else:
        subprocess.run([pip, "download", "--only-binary", ":all:", "--no-deps", "-d",
                        str(wheels), "rs-trafilatura"], check=True)
    subprocess.run([pip, "install", *map(str, sorted(wheels.glob("*.whl")))], check=True)
    return venv


def rs_version(venv: Path = RS_VENV) -> str | None:
    """rs-trafilatura's version in its venv, None when the venv is absent."""
    python = venv / "bin" / "python"
    if not python.exists():
        return None
    done = subprocess.run([str(python), "-c", ("from importlib.metadata import version; "
                           "print(version('rs-trafilatura'))")],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or None


def _rs_trafilatura() -> Peer:
    python = RS_VENV / "bin" / "python"
    if not python.exists():
        raise PeerUnavailable(
            f"rs-trafilatura needs its venv at {RS_VENV} (or SITESIFT_RS_VENV): make it with "
            "`python benchmarks/report.py --make-rs-venv --rs-python python3.12`")

    def run_batch(pages: Sequence[Page]) -> list[Prediction]:
        # The whole set through one subprocess: its start (~0.1 s) counts in the set's time.
        lines = "".join(json.dumps({"id": p.id, "url": p.url, "html": p.html}) + "\n"
                        for p in pages)
        done = subprocess.run([str(python), "-c", RS_RUNNER], input=lines, text=True,
                              capture_output=True, check=False, encoding="utf-8")
        # Lines end at "\n" only: str.splitlines() would also cut at U+2028 and its kin.
        lines_out = [line for line in done.stdout.split("\n") if line]
        if done.returncode or len(lines_out) != len(pages):  # the process died: all failed
            return [{"error": f"rs-trafilatura exited {done.returncode}"} for _ in pages]
        return [json.loads(line) for line in lines_out]

    return Peer("rs-trafilatura", frozenset({"text", "title", "published", "author", "kind"}),
                lambda page: run_batch([page])[0], run_batch=run_batch)


def _htmldate() -> Peer:
    from htmldate import find_date

    def run(page: Page) -> Prediction:
        return {"published": find_date(page.html, url=page.url, original_date=True)}

    return Peer("htmldate", frozenset({"published"}), run)


#: Extractor name -> factory (import and set-up happen once, outside the timed loop).
PEERS: dict[str, Callable[[], Peer]] = {
    "sitesift": _sitesift,
    "sitesift-template": _sitesift_batch("template"),
    "sitesift-siblings": _sitesift_batch("siblings"),
    "sitesift-auto": _sitesift_batch("auto"),
    "rs-trafilatura": _rs_trafilatura,
    "trafilatura": _trafilatura,
    "readability-lxml": _readability,
    "gne": _gne,
    "goose3": _goose,
    "resiliparse": _resiliparse,
    "htmldate": _htmldate,
}


def make_peer(name: str) -> Peer:
    return PEERS[name]()


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(
        description="Lists the extractors run_peers.py and report.py compare, and whether each "
                    "can run here.").parse_args()
    for _name in PEERS:
        try:
            make_peer(_name)
            print(f"{_name:<18} ready")
        except (PeerUnavailable, ImportError) as _exc:
            print(f"{_name:<18} not installed: {_exc}")
