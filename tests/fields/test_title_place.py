"""The heading nearest the story replaces a title that agrees with no <title> text."""

from __future__ import annotations

from sitesift.pipeline import extract_html

PROSE = ("The council voted on Tuesday to close the harbour barrier for the first time this "
         "winter, after forecasters warned of a surge tide along the whole coast. ") * 4
NAV = "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(60))


def _page(title: str, *, logo: str = "<h1>TIMES LEADER SPECIAL SECTIONS</h1>",
          headline: str = "<h2>Harbour barrier closed as surge tide nears</h2>") -> str:
    return (f"<html><head><title>{title}</title></head><body>"
            f"<div id='top'>{logo}<ul>{NAV}</ul></div>{headline}"
            f"<div id='story'><p>{PROSE}</p><p>{PROSE}</p></div></body></html>")


def test_site_named_title_gives_way_to_the_heading_at_the_story() -> None:
    record = extract_html(_page("Northeastern PA News | timesleader.com"))
    assert record.title == "Harbour barrier closed as surge tide nears"


def test_title_agreeing_with_the_document_title_stays() -> None:
    # Paper 003's evidence: the section heading is what <title> names, so it stays.
    record = extract_html(_page("TIMES LEADER SPECIAL SECTIONS | timesleader.com"))
    assert record.title == "TIMES LEADER SPECIAL SECTIONS"


def _plain_page(title: str, printed: str = "") -> str:
    """A 2008 news page: no heading, the headline a bold line above the story."""
    return _page(title, logo=printed,
                 headline="<div><b>Harbour barrier closed as surge tide nears</b></div>")


def test_a_title_only_the_document_title_gives_yields_to_the_line_above_the_story() -> None:
    record = extract_html(_plain_page("Top Stories | ny1.com"))
    assert record.title == "Harbour barrier closed as surge tide nears"


def test_a_document_title_the_page_prints_stays() -> None:
    record = extract_html(_plain_page("Top Stories | ny1.com", printed="<p>Top Stories</p>"))
    assert record.title == "Top Stories"


def test_a_whole_document_title_stays() -> None:
    record = extract_html(_plain_page("Top Stories"))
    assert record.title == "Top Stories"


def test_a_document_title_the_page_prints_with_a_trademark_sign_stays() -> None:
    # "Crusher® ANC 2" on the page, "Crusher ANC 2" in <title>: the same name, printed.
    record = extract_html(_plain_page("Top Stories | ny1.com", printed="<p>Top Stories®</p>"))
    assert record.title == "Top Stories"


def test_a_title_printed_inside_the_content_stays_however_far_from_its_start() -> None:
    # A site method's content opens with a promotion (its own heading) and prints the story's
    # headline further down: the chosen title is the story's, not the promotion's heading.
    from sitesift.fields.metadata import Metadata
    from sitesift.fields.title_place import near_heading
    from sitesift.fields.titles import TitleCandidates
    from sitesift.parse import parse_html

    headline = "Austin leaves Roughriders for alma mater"
    links = "".join(f"<p><a href='/p{i}'>Promoted story {i}</a></p>" for i in range(30))
    root = parse_html(f"<html><head><title>Regina Leader-Post</title></head><body>"
                      f"<div id='content'><h3>Your Leader-Post</h3>{links}"
                      f"<h2>{headline}</h2><p>{PROSE}</p></div></body></html>")
    content = root.get_element_by_id("content")
    candidates = TitleCandidates(doc_title="Regina Leader-Post",
                                 headings=(("h3", "Your Leader-Post"), ("h2", headline)))
    meta = Metadata(title=headline, title_candidates=candidates)
    assert near_heading(meta, [content], root) == headline


def _category_page(
        h1: str, title: str = "Lamps for Camping, Hiking &amp; Running | Trail Outfitters") -> str:
    cards = "".join(
        f"<li class='card'><a href='/p/lamp-{i}'>Trail lamp model {i} with a {200 + 10 * i} "
        f"lumen beam</a><span>${20 + i}.95</span></li>" for i in range(24))
    return (f"<html><head><title>{title}"
            f"</title></head><body><div id='top'><ul>{NAV}</ul></div>{h1}"
            f"<ul class='grid'>{cards}</ul></body></html>")


def test_a_list_page_is_named_by_its_one_h1_not_by_its_titles_search_wording() -> None:
    # A category page prints the list's name as its h1 and words <title> for search engines
    # (modern-dev 3027, 3069, 0635, 1572-like).
    record = extract_html(_category_page("<h1>Lamps</h1>"), url="https://example.com/c/lamps")
    assert record.page_type == "list"
    assert record.title == "Lamps"
    # The count of items printed beside the name is the list's size, not its name.
    record = extract_html(_category_page("<h1>Lamps<span>(102+)</span></h1>"),
                          url="https://example.com/c/lamps")
    assert record.title == "Lamps"
    # An h1 sharing no word with the titles (a promotion, a logo) names nothing.
    record = extract_html(_category_page("<h1>Free delivery</h1>"),
                          url="https://example.com/c/lamps")
    assert record.page_type == "list"
    assert record.title == "Lamps for Camping, Hiking & Running"


def test_a_list_pages_h1_that_is_the_part_of_title_cut_as_the_sites_name_names_nothing() -> None:
    # A forum board (FluxBB): <title> "Board / Forum name", the h1 the forum's name linking
    # home; the list is the board, the part of <title> that is not the site's name.
    record = extract_html(
        _category_page("<h1><a href='index.php'>Trail Talk</a></h1><h2>Camping Lamps</h2>",
                       title="Camping Lamps / Trail Talk"),
        url="https://example.com/viewforum.php?id=2")
    assert record.page_type == "list"
    assert record.title == "Camping Lamps"


def test_a_heading_s_permalink_sign_is_no_part_of_its_title() -> None:
    # Documentation generators end every heading with a link to itself printing a sign
    # ("¶"); the h1 is then the <title>'s text, not a section heading under it.
    html = ("<html><head><title>Terminating - Typer</title></head><body><nav><ul>"
            f"{NAV}</ul></nav><div role='main'><h1 id='terminating'>Terminating<a "
            "class='headerlink' href='#terminating' title='Permanent link'>¶</a></h1>"
            f"<p>{PROSE}</p><h2 id='exit'>Exit a CLI program<a class='headerlink' "
            f"href='#exit'>¶</a></h2><p>{PROSE}</p><h2 id='abort'>Abort<a href='#abort'>"
            f"#</a></h2><p>{PROSE}</p></div></body></html>")
    assert extract_html(html).title == "Terminating"
