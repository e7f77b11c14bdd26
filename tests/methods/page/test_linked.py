"""Linked teasers make a list even when their summaries add up to an article's prose
(small pages written for these tests)."""

from __future__ import annotations

from sitesift.methods.page.content import extract_content
from sitesift.parse import parse_html

SUMMARY = ("The council met on Tuesday and approved the budget for next year, with money "
           "for the harbour and the schools.")
ENTRY = ("This mover packs every room for you, brings its own boxes and blankets, and quotes "
         "a fixed price after a video call; customers praise the crews for their care with "
         "pianos and antiques, although weekend slots fill weeks ahead. ") * 3


def _type(body: str) -> str | None:
    return extract_content(parse_html(f"<html><body>{body}</body></html>")).page_type


def test_linked_teasers_are_a_list_despite_their_prose() -> None:
    cards = "".join(
        f"<div class='card'><h3><a href='/2024/05/story-{i}'>Harbour story number {i} of the "
        f"day</a></h3><p>{SUMMARY}</p><span>May {i + 1}</span></div>" for i in range(8))
    assert _type(f"<main><h1>News</h1><div class='stream'>{cards}</div></main>") == "list"


def test_a_listicle_of_long_entries_stays_detail() -> None:
    # Each entry links its subject's own site (URLs of every kind) and holds long prose.
    entries = "".join(
        f"<div class='entry'><h2><a href='https://mover{i}.example/{'x/' * i}'>Mover number "
        f"{i} of the city</a></h2><p>{ENTRY}</p></div>" for i in range(6))
    assert _type(f"<article><h1>Best movers</h1>{entries}</article>") == "detail"


def test_same_shaped_links_with_long_entries_stay_detail() -> None:
    # Even linking pages of one kind, entries of several hundred prose characters are an
    # article's sections, not teasers.
    entries = "".join(
        f"<div class='entry'><h2><a href='/movers/{i}'>Mover number {i} of the city</a></h2>"
        f"<p>{ENTRY}</p></div>" for i in range(6))
    assert _type(f"<article><h1>Best movers</h1>{entries}</article>") == "detail"


def test_a_priced_grid_beside_a_category_text_is_a_list() -> None:
    intro = f"<div class='about'><p>{SUMMARY * 5}</p></div>"
    cards = "".join(
        f"<div class='tile'><a href='/products/wallet-{i}'>Slim leather wallet model {i}</a>"
        f"<span class='price'>${20 + i}.00</span></div>" for i in range(12))
    assert _type(f"<div class='grid'>{cards}</div>{intro}") == "list"
    # The same grid without prices beside the text: a box of links beside a story.
    plain = cards.replace("<span class='price'>", "<span>").replace("$", "No. ")
    assert _type(f"<div class='grid'>{plain}</div>{intro}") == "detail"


def _post(i: int, title: str) -> str:
    return (f"<article class='post-{i} entry'>{title}<div class='meta'><span>alice</span> "
            f"<time>2024-05-{i + 1:02d}</time></div><div class='content'><p>{ENTRY}</p>"
            f"<p>{SUMMARY}</p></div></article>")


def _blog_type(posts: str) -> str | None:
    html = f"<html><body><header><h1>Harbour notes</h1></header><main>{posts}</main></body></html>"
    return extract_content(parse_html(html), url="https://blog.example/").page_type


def test_a_page_of_whole_posts_under_linked_titles_is_a_list() -> None:
    linked = "".join(_post(i, f"<h2><a href='/2024/05/post-{i}/'>Harbour walk number {i} of "
                              f"the spring</a></h2>") for i in range(3))
    assert _blog_type(linked) == "list"
    # The same posts under titles that link nowhere are sections of one long article...
    plain = "".join(_post(i, f"<h2>Harbour walk number {i} of the spring</h2>")
                    for i in range(3))
    assert _blog_type(plain) == "detail"
    # ...and under links to anchors of the page (permalinks) or posters' names, no list.
    anchors = "".join(_post(i, f"<h2><a href='/2024/05/walks/#p{i}'>Harbour walk number {i} "
                               f"of the spring</a></h2>") for i in range(3))
    assert _blog_type(anchors) != "list"
    names = "".join(_post(i, f"<h4><a href='/members/user-{i}/'>user{i}</a></h4>")
                    for i in range(3))
    assert _blog_type(names) != "list"


def test_one_linked_post_or_a_story_with_related_titles_is_no_list() -> None:
    one = _post(0, "<h2><a href='/2024/05/post-0/'>Harbour walk number 0 of the spring</a></h2>")
    assert _blog_type(one) == "detail"
    related = "".join(f"<li><h3><a href='/2024/05/post-{i}/'>Harbour walk number {i} of the "
                      f"spring</a></h3></li>" for i in range(4))
    story = f"<article><h1>The harbour</h1><p>{ENTRY * 3}</p></article><ul>{related}</ul>"
    assert _blog_type(story) == "detail"


def _catalogue(cards: int) -> str:
    intro = f"<div class='intro'><h1>Certificates</h1><p>{SUMMARY * 5}</p></div>"
    grid = "".join(
        f"<div class='item'><a href='/catalog/certificate-{i}'>Professional certificate in "
        f"harbour studies, part {i}</a><span>Online, six weeks</span></div>"
        for i in range(cards))
    return f"{intro}<div class='grid'><div class='row'>{grid}</div></div>"


def test_linked_teasers_holding_most_of_the_page_are_a_list_beside_an_intro() -> None:
    # The container chosen is the introduction's paragraph (an article's worth of prose); the
    # catalogue beside it holds three quarters of the page: it is the page.
    assert _type(_catalogue(24)) == "list"
    # A few such teasers beside the same paragraph are a box of related links.
    assert _type(_catalogue(5)) == "detail"


def _tiles(n: int, price: bool = True) -> str:
    return "".join(
        f"<div class='tile'><a href='/products/wallet-{i}'>Wallet {i}</a>"
        f"<span>{'$' if price else 'No. '}{20 + i}.00</span></div>" for i in range(n))


def test_a_shop_grid_is_a_list_whatever_text_surrounds_it() -> None:
    faq = "".join(f"<div class='faq'><h3>Question {i}?</h3><p>{ENTRY}</p></div>"
                  for i in range(4))
    page = f"<div class='products'>{{}}</div><div class='seo'><p>{ENTRY * 2}</p>{faq}</div>"
    assert _type(page.format(_tiles(24))) == "list"
    # Without prices, or with too few cards (a product page's carousel), the text wins.
    assert _type(page.format(_tiles(24, price=False))) == "detail"
    assert _type(page.format(_tiles(8))) == "detail"


def test_priced_products_between_an_articles_paragraphs_are_no_grid() -> None:
    # A review of tools: each priced product under its heading and paragraph.
    parts = "".join(f"<h3>Tool {i}</h3><p>{SUMMARY}</p><ul><li><a href='/go/tool-{i}'>Buy tool "
                    f"{i}</a> $ {30 + i}</li></ul>" for i in range(24))
    assert _type(f"<article><h1>Best tools</h1>{parts}</article>") == "detail"


def test_linked_teasers_of_two_short_paragraphs_are_a_list() -> None:
    # Episodes of a podcast: a linked title, a summary in two short paragraphs, a date. The
    # summaries add up to an article's prose, but each is a teaser's.
    episodes = "".join(
        f"<li class='episode'><a href='/shows/weekly/ep/{i}'><strong>Episode {i}: the best "
        f"things of the week</strong></a><div class='summary'><p>{SUMMARY}</p><p>{SUMMARY}</p>"
        f"</div>"
        f"<span>Dec {i + 1}, 2025</span></li>" for i in range(10))
    assert _type(f"<main><h1>Weekly</h1><ul class='episodes'>{episodes}</ul></main>") == "list"
    # Sections of an article under linked headings hold far more prose each: no list.
    sections = "".join(
        f"<div class='part'><h2><a href='/guide/part-{i}'>Part {i} of the harbour guide</a>"
        f"</h2><p>{ENTRY}</p><p>{ENTRY}</p></div>" for i in range(6))
    assert _type(f"<article><h1>Guide</h1>{sections}</article>") == "detail"


def test_a_story_in_a_row_among_headline_rows_is_no_list() -> None:
    # An old portal's table: the story in one row, its site's other headlines in the rows
    # below, each row linking its title. The rows hold most of the page, but one of them holds
    # nearly all the prose: a story, not a teaser.
    story = ("<tr><td><a href='/news.asp?id=1'>House prices fell sharply at the end of the "
             f"year</a><p>{ENTRY}</p><p>{ENTRY}</p><p>{SUMMARY}</p></td></tr>")
    rows = "".join(f"<tr><td><a href='/news.asp?id={i}'>Another headline of the portal, number "
                   f"{i}</a><span>May {i}</span></td></tr>" for i in range(2, 12))
    assert _type(f"<table class='news'>{story}{rows}</table>") == "detail"


FLASH = ("The port authority said on Wednesday that container traffic rose by a tenth in the "
         "spring, led by shipments of machinery and cars to the north. ") * 2


def _front_page(feed: str) -> str:
    """A front page: link lists of headlines in sections, and a box of news flashes."""
    sections = "".join(
        f"<div class='section'><div class='head'>Section {s}<a href='/s{s}/'>More</a></div><ul>"
        + "".join(f"<li><a href='/2025/04/{s}-{i}.html'>Headline number {i} of section {s} "
                  f"today</a><span>04-23</span></li>" for i in range(14)) + "</ul></div>"
        for s in range(3))
    return (f"<div class='page'>{sections}<div class='box'><div class='head'>Live</div>"
            f"<div class='feed'>{feed}</div></div></div>")


def test_a_box_of_timed_news_flashes_on_a_front_page_is_no_article() -> None:
    flashes = "".join(f"<div class='flash'><div class='time'>08:{50 - i}:00</div>"
                      f"<div class='text'>{FLASH}</div></div>" for i in range(6))
    assert _type(_front_page(flashes)) == "list"


def test_the_same_box_without_times_stays_detail() -> None:
    # Untimed paragraphs in a box are the page's article however many link lists surround it.
    flashes = "".join(f"<div class='flash'><div class='text'>{FLASH}</div></div>"
                      for _ in range(6))
    assert _type(_front_page(flashes)) == "detail"


def test_a_live_blog_of_timed_entries_stays_detail() -> None:
    # Timed entries that make up the page are its article: a live blog.
    entries = "".join(f"<div class='flash'><div class='time'>08:{50 - i}:00</div>"
                      f"<div class='text'>{FLASH}</div></div>" for i in range(6))
    nav = "".join(f"<li><a href='/s{i}/'>Section {i}</a></li>" for i in range(5))
    assert _type(f"<ul class='nav'>{nav}</ul><article><h1>Port news, live</h1>"
                 f"<div class='feed'>{entries}</div></article>") == "detail"


def _digest(days: int, text: str, close: bool) -> str:
    """A digest of briefs under day labels, each brief's headline linking its source (URLs
    of every shape); ``close`` False leaves each day's list open, so the next day's list
    nests in it."""
    out = []
    for d in range(days):
        briefs = "".join(
            f"<div class='item'><h2><a href='https://source{d}{i}.example/{'p/' * i}{d}'>"
            f"Brief number {i} of day {d}: a company ships a model</a></h2><p>{text}</p></div>"
            for i in range(4))
        out.append(f"<div class='day-list'><div class='day'>April {d + 1}</div>{briefs}"
                   + ("</div>" if close else ""))
    return "".join(out) + ("" if close else "</div>" * days)


def test_a_digest_of_dated_briefs_is_a_list_even_nested_by_unclosed_divs() -> None:
    assert _type(f"<main><h1>Daily news</h1>{_digest(6, SUMMARY * 2, close=True)}</main>") \
        == "list"
    assert _type(f"<main><h1>Daily news</h1>{_digest(6, SUMMARY * 2, close=False)}</main>") \
        == "list"


def test_a_digest_whose_entries_are_long_stays_detail() -> None:
    # Entries of an article's length under dates are a diary's or a changelog's sections.
    assert _type(f"<main><h1>Diary</h1>{_digest(6, ENTRY * 2, close=True)}</main>") == "detail"


def _cards(cut: str) -> str:
    """Unlinked cards (a script links them), each a title, a summary and a time, beside a
    column of an article's worth of prose."""
    cards = "".join(
        f"<div class='card'><div class='title'>Story number {i} about the harbour</div>"
        f"<div class='summary'>{SUMMARY} {SUMMARY}{cut}</div><div class='when'>{i} hours ago"
        f"</div></div>" for i in range(10))
    side = f"<div class='side'><p>{SUMMARY * 3}</p><p>{SUMMARY * 3}</p></div>"
    return f"<div class='stories'>{cards}</div>{side}"


def test_unlinked_teasers_cut_short_are_a_list() -> None:
    assert _type(_cards("...")) == "list"
    assert _type(_cards("…")) == "list"


def test_the_same_cards_with_whole_summaries_are_no_list() -> None:
    assert _type(_cards("")) != "list"


def test_post_titles_asked_for_some_targets_keep_the_groups_linking_them() -> None:
    """``targets`` leaves out the groups linking no page it accepts, and changes nothing of
    the others (each group's share of the page is its own)."""
    from sitesift.methods.page.whole_posts import post_titles

    posts = "".join(_post(i, f"<h2><a href='/2024/05/post-{i}/'>Harbour walk number {i} of "
                             f"the spring</a></h2>") for i in range(3))
    tags = "".join(f"<h4><a href='/tag/walk-{i}/'>A tag page about the harbour walks {i}</a>"
                   f"</h4>" for i in range(3))
    html = f"<html><body><main>{posts}</main><aside>{tags}</aside></body></html>"
    url = "https://blog.example/"
    every = post_titles(parse_html(html), url)
    assert len(every) >= 1
    wanted = post_titles(parse_html(html), url, targets=lambda target: "/post-1/" in target)
    assert wanted == [group for group in every
                      if any("/post-1/" in target for _, target in group)]
    assert post_titles(parse_html(html), url, targets=lambda target: False) == []
