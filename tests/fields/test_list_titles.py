from sitesift.fields.link_keys import page_keys
from sitesift.fields.list_titles import (
    Link,
    SiteTitles,
    learn_decoration,
    learn_site_titles,
    page_links,
    repeated_headings,
    repeated_titles,
    strip_decoration,
)
from sitesift.fields.titles import TitleCandidates
from sitesift.parse import parse_html

LIST = """<html><head><title>News - Example</title><base href="https://example.com/news/">
</head><body><ul>
<li><a href="a-1001.html">Harbour barrier closed for the first time this winter</a></li>
<li><a href="/p/3261053335240450">豆包斗元宝，开始拼社交</a></li>
<li><a href="#top">Back to the top of the page</a></li>
<li><a href="more.html">More</a></li>
<li><a href="a-1001.html#comments">Harbour barrier closed again</a></li>
</ul></body></html>"""


def test_page_links_resolves_against_base_and_keeps_title_like_anchors() -> None:
    links = page_links(parse_html(LIST), "https://other.org/index.html")
    assert links == [
        Link("https://example.com/news/a-1001.html",
             "Harbour barrier closed for the first time this winter"),
        Link("https://example.com/p/3261053335240450", "豆包斗元宝，开始拼社交"),
    ]
    assert links[0].to_dict() == {"url": links[0].url, "anchor": links[0].anchor}


def test_links_without_urls_find_their_page_by_the_id_in_the_path() -> None:
    links = page_links(parse_html(LIST.replace('<base href="https://example.com/news/">', "")))
    assert links[1].url == "/p/3261053335240450"
    site = learn_site_titles([("list-36kr", None, links)])
    assert site.external_titles(None, "detail-36kr_com_3261053335240450") == (
        "豆包斗元宝，开始拼社交",)
    # Short path segments ("news", "2024") are not ids.
    assert page_keys(None, "news_2024") == []


def test_decoration_shared_by_a_sites_titles_is_learned_and_cut() -> None:
    titles = ["豆包斗元宝，开始拼社交-36氪", "DeepSeek带飞寒武纪-36氪",
              "AI挤占人类音乐，如何反制？-36氪", "Another story"]
    prefixes, suffixes = learn_decoration(titles)
    assert (prefixes, suffixes) == ((), ("-36氪",))
    assert strip_decoration("DeepSeek带飞寒武纪-36氪", prefixes, suffixes) == "DeepSeek带飞寒武纪"
    # One page alone teaches nothing.
    assert learn_decoration(["Headline one | Site"]) == ((), ())


def test_titles_repeated_on_several_pages_name_the_site() -> None:
    assert repeated_titles(["National Hockey League", "National Hockey League", "A story"]) == (
        "National Hockey League",)
    site = SiteTitles(shared=("National Hockey League",))
    c = TitleCandidates(doc_title="National Hockey League",
                        headings=(("h3", "McDonald scores a pair as Blues rout Jackets"),))
    assert site.choose(c) == "McDonald scores a pair as Blues rout Jackets"


def test_a_title_two_copies_of_one_article_share_and_show_as_heading_is_kept() -> None:
    # The same story crawled twice: its <title> recurs, but each copy shows it as its h1,
    # so it is the headline, not the site's name.
    headline = "Read comments on mobile Web"
    copies = [TitleCandidates(doc_title=headline, headings=(
        ("h1", "Ask The Post"), (kind, headline), ("h2", "Engaging readers with our journalism")))
        for kind in ("h1", "headline")]
    site = learn_site_titles([(f"copy{i}", c, []) for i, c in enumerate(copies)])
    assert site.shared == ()
    assert [site.choose(c) for c in copies] == [headline] * 2
    # Without the heading, a <title> several pages share still names the site.
    named = [TitleCandidates(doc_title="Ask The Post", headings=(("h2", h),))
             for h in ("Engaging readers with our journalism", "Read comments on mobile Web")]
    assert learn_site_titles([(f"p{i}", c, []) for i, c in enumerate(named)]).shared == (
        "Ask The Post",)


def test_external_title_wins_over_a_decorated_title_paper_003() -> None:
    # <title> "Headline-Site" without a learned decoration (one page of the site): M is the
    # <title>; the anchor text linking to the page is the candidate most similar to it.
    c = TitleCandidates(doc_title="Harbour barrier closed for the first time this winter-Gazette")
    site = SiteTitles(external={"example.com/news/a-1001.html": (
        ("Harbour barrier closed for the first time this winter", "list"),
        ("Comments on this story and more", "list"))})
    assert site.choose(c, url="https://example.com/news/a-1001.html", page_id="a") == \
        "Harbour barrier closed for the first time this winter"
    # A page's links to itself are not external titles.
    assert site.external_titles("https://example.com/news/a-1001.html", "list") == ()


def test_unrelated_anchor_does_not_replace_the_page_title() -> None:
    c = TitleCandidates(doc_title="Harbour barrier closed | Gazette",
                        headings=(("h1", "Harbour barrier closed"),))
    site = SiteTitles(external={"id:a1001x": (("I tried it for weeks and saw nothing", "x"),)})
    assert site.choose(c, page_id="a1001x") == "Harbour barrier closed"


def test_malformed_links_are_kept_as_written_not_raised() -> None:
    # urllib raises ValueError on brackets that hold no IP address ("https://[x]/").
    html = ('<html><body><a href="https://[ccpa-preferences]/x">Read the privacy choices '
            'of this site here</a></body></html>')
    for url in ("https://example.com/a", "https://[ccpa-preferences]/", None):
        links = page_links(parse_html(html), url)
        assert [link.url for link in links] == ["https://[ccpa-preferences]/x"]
    assert page_keys("https://[bad]/p/3261053335240450", None) == ["id:3261053335240450"]


def test_headings_several_pages_print_are_template_not_headlines() -> None:
    assert repeated_headings([["Bookmark with:", "Police DNA review"],
                              ["Bookmark with:", "Fire theory"]]) == ("Bookmark with:",)
    site = SiteTitles(template_headings=("Bookmark with:",))
    c = TitleCandidates(doc_title=None, headings=(("h3", "Bookmark with:"),))
    assert site.choose(c) != "Bookmark with:"
    # A page's own headline stays a candidate even when another page prints it as a heading.
    site = SiteTitles(template_headings=("Fire theory devastates family",))
    c = TitleCandidates(doc_title="BBC NEWS | Fire theory devastates family",
                        headings=(("h1", "Fire theory devastates family"),))
    assert site.choose(c) == "Fire theory devastates family"


def test_the_page_title_stands_unless_the_site_shows_it_to_be_the_sites() -> None:
    # The page rules take the declared title over an h1 that words the offer ("Pre-order");
    # the site's learned " - Apple" makes <title> equal to the declared title, which must not
    # turn the page's answer around (modern-dev 0650-like).
    site = SiteTitles(suffixes=("- Apple",))
    c = TitleCandidates(doc_title="Buy MacBook Air - Apple", declared_titles=("Buy MacBook Air",),
                        headings=(("h1", "Pre-order MacBook Air"),
                                  ("h2", "Frequently Asked Questions")))
    assert site.choose(c) == "Buy MacBook Air"
    # The site's name is the site's, however the page rules came to it.
    site = SiteTitles(suffixes=("| Hacker News",))
    c = TitleCandidates(doc_title="New Links | Hacker News")
    assert site.choose(c) == "New Links"


def test_a_template_heading_the_pages_declared_title_names_is_its_headline() -> None:
    # A shop's other page lists the product: its h1 recurs, but the page's og:title names it.
    site = SiteTitles(prefixes=("JOCO Cups |",), suffixes=("| JOCO Cups",),
                      template_headings=("Joco Cup 4oz", "Cart"))
    c = TitleCandidates(doc_title="JOCO Cups | Glass Reusable Coffee Cups Joco Cup 4oz | JOCO Cups",
                        declared_titles=("Joco Cup 4oz | JOCO Cups",),
                        headings=(("h3", "Cart"), ("h1", "Joco Cup 4oz"),
                                  ("h2", "4oz Joco Cup Sleeve")))
    assert site.choose(c) == "Joco Cup 4oz"


def test_an_anchor_in_other_words_does_not_replace_the_printed_headline() -> None:
    # The site's links use the <title> wording; the page prints another headline as its h1.
    c = TitleCandidates(doc_title="BBC News - Japan's Nikkei tops 13,000 for first time since 2008",
                        headings=(("h1", "Nikkei hits highest level since 2008"),
                                  ("h2", "Related Stories")))
    site = SiteTitles(prefixes=("BBC News -",), external={"id:21711111": (
        ("Japan's Nikkei tops 13,000 for first time since 2008", "index"),)})
    assert site.choose(c, page_id="news-21711111") == "Nikkei hits highest level since 2008"


def test_copies_of_one_article_teach_no_decoration_and_name_no_site() -> None:
    # One story crawled twice, once under its section: its headline is no shared prefix, and
    # the <title> both copies share is theirs, not the site's name.
    headline = "故宫，你低调点！故宫：不，实力已不允许我继续低调"
    copies = [TitleCandidates(doc_title=headline + tail, declared_titles=(headline,),
                              headings=(("h1", headline), ("h3", "为您推荐")))
              for tail in ("_凤凰网资讯_凤凰网", "_凤凰网")]
    other = TitleCandidates(doc_title="另一篇报道的标题在这里_凤凰网",
                            headings=(("h3", "为您推荐"),))
    site = learn_site_titles([(f"p{i}", c, []) for i, c in enumerate([*copies, other])])
    assert site.prefixes == ()
    assert [site.choose(c) for c in copies] == [headline] * 2
    story = "定了！广州南沙邮轮母港即将开通！地铁直达+无敌免..."
    copies = [TitleCandidates(doc_title=story + "_政务_澎湃新闻-The Paper",
                              headings=(("h1", story), ("h2", f"评论（{n}）"), ("h3", "热新闻")))
              for n in (0, 1)]
    site = learn_site_titles([(f"c{i}", c, []) for i, c in enumerate(copies)])
    assert site.shared == ()
    assert [site.choose(c) for c in copies] == [story] * 2


def test_a_part_of_a_shared_title_is_the_sites_and_the_page_keeps_its_candidates() -> None:
    # "Site for ... - Section" shared by several pages: its part before the separator is the
    # site's name, never the headline; a page whose own title stands keeps its candidates
    # for the later title rules (they read the site's name in <title>).
    shared = "Summit Daily News for Breckenridge and Frisco Colorado - Arts and Entertainment"
    site = SiteTitles(shared=(shared,), prefixes=("Gazette -",))
    c = TitleCandidates(doc_title=shared)
    assert site.names_site("Summit Daily News for Breckenridge and Frisco Colorado", c)
    assert site.read(c)[1] != c
    own = TitleCandidates(doc_title="Gazette - Harbour barrier closed for the winter",
                          headings=(("h1", "Harbour barrier closed for the winter"),))
    assert site.read(own) == ("Harbour barrier closed for the winter", own)


def test_the_printed_h1_the_sites_title_gives_wins_over_a_declared_title_in_other_words() -> None:
    # "BBC News - {headline}" on every page: the <title> without the learned prefix is the h1
    # word for word; og:title words the story for sharing and is printed nowhere but in a
    # most-read list ("line"). The reader sees the h1 (cleanportal's gold body starts with it).
    site = SiteTitles(prefixes=("BBC News -",), template_headings=("Related Stories",))
    headline = "Insight selling: How retailers sell to us by stealth"
    c = TitleCandidates(doc_title="BBC News - " + headline,
                        declared_titles=("How savvy retailers sell by stealth",),
                        headings=(("h2", "Related Stories"), ("h1", headline),
                                  ("line", "How savvy retailers sell by stealth")))
    assert site.choose(c) == headline
    # Unchanged: a page the site's <title> holds no headline of (no learned decoration), a
    # title the page prints as a heading (the story under a section h1 that <title> names),
    # and an h1 the site's template prints on several pages.
    assert SiteTitles().choose(c) == "How savvy retailers sell by stealth"
    section = TitleCandidates(doc_title="wjz.com - Local Sports Wire",
                              headings=(("h1", "Local Sports Wire"),
                                        ("h2", "Hockey finally returns the love to O'Ree")))
    assert SiteTitles(prefixes=("wjz.com -",)).choose(section) == \
        "Hockey finally returns the love to O'Ree"
    site = SiteTitles(prefixes=("BBC News -",), template_headings=(headline,))
    assert site.choose(c) == "How savvy retailers sell by stealth"


def _shop_page(title: str, h1: str) -> TitleCandidates:
    return TitleCandidates(doc_title=f"{title} - Trail Outfitters", declared_titles=(title,),
                           headings=(("h2", "Sign up for our emails"), ("h1", h1)))


def test_a_site_whose_pages_print_their_headline_as_the_h1_gives_the_odd_page_its_h1() -> None:
    # Every other page of the shop prints as its h1 what its og:title and <title> say: the
    # template puts the headline in the h1. The odd page's titles word its product at more
    # length ("Trail Lamp 300 and Trail Lamp 500"), which the page rules take as written:
    # its h1 "Trail Lamp 300" is the headline too (modern-dev 3061: "MacBook Air" under
    # "MacBook Air 13-inch and MacBook Air 15-inch - Apple").
    others = [_shop_page("Kayaks", "Kayaks"), _shop_page("Sleeping Bags", "Sleeping Bags"),
              _shop_page("Hiking Boots", "Hiking Boots"), _shop_page("Camp Stoves", "Camp Stoves")]
    odd = _shop_page("Trail Lamp 300 and Trail Lamp 500", "Trail Lamp 300")
    site = learn_site_titles([(str(i), c, []) for i, c in enumerate([*others, odd])])
    assert site.choose(odd) == "Trail Lamp 300"
    # Fewer than MIN_H1_VOTES other pages: no evidence of the template; the page's own title.
    few = learn_site_titles([(str(i), c, []) for i, c in enumerate([*others[:2], odd])])
    assert few.choose(odd) == "Trail Lamp 300 and Trail Lamp 500"
    # An h1 in other words is an offer (modern-dev 0650: "Pre-order MacBook Air" under "Buy
    # MacBook Air - Apple"), and a one-word h1 may be a section's name: the own title stays.
    for h1 in ("Pre-order Trail Lamp 300", "Lamps"):
        page = _shop_page("Trail Lamp 300 and Trail Lamp 500", h1)
        site = learn_site_titles([(str(i), c, []) for i, c in enumerate([*others, page])])
        assert site.choose(page) == "Trail Lamp 300 and Trail Lamp 500"


def test_a_site_whose_h1s_print_no_title_keeps_each_pages_own_title() -> None:
    # The site's h1s word each page otherwise (slogans): no vote for the h1.
    pages = [_shop_page(t, h) for t, h in (("Kayaks", "Paddle further"),
                                           ("Sleeping Bags", "Sleep warmer"),
                                           ("Hiking Boots", "Walk lighter"),
                                           ("Trail Lamp 300 and Trail Lamp 500",
                                            "Trail Lamp 300"))]
    site = learn_site_titles([(str(i), c, []) for i, c in enumerate(pages)])
    assert site.choose(pages[3]) == "Trail Lamp 300 and Trail Lamp 500"


def _menu_site() -> list:
    from sitesift.record import Page

    names = ["Introduction", "Applications", "Configuration", "Testing", "Routing"]
    menu = "".join(f"<li><a href='/{n.lower()}/'>{n}</a></li>" for n in names)
    prose = ("<p>The application reads its settings from the environment first and from the "
             "configuration file after that, so that a deployment can override them.</p>") * 6
    bodies = {
        "Introduction": "<h1>Introduction</h1>", "Routing": "<h1>Routing</h1>",
        "Applications": "<h1>Applications</h1>",
        # MkDocs renders no h1 for a page whose Markdown has none: its sections' headings
        "Configuration": "<h2>Configuration precedence</h2>",
        # a section heading under the h1 that reads like <title> too
        "Testing": "<h1>Testing</h1><h2>Testing input</h2>",
    }
    return [Page(id=n, url=f"http://docs.test/{n.lower()}/", site="docs.test",
                 html=(f"<html><head><title>{n} - Docs</title></head><body><nav><ul>{menu}"
                       f"</ul></nav><div role='main'>{bodies[n]}{prose}</div></body></html>"))
            for n in names]


def test_the_site_s_menu_and_title_name_a_page_without_an_h1() -> None:
    from sitesift import Options
    from sitesift.pipeline import Extractor

    records = list(Extractor(Options(method="auto")).extract_many(_menu_site()))
    assert [r.title for r in records] == ["Introduction", "Applications", "Configuration",
                                          "Testing", "Routing"]
