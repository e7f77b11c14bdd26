import time

import pytest

from sitesift.errors import EmptyPageError
from sitesift.parse import parse_html


@pytest.mark.parametrize("html", ["", "   \n\t", "just words, no markup"])
def test_empty_or_markupless_input_is_an_empty_page(html: str) -> None:
    with pytest.raises(EmptyPageError):
        parse_html(html)


def test_xml_declaration_with_foreign_encoding_is_ignored() -> None:
    root = parse_html('<?xml version="1.0" encoding="gbk"?><html><body><p>中文</p></body></html>')
    assert root.findtext(".//p") == "中文"


def test_control_characters_do_not_cut_the_document() -> None:
    root = parse_html("<html><body><p>a\x00b\x01c</p><p>after</p></body></html>")
    assert [p.text for p in root.iter("p")] == ["abc", "after"]


def test_deeply_nested_unclosed_tags_parse_without_recursion() -> None:
    root = parse_html("<html><body>" + "<div>" * 1_500 + "deep")
    depth, node = 0, root
    while len(node):
        node, depth = node[0], depth + 1
    assert depth > 1_000  # deeper than Python's recursion limit
    assert node.text == "deep"


def test_nesting_past_the_parser_limit_is_read_up_to_the_limit_with_a_warning() -> None:
    warnings: list[str] = []
    root = parse_html("<html><body><p>before</p>" + "<div>" * 20_000 + "deep",
                      warnings=warnings)
    assert root.findtext(".//p") == "before"
    assert len(warnings) == 1 and "deeper than 2,048" in warnings[0]


def test_too_many_elements_are_cut_off_at_the_limit_in_a_second() -> None:
    rows = "".join(f"<tr><td>{i}</td></tr>" for i in range(200_000))
    page = f"<html><body><p>Intro.</p><table>{rows}</table><p>After.</p></body></html>"
    started = time.process_time()  # (CPU: wall time on the shared machine is load)
    warnings: list[str] = []
    root = parse_html(page, warnings=warnings)
    assert time.process_time() - started < 2.0
    assert sum(1 for _ in root.iter()) == 100_000  # html, body, p, table, tbody, rows...
    cells = root.findall(".//td")
    assert cells[0].text == "0" and [c.text for c in cells] == [str(i) for i in range(len(cells))]
    assert root.findtext(".//p") == "Intro." and len(root.findall(".//p")) == 1
    assert len(warnings) == 1 and "more than 100,000 elements" in warnings[0]
    assert len(parse_html(page, max_elements=500_000).findall(".//tr")) == 200_000
    warnings = []
    root = parse_html("<p>a</p>" * 11, max_elements=10, warnings=warnings)
    assert sum(1 for _ in root.iter()) == 10 and "more than 10 elements" in warnings[0]
    assert not root.find("body")[-1].tail  # (the text after the cut goes too)


def _svg_path(numbers: int) -> str:
    """An inline SVG icon whose path data lost its quotes (``d=%22M 24.77 20.3 C ...``), as
    found on real pages: every number of the path is an attribute name to an HTML parser."""
    values = " ".join(f"{(i * 7.31) % 40:.3f}" for i in range(numbers))
    return (f'<svg class="icon" viewBox="0 0 40 40"><path class="logo-path" fill="#fff" '
            f'd=%22M 24.77 20.3 C 24.792 {values} Z%22 aria-hidden="true"></path></svg>')


ARTICLE = ("<p>The harbour board voted on Tuesday to rebuild the old tide barrier, "
           "a project the town has argued over for twenty years.</p>"
           "<p>Work starts in spring, and the board expects it to last three summers.</p>")


def test_a_tag_with_too_many_attributes_keeps_those_that_matter_before_parsing() -> None:
    many = " ".join(f'a{i}="v"' for i in range(100_000))
    started = time.process_time()  # (CPU: wall time on the shared machine is load)
    warnings: list[str] = []
    root = parse_html(f'<html><body><div data-x="1" {many} class="story" id="s" role="main" '
                      f'lang="en" aria-hidden="false" a5="w">x</div></body></html>',
                      warnings=warnings)
    assert time.process_time() - started < 1.0  # libxml2 takes 13 s over them
    div = root.find(".//div")
    assert dict(div.attrib) == {"class": "story", "id": "s", "role": "main", "lang": "en",
                                "aria-hidden": "false"}
    assert div.text == "x"
    assert len(warnings) == 1 and "<div> tag has 100,007 attributes" in warnings[0]
    assert "5 kept (class, id, role, lang, aria-hidden)" in warnings[0]
    # The broken SVG path of real pages: the page around it is read as it stands.
    warnings = []
    root = parse_html(f"<html><body><header>{_svg_path(1_200)}<a href='/'>Home</a></header>"
                      f"<article>{ARTICLE}</article></body></html>", warnings=warnings)
    path = root.find(".//path")
    assert dict(path.attrib) == {"class": "logo-path", "aria-hidden": "true"}
    assert root.find(".//a").get("href") == "/" and len(root.findall(".//article/p")) == 2
    assert "<path> tag has 1,20" in warnings[0]
    # A self-closed tag stays closed: what follows is no child of it.
    over = " ".join(f"x{i}=1" for i in range(1_001))
    root = parse_html(f"<html><body><p>a<img {over} src=i.png /> b</p><p>c</p></body></html>")
    assert root.find(".//img").get("src") == "i.png" and len(root.findall(".//p")) == 2
    # A long tag of few attributes (inline JSON, a long style) is left as it is.
    data = "x " * 50_000
    warnings = []
    root = parse_html(f'<html><body><div data-props="{data}" class="c">y</div></body></html>',
                      warnings=warnings)
    assert root.find(".//div").get("data-props") and not warnings
    # Nor is a script or comment whose code reads like a tag of many attributes.
    code = "for(i=0;i<n;i++) " + "a = b, c = d; " * 2_000
    root = parse_html(f"<html><head><script>{code}</script><!-- <x {code} --></head>"
                      "<body><p>z</p></body></html>", warnings=warnings)
    assert root.find(".//p").text == "z" and not warnings
    assert code in root.findtext(".//script")
    # The check reads only stretches between two ">": a suspect tag right after a ">" of the
    # text, or at the very end of the page, is still found; one attribute fewer is kept whole.
    root = parse_html(f"<html><body><p>a > b</p>><i {over} class=k>c</i></body></html>",
                      warnings=warnings)
    assert dict(root.find(".//i").attrib) == {"class": "k"} and "1,002 attributes" in warnings[0]
    warnings = []
    parse_html(f"<html><body><p>a</p><i {over}", warnings=warnings)
    assert "1,001 attributes" in warnings[0]
    root = parse_html(f"<html><body><i {over.rsplit(' ', 1)[0]}>c</i></body></html>")
    assert len(root.find(".//i").attrib) == 1_000


def test_fragment_without_html_or_body_gets_a_document_root() -> None:
    root = parse_html("<p>hello</p>")
    assert root.tag == "html" and root.find("body") is not None


def test_stray_end_of_document_tags_do_not_drop_the_rest() -> None:
    html = (
        "<html><body><div id='ad'><script>x</script></body></html></div>"
        "<div id='story'><p>The article after a pasted ad snippet.</p></div></body></html>"
    )
    root = parse_html(html)
    assert "article after a pasted ad" in root.text_content()


def test_unclosed_title_is_closed_at_its_first_markup() -> None:
    # A crawl cut "</title>": libxml2 would read the whole page as title text (no body).
    filler = "<script>var x = 1;</script>" * 60
    html = (f"<html><head><title>Site - Story{filler}</head>"
            "<body><h1>Story</h1><p>The text.</p></body></html>")
    root = parse_html(html)
    assert root.findtext("head/title") == "Site - Story"
    assert root.findtext("body/h1") == "Story"


def test_a_stray_end_tag_and_control_characters_together_keep_the_rest() -> None:
    root = parse_html("<html><body><p>a\x01b</p></html><p>after</p></body></html>")
    assert [p.text for p in root.iter("p")] == ["ab", "after"]


def test_streamed_segments_take_their_placeholders_place() -> None:
    # React streaming: the slow parts come last in hidden divs, moved by inline scripts.
    root = parse_html(
        "<html><body><h1>Title</h1><template id='B:0'></template><div>Loading</div>"
        "<p>Footer</p><div hidden id='S:0'><p>First</p>lead<p>Second</p>"
        "<template id='P:1'></template></div><div hidden id='S:1'><p>Nested</p></div>"
        "<script>$RC('B:0','S:0')</script></body></html>"
    )
    body = root.find("body")
    assert [el.text for el in body.iter("p")] == ["First", "Second", "Nested", "Footer"]
    assert "lead" in body.text_content()
    assert not [el for el in body.iter("div") if el.get("hidden") is not None]


def test_hidden_divs_without_a_placeholder_stay_hidden() -> None:
    root = parse_html("<html><body><p>a</p><div hidden id='S:0'><p>b</p></div></body></html>")
    assert root.find("body/div").get("hidden") is not None


def test_end_tags_are_found_in_the_bytes_as_a_str_pattern_finds_them_in_the_text() -> None:
    # parse_html removes stray end tags from the page's UTF-8 bytes; a str pattern's \s and
    # case-insensitive letters are Unicode: the bytes pattern must remove the same tags.
    import re

    from sitesift.parse.html import _END_DOCUMENT_BYTES

    text_pattern = re.compile(r"</(?:html|body)\s*>", re.IGNORECASE)
    spaces = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
    others = "\u200b\ufeff\xa7\u2060\u3001x"  # look like spaces, are not
    for space in spaces + others:
        for tag in ("html", "BODY", "Html"):
            text = f"<p>a</{tag}{space}{space}>b</{tag}{space}<p>c</{tag} >"
            expected = text_pattern.sub("", text).encode("utf-8")
            assert _END_DOCUMENT_BYTES.sub(b"", text.encode("utf-8")) == expected, hex(ord(space))
    non_ascii = "".join(chr(c) for c in range(0x80, 0x110000) if not 0xD800 <= c < 0xE000)
    assert re.findall("[htmlbody]", non_ascii, re.IGNORECASE) == []  # (ASCII letters suffice)


def test_a_stray_end_tag_between_unicode_spaces_goes_and_the_rest_stays() -> None:
    root = parse_html("<html><body><p>a</p></html\u3000\xa0><p>after</p></body></html>")
    assert [p.text for p in root.iter("p")] == ["a", "after"]
