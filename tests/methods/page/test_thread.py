"""A discussion seen alone is a thread; articles with comments and dated lists are not (small
pages written for these tests, English and Chinese)."""

from __future__ import annotations

from shared_data import data_set

from sitesift.input.encoding import decode_html
from sitesift.methods.page.content import extract_content
from sitesift.methods.page.thread import find_thread, is_thread, read_thread
from sitesift.parse import parse_html

POSTS_EN = [
    ("alice", ("We moved the build to the new runners last week, and since then every "
               "nightly job fails at the packaging step with a timeout; has anyone seen this?")),
    ("bob", ("Same here. It started after the image update, and pinning the old image made "
             "the jobs pass again, so I would look at the toolchain it ships.")),
    ("carol", ("The new image has a slower disk; raising the timeout to twenty minutes fixed "
               "it for us, although the real fix is caching the dependencies between runs.")),
]
POSTS_ZH = [
    ("张三", ("这个版本升级以后，导出功能一直报错，重新安装也没有用，"
              "请问大家有没有遇到过同样的问题？")),
    ("李四", ("我也遇到了，回退到上一个版本就好了，应该是新版本的编码设置有变化，"
              "可以先试试这个办法。")),
    ("王五", "官方已经发布了补丁，装上之后导出正常，记得先备份配置文件，不然设置会被清空。"),
]
STORY = ("The city council approved the harbour plan on Tuesday after a debate that lasted "
         "well into the night. ") * 12


def _post(name: str, text: str, i: int, when: str) -> str:
    return (f"<div class='post' id='p{i}'><div class='meta'><a class='user' href='/u/{name}'>"
            f"{name}</a> <time datetime='2024-05-0{i + 1}T10:00'>{when}</time></div>"
            f"<div class='body'><p>{text}</p></div><div class='tools'>Reply</div></div>")


def _thread(posts: list[tuple[str, str]], when: str = "May 1, 2024") -> str:
    body = "".join(_post(n, t, i, when) for i, (n, t) in enumerate(posts))
    return (f"<html><body><nav class='menu'><a href='/'>Home</a></nav><h1>Topic</h1>"
            f"<div class='stream'>{body}</div><footer class='foot'>About</footer></body></html>")


def test_thread_seen_alone_gives_its_posts_and_whole_text() -> None:
    content = extract_content(parse_html(_thread(POSTS_EN)))
    assert content.page_type == "thread"
    assert [p["author"] for p in content.posts] == ["alice", "bob", "carol"]
    assert [p["text"] for p in content.posts] == [t for _, t in POSTS_EN]
    assert content.posts[0]["published"] == "2024-05-01 10:00"
    assert all(t in content.text for _, t in POSTS_EN) and "Reply" not in content.text


def test_chinese_thread_with_relative_times() -> None:
    content = extract_content(parse_html(_thread(POSTS_ZH, when="3天前")))
    assert content.page_type == "thread"
    assert [p["author"] for p in content.posts] == ["张三", "李四", "王五"]


def test_article_with_comments_is_no_thread() -> None:
    # The comments are posts, but the story beside them outweighs any of them.
    comments = "".join(_post(n, t, i, "May 1, 2024") for i, (n, t) in enumerate(POSTS_EN))
    html = (f"<html><body><article><h1>Harbour plan</h1><div class='story'><p>{STORY}</p>"
            f"</div></article><section class='replies'>{comments}</section></body></html>")
    root = parse_html(html)
    assert read_thread(root) is not None and not is_thread(read_thread(root))
    content = extract_content(parse_html(html))
    assert content.page_type == "detail" and not content.posts


def test_dated_teaser_cards_are_no_thread() -> None:
    # A blog's front page: cards with an author, a date and a summary, but a linked headline.
    cards = "".join(
        f"<div class='card'><h2><a href='/posts/{i}'>What we learned shipping release {i}</a>"
        f"</h2><span class='by'>{n}</span> <time datetime='2024-05-0{i + 1}'>May {i + 1}</time>"
        f"<div class='summary'><p>{t}</p></div></div>" for i, (n, t) in enumerate(POSTS_EN))
    html = f"<html><body><div class='cards'>{cards}</div></body></html>"
    assert not is_thread(read_thread(parse_html(html)))
    assert extract_content(parse_html(html)).page_type != "thread"


def test_one_post_alone_is_no_thread() -> None:
    assert read_thread(parse_html(_thread(POSTS_EN[:1]))) is None


def test_chinese_feed_whose_titles_pass_for_posters_is_no_thread() -> None:
    # Feed cards: an unlinked headline, a summary, a time. The "poster" would be the headline,
    # too long for a name once CJK characters weigh as the page extractor weighs them.
    titles = ["生成式人工智能进入第二幕，交大携手学院提出认知工程",
              "从游戏到虚幻引擎，人工智能首次实现三维游戏零样本迁移",
              "直接指导荧光分子设计，浙大等提出模块化人工智能框架"]
    cards = "".join(
        f"<div class='item'><div class='title'>{t}</div><div class='summary'>{body}</div>"
        f"<div class='time'>{i + 1}小时前</div></div>"
        for i, (t, (_, body)) in enumerate(zip(titles, POSTS_ZH, strict=True)))
    assert not is_thread(read_thread(parse_html(f"<html><body>{cards}</body></html>")))


def test_signatures_sharing_the_bodies_class_are_no_posts() -> None:
    # Each post ends with its poster's signature, marked up like a post body.
    html = _thread(POSTS_EN).replace(
        "<div class='tools'>", "<div class='sig'><div class='body'>Sent from my old phone, "
        "please excuse the typing mistakes</div></div><div class='tools'>")
    content = extract_content(parse_html(html))
    assert content.page_type == "thread"
    assert [p["text"] for p in content.posts] == [t for _, t in POSTS_EN]


def test_one_text_shown_twice_is_no_thread() -> None:
    # A desktop and a mobile copy of one article, each with its button and date.
    copy = (f"<div class='copy'><a class='btn' href='/try'>Start free trial</a> <time "
            f"datetime='2024-05-01'>May 1</time><div class='body'><p>{STORY}</p></div></div>")
    assert read_thread(parse_html(f"<html><body>{copy}{copy}</body></html>")) is None


def test_find_thread_answers_as_read_thread_then_is_thread() -> None:
    # find_thread skips runs too light to be the page; the answer must not change.
    comments = "".join(_post(n, t, i, "May 1, 2024") for i, (n, t) in enumerate(POSTS_EN))
    article = (f"<html><body><div class='story'><p>{STORY}</p></div>"
               f"<section class='replies'>{comments}</section></body></html>")
    for html in (_thread(POSTS_EN), _thread(POSTS_ZH, when="3天前"), article):
        full = read_thread(parse_html(html))
        fast = find_thread(parse_html(html))
        if is_thread(full):
            assert fast is not None and fast.posts == full.posts
        else:
            assert fast is None
    assert find_thread(parse_html(_thread(POSTS_EN))) is not None
    assert find_thread(parse_html(article)) is None


def test_a_body_cell_without_text_of_its_own_does_not_narrow_the_posts() -> None:
    # A table per post: its date in a header row, the poster and the body in the next row,
    # and a row of buttons in a cell of the body's class: each post is the whole table.
    posts = "".join(
        f"<table class='tborder' id='post{i}'><tr><td class='thead'>30th March 2025, 16:2{i}"
        f"</td></tr><tr><td class='alt2'><a class='bigusername' href='/u/{i}'>{name}</a>"
        f"</td><td class='alt1'><div>{text}</div></td></tr><tr><td class='alt2'></td>"
        f"<td class='alt1'><a href='/reply?p={i}'><img alt='Reply'></a></td></tr></table>"
        for i, (name, text) in enumerate(POSTS_EN))
    content = extract_content(parse_html(f"<html><body><div id='posts'>{posts}</div>"
                                         "</body></html>"))
    assert content.page_type == "thread"
    assert [p["author"] for p in content.posts] == ["alice", "bob", "carol"]


def _articles(heads: list[str]) -> str:
    posts = "".join(f"<article><div class='user'><h3 class='name'>{h}</h3></div>"
                    f"<div class='body'><p>{t}</p></div></article>"
                    for h, (_, t) in zip(heads, POSTS_EN * 2, strict=False))
    return f"<html><body><h1>Topic</h1><div class='stream'>{posts}</div></body></html>"


def test_untimed_posts_each_an_article_with_posters_taking_turns_are_a_thread() -> None:
    # A script-less view of a discussion: no times, but each post is an <article> of its
    # own and its posters come back. A listicle of articles headed by distinct titles is no
    # thread.
    content = extract_content(parse_html(_articles(["alice", "bob", "alice", "bob"])))
    assert content.page_type == "thread"
    assert [p["author"] for p in content.posts] == ["alice", "bob", "alice", "bob"]
    titles = ["Design course", "Motion course", "Video course", "Web course"]
    assert extract_content(parse_html(_articles(titles))).page_type != "thread"


def test_numbered_labels_are_no_posters() -> None:
    # Comments under a short story, each labelled "1. By", "2. By" before a linked name.
    comments = "".join(
        f"<div class='comment'><span class='label'>{i + 1}. By</span> <a href='/u/{n}'>{n}"
        f"</a> <time datetime='2024-05-0{i + 1}'>May {i + 1}</time><div class='text'>{t}"
        f"</div></div>" for i, (n, t) in enumerate(POSTS_EN))
    html = f"<html><body><div class='comments'>{comments}</div></body></html>"
    assert read_thread(parse_html(html)) is None


def test_class_owner_memo_answers_as_class_owner() -> None:
    from lxml import etree

    from sitesift.fields.post_rules import class_owner
    from sitesift.methods.page.thread import _class_owner

    root = parse_html(
        "<html><body><div class='post-1'><p>a<b>b</b></p></div><div class='x'><span>"
        "<i>c</i></span><p class='y post-2'>d</p></div><p>e</p></body></html>")
    known: dict[etree._Element, etree._Element | None] = {}
    for el in reversed(list(root.iter(etree.Element))):  # (leaves first: the memo fills up)
        assert _class_owner(el, known) is class_owner(el), el.tag
    for el in root.iter(etree.Element):
        assert _class_owner(el, known) is class_owner(el), el.tag


def test_piece_weights_with_the_cleaned_pages_hidden_blocks_are_text_pieces() -> None:
    from sitesift.fields.post_rules import text_pieces
    from sitesift.methods.page.clean import clean
    from sitesift.methods.page.thread import _piece_weights
    from sitesift.parse.dom import text_weight

    root = parse_html(
        "<html><body><div role='tabpanel' hidden>Tab text here</div><p>Shown <b>bold</b> "
        "tail</p><noscript>Script-less note</noscript><div style='display:none'>Menu</div>"
        "<details><div hidden>Folded answer</div></details><a href='/x'>link</a> after"
        "</body></html>")
    body = root.find("body")
    revealed = clean(body)
    assert len(revealed) == 2  # (the tab panel and the folded answer: kept, still hidden)
    want = [(holder, text_weight(line)) for holder, line in text_pieces(body)]
    assert _piece_weights(body, revealed) == want
    assert _piece_weights(body, []) != want  # (the hidden blocks must be skipped)


def test_the_units_pieces_are_the_walks_pieces() -> None:
    # _unit_pieces reads the texts off the units: the same (holder, weight) pairs in the same
    # order as _piece_weights' walk, hidden subtrees left out but their own tails kept.
    from sitesift.methods.page.clean import clean
    from sitesift.methods.page.thread import _piece_weights, _unit_pieces
    from sitesift.methods.page.units import segment

    root = parse_html(
        "<html><body>Lead <div role='tabpanel' hidden>Tab <p>text</p> here</div> after tab"
        "<p>Shown <b>bold</b> tail<div>nested</div>resumed <i> </i></p><noscript>Note"
        "</noscript><details><div hidden>Folded answer</div>fold tail</details>"
        "<ul><li><a href='/x'>link <span>inner</span></a> after</li><li>  </li></ul> end"
        "</body></html>")
    body = root.find("body")
    revealed = clean(body)
    measures: dict[str, tuple[int, int, int, int]] = {}
    units = segment(body, measures)
    want = _piece_weights(body, revealed)
    assert len(want) > 10
    assert _unit_pieces(body, revealed, units, measures) == want
    assert len(_unit_pieces(body, [], units, measures)) > len(want)


def test_a_rule_whose_elements_own_no_text_makes_no_run() -> None:
    """modern-dev 0154: the class rule of the guide's text selects only its outermost
    element (``div.body-block``), which owns no text itself; ``read_thread`` raised
    ValueError (an empty ``max``) instead of finding no run."""
    text, _encoding = decode_html((data_set("modern-dev") / "pages" / "0154.html").read_bytes())
    assert read_thread(parse_html(text)) is None


def test_a_lone_thread_reads_its_ambiguous_dates_in_the_order_its_other_dates_show() -> None:
    """One page with enough dates settles its order: "08-13-2025" and "08-14-2025" say the
    page is month-first, so its "08-12-2025, 05:15 PM" is 12 August."""
    from forum_pages import thread_page

    from sitesift import Options
    from sitesift.pipeline import Extractor
    from sitesift.record import Page

    def stamp(tid: int, k: int) -> str:
        return f"08-{12 + k:02d}-2025, 0{5 + k}:15 PM"

    html = thread_page(3, 2, stamp)
    record = next(Extractor(Options(method="page")).extract_many(
        [Page(id="t", url="http://forum.test/show?t=3", html=html)]))
    posts = record.extra.get("posts")
    assert posts and [p["published"] for p in posts] == [
        "2025-08-12 17:15", "2025-08-13 18:15", "2025-08-14 19:15"]
