"""``auto``'s choice between its DOM methods' answers (``methods.auto.choose``), alone and in the
pipeline; the visual vote against the real Chromium skips cleanly without it."""

from __future__ import annotations

import random

import pytest

from sitesift import Extractor, Options, Page
from sitesift.errors import BrowserUnavailable
from sitesift.methods.auto.choose import MIN_STEP_KEPT, Stage, choose, least_kept, text_size, vote

STORY = "The tide barrier closed at noon, the harbour master said today. " * 10


def test_every_step_that_keeps_most_of_its_input_is_taken() -> None:
    stages = [Stage("page", "Home News\n" + STORY), Stage("template", STORY),
              Stage("template+siblings", STORY[:-100])]
    choice = choose(stages)
    assert choice.stage.method == "template+siblings" and choice.disagree is None
    assert choice.reason() is None


def test_a_step_that_deletes_most_of_the_main_text_disagrees_and_is_not_taken() -> None:
    stages = [Stage("page", STORY), Stage("template", STORY), Stage("template+siblings", "")]
    choice = choose(stages)
    assert choice.stage.method == "template" and choice.disagree == "siblings"
    assert least_kept(stages) == 0.0 and least_kept(stages[:1]) == 1.0
    assert "siblings" in (choice.reason() or "")
    # The check is per step: a template that deleted most stops there, siblings are not read.
    stages = [Stage("page", STORY), Stage("template", STORY[:40]),
              Stage("template+siblings", STORY[:40])]
    assert choose(stages).stage.method == "page"
    # White space is not text: re-flowed lines keep everything.
    assert choose([Stage("page", "a b c d"), Stage("siblings", "abcd")]).disagree is None
    kept = "x" * int(100 * MIN_STEP_KEPT)
    assert choose([Stage("page", "x" * 100), Stage("siblings", kept)]).disagree is None
    assert choose([Stage("page", "x" * 100), Stage("siblings", kept[:-1])]).disagree
    with pytest.raises(ValueError):
        choose([])


def test_the_visual_text_votes_for_the_stage_it_agrees_with_most() -> None:
    stages = [Stage("page", "Home News Sport\n" + STORY), Stage("template", STORY),
              Stage("template+siblings", "")]
    best, agreement = vote(stages, STORY)
    assert best.method == "template" and agreement["template"] == 1.0
    assert agreement["template+siblings"] == 0.0
    # A tie goes to the choice made without the browser, else to the stage deleting less.
    same = [Stage("page", STORY), Stage("template", STORY)]
    assert vote(same, STORY)[0].method == "page"
    assert vote(same, STORY, default=same[1])[0].method == "template"


WORDS = ["harbour", "lantern", "meadow", "granite", "orchard", "compass", "velvet", "thunder",
         "saffron", "glacier", "pepper", "quartz", "willow", "canyon", "falcon", "ember"]


def _page(story: int, note: str = "") -> str:
    rnd = random.Random(story)
    body = "".join("<p>" + " ".join(rnd.choice(WORDS) for _ in range(30)).capitalize() + ".</p>"
                   for _ in range(4))
    return (f"<html><head><title>Story {story}</title></head><body><div class='nav'>"
            "<a href='/'>Home</a> <a href='/city'>City news</a> <a href='/sport'>Sport</a></div>"
            f"<div class='main'><h1>Story {story}</h1>{note}{body}</div><div class='foot'>"
            "Copyright The Gazette, all rights reserved. Contact the newsroom.</div></body></html>")


def _site() -> list[Page]:
    """Six pages of one layout; story 3 twice, the copy with a note of its own (so it is no
    exact copy): paper 004 finds each copy's article in the other and reads it as noise."""
    stories = [1, 2, 3, 4, 5, 3]
    return [Page(id=f"p{k}", url=f"http://g.test/news/{k}.html", site="g",
                 html=_page(s, "<p>Updated an hour ago</p>" if k == 5 else ""))
            for k, s in enumerate(stories)]


def test_auto_keeps_an_article_its_copy_would_delete_as_sibling_noise() -> None:
    pages = _site()
    siblings = list(Extractor(Options(method="siblings")).extract_many(pages))
    assert [bool(r.text) for r in siblings] == [True, True, False, True, True, False]
    records = list(Extractor().extract_many(pages))
    for k in (2, 5):
        assert records[k].method == "template"
        assert len(records[k].text or "") > 800
        assert "siblings" in records[k].extra["auto"]["disagree"]
    assert [r.method for r in records[:2]] == ["template+siblings"] * 2
    assert "auto" not in records[0].extra


def test_auto_markdown_follows_the_stage_taken() -> None:
    records = list(Extractor(Options(output_format="markdown")).extract_many(_site()))
    assert records[2].method == "template"
    assert records[2].extra["markdown"].split()[:3] == (records[2].text or "").split()[:3]


def test_visual_fallback_option_is_a_flag() -> None:
    from sitesift.errors import UsageError

    assert Options().visual_fallback is False
    with pytest.raises(UsageError):
        Options(visual_fallback="yes")  # type: ignore[arg-type]


def test_visual_fallback_without_a_browser_fails_before_any_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sitesift.render import browser

    def missing() -> str:
        raise BrowserUnavailable("no Chromium executable found")

    monkeypatch.setattr(browser, "find_chromium", missing)
    with pytest.raises(BrowserUnavailable):
        next(Extractor(Options(visual_fallback=True)).extract_many(_site()))
    # Without the option auto never starts a browser.
    assert len(list(Extractor().extract_many(_site()))) == 6


def test_visual_fallback_votes_on_the_disagreeing_pages_only() -> None:
    try:
        import playwright  # noqa: F401

        from sitesift.render.browser import find_chromium

        find_chromium()
    except (ImportError, BrowserUnavailable) as exc:
        pytest.skip(f"the visual vote needs Chromium and Playwright: {exc}")
    with Extractor(Options(visual_fallback=True, render_concurrency=2)) as extractor:
        records = list(extractor.extract_many(_site()))
    for k in (2, 5):
        assert records[k].method == "template+visual", records[k].extra
        agreement = records[k].extra["auto"]["visual"]
        assert agreement["template"] > 0.5 and agreement["template+siblings"] == 0.0
    assert [r.method for r in records[:2]] == ["template+siblings"] * 2


def test_text_size_counts_every_character_that_is_not_white_space() -> None:
    spaces = "".join(chr(c) for c in range(0x3001) if chr(c).isspace())  # NEL, NBSP, U+2028...
    text = f"a{spaces}b\u200bc{spaces}"  # a zero-width space is no white space to str.isspace
    assert text_size(text) == 4
    assert text_size(spaces) == 0
