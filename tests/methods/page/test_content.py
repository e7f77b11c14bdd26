"""Main-content extraction on small hand-written pages, plus a real-data check when present."""

from __future__ import annotations

import json

import pytest
from lxml import etree
from shared_data import DATA

from sitesift.methods.page.content import Content, extract_content
from sitesift.parse import parse_html

#: A sentence long enough, and punctuated, to read as prose.
PROSE = "The council met on Tuesday, and after a long debate it approved the budget for next year."
ZH_PROSE = "市政府周二召开会议，经过长时间讨论，批准了明年的预算方案。会议还讨论了交通问题。"


def _page(body: str, head: str = "<title>T</title>") -> str:
    return f"<html><head>{head}</head><body>{body}</body></html>"


def _nav(n: int = 12) -> str:
    return "<ul class='menu'>" + "".join(
        f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(n)
    ) + "</ul>"


def _extract(html: str) -> Content:
    return extract_content(parse_html(html))


def test_article_text_without_navigation_or_footer() -> None:
    html = _page(
        f"<div id='header'>{_nav()}</div>"
        f"<div class='story'><h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE} Again.</p></div>"
        "<div class='footer'><p>Copyright 2024, Example Corp. All rights reserved.</p></div>"
    )
    content = _extract(html)
    assert content.text == f"{PROSE}\n\n{PROSE} Again."
    assert content.page_type in ("detail", "other")
    assert content.nodes


def test_chinese_article() -> None:
    html = _page(
        f"{_nav()}<div class='content'><p>{ZH_PROSE}</p><p>{ZH_PROSE}</p></div>"
        "<div class='related'><a href='/a'>相关新闻一</a><a href='/b'>相关新闻二</a></div>"
    )
    assert _extract(html).text == f"{ZH_PROSE}\n\n{ZH_PROSE}"


def test_split_article_is_joined_through_its_parent() -> None:
    html = _page(
        f"{_nav()}<div class='main'><div class='part'><p>{PROSE}</p><p>{PROSE}</p></div>"
        "<div class='ad-slot'>Advertisement</div>"
        f"<div class='part'><p>Second half. {PROSE}</p></div></div>"
    )
    text = _extract(html).text
    assert text.count(PROSE) == 3
    assert "Advertisement" not in text


def test_paragraphs_directly_in_a_layout_cell_next_to_link_tables() -> None:
    links = "<table>" + "".join(
        f"<tr><td><a href='/x{i}'>Other story number {i}</a></td></tr>" for i in range(20)
    ) + "</table>"
    html = _page(f"<table><tr><td><p>{PROSE}</p><p>{PROSE}</p>{links}</td></tr></table>")
    text = _extract(html).text
    assert text == f"{PROSE}\n\n{PROSE}"


def test_teaser_cards_are_not_main_text() -> None:
    cards = "".join(
        f"<div class='card'><h3><a href='/s{i}'>Another headline number {i}</a></h3>"
        f"<p>{PROSE}</p></div>" for i in range(4)
    )
    html = _page(f"<article><p>{PROSE} Main.</p><p>{PROSE} Main again.</p></article>"
                 f"<section>{cards}</section>")
    assert _extract(html).text == f"{PROSE} Main.\n\n{PROSE} Main again."


def test_posts_with_linked_author_names_are_a_thread_not_teasers() -> None:
    # Repeated items, each with a linked name, holding nearly all the page's prose.
    posts = "".join(
        f"<div class='post'><div><a href='/u/member{i}'>Forum member number {i}</a></div>"
        f"<p>{PROSE} Post {i}.</p></div>" for i in range(5)
    )
    text = _extract(_page(f"{_nav()}<div class='topic'>{posts}</div>")).text
    assert text.count(PROSE) == 5 and "Post 4." in text


def test_sections_titled_by_their_own_anchors_are_not_teasers() -> None:
    # Documentation: each section's heading links to itself ("#setting-the-method").
    sections = "".join(
        f"<section><h3><a href='#part-{i}'>Setting part number {i}</a></h3><p>{PROSE}</p>"
        "</section>" for i in range(5)
    )
    text = _extract(_page(f"{_nav()}<article><p>{PROSE}</p>{sections}</article>")).text
    assert text.count(PROSE) == 6


def test_a_page_that_is_a_comment_tree_keeps_its_comments() -> None:
    # A discussion page: the "comment-tree" holds the thread, each post a "comment".
    posts = "".join(f"<tr class='comment'><td>{PROSE} Reply {i}.</td></tr>" for i in range(6))
    html = _page(f"{_nav()}<p>Ask: why?</p><table class='comment-tree'>{posts}</table>")
    text = _extract(html).text
    assert text.count(PROSE) == 6 and "Reply 5." in text


def test_code_keeps_its_highlighted_comments() -> None:
    html = _page(
        f"<article><p>{PROSE}</p><pre><code><span class='hljs-comment'># set up the repo"
        "</span>\ngit init</code></pre><p>{PROSE}</p></article>".replace("{PROSE}", PROSE)
    )
    assert "# set up the repo" in _extract(html).text


def test_a_section_named_after_its_heading_is_not_boilerplate() -> None:
    # "more" is a hint word, but this id is the slug of the section's own heading.
    html = _page(
        f"<article><p>{PROSE}</p><section id='more-on-lists'><h2>5.1. More on Lists</h2>"
        f"<p>{PROSE}</p>"
        f"</section><section id='tuples'><h2>5.2. Tuples</h2><p>{PROSE}</p></section>"
        "<div id='more'><a href='/x'>More stories</a></div></article>"
    )
    text = _extract(html).text
    assert "More on Lists" in text and text.count(PROSE) == 3


def test_linked_and_trailing_off_headings_title_their_sections() -> None:
    html = _page(
        f"<article><p>{PROSE}</p><h2>Here a Book, There a Book.....</h2><p>{PROSE}</p>"
        f"<h3><a href='https://shop.example/b'>1. The Book by Its Author</a></h3><p>{PROSE}</p>"
        "</article>"
    )
    text = _extract(html).text
    assert "There a Book....." in text and "1. The Book by Its Author" in text


def test_comment_section_after_label_is_removed() -> None:
    html = _page(
        f"<div><p>{PROSE}</p><p>{PROSE} End.</p><h3>Comments</h3>"
        f"<div><p>{PROSE} I disagree.</p></div></div>"
    )
    assert _extract(html).text == f"{PROSE}\n\n{PROSE} End."


def test_chinese_source_line_and_comments_are_not_main_text() -> None:
    html = _page(
        f"<div><div class='info'>2022-02-13 07:00 来源：新华社</div><p>{ZH_PROSE}</p>"
        f"<p>{ZH_PROSE}</p><div><h3>网友评论</h3><p>{ZH_PROSE}我不同意。</p></div></div>"
    )
    assert _extract(html).text == f"{ZH_PROSE}\n\n{ZH_PROSE}"


def test_related_box_announced_by_a_label_is_removed() -> None:
    box = "<div><h4>Related stories</h4><p>Another story entirely, told at length here.</p></div>"
    html = _page(f"<div><p>{PROSE}</p>{box}<p>{PROSE} Last.</p></div>")
    assert _extract(html).text == f"{PROSE}\n\n{PROSE} Last."


def test_hidden_and_script_content_is_dropped() -> None:
    html = _page(
        f"<div><p>{PROSE}</p><p style='display:none'>{PROSE} Hidden.</p>"
        "<script>var a = 'x, y, z.';</script></div>"
    )
    assert _extract(html).text == PROSE


def test_a_thread_in_noscript_under_an_empty_app_shell_is_the_text() -> None:
    # What a crawler (or a reader without scripts) sees of a script-rendered forum.
    posts = "".join(f"<div class='post'><p>{PROSE} Reply {i}.</p></div>" for i in range(4))
    html = _page(
        "<div id='app'><span>Loading</span></div>"
        f"<noscript><div class='topic'>{posts}</div></noscript>"
        "<div hidden><ul><li>Log in</li><li>Sign up</li></ul></div>"
    )
    text = _extract(html).text
    assert text.count(PROSE) == 4 and "Reply 3." in text
    assert "Log in" not in text


def test_noscript_and_hidden_text_lighter_than_the_page_is_dropped() -> None:
    html = _page(
        f"<div><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>"
        f"<noscript><p>Please enable JavaScript, {PROSE}</p></noscript>"
    )
    assert "JavaScript" not in _extract(html).text


def test_link_list_page_is_a_list() -> None:
    items = "".join(f"<li><a href='/a{i}'>Headline of story {i} here</a></li>" for i in range(30))
    content = _extract(_page(f"<ul>{items}</ul>"))
    assert content.page_type == "list"
    # A list page's items are its content (as today's-web gold reads listing pages).
    assert content.text.split() == " ".join(
        f"Headline of story {i} here" for i in range(30)).split()


def test_list_page_keeps_its_items_and_introduction_not_its_menu() -> None:
    menu = "<nav><ul>" + "".join(f"<li><a href='/m{i}'>Menu {i}</a></li>" for i in range(8)) \
        + "</ul></nav>"
    items = "".join(
        f"<div class='item'><h3><a href='/a{i}'>Headline of story {i} here</a></h3>"
        f"<span>May {i + 1}</span></div>" for i in range(12))
    content = _extract(_page(f"{menu}<div><p>All our stories.</p><div>{items}</div></div>"))
    assert content.page_type == "list"
    assert content.text.startswith("All our stories.")
    assert "Headline of story 11 here" in content.text and "May 12" in content.text
    assert "Menu" not in content.text


def test_long_article_is_detail() -> None:
    html = _page("<div>" + f"<p>{PROSE}</p>" * 10 + "</div>")
    assert _extract(html).page_type == "detail"


@pytest.mark.parametrize(
    "html",
    [
        "<html><body></body></html>",
        "<html><head><title>x</title></head></html>",
        "<html><frameset><frame src='a.html'></frameset></html>",
    ],
    ids=["empty body", "no body", "frameset"],
)
def test_pages_without_text(html: str) -> None:
    content = _extract(html)
    assert content.text == ""
    assert content.markdown == ""


def test_page_swallowed_by_an_unclosed_title_is_recovered() -> None:
    filler = "<script>var x = 1;</script>" * 60  # the swallowed text is long
    html = f"<html><head><title>Broken{filler}</head><body><div><p>{PROSE}</p></div></body>"
    assert _extract(html).text == PROSE


def test_deep_nesting_does_not_recurse() -> None:
    # Built directly: the parser caps depth, a tree built in code does not.
    root = parse_html(_page("<div id='top'></div>"))
    el = root.find(".//div")
    for _ in range(3000):
        el = etree.SubElement(el, "div")
    p = etree.SubElement(el, "p")
    p.text = PROSE
    assert _extract_root(root).text == PROSE


def _extract_root(root: etree._Element) -> Content:
    return extract_content(root)  # type: ignore[arg-type]


def test_markdown_keeps_structure() -> None:
    html = _page(f"<article><p>{PROSE}</p><h2>Details</h2><p>{PROSE}</p>"
                 "<ul><li>first point, made</li><li>second point, made</li></ul></article>")
    md = _extract(html).markdown
    assert "## Details" in md
    assert "- first point, made" in md


#: Floors on the real scrapinghub sample below: well under the full-set figure (0.964) so that
#: noise does not fail the test, high enough that a broken extractor does.
SAMPLE_PAGES = 30
SAMPLE_MIN_RECALL = 0.85


@pytest.mark.skipif(not (DATA / "scrapinghub").is_dir(),
                    reason="evaluation data ../shared/data/scrapinghub is absent")
def test_real_pages_sample_recall() -> None:
    folder = DATA / "scrapinghub"
    with open(folder / "gold.jsonl", encoding="utf-8") as fh:
        gold = {g["id"]: g["body"] for g in map(json.loads, fh)}
    with open(folder / "pages.jsonl", encoding="utf-8") as fh:
        manifest = [json.loads(line) for line in fh][:SAMPLE_PAGES]
    recalls = []
    for entry in manifest:
        html = (folder / entry["file"]).read_bytes().decode("utf-8", "replace")
        text = _extract(html).text
        words = gold[entry["id"]].split()
        found = set(text.split())
        recalls.append(sum(w in found for w in words) / max(1, len(words)))
    assert sum(recalls) / len(recalls) >= SAMPLE_MIN_RECALL


def test_a_describing_caption_stays_and_a_photo_credit_goes() -> None:
    prose = "".join(
        f"<p>Paragraph {i} of the story tells what happened at the harbour, at length.</p>"
        for i in range(6)
    )
    html = (
        "<html><body><article><h1>Storm</h1>"
        '<div class="wp-caption"><p class="caption-text">Waves break over the sea wall of the '
        "old harbour on Tuesday night, as the storm surge reaches its highest level since "
        "records began in 1953.</p></div>"
        f'{prose}<div class="photo-credit">Photo: J. Doe</div></article></body></html>'
    )
    text = _extract(html).text
    assert "Waves break over the sea wall" in text
    assert "J. Doe" not in text


def test_a_text_split_across_blocks_is_taken_whole_without_the_footer() -> None:
    # A course page: a lead paragraph in one row, the rest in columns beside a long list of
    # dates. The lead alone outscores each column; it holds under half the prose, so the main
    # block is the rows' common parent. The footer's disclaimers are prose too, but no part of it.
    dates = "".join(f"<a href='/d{j}'>Date {j}</a> " for j in range(80))
    html = _page(
        f"<div id='header'>{_nav()}</div><div class='wrap'>"
        f"<div class='row'><div class='col'><p>{PROSE} {PROSE} {PROSE}</p></div></div>"
        f"<div class='row'><div class='col'><h3>Who it is for</h3><p>{PROSE} Audience.</p>"
        f"<p>{PROSE} Level.</p></div><div class='col'>{dates}</div>"
        f"<div class='col'><h3>Fees</h3><p>{PROSE} Fees.</p></div></div></div>"
        "<div class='footer'>" + "".join(f"<p>{PROSE} Disclaimer {i}.</p>" for i in range(6))
        + "</div>"
    )
    content = _extract(html)
    assert content.page_type == "detail"
    assert "Audience." in content.text and "Fees." in content.text
    assert "Date 3" not in content.text and "Disclaimer" not in content.text


def test_a_listicles_entries_under_linked_names_are_its_text() -> None:
    # "The best courses": each entry is a linked name over paragraphs of its own, far more than a
    # teaser's sentence or two; a box of headlines with one-line summaries stays out.
    entries = "".join(
        f"<div class='entry'><h3><a href='https://course{i}.example/'>Course number {i} online"
        f"</a></h3><p>{PROSE} Entry {i}.</p><p>{PROSE} {PROSE}</p><p>{PROSE} {PROSE}</p>"
        f"<ul><li>{PROSE}</li></ul></div>" for i in range(4)
    )
    intro = "".join(f"<p>{PROSE} Intro {k}.</p>" for k in range(6))
    box = "<div class='box'>" + "".join(
        f"<div class='card'><h4><a href='/story/{i}'>Another story headline {i}</a></h4>"
        f"<p>A short summary of story {i}, in one sentence.</p></div>" for i in range(4)
    ) + "</div>"
    content = _extract(_page(f"<div class='post'>{intro}{entries}</div>{box}"))
    assert content.page_type == "detail"
    assert all(f"Entry {i}." in content.text for i in range(4))
    assert "summary of story" not in content.text


def test_search_results_are_content_and_the_search_box_is_not() -> None:
    # A shop's collection page: the product tiles sit in a "search-results" container, a
    # sentence introduces them, and the footer holds as much prose as that sentence.
    tiles = "".join(
        f"<li class='tile'><a href='/p/{i}'>Trail pack number {i} <b>$1{i}9.00</b></a>"
        f"<span>Capacity 6{i} liters</span></li>" for i in range(24)
    )
    html = _page(
        "<div class='search-box'><form><input name='q'><button>Search the catalogue"
        "</button></form></div>"
        "<div class='search-results'><h1>Backpacking packs</h1>"
        f"<p>Packs for trips of two nights or more, sorted by rating.</p><ul>{tiles}</ul></div>"
        "<footer><p>Returns are free for members, and shipping is free on orders over fifty "
        "dollars.</p></footer>"
    )
    content = _extract(html)
    assert content.page_type == "list"
    assert "Trail pack number 7" in content.text
    assert "Search the catalogue" not in content.text and "Returns" not in content.text


def test_hidden_tab_panels_are_text_and_hidden_menus_are_not() -> None:
    html = _page(
        f"<div class='doc'><p>{PROSE} Install.</p>"
        "<div role='tablist'><button role='tab'>Python</button><button role='tab'>Go</button></div>"
        f"<div role='tabpanel'><p>{PROSE} Python steps.</p></div>"
        f"<div role='tabpanel' hidden><p>{PROSE} Go steps.</p></div>"
        f"<div hidden><p>{PROSE} A hidden menu.</p></div></div>"
    )
    content = _extract(html)
    assert "Python steps." in content.text and "Go steps." in content.text
    assert "hidden menu" not in content.text


def test_a_data_table_stays_with_its_article() -> None:
    # A ranking: two sentences, then a table of figures. Unlinked cells are data, not labels
    # that would tip the main block to the sentences alone.
    rows = "".join(
        f"<tr><td>{i}</td><td>School number {i}</td><td>{30 + i}%</td><td>$17{i},000</td></tr>"
        for i in range(1, 25)
    )
    html = _page(
        f"<div id='header'>{_nav()}</div><div class='entry'><p>{PROSE} Rankings.</p>"
        f"<p>{PROSE} Method.</p><table><tr><th>Rank</th><th>School</th><th>Share</th>"
        f"<th>Salary</th></tr>{rows}</table></div>"
    )
    content = _extract(html)
    assert "Rankings." in content.text and "School number 17" in content.text


def test_a_form_to_fill_in_is_not_text_but_a_form_around_posts_is() -> None:
    lead_form = (
        "<form class='gform'><label>First Name*</label><input type='text' name='a'>"
        "<label>Company*</label><input type='text' name='b'><label>Email*</label>"
        "<input type='email' name='c'><p>By submitting this form, you agree to our terms, and "
        "to receive our e-book and occasional e-mails.</p><button>Submit</button></form>"
    )
    html = _page(f"<div class='entry'><p>{PROSE} One.</p>{lead_form}<p>{PROSE} Two.</p></div>")
    content = _extract(html)
    assert "One." in content.text and "Two." in content.text
    assert "you agree" not in content.text and "First Name" not in content.text
    # A forum wraps its posts in a form (quote, moderate) with one reply box: much more text
    # than fields, so the form is content.
    posts = "".join(f"<div class='post'><p>{PROSE} Reply {i}.</p></div>" for i in range(8))
    html = _page(f"<form class='thread'>{posts}<textarea name='reply'></textarea></form>")
    assert "Reply 5." in _extract(html).text


def test_prose_outvotes_names_that_would_remove_most_of_it() -> None:
    # A product's description and details sit in two "aside" sheets: the names would leave a
    # price tag.
    html = _page(
        f"<div id='header'>{_nav()}</div><div class='product'><h1>Arrival T-Shirt</h1>"
        f"<span>$25</span><aside class='sheet-aside'><p>{PROSE} Slim fit.</p></aside>"
        f"<aside class='sheet-aside'><p>{PROSE} Light.</p></aside></div>"
        "<footer class='site-footer'><p>Sign up for our emails, and be the first to hear about "
        "new arrivals, offers and events.</p></footer>"
    )
    content = _extract(html)
    assert "Slim fit." in content.text
    assert "Sign up" not in content.text  # the site's chrome is never spared


def test_a_consent_banner_is_never_the_text() -> None:
    # Visible prose is the consent banner's alone: the page's own text is a short line.
    html = _page(
        "<div id='gdpr-banner'><p>We use cookies and other technologies that are essential to "
        "provide our services, and with your consent to personalise ads and measure use.</p>"
        "<p>You can change your choices at any time, in the privacy settings of this site.</p>"
        "</div><div class='item'><h1>Clutch kit</h1><p>This listing has ended.</p></div>"
    )
    assert "cookies" not in _extract(html).text


def test_a_list_page_with_light_records_gives_its_main_landmark() -> None:
    cards = "".join(
        f"<li class='tile'><a href='/p/{i}'>Boot {i} for trails, $1{i}9</a></li>"
        for i in range(24)
    )
    # The records are light beside the introduction's prose, which is not theirs.
    html = _page(
        f"<header>{_nav(20)}</header><main><h1>Hiking boots</h1>"
        "<div class='intro'><p>Boots for day hikes and long trails, from light shoes to "
        "mountain boots. Our experts tested each of them, on rock, mud and snow.</p></div>"
        f"<div class='grid'><ul>{cards}</ul></div></main><footer>{_nav(30)}</footer>"
    )
    content = _extract(html)
    assert content.page_type == "list"
    assert "Boot 17" in content.text and "Hiking boots" in content.text
    assert "Section 25" not in content.text


def test_comments_stay_comments_beside_a_short_story() -> None:
    comments = "".join(
        f"<li class='comment'><p>{PROSE} Comment {i}, and more words on it.</p></li>"
        for i in range(12)
    )
    html = _page(
        f"<div class='entry'><p>{PROSE} The open thread.</p></div>"
        f"<ol>{comments}</ol>"
    )
    text = _extract(html).text
    assert "The open thread." in text and "Comment" not in text



def test_a_footer_is_never_kept_for_its_prose() -> None:
    # A product page's own text is short lines; the footer's legal lines are long sentences.
    legal = "".join(
        f"<p>{name} and all its variants are trademarks of Example Corporation, registered or "
        "pending, and licensed to do business in every state.</p>"
        for name in ("EXAMPLE", "EXAMPLE HOMES", "WALK INDEX")
    )
    html = _page(
        "<div class='product'><h1>Ryzen 7 processor</h1><ul><li>Cores: 8</li><li>Clock: "
        "4.2 GHz</li><li>Socket: AM5</li></ul><p>Eight cores for games and work.</p></div>"
        f"<footer class='site-footer'>{legal}</footer>"
    )
    assert "trademarks" not in _extract(html).text


def _story(n: int) -> str:
    return "".join(f"<p>Paragraph {i}: {PROSE}</p>" for i in range(n))


def test_second_copy_of_the_story_is_read_once() -> None:
    # A responsive layout prints the story twice (one copy hidden by a style sheet).
    html = _page(f"<main><div class='desktop'>{_story(6)}</div>"
                 f"<div class='mobile'>{_story(6)}</div></main>")
    text = _extract(html).text
    assert text.count("Paragraph 3:") == 1
    assert text.count("Paragraph 5:") == 1


def test_a_paragraph_the_page_repeats_is_kept() -> None:
    # One note shown twice among many paragraphs is the page's own text, not a copy.
    note = f"<p>Note: {PROSE}</p>"
    html = _page(f"<main>{note}{_story(8)}{note}</main>")
    assert _extract(html).text.count("Note:") == 2


def test_reference_members_in_a_description_list_are_kept() -> None:
    # A reference page lists its members as linked terms, each with a short description,
    # under headings that link to their own anchors: none of it is a box of teasers.
    members = "".join(
        f"<dt><a href='/docs/Socket/m{i}'><code>Socket.member{i}</code></a></dt>"
        f"<dd><p>The value number {i} of the connection.</p></dd>" for i in range(5)
    )
    sections = "".join(
        f"<section><h2><a href='#part{j}'>Part number {j}</a></h2><p>{PROSE}</p><dl>{members}"
        "</dl></section>"
        for j in range(3)
    )
    html = _page(f"{_nav()}<main><p>{PROSE}</p>{sections}</main>")
    text = _extract(html).text
    assert "Socket.member3" in text
    assert "The value number 3 of the connection." in text
    assert "Part number 1" in text


def test_comment_bodies_are_comments_though_named_body() -> None:
    # "comments-body" is the body of the comments: "body" qualifies the comment.
    replies = [f"<div class='comments-body'><p>Reply {i}: I disagree. {PROSE}</p></div>"
               for i in range(3)]
    text = _extract(_page(f"<div class='blog'>{_story(3)}{''.join(replies)}</div>")).text
    assert "Paragraph 2:" in text
    assert "I disagree" not in text


def test_a_page_without_prose_gives_its_main_landmark() -> None:
    # An item page: specifications as short lines, one sentence of shipping terms. The
    # sentence alone is no answer; the author's <main> holds the item's details.
    html = _page(
        f"<header>{_nav()}</header><main><h1>Chain 520, 104 links</h1>"
        "<div class='ship'><p>International shipments may be subject to customs processing "
        "and additional charges.</p></div>"
        "<ul class='specs'><li>Brand: DID</li><li>Colour: Gold</li><li>Links: 104</li></ul>"
        "</main>"
        f"<footer>{_nav(20)}</footer>"
    )
    content = _extract(html)
    assert content.page_type == "other"
    assert "customs" in content.text and "Colour" in content.text and "104" in content.text
    assert "Section 3" not in content.text


def test_folded_panels_are_text_a_reader_opens() -> None:
    # An accordion's panels are hidden from assistive technology until opened; a shop's
    # buying guide sits in them, as a FAQ's answers sit in <details>.
    panels = "".join(
        f"<div class='accordion__item'><button aria-expanded='false'>Step {i}</button>"
        f"<div class='accordion__content' aria-hidden='true'><p>{PROSE} Step {i} of the "
        "guide, and why it matters when you choose.</p></div></div>"
        for i in range(3)
    )
    html = _page(
        f"<header>{_nav()}</header><main><h1>Camp stoves</h1><p>{PROSE}</p>{panels}"
        f"<details><summary>Which fuel?</summary><div aria-hidden='true'><p>{PROSE} Canisters "
        "burn clean, and liquid fuel works in the cold.</p></div></details></main>"
    )
    text = _extract(html).text
    for opened in ("Step 2 of the guide", "Canisters burn clean"):
        assert opened in text


def test_hidden_blocks_outside_folds_stay_hidden() -> None:
    html = _page(
        f"<main><p>{PROSE}</p><p>{PROSE} Again.</p>"
        "<div class='mobile-menu' aria-hidden='true'><p>Open the menu to browse every "
        "section of the site, and sign in to save your choices.</p></div></main>"
    )
    assert "Open the menu" not in _extract(html).text


def test_a_consent_banner_named_as_page_content_is_no_text() -> None:
    # "page-notice" would read as content ("page"): the consent words outweigh it.
    html = _page(
        "<section class='page-notice page-notice--information' id='gdpr-banner'>"
        "<p>We use cookies and other technologies that are essential to provide our "
        "services, and with your consent to personalise ads and measure use.</p>"
        "<p>You can change your choices at any time, in the privacy settings of this site.</p>"
        "</section><div class='item'><h1>Clutch kit</h1><p>This listing has ended.</p></div>"
    )
    assert "cookies" not in _extract(html).text


def test_a_panel_of_code_samples_is_kept_whatever_its_name() -> None:
    # An API reference puts each section's example beside it in an "...-Aside" panel.
    sample = "\n".join(f'  "field_{i}": "value number {i}",' for i in range(12))
    html = _page(f"{_nav()}<main><section><p>{PROSE}</p><p>{PROSE} More.</p>"
                 f"<div class='ApiSection-Aside'><pre><code>{{\n{sample}\n}}</code></pre></div>"
                 f"<p>{PROSE} Last.</p></section></main>")
    text = _extract(html).text
    assert '"field_7": "value number 7",' in text


def test_the_furniture_of_a_post_is_named_after_it() -> None:
    # "entry-footer" is the post's footer (an author's bio), "region-body-and-footer" a wrapper.
    bio = f"<footer class='entry-footer'><p>Albert, our editor: {PROSE}</p></footer>"
    html = _page(f"<div class='region-body-and-footer'><article>{_story(4)}{bio}</article></div>")
    text = _extract(html).text
    assert "Paragraph 3:" in text
    assert "Albert" not in text


def test_author_box_after_the_text_is_not_main_text() -> None:
    # An author box (photo, biography, links) tells who wrote the text; its prose is no part
    # of it, whatever plugin names it ("vcard author", "author-box").
    bio = ("Jane Doe has covered city politics for twenty years, and before that she taught "
           "history at a high school in Ohio. She lives with two cats.")
    html = _page(
        f"<div class='entry'><h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE} Again.</p>"
        f"<p>{PROSE} Third.</p>"
        f"<section class='vcard author box'><h4>About Jane</h4><p>{bio}</p></section></div>"
    )
    content = _extract(html)
    assert "Jane Doe" not in content.text
    assert content.text.endswith(f"{PROSE} Third.")


def test_a_linked_line_inside_the_text_with_words_of_its_own_stays() -> None:
    # "Flagship hotels: <a>, <a>" between paragraphs: mostly links, but a line of the text.
    line = ("<div>Flagship hotels of the group: <a href='/h/1'>The Grand Palace Hotel Bangkok</a>"
            " and <a href='/h/2'>The Riverside Resort Chiang Mai</a></div>")
    html = _page(f"<div class='entry'><p>{PROSE}</p>{line}<p>{PROSE} Last.</p></div>")
    assert "Flagship hotels of the group: The Grand Palace Hotel Bangkok" in _extract(html).text


def test_a_menu_inside_the_text_still_goes() -> None:
    menu = "".join(f"<li><a href='/s{i}'>Section number {i}</a></li>" for i in range(4))
    html = _page(f"<div class='entry'><p>{PROSE}</p><ul>{menu}</ul><p>{PROSE} Last.</p></div>")
    assert "Section number" not in _extract(html).text


def _cards(n: int, text: str = PROSE) -> str:
    return "".join(
        f"<div class='card'><h5><a href='/c{i}'>Chapter {i}: the part on topic {i}</a></h5>"
        f"<p>{text}</p></div>" for i in range(n)
    )


def test_cards_holding_much_of_the_block_prose_are_its_sections() -> None:
    # A guide's chapter cards, each a linked title and a summary, beside its introduction:
    # the block was chosen for them too.
    intro = "".join(f"<p>{PROSE} Part {i}.</p>" for i in range(4))
    html = _page(f"<div class='guide'>{intro}{_cards(4)}<p>{PROSE} End.</p></div>")
    text = _extract(html).text
    assert "Chapter 2: the part on topic 2" in text and text.count(PROSE) == 9


def test_a_small_box_of_cards_beside_a_long_story_goes() -> None:
    story = "".join(f"<p>{PROSE} Part {i}.</p>" for i in range(40))
    html = _page(f"<div class='story'>{story}{_cards(3)}</div>")
    assert "Chapter" not in _extract(html).text


def test_a_block_that_is_one_of_several_sections_of_main_gives_the_landmark() -> None:
    # A service page: its offer, its process and its cases, each a section of <main>; the
    # block chosen is one of them.
    def section(name: str, n: int, links: int = 0) -> str:
        paras = "".join(f"<p>{PROSE} {name} {i}.</p>" for i in range(n))
        cards = "".join(f"<li><a href='/{name}/{i}'>{name} story number {i}</a></li>"
                        for i in range(links))
        return f"<section><h2>{name}</h2><div><div>{paras}</div><ul>{cards}</ul></div></section>"
    html = _page(f"{_nav()}<main>{section('Offer', 5)}{section('Process', 2, 12)}"
                 f"{section('Cases', 2, 12)}</main>")
    text = _extract(html).text
    assert "Offer 4." in text and "Process 1." in text and "Cases 0." in text


def test_a_story_holding_most_of_main_stands() -> None:
    story = "".join(f"<p>{PROSE} Part {i}.</p>" for i in range(8))
    html = _page(f"<main><div class='story'>{story}</div>"
                 f"<div class='promo-box'><p>{PROSE} Boxed.</p></div></main>")
    assert "Boxed." not in _extract(html).text


def test_an_api_response_label_does_not_open_comments() -> None:
    # A reference page's "Response" heading over a sample: the page's text goes on.
    html = _page(f"<div class='doc'><p>{PROSE}</p><h4>Response</h4>"
                 f"<pre>{{\"id\": \"ch_1\", \"amount\": 1099}}</pre><p>{PROSE} After.</p></div>")
    assert f"{PROSE} After." in _extract(html).text


def test_counted_responses_still_open_comments() -> None:
    html = _page(f"<div class='doc'><p>{PROSE}</p><p>{PROSE} Two.</p><h4>2 Responses</h4>"
                 f"<div><p>{PROSE} A reader.</p></div></div>")
    assert "A reader." not in _extract(html).text


def test_cut_off_answers_as_the_ellipsis_pattern() -> None:
    # Every string of up to four of these pieces: the ellipsis, brackets, white space of
    # several kinds (the pattern's \s and str.rstrip strip the same), other text.
    import itertools

    from sitesift.methods.page.units import ELLIPSIS, cut_off

    parts = ["", "a", "...", "…", "..", " ", "\n", "\u00a0", "\u2003", "]", ")", "»", "(", "\x1c"]
    for k in range(1, 5):
        for combo in itertools.product(parts, repeat=k):
            text = "".join(combo)
            assert cut_off(text) == bool(ELLIPSIS.search(text)), repr(text)


def test_sections_sharing_a_boilerplate_name_are_the_story() -> None:
    # A long guide's sections are the targets of its table of contents, each named "toc_...":
    # together they hold the page's prose, so the word is its layout, not a box to drop.
    sections = "".join(
        f"<div id='toc_part-{i}'><h2>Part {i}</h2><p>{PROSE} Part {i} begins.</p>"
        f"<p>{PROSE} Part {i} ends.</p></div>" for i in range(4)
    )
    html = _page(f"{_nav()}<div class='guide'><p>{PROSE} Intro.</p>{sections}</div>"
                 "<div class='footer'><p>Copyright 2024, Example Corp.</p></div>")
    text = _extract(html).text
    assert all(f"Part {i} begins." in text and f"Part {i} ends." in text for i in range(4))


def test_one_long_box_with_a_boilerplate_name_stays_dropped() -> None:
    # One long box with a boilerplate name is a box, however long; the footer,
    # comments and overlays are never the page's sections however many there are.
    dialogs = "".join(
        f"<div class='modal'><p>{PROSE} Item {i} in detail.</p></div>" for i in range(4)
    )
    html = _page(f"<div class='story'><p>{PROSE} Story.</p><p>{PROSE} More story.</p></div>"
                 f"<div class='toc'><p>{PROSE} Contents.</p><p>{PROSE} And more.</p>"
                 f"<p>{PROSE} And again.</p></div>{dialogs}")
    text = _extract(html).text
    assert "Story." in text and "Contents." not in text and "in detail" not in text


def test_a_page_whose_only_text_sits_in_a_named_section_shows_that_text() -> None:
    # A shop's category page holds its grid in a "related-product" section: dropping it by
    # its name would leave the page empty.
    cards = "".join(
        f"<div class='item'><h3>Mower KR{i}</h3><p>Robotic lawn mower for {i} acres</p>"
        f"<span>$ {i},099.99</span></div>" for i in range(1, 9)
    )
    html = _page(f"{_nav()}<section class='related-product'>{cards}</section>"
                 "<div class='footer'><p>Copyright 2024, Example Corp.</p></div>")
    text = _extract(html).text
    assert "Mower KR1" in text and "Mower KR8" in text and "Copyright" not in text


def test_the_hidden_panel_of_an_accordion_item_is_text() -> None:
    # The accordion names its items, not their panels: each item holds a button and an
    # unnamed panel hidden until the button is pressed.
    items = "".join(
        f"<div class='guide-accordion'><button>Part {i}</button>"
        f"<div style='display:none'><p>{PROSE} Part {i} explained.</p>"
        f"<p>{PROSE} Part {i} done.</p></div></div>" for i in range(3)
    )
    html = _page(f"{_nav()}<div class='guide'><p>{PROSE} Intro.</p>"
                 + "".join(f"<p>{PROSE} Note {n}.</p>" for n in range(8)) + f"{items}</div>")
    text = _extract(html).text
    assert all(f"Part {i} explained." in text for i in range(3))
