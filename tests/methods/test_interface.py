"""A toy site-level method plugged in through ``sitesift.methods.interface`` runs end to end
(docs/design/architecture.md, "Adding a method"): learned per site, applied per page, its removals
and reasons in the records, its model through a profile and back, its failures guarded, and
the two optional steps: a page read by the method itself, what the page extractor found
observed."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from sitesift import Extractor, Options, Page, Record
from sitesift.fields.metadata import Metadata
from sitesift.methods.interface import Decision, Reading, SiteMethod, SitePage
from sitesift.methods.page.content import Content
from sitesift.parse import parse_html as _parse

STORIES = [
    ("The tide barrier was closed on Tuesday night for the first time this winter, engineers "
    "said, and no streets in the old town were flooded."),
    ("The ferry to the outer islands will run twice a day from March, the harbour office said, "
    "after a winter of single sailings and long queues."),
    ("A new footbridge over the canal opened on Friday, three years after the old one was "
    "closed as unsafe, and cyclists may use it from next month."),
]
BOILERPLATE = "Share this story with your friends and family on every network you use today."


def _page(n: int, site: str = "harbour.example") -> Page:
    html = f"""<html><head><title>Story {n}</title></head><body>
    <nav><a href="/">Home</a> <a href="/city">City</a></nav>
    <article><h1>Story {n}</h1>
    <p>{STORIES[n]}</p>
    <p>{STORIES[n].replace("said", "added")} More on this story as it comes in.</p>
    <p class="x">{BOILERPLATE}</p>
    </article></body></html>"""
    return Page(id=f"p{n}", url=f"https://{site}/{n}.html", site=site, html=html)


def _line(el: Any) -> str:
    return " ".join("".join(el.itertext()).split())


@dataclass
class RepeatedParagraphs(SiteMethod[frozenset[str]]):
    """Toy method: a paragraph printed on at least ``share`` of a site's pages is boilerplate."""

    name: str = "repeated"
    share: float = 0.6
    learned: list[int] = field(default_factory=list)

    def learn(self, pages: Sequence[SitePage],
              saved: frozenset[str] | None = None) -> frozenset[str] | None:
        if saved is not None:  # (a saved model is kept as it is)
            return saved
        self.learned.append(len(pages))
        seen = Counter(line for page in pages
                       for line in {_line(p) for p in page.root.iter("p")})
        lines = frozenset(line for line, n in seen.items()
                          if len(pages) >= 2 and n >= self.share * len(pages))
        return lines or None

    def look(self, model: frozenset[str], page: SitePage) -> list[Any]:
        # On the untouched tree: the nav is still there (the page extractor drops it).
        assert page.root.find(".//nav") is not None
        return [p for p in page.root.iter("p") if _line(p) in model]

    def apply(self, model: frozenset[str], page: SitePage, content: Content,
              seen: list[Any]) -> Decision:
        kept = {id(el) for node in content.nodes for el in node.iter()}
        remove = [(p, "printed on most of the site's pages") for p in seen if id(p) in kept]
        return Decision(remove=remove, page_type="detail")

    def review(self, model: frozenset[str], pages: Sequence[SitePage],
               records: Sequence[Record]) -> list[Decision | None]:
        return [None] * len(records)  # nothing needs the whole site

    def to_profile(self, model: frozenset[str]) -> Mapping[str, Any] | None:
        return {"lines": sorted(model)}

    def from_profile(self, data: Mapping[str, Any]) -> frozenset[str]:
        return frozenset(data["lines"])


def test_a_toy_method_runs_end_to_end() -> None:
    pages = [_page(0), _page(1), _page(2)]
    by_page = list(Extractor(Options(method="page")).extract_many(pages))
    assert all(BOILERPLATE in (r.text or "") for r in by_page)  # the page method keeps it

    toy: SiteMethod[frozenset[str]] = RepeatedParagraphs()
    records, models = Extractor(Options(method="page")).extract_with(toy, pages)
    assert [r.id for r in records] == ["p0", "p1", "p2"] and toy.learned == [3]  # type: ignore[attr-defined]
    assert models == {"harbour.example": frozenset({BOILERPLATE})}
    for n, record in enumerate(records):
        assert record.error is None and record.method == "repeated"
        assert STORIES[n] in (record.text or "") and BOILERPLATE not in (record.text or "")
        assert record.page_type == "detail" and record.title == by_page[n].title
        assert record.extra["repeated"] == {
            "removed": [{"text": BOILERPLATE, "reason": "printed on most of the site's pages"}]}


def test_each_site_learns_its_own_model_and_a_lone_page_keeps_the_page_method() -> None:
    pages = [_page(0), _page(1), _page(2, site="other.example")]
    toy = RepeatedParagraphs()
    records, models = Extractor(Options(method="page")).extract_with(toy, pages)
    assert sorted(toy.learned) == [1, 2] and list(models) == ["harbour.example"]
    assert records[2].method == "page" and BOILERPLATE in (records[2].text or "")
    assert records[0].method == "repeated" and BOILERPLATE not in (records[0].text or "")


def test_a_saved_model_reads_like_the_learned_one() -> None:
    toy = RepeatedParagraphs()
    pages = [_page(0), _page(1), _page(2)]
    first, models = Extractor(Options(method="page")).extract_with(toy, pages)
    saved = json.loads(json.dumps(toy.to_profile(models["harbour.example"])))
    again, _ = Extractor(Options(method="page")).extract_with(
        toy, pages, models={"harbour.example": toy.from_profile(saved)})
    assert toy.learned == [3]  # the saved model was applied, nothing learned again
    assert [r.text for r in again] == [r.text for r in first]


class Failing(RepeatedParagraphs):
    def apply(self, model: frozenset[str], page: SitePage, content: Content,
              seen: list[Any]) -> Decision:
        if page.id == "p1":
            raise RuntimeError("toy bug")
        return super().apply(model, page, content, seen)


class FailingToLearn(RepeatedParagraphs):
    def learn(self, pages: Sequence[SitePage],
              saved: frozenset[str] | None = None) -> frozenset[str] | None:
        raise RuntimeError("toy bug")


class Counting(RepeatedParagraphs):
    """Reviews the site once every page has its record: each record says how many of the
    site's pages kept the boilerplate out (a decision no single page can make)."""

    def review(self, model: frozenset[str], pages: Sequence[SitePage],
               records: Sequence[Record]) -> list[Decision | None]:
        assert [p.id for p in pages] == [r.id for r in records]
        clean = sum(BOILERPLATE not in (r.text or "") for r in records if r.error is None)
        return [None if r.id == "p0" else Decision(
            title=f"{clean} of {len(records)} clean", credit=r.id != "p2",
            posts=[{"author": "toy", "published": None, "text": "counted"}])
            for r in records]


def test_the_review_sees_the_whole_site_and_its_decisions_are_carried_out() -> None:
    records, _ = Extractor(Options(method="page")).extract_with(
        Counting(), [_page(0), _page(1), _page(2), _page(0, site="other.example")])
    assert records[0].title == "Story 0" and "posts" not in records[0].extra
    assert records[1].title == records[2].title == "3 of 3 clean"
    assert records[1].extra["posts"] == [{"author": "toy", "published": None, "text": "counted"}]
    assert [r.method for r in records] == ["repeated", "repeated", "repeated", "page"]
    assert records[3].title == "Story 0"  # a lone page: no model, no review


def test_a_failing_page_costs_that_page_only() -> None:
    records, _ = Extractor(Options(method="page")).extract_with(
        Failing(), [_page(0), _page(1), _page(2)])
    # (that page's method: it is read by its visible text, said in its warnings)
    assert records[1].error is None and records[1].method == "text" and records[1].text
    assert records[1].extra["warnings"][0].startswith("internal: RuntimeError: toy bug; ")
    assert records[0].error is None and records[2].method == "repeated"


def test_a_failing_learner_leaves_the_page_method() -> None:
    records, models = Extractor(Options(method="page")).extract_with(
        FailingToLearn(), [_page(0), _page(1)])
    assert all(r.error is None and r.method == "page" for r in records) and models == {}


@dataclass
class Reading2(RepeatedParagraphs):
    """The toy with the optional steps: it reads page p1 itself (its ``<article>`` whole),
    p2's reading fails after it edited the tree, p0's gives its metadata alone; it observes
    what the page extractor found."""

    observed: list[tuple[str, str | None]] = field(default_factory=list)

    def read(self, model: frozenset[str], page: SitePage) -> Reading | None:
        article = page.root.find(".//article")
        if page.id == "p1":
            return Reading(Content(page_type="detail", nodes=(article,)), {"read": True},
                           meta=Metadata(published="2026-01-02", author="The Toy"))
        if page.id == "p2":
            article.getparent().remove(article)  # (the pipeline must parse the page again)
            return Reading(None)
        # p0: its metadata alone; the page extractor reads the page, untouched
        return Reading(None, meta=Metadata(author="Meta Only"), edited=False)

    def observe(self, model: frozenset[str], page: SitePage, found: Content | None) -> None:
        assert found is None or page.root.find(".//nav") is None  # (after the page extractor)
        self.observed.append((page.id, found.page_type if found is not None else None))


def test_the_optional_steps_read_a_page_and_observe_the_page_extractor() -> None:
    toy = Reading2()
    records, _ = Extractor(Options(method="page")).extract_with(
        toy, [_page(0), _page(1), _page(2)])
    assert all(r.error is None and r.method == "repeated" for r in records)
    assert records[1].extra == {"read": True} and BOILERPLATE in (records[1].text or "")
    assert "Home" not in (records[1].text or "")  # the article alone: the nav is outside it
    # The reading's metadata, in place of the page's (its <title>'s "Story 1" has none).
    assert (records[1].published, records[1].author) == ("2026-01-02", "The Toy")
    assert records[0].author == "Meta Only" and records[2].author is None
    for n in (0, 2):  # the page extractor, then the step; p2 on a fresh parse
        assert STORIES[n] in (records[n].text or "") and BOILERPLATE not in records[n].text
    # What the page extractor found ("other"), before the step's decision ("detail").
    assert toy.observed == [("p0", "other"), ("p2", "other")]
    assert [r.page_type for r in records] == ["detail"] * 3


def test_a_method_that_only_subclasses_the_interface_reads_and_observes_nothing() -> None:
    toy = RepeatedParagraphs()
    page = SitePage(id="p", url=None, root=_parse("<p>x</p>"), meta=Metadata())
    assert toy.read(frozenset(), page) is None and toy.observe(frozenset(), page, None) is None


def test_a_step_that_only_looks_and_observes_leaves_the_page_to_the_page_method() -> None:
    """``Step.applies`` False (the template's step on a learning page of a cluster without a
    template): ``look`` and ``observe`` run, ``apply`` does not, and ``auto``'s extras do not
    count it as a site step."""
    from sitesift.pipeline.base import PagePlan, Step, site_pages

    toy, page = Reading2(), _page(0)
    extractor = Extractor(Options(method="page"))
    parsed = {0: extractor._parse(page)}
    (site_page,) = site_pages(page.site or "", [0], [page], parsed)
    plan = PagePlan(steps=(Step(toy, frozenset({BOILERPLATE}), site_page, applies=False),))
    assert not plan.site_steps
    record = Record(id=page.id, url=page.url, site=page.site)
    extractor._run_page(record, page, parsed[0], plan)
    assert toy.observed == [("p0", "other")]
    assert record.method == "page" and BOILERPLATE in (record.text or "")


def test_extract_with_learns_each_sites_titles(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the site-level paths of the command line do (paper 003): a method run through the
    interface gives the titles they give."""
    learned: list[list[str]] = []
    learn = Extractor._learn_titles

    def spy(self: Extractor, members: list[int], pages: list[Page], parsed: Any) -> None:
        learned.append([pages[i].id for i in members])
        learn(self, members, pages, parsed)

    monkeypatch.setattr(Extractor, "_learn_titles", spy)
    Extractor(Options(method="page")).extract_with(
        RepeatedParagraphs(), [_page(0), _page(1), _page(2, site="other.example")])
    assert learned == [["p0", "p1"], ["p2"]]
