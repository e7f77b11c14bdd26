"""Paper 002 on hand-built renderings: no browser needed. Each page is a column of blocks
with boxes and styles, as ``sitesift.render`` would report them."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from sitesift import Options, UsageError
from sitesift.methods.visual.segmenter import VisualSegmenter
from sitesift.render.browser import Element, Rendering, TextPiece
from sitesift.segment.rules import VisualRules

BODY = "正文内容，这是一段足够长的新闻正文。" * 8  # 144 characters


@dataclass
class _Box:
    """A block element to lay out: its own text, links and images, at (x, y, w, h)."""

    tag: str
    x: float
    y: float
    w: float
    h: float
    text: str = ""
    links: list[str] = field(default_factory=list)
    images: int = 0
    font: float = 16.0
    color: str = "rgb(0, 0, 0)"
    kids: list[_Box] = field(default_factory=list)


def _rendering(boxes: list[_Box], width: float = 1000, height: float = 2000) -> Rendering:
    """Elements in pre-order: body, then each box with its text, <a> and <img> children."""
    els: list[Element] = []

    def add(tag: str, parent: int, x: float, y: float, w: float, h: float, font: float = 16.0,
            color: str = "rgb(0, 0, 0)", display: str = "block") -> int:
        els.append(Element(len(els), tag, parent, x, y, w, h, font, 400, color,
                           "rgba(0, 0, 0, 0)", False, display, ()))
        return len(els) - 1

    def set_children(i: int, children: list[int | TextPiece]) -> None:
        el = els[i]
        els[i] = Element(el.index, el.tag, el.parent, el.x, el.y, el.width, el.height,
                         el.font_size, el.font_weight, el.color, el.background,
                         el.background_image, el.display, tuple(children))

    def place(box: _Box, parent: int) -> int:
        i = add(box.tag, parent, box.x, box.y, box.w, box.h, box.font, box.color)
        children: list[int | TextPiece] = []
        if box.text:
            children.append(TextPiece(box.text, box.x, box.y, min(box.w, 10 * len(box.text)),
                                      box.h if not box.kids else 20))
        for n, label in enumerate(box.links):
            a = add("a", i, box.x + 40 * n, box.y, 36, 18, color="rgb(0, 0, 238)",
                    display="inline")
            set_children(a, [TextPiece(label, box.x + 40 * n, box.y, 36, 18)])
            children.append(a)
        for n in range(box.images):
            children.append(add("img", i, box.x + 50 * n, box.y, 48, 48, display="inline"))
        for kid in box.kids:
            children.append(place(kid, i))
        set_children(i, children)
        return i

    body = add("body", -1, 0, 0, width, height)
    set_children(body, [place(b, body) for b in boxes])
    return Rendering(width, height, tuple(els))


def _page(**extra: _Box) -> list[_Box]:
    """Header menu, title, time line, two body paragraphs, right rail, footer."""
    main = _Box("div", 200, 150, 600, 1200, kids=[
        _Box("h1", 200, 160, 600, 40, text="标题：视觉分块逐层删减", font=28,
             color="rgb(200, 0, 0)"),
        _Box("div", 200, 230, 600, 20, text="2010-03-15 08:57 来源：新华网", font=12),
        _Box("p", 200, 280, 600, 200, text=BODY),
        _Box("p", 200, 500, 600, 200, text=BODY),
        *extra.values(),
    ])
    rail = _Box("div", 820, 150, 180, 500, links=["热点新闻一", "热点新闻二", "热点新闻三"],
                text="相关链接")
    menu = _Box("div", 0, 0, 1000, 60, links=["首页", "新闻", "体育", "财经", "娱乐"])
    footer = _Box("div", 0, 1900, 1000, 100, text="版权所有 © 2010 新闻网 保留所有权利")
    return [menu, main, rail, footer]


@pytest.fixture(scope="module")
def segmenter() -> VisualSegmenter:
    """One segmenter for the module: its POS tagger loads a dictionary once."""
    return VisualSegmenter()


def test_body_survives_and_edges_are_pruned(segmenter: VisualSegmenter) -> None:
    seg = segmenter.segment(_rendering(_page()))
    assert seg.text.count(BODY) == 2
    assert "首页" not in seg.text and "版权所有" not in seg.text and "热点" not in seg.text
    fired = {b.decision for b in seg.root.leaves()}
    assert {"R1", "R2"} <= fired  # right rail beside the body column, header and footer


def test_title_by_visual_cues_and_time_between_title_and_body(segmenter: VisualSegmenter) -> None:
    seg = segmenter.segment(_rendering(_page()))
    assert seg.title_text == "标题：视觉分块逐层删减"
    assert seg.time == "2010-03-15T08:57:00"
    assert seg.title is not None and seg.title.decision == "title"


def test_title_needs_enough_cues(segmenter: VisualSegmenter) -> None:
    # Four cues at most: asking for all four drops a title with body colour and size.
    boxes = _page()
    boxes[1].kids[0] = _Box("h1", 200, 160, 600, 40, text="普通的标题文字", font=16)
    assert segmenter.segment(_rendering(boxes)).title_text is None


def test_rule_3_link_list_and_rule_5_short_block(segmenter: VisualSegmenter) -> None:
    links = _Box("div", 200, 720, 600, 200, links=[f"链接{i}" for i in range(12)] * 3)
    short = _Box("div", 200, 940, 600, 20, text="搜索 登录 注册")
    seg = segmenter.segment(_rendering(_page(links=links, short=short)))
    assert "链接" not in seg.text and "搜索" not in seg.text
    decisions = {b.decision for b in seg.root.leaves() if b.order > seg.body[-1].order}
    assert "R3" in decisions


def test_rule_4_image_links_in_lower_half_only(segmenter: VisualSegmenter) -> None:
    ads = _Box("div", 200, 1300, 600, 200, links=["广告"] * 4, images=4)
    seg = segmenter.segment(_rendering(_page(ads=ads)))
    assert any(b.decision == "R4" for b in seg.root.leaves())


def test_thresholds_are_configurable() -> None:
    # With min_text above the paragraphs' length, rule 5 deletes the body too.
    strict = VisualSegmenter(VisualRules(min_text=1000)).segment(_rendering(_page()))
    assert strict.text == ""


def test_adjacent_paragraphs_of_one_look_form_one_block(segmenter: VisualSegmenter) -> None:
    seg = segmenter.segment(_rendering(_page()))
    assert len(seg.body) == 1 and len(seg.body[0].units) == 2


def test_empty_rendering(segmenter: VisualSegmenter) -> None:
    seg = segmenter.segment(Rendering(0, 0, ()))
    assert seg.text == "" and seg.title is None and seg.time is None


def test_english_time_line(segmenter: VisualSegmenter) -> None:
    boxes = _page()
    boxes[1].kids[1] = _Box("div", 200, 230, 600, 20, text="Posted March 15, 2010", font=12)
    assert segmenter.segment(_rendering(boxes)).time == "2010-03-15"


@pytest.mark.parametrize("changes", [
    {"left": 0.9, "right": 0.1}, {"link_ratio": -1}, {"min_text": -5}, {"title_cues": 5},
])
def test_rules_are_validated(changes: dict[str, object]) -> None:
    with pytest.raises(UsageError):
        VisualRules(**changes)  # type: ignore[arg-type]


def test_options_carry_visual_settings() -> None:
    opts = Options(method="visual", render_concurrency=2, visual=VisualRules(link_ratio=3))
    assert opts.visual.link_ratio == 3
    with pytest.raises(UsageError):
        Options(render_concurrency=0)


def test_time_above_the_title_when_none_below(segmenter: VisualSegmenter) -> None:
    boxes = _page()
    boxes[1].kids[1] = _Box("div", 200, 230, 600, 20, text="来源：新华网", font=12)
    boxes[1].kids.insert(0, _Box("div", 200, 130, 600, 16, text="2022年02月13日", font=12))
    assert segmenter.segment(_rendering(boxes)).time == "2022-02-13"


def test_prepare_loads_the_time_tagger_before_any_page() -> None:
    """The dictionary loads when the segmenter is prepared, not inside the first page's time
    limit (where a limit firing surfaced as jieba's "invalid POS dictionary entry")."""
    pytest.importorskip("jieba")
    segmenter = VisualSegmenter()
    assert segmenter._time_tagger._tagger is None
    segmenter.prepare()
    tagger = segmenter._time_tagger._tagger
    assert tagger is not None
    segmenter.prepare()  # once is enough
    assert segmenter._time_tagger._tagger is tagger
    runs = segmenter._time_tagger.words("发布时间：2018年07月17日 10:00")
    assert any("2018" in run for run in runs)
