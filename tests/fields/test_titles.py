"""Headline choice: declared titles, headings similar to <title>, site-name stripping."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sitesift.fields.metadata import extract_metadata
from sitesift.fields.title_text import slug_words, strip_site_name
from sitesift.fields.titles import TitleCandidates, choose_title, title_agrees
from sitesift.parse import parse_html


@pytest.mark.parametrize(
    ("title", "sites", "expected"),
    [
        ("Headline of the day | Example News", ["Example News"], "Headline of the day"),
        ("Example News - Headline of the day", ["Example News"], "Headline of the day"),
        ("四年前中500万现穷困潦倒_新浪网", ["新浪网"], "四年前中500万现穷困潦倒"),
        # A host name before the headline needs no separator; a plain name does.
        ("davidbau.com Vibe Coding", ["davidbau.com"], "Vibe Coding"),
        ("wnyt.com - Alien vs. Predator is a true horror", ["wnyt.com"],
         "Alien vs. Predator is a true horror"),
        ("Apple Unveils the New Phone", ["Apple"], "Apple Unveils the New Phone"),
        ("Harsh outposts raise challenges - CNN.com", [], "Harsh outposts raise challenges"),
        ("Forbes.com: AMD More Fleet-Footed Than Intel", [], "AMD More Fleet-Footed Than Intel"),
        # A short remainder is more likely a cut headline: keep the whole title.
        ("Site | Short", ["Site"], "Site | Short"),
        ("No decoration at all", ["Example"], "No decoration at all"),
    ],
)
def test_strip_site_name(title: str, sites: list[str], expected: str) -> None:
    assert strip_site_name(title, sites) == expected


def test_heading_most_similar_to_title_wins() -> None:
    c = TitleCandidates(
        doc_title="Obama addresses economy on filing day - CNN.com",
        headings=(("h1", "CNN"), ("h2", "Most popular"),
                  ("h1", "Obama addresses economy on filing day"), ("h3", "Related")),
    )
    assert choose_title(c) == "Obama addresses economy on filing day"


def test_declared_title_taken_as_written_when_the_page_shows_it() -> None:
    c = TitleCandidates(
        doc_title="Why Neon Matters - CityLab",
        declared_titles=("Why Neon Matters Today | CityLab",),
        headings=(("h1", "Why Neon Matters"),),
    )
    assert choose_title(c) == "Why Neon Matters Today | CityLab"
    # A declared title that nothing on the page resembles is a section or campaign name.
    c = TitleCandidates(
        doc_title="Obama pledges help in war on drug lords - Los Angeles Times",
        declared_titles=("Mexico Drug War",),
        headings=(("h1", "Obama pledges help in war on drug lords"),),
    )
    assert choose_title(c) == "Obama pledges help in war on drug lords"


def test_generic_title_loses_to_a_headline_element() -> None:
    c = TitleCandidates(
        doc_title="New York Post Online Edition: Breaking News",
        headings=(("headline", "Suicide Bomber Injures 4 Near Abu Ghraib"),),
    )
    assert choose_title(c) == "Suicide Bomber Injures 4 Near Abu Ghraib"


def test_decoration_inside_a_heading_is_dropped() -> None:
    c = TitleCandidates(
        doc_title="Jeremy Clarkson ripped off - Digital Lifestyle - Macworld UK",
        headings=(("h1", "Wednesday, 09 January 2008 Jeremy Clarkson ripped off"),),
    )
    assert choose_title(c) == "Jeremy Clarkson ripped off"


def test_nothing_to_name() -> None:
    assert choose_title(TitleCandidates()) is None


def _title(html: str, url: str | None = None) -> str | None:
    return extract_metadata(parse_html(html), url=url).title


def test_title_from_a_whole_page() -> None:
    html = """<html><head><title>宇航员在太空中喝酒会怎么样_探索者_光明网</title>
    <meta property="og:site_name" content="光明网"></head><body>
    <div class="logo"><h1>光明网</h1></div>
    <div class="nav"><h2>科技</h2></div>
    <h1>宇航员在太空中喝酒会怎么样</h1><p>正文。</p></body></html>"""
    assert _title(html) == "宇航员在太空中喝酒会怎么样"


def test_jsonld_headline() -> None:
    html = """<html><head><title>Ignored | Site</title><script type="application/ld+json">
    {"@graph": [{"@type": "WebSite", "name": "Site"},
                {"@type": "NewsArticle", "headline": "Ignored, rewritten for search"}]}
    </script></head><body><h1>Ignored</h1></body></html>"""
    assert _title(html) == "Ignored, rewritten for search"


def test_unclosed_title_tag_does_not_swallow_the_page() -> None:
    html = ("<html><head><title>Real headline</head><body><script>var x = 1;</script>"
            "<p>Body text</p></body></html>")
    title = _title(html)
    assert title is not None and title.startswith("Real headline") and "var x" not in title


def test_printed_h1_wins_over_declared_titles_copying_the_document_title() -> None:
    # og:title copying <title> is SEO wording: the h1 like it is the headline the reader sees.
    c = TitleCandidates(
        doc_title="Health And Nutrition Trends For 2026 - Tastewise",
        declared_titles=("Health And Nutrition Trends For 2026 - Tastewise",),
        headings=(("h1", "Top 10 Health and Nutrition Trends to Watch"), ("h2", "Key takeaways")),
    )
    assert choose_title(c) == "Top 10 Health and Nutrition Trends to Watch"
    # A declared title of its own is the publisher's headline and stays.
    c = TitleCandidates(doc_title="Other words - Site", declared_titles=c.declared_titles,
                        headings=c.headings, site_names=("Site", "Tastewise"))
    assert choose_title(c) == "Health And Nutrition Trends For 2026 - Tastewise"


def test_character_references_escaped_twice_are_decoded() -> None:
    page = ('<html><head><title>Rates &amp;amp; Jobs - Site</title>'
            '<meta property="og:title" content="Rates &amp;#038; Jobs"></head>'
            '<body><p>text</p></body></html>')
    meta = extract_metadata(parse_html(page))
    assert meta.title_candidates is not None
    assert meta.title_candidates.doc_title == "Rates & Jobs - Site"
    assert meta.title == "Rates & Jobs"


def test_short_h1_that_the_title_starts_with_is_the_headline() -> None:
    # "Kayaks | REI Co-op": the title prints the h1, then decorates it.
    c = TitleCandidates(doc_title="Flexbox - Learn web development | MDN",
                        declared_titles=("Flexbox - Learn web development | MDN",),
                        headings=(("h1", "Flexbox"), ("h2", "Why flexbox?")))
    assert choose_title(c) == "Flexbox"
    # An h1 that only starts a word of the title is no headline.
    c = TitleCandidates(doc_title="Flexboxes and grids compared",
                        declared_titles=("Flexboxes and grids compared",),
                        headings=(("h1", "Flexbox"),))
    assert choose_title(c) == "Flexboxes and grids compared"


@pytest.mark.parametrize(
    ("declared", "h1", "expected"),
    [
        ("Machine learning, explained | MIT Sloan", "Machine learning, explained",
         "Machine learning, explained"),
        ("Garnix Blog: Hardware-Attested Nix Builds", "Hardware-Attested Nix Builds",
         "Hardware-Attested Nix Builds"),
        ("REI Co-op Trail 25 Pack | REI Co-op", "REI Co-op Trail 25 Pack",
         "REI Co-op Trail 25 Pack"),
        # A logo h1 decorates nothing.
        ("CNN | Obama addresses economy", "CNN", "CNN | Obama addresses economy"),
        # A product's variant, or a page's place in a book, is more than a name decorating it.
        ("Men's Wool Runner - Natural Grey (Light Grey Sole)", "Men's Wool Runner",
         "Men's Wool Runner - Natural Grey (Light Grey Sole)"),
        ("Plan and intended audience | Introduction to Quantum Information Science",
         "Introduction to Quantum Information Science",
         "Plan and intended audience | Introduction to Quantum Information Science"),
    ],
)
def test_declared_title_decorating_the_h1(declared: str, h1: str, expected: str) -> None:
    c = TitleCandidates(doc_title="", declared_titles=(declared, "A summary of it all"),
                        headings=(("h1", h1),))
    assert choose_title(c) == expected


def test_a_short_h1_decorated_with_the_site_name_is_the_headline() -> None:
    """The site's name beside a one-word h1 decorates it: the h1 cannot be the logo."""
    c = TitleCandidates(doc_title="JOCO Cups | Reusable Cups Shop | JOCO Cups",
                        declared_titles=("Shop | JOCO Cups",),
                        headings=(("h1", "Shop"),), site_names=("JOCO Cups",))
    assert choose_title(c) == "Shop"
    assert choose_title(replace(c, site_names=())) == "Shop | JOCO Cups"


def test_a_title_cut_short_for_sharing_gives_the_whole_headline() -> None:
    c = TitleCandidates(
        doc_title="What do you guys think will be the trend in the watch market? | Watch Forum",
        declared_titles=("What do you guys think will be the trend in the watch...",),
        headings=(("h1", "What do you guys think will be the trend in the watch market?"),))
    assert choose_title(c) == "What do you guys think will be the trend in the watch market?"


def test_markdown_heading_marks_are_no_part_of_a_title() -> None:
    c = TitleCandidates(doc_title="## Regolith Binding Agent Optimization",
                        declared_titles=("## Regolith Binding Agent Optimization",))
    assert choose_title(c) == "Regolith Binding Agent Optimization"


@pytest.mark.parametrize(
    ("h1", "doc", "expected"),
    [
        # A documentation generator's permalink mark is no part of the headline.
        ("Tasks¶", "Tasks — Celery 5.6.2 documentation", "Tasks"),
        # The same mark on a page whose UTF-8 was read as Latin-1 ("Â¶").
        ("Logging HOWTOÂ¶", "", "Logging HOWTO"),
        # A chapter or lesson number before the heading is its place in the book.
        ("3.1 Git Branching - Branches in a Nutshell", "Git - Branches in a Nutshell",
         "Git Branching - Branches in a Nutshell"),
        ("15 - Tutorial: Sweep, Loft, and Extrude", "Sweep, Loft, and Extrude",
         "Tutorial: Sweep, Loft, and Extrude"),
        # A trademark sign marks the brand; mojibake ("Watersâ€™") is left as it is.
        ("Crusher® ANC 2", "Crusher ANC 2 - Bass Headphones", "Crusher ANC 2"),
        ("Musical version of John Watersâ€™ Cry-Baby", "Musical version of John Watersâ€™ Cry-Baby",
         "Musical version of John Watersâ€™ Cry-Baby"),
        # A count of items or a year before a separator belongs to the headline.
        ("10 Things I Wish I Knew Before Learning", "10 Things I Wish I Knew Before Learning",
         "10 Things I Wish I Knew Before Learning"),
        ("2024 - Pros & Cons Of a Travel Agent", "2024 - Pros & Cons Of a Travel Agent",
         "2024 - Pros & Cons Of a Travel Agent"),
    ],
)
def test_heading_marks_and_section_numbers(h1: str, doc: str, expected: str) -> None:
    assert choose_title(TitleCandidates(doc_title=doc, headings=(("h1", h1),))) == expected


def test_characters_lost_in_the_printed_h1_come_from_the_metadata() -> None:
    doc = "What Are The Basics Of Event Planning: Beginner's Guide"
    h1 = "What Are The Basics Of Event Planning? Beginner? Guide"
    c = TitleCandidates(doc_title=doc, declared_titles=(doc,), headings=(("h1", h1),))
    assert choose_title(c) == doc
    # A question the h1 asks is no lost character.
    c = TitleCandidates(doc_title="What's Next in 2025 | Cloud", declared_titles=(
        "What's Next in 2025 | Cloud",), headings=(("h1", "What's Next in 2025?"),))
    assert choose_title(c) == "What's Next in 2025?"


def test_an_h1_leading_the_title_agrees_with_it() -> None:
    """The evidence that chose a short printed h1 also keeps it (the story's nearest heading
    replaces only titles without evidence)."""
    c = TitleCandidates(doc_title="Sofas & Couches | Living Room Furniture Sets",
                        declared_titles=("Sofas & Couches | Living Room Furniture Sets",),
                        headings=(("h1", "Sofas & Couches"), ("h2", "Customers say")))
    assert choose_title(c) == "Sofas & Couches"
    assert title_agrees("Sofas & Couches", c)
    assert not title_agrees("Customers say", c)


@pytest.mark.parametrize(("url", "expected"), [
    ("http://www.freshnews.in/anand-draws-with-aronian-negi-posts-third-win-1234.html",
     ("anand", "draws", "with", "aronian", "negi", "posts", "third", "win")),
    ("http://www.examiner.com/a-1153418~Sacred_Heart_wins_debut_as_No__1.htm",
     ("a", "sacred", "heart", "wins", "debut", "as", "no")),
    ("http://www.digitalspy.co.uk/tv/a82108/dave-berry.html", ()),  # two words: no slug
    ("http://news.bbc.co.uk/2/hi/middle_east/7127451.stm", ()),
    (None, ()),
])
def test_slug_words(url: str | None, expected: tuple[str, ...]) -> None:
    assert slug_words(url) == expected


def test_the_heading_the_url_slug_spells_is_the_headline() -> None:
    """``<title>`` names nothing and several headings compete (a sidebar's h1): the URL's slug,
    made from the headline by the CMS, spells one of them."""
    c = TitleCandidates(
        doc_title=None,
        headings=(("h1", "Latest News"), ("h2", "Anand draws with Aronian, Negi posts third win"),
                  ("h2", "Related News"), ("h1", "Ivanka Trump Comes Into Her Own")),
        url_words=slug_words("http://www.freshnews.in/anand-draws-with-aronian-negi-posts-third-"
                             "win.html"))
    assert choose_title(c) == "Anand draws with Aronian, Negi posts third win"
    assert title_agrees("Anand draws with Aronian, Negi posts third win", c)
    assert choose_title(replace(c, url_words=())) == "Ivanka Trump Comes Into Her Own"


def test_the_share_links_title_picks_the_page_text_that_spells_it() -> None:
    # l3s-gn1 b73fce96-like: <title> names the site, a logo-like h1 resembles it; the share
    # links' title (re-typed: lower case, site added) names the story's heading.
    c = TitleCandidates(
        doc_title="Digital Arts",
        headings=(("h1", "Forums"), ("h1", "CES: iSleep to iDream with iPod-ready bed"),
                  ("h1", "EDIGIT SIGN-UP")),
        site_names=("digitalartsonline",),
        shared_title="ces: isleep to idream with ipod-ready bed - Digital Arts")
    assert choose_title(c) == "CES: iSleep to iDream with iPod-ready bed"
    # A share title printed nowhere (a blog's name) picks nothing.
    assert choose_title(replace(c, shared_title="Between the Lines")) != "Between the Lines"


def test_an_h1_with_a_date_or_section_beside_the_headline_printed_alone() -> None:
    c = TitleCandidates(
        doc_title="ESPN - Williams misses news conference - Men's College Basketball",
        headings=(("h1", "Williams misses news conference - Men's College Basketball"),
                  ("h1", "Williams misses news conference")))
    assert choose_title(c) == "Williams misses news conference"
    c = TitleCandidates(
        doc_title="10,000 trusted domains infected by Trojan - Security Park news",
        headings=(("h1", "10,000 trusted domains infected by Trojan (14/01/2008)"),
                  ("line", "10,000 trusted domains infected by Trojan")))
    assert choose_title(c) == "10,000 trusted domains infected by Trojan"
    # Printed nowhere alone, the h1 stays whole.
    c = TitleCandidates(doc_title="Tutorial: Sweep, Loft, and Extrude - Headphones | Site",
                        headings=(("h1", "Tutorial: Sweep, Loft, and Extrude - Headphones"),))
    assert choose_title(c) == "Tutorial: Sweep, Loft, and Extrude - Headphones"


def test_a_long_slug_outvotes_an_h1_that_only_resembles_the_title() -> None:
    c = TitleCandidates(
        doc_title="Radio New Zealand News : Latest News : Summer Report: local papers",
        headings=(("h1", "Radio New Zealand - Te Reo Irirangi o Aotearoa"),
                  ("h2", "Summer Report: local papers")),
        url_words=slug_words("http://www.radionz.co.nz/news/latest/2008/summer_report_local_papers"))
    assert choose_title(c) == "Summer Report: local papers"
    # A three-word slug is as often a section's path.
    c = replace(c, url_words=("latest", "national", "news"),
                headings=(("h1", "Radio New Zealand News"), ("h2", "Latest National News:")))
    assert choose_title(c) == "Radio New Zealand News"


def test_a_meta_title_copying_the_title_keeps_no_decoration() -> None:
    c = TitleCandidates(doc_title="Clips: Belt Buckle Senses Your Air Rocking",
                        meta_titles=("Clips: Belt Buckle Senses Your Air Rocking",),
                        headings=(("h2", "Belt Buckle Senses Your Air Rocking"),))
    assert choose_title(c) == "Belt Buckle Senses Your Air Rocking"


def test_an_h1_the_title_joins_to_its_deck_with_a_comma() -> None:
    c = TitleCandidates(
        doc_title="Murder Victim's Mother Assails Huckabee, Says GOP Hopeful Shouldn't Be "
                  "President Due To His Handling Of Case - CBS News",
        headings=(("h1", "Murder Victim's Mother Assails Huckabee"),
                  ("h2", "Says GOP Hopeful Shouldn't Be President Due To His Handling Of Case")))
    assert choose_title(c) == "Murder Victim's Mother Assails Huckabee"


def test_under_a_title_the_host_abbreviates_the_h1_is_the_headline() -> None:
    c = TitleCandidates(doc_title="The Calgary Sun",
                        meta_titles=("The Calgary Sun online - News, Sports and Entertainment",),
                        headings=(("h1", "Red-hot frontrunners"),),
                        site_names=("ca", "calsun.canoe.ca"))
    assert choose_title(c) == "Red-hot frontrunners"
    c = TitleCandidates(doc_title="The Independent on Saturday",
                        headings=(("h1", "Sri Lankan cricket chief resigns"),
                                  ("line", "The Independent on Saturday")),
                        site_names=("za", "tios.co.za"))
    assert choose_title(c) == "Sri Lankan cricket chief resigns"
    # A <title> the host does not spell is the headline's.
    assert choose_title(replace(c, site_names=("za", "iol.co.za"))) == \
        "The Independent on Saturday"
    # A keyword list starting with the name the host spells names the site too.
    c = TitleCandidates(doc_title="times and star workington lake district, workington news "
                                  "sport, west cumbria news, lake district news",
                        headings=(("h1", "More authority needed"),),
                        site_names=("timesandstar", "timesandstar.co.uk"))
    assert choose_title(c) == "More authority needed"
    # An element marked as the headline counts as an h1 does.
    c = TitleCandidates(doc_title="Leading the Charge",
                        headings=(("headline", "Leading the Charge"),
                                  ("headline", "Bin Laden issues warning on Iraq, Israel")),
                        site_names=("leadingthecharge", "leadingthecharge.com"))
    assert choose_title(c) == "Bin Laden issues warning on Iraq, Israel"


def test_the_site_name_in_parentheses_after_the_headline_is_decoration() -> None:
    sites = ["kr", "koreatimes.co.kr"]
    assert strip_site_name("Choi Wins 7th US PGA Title(The Korea Times)", sites) == \
        "Choi Wins 7th US PGA Title"
    # A year or a variant in parentheses is the headline's.
    assert strip_site_name("39 Best Electrician Tools (2025)", sites) == \
        "39 Best Electrician Tools (2025)"
    assert strip_site_name("Apple Watch (2nd generation)", sites) == \
        "Apple Watch (2nd generation)"


def test_a_call_in_a_swallowed_title_is_code_but_a_parenthesis_of_words_is_not() -> None:
    html = ('<html><head><title>Choi Wins 7th US PGA Title(The Korea Times)ntById("font");'
            "\nobj.style.fontSize = 9;</script><div id='outer'><p>Story.</p></div>")
    meta = extract_metadata(parse_html(html), url="http://www.koreatimes.co.kr/www/news/1.html")
    assert meta.title == "Choi Wins 7th US PGA Title"


@pytest.mark.parametrize(("doc", "headings", "expected"), [
    ("The Sports Network - National Hockey League",
     (("h3", "McDonald scores a pair as Blues rout Jackets"),),
     "McDonald scores a pair as Blues rout Jackets"),
    # Beside a <title> segment printed as a heading of its own, it is a deck.
    ("winnipegsun.com - Other Sports - Podium for Canuck",
     (("h3", "Bronze medal picks up slack left by injured Hudec"), ("line", "Podium for Canuck")),
     "Podium for Canuck"),
])
def test_the_one_headline_long_heading_of_a_page_without_h1_is_the_headline(
        doc: str, headings: tuple[tuple[str, str], ...], expected: str) -> None:
    sites = ("sportsnetwork", "sportsnetwork.com", "winnipegsun", "winnipegsun.com")
    assert choose_title(TitleCandidates(doc_title=doc, headings=headings,
                                        site_names=sites)) == expected
    # Under a <title> without the site's name, a lone h2 may be a widget's.
    c = TitleCandidates(doc_title="Harbour barrier closed-Gazette",
                        headings=(("h2", "Subscribe to our newsletter"),), site_names=sites)
    assert choose_title(c) == "Harbour barrier closed-Gazette"


def test_a_short_title_segment_printed_as_a_minor_heading_is_a_candidate() -> None:
    root = parse_html("<html><head><title>winnipegsun.com - Other Sports - Podium for Canuck"
                      "</title></head><body><div>Other Sports</div><h5>Podium for Canuck</h5>"
                      "<p>The skater won bronze.</p></body></html>")
    c = extract_metadata(root, url="http://winnipegsun.com/Sports/1-sun.html").title_candidates
    assert c is not None
    assert ("line", "Podium for Canuck") in c.headings
    assert ("line", "Other Sports") not in c.headings  # (a plain line: a menu's section name)


def test_a_title_cut_at_a_bare_hyphen_where_the_slug_spells_it() -> None:
    c = TitleCandidates(
        doc_title="Kat to go to London... with Sallu-India Buzz-Entertainment-The Times of India",
        headings=(("headline", "Loading"),),
        url_words=slug_words("http://timesofindia.indiatimes.com/India_Buzz/"
                             "Kat_to_go_to_London_with_Sallu/articleshow/2696265.cms"))
    assert choose_title(c) == "Kat to go to London... with Sallu"
    # Without a slug spelling a part, a hyphenated title stays whole.
    assert choose_title(replace(c, url_words=())) == c.doc_title


def test_under_a_host_and_section_title_the_heading_below_the_section_h1() -> None:
    c = TitleCandidates(doc_title="cbs4denver.com - Sports Wire",
                        headings=(("h2", "Search"), ("h1", "Sports Wire"),
                                  ("h2", "Congress asks Justice Department to investigate Tejada")),
                        site_names=("cbs4denver", "cbs4denver.com"))
    assert choose_title(c) == "Congress asks Justice Department to investigate Tejada"
    # Without the host name, "Kayaks | REI Co-op" over an h1 "Kayaks" is a page of kayaks.
    c = replace(c, doc_title="Sports Wire | CBS Four")
    assert choose_title(c) == "Sports Wire"


def test_a_line_break_in_the_headline_parts_its_words() -> None:
    # A printed headline set on two lines ("News Product<br>Management Certification"):
    # the break is white space between the words, as the reader sees them; text_content()
    # glued "ProductManagement". Without declared titles, the h1 that ``<title>`` starts with
    # is the headline.
    html = ("<html><head><title>News Product Management Certification - Alliance</title>"
            "</head><body><h1><span>News Product<br>Management Certification</span></h1>"
            "<p>Text of the page that follows the heading.</p></body></html>")
    meta = extract_metadata(parse_html(html), url="https://example.org/certification")
    assert meta.title == "News Product Management Certification"
    assert ("h1", "News Product Management Certification") in meta.title_candidates.headings


@pytest.mark.parametrize(
    ("doc_title", "h1", "expected"),
    [
        # A category page prints the category's name; <title> spells it out for search engines.
        ("Camping Stoves: Top Rated Camp Stoves | Outdoor Co-op", "Camp Stoves", "Camp Stoves"),
        ("Men's Gym Tops & T-Shirts - Workout shirts from Example", "T-Shirts & Tops",
         "T-Shirts & Tops"),
        # One word is a section's name, however the title spells it out.
        ("NFL Preview - Seattle (11-6) At Green Bay (13-3)", "NFL",
         "NFL Preview - Seattle (11-6) At Green Bay (13-3)"),
        # A heading with a word the title does not have names something else.
        ("Camping Stoves: Top Rated Camp Stoves | Outdoor Co-op", "Camp Kitchen Stoves",
         "Camping Stoves: Top Rated Camp Stoves | Outdoor Co-op"),
    ],
)
def test_an_h1_naming_what_a_part_of_the_title_spells_out(doc_title: str, h1: str,
                                                           expected: str) -> None:
    # og:title copies <title> (SEO wording): the printed heading that names the same thing is
    # the headline, however much shorter it is.
    c = TitleCandidates(doc_title=doc_title, declared_titles=(doc_title,),
                        headings=(("h1", h1), ("h2", "Filter by brand")),
                        site_names=("Outdoor Co-op", "Example"))
    assert choose_title(c) == expected


def test_a_style_sheet_inside_a_heading_is_not_its_text() -> None:
    # Component libraries emit a <style> beside the heading's text; the reader sees the text.
    html = ("<html><head><title>Getting started with the toolkit - Docs</title></head><body>"
            "<h1>Getting started<style>.css-1x{display:flex}</style> with the toolkit"
            "<script>track()</script></h1><p>Body text of the page.</p></body></html>")
    meta = extract_metadata(parse_html(html), url="https://example.org/start")
    assert ("h1", "Getting started with the toolkit") in meta.title_candidates.headings
    assert meta.title == "Getting started with the toolkit"


@pytest.mark.parametrize(
    ("doc_title", "h1", "expected"),
    [
        # <title> is still several phrases once the site's name is cut: keywords for search
        # engines, which og:title copies; the h1 names the page.
        ("Local SEO Software | Local SEO Tools | Try for Free - Examplelocal", "Local SEO Tools",
         "Local SEO Tools"),
        ("Electrician in Springfield, IL - Costs 12 / 2025 - Examplelocal",
         "How Much Does it Cost to Get Electrical Services in Springfield?",
         "How Much Does it Cost to Get Electrical Services in Springfield?"),
        # A section's name as the h1 (two words) is no headline.
        ("NFL Preview - Seattle (11-6) At Green Bay (13-3) | Local Teams", "Local Teams",
         "NFL Preview - Seattle (11-6) At Green Bay (13-3) | Local Teams"),
    ],
)
def test_the_h1_under_a_keyword_title(doc_title: str, h1: str, expected: str) -> None:
    c = TitleCandidates(doc_title=doc_title, declared_titles=(doc_title,),
                        site_names=("Examplelocal", "examplelocal.com"),
                        headings=(("h1", h1), ("h2", "What our customers say")))
    assert choose_title(c) == expected


def test_no_keyword_rule_on_a_front_page_or_a_title_naming_the_site_first() -> None:
    doc = "Examplefox — Customize and make it your own — The most flexible browser"
    c = TitleCandidates(doc_title=doc, declared_titles=(doc,),
                        site_names=("Examplefox", "examplefox.org"),
                        headings=(("h1", "Make your Examplefox your own"),))
    assert choose_title(c) == doc
    doc = "Example HR: All-in-One HRIS | Employee Onboarding & Engagement"
    c = TitleCandidates(doc_title=doc, declared_titles=(doc,), home_page=True,
                        site_names=("examplehr.com",),
                        headings=(("h1", "HR built for complex, growing organizations"),))
    assert choose_title(c) == doc


@pytest.mark.parametrize(
    ("declared", "names", "expected"),
    [
        # The name the host spells, after the last separator: decoration for sharing.
        ("Cybersecurity Consulting Services | Examplestrike", ("Examplestrike", "examplestrike",
                                                              "examplestrike.com"),
         "Cybersecurity Consulting Services"),
        ("Reviews of our yoga classes — Yoga With Example", ("yogawithexample",
                                                             "yogawithexample.co.uk"),
         "Reviews of our yoga classes"),
        # A name before the rest is the page's subject as often: kept.
        ("Examplehelp | Professional Therapy With A Licensed Therapist",
         ("examplehelp", "examplehelp.com"),
         "Examplehelp | Professional Therapy With A Licensed Therapist"),
        # A name only the metadata gives (no URL) may be the outlet a title credits: kept.
        ("Getting LEAN with Digital Ad UX | IAB", ("IAB",),
         "Getting LEAN with Digital Ad UX | IAB"),
    ],
)
def test_a_declared_title_loses_the_host_name_after_it(declared: str, names: tuple[str, ...],
                                                      expected: str) -> None:
    c = TitleCandidates(doc_title=declared, declared_titles=(declared,), site_names=names,
                        headings=(("h2", "What our customers say"),))
    assert choose_title(c) == expected


def test_the_h1_agreeing_with_the_title_over_a_declared_title_for_sharing() -> None:
    # og:title is a line for sharing that neither <title> nor any heading prints; <title>
    # and the h1 agree on the headline.
    c = TitleCandidates(
        doc_title="Top 24 tools for data analysis and how to decide between them | Examplestitch",
        declared_titles=(("Take a look at the top tools for data analysis and learn how to "
                          "choose one that fits your needs."),),
        site_names=("Examplestitch", "examplestitch.com"),
        headings=(("h1", "Top 24 tools for data analysis and how to decide between them"),
                  ("h2", "How to choose a data analysis tool")))
    assert choose_title(c) == "Top 24 tools for data analysis and how to decide between them"
    # A declared title the page prints as a heading is the publisher's headline: it stays.
    c = replace(c, headings=(*c.headings, ("h2", c.declared_titles[0])))
    assert choose_title(c) == c.declared_titles[0]
