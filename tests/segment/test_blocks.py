from sitesift.methods.page.content import Content
from sitesift.parse import parse_html
from sitesift.segment.blocks import labelled_blocks, segment_blocks

PAGE = """<html><body>
<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul></div>
<div class="story"><h1>Harbour reopens after the storm</h1>Lead text <b>in bold</b> here
<p>The harbour reopened on Monday, officials said.</p>closing words<script>var x = 1;</script>
<p style="display:none">hidden words</p><select><option>2008</option><option>2007</option></select>
</div></body></html>"""


def leaves(html: str = PAGE) -> list:
    return segment_blocks(parse_html(html)).leaves()


def test_leaves_cover_the_visible_text_in_page_order_with_xpaths() -> None:
    got = [(b.xpath, b.text) for b in leaves()]
    assert got == [
        ("/html/body/div[1]/ul/li[1]", "Home"),
        ("/html/body/div[1]/ul/li[2]", "News"),
        ("/html/body/div[2]/h1", "Harbour reopens after the storm"),
        ("/html/body/div[2]/text()[1]", "Lead text in bold here"),
        ("/html/body/div[2]/p[1]", "The harbour reopened on Monday, officials said."),
        ("/html/body/div[2]/text()[3]", "closing words"),
        ("/html/body/div[2]/select", "2008 2007"),
    ]


def test_runs_keep_inline_order_and_measure_links() -> None:
    blocks = leaves()
    assert blocks[0].link_density == 1.0 and blocks[4].link_density == 0.0
    run = blocks[3]
    assert run.is_run and [kind for _, kind in run.pieces] == ["tail", "node", "tail"]


def test_tree_divides_containers_and_joins_their_text() -> None:
    top = segment_blocks(parse_html(PAGE))
    nav, story = top.children
    assert nav.text == "Home News" and len(story.children) == 5
    assert top.weight == sum(b.weight for b in top.leaves())


def test_labels_say_why_and_keep_headline_and_byline_as_content() -> None:
    html = """<html><body><div><a href="/">Home</a> <a href="/x">World</a></div>
    <h1>Harbour reopens after the storm</h1><div>By Ann Lee, Staff Reporter</div>
    <div id="main"><p>The harbour reopened on Monday, officials said.</p></div>
    <div>Copyright 2008</div></body></html>"""
    root = parse_html(html)
    top = segment_blocks(root)
    main = root.find(".//div[@id='main']")
    out = labelled_blocks(top, Content(nodes=(main,)),
                          title="Harbour reopens after the storm")
    assert [(b["label"], b["reason"]) for b in out] == [
        ("noise", "outside the main content"),
        ("content", "the page's headline"),
        ("content", "between the headline and the main content"),
        ("content", "in the main content"),
        ("noise", "outside the main content"),
    ]
    assert set(out[0]) == {"xpath", "text", "label", "reason"}


def test_a_page_without_body_text_has_no_leaves_but_the_top() -> None:
    top = segment_blocks(parse_html("<html><body><img src=x></body></html>"))
    assert top.weight == 0 and top.leaves() == [top]


def test_without_texts_the_tree_is_the_same_but_for_texts_and_paths() -> None:
    def shape(block) -> tuple:
        return (block.owner, block.nodes, block.weight, block.link_weight, block.is_run,
                block.pieces, [shape(c) for c in block.children])

    root = parse_html(PAGE)
    full, bare = segment_blocks(root), segment_blocks(root, texts=False)
    assert shape(bare) == shape(full)
    assert {(b.text, b.xpath) for b in bare.leaves()} == {("", "")}
    assert all(b.text and b.xpath for b in full.leaves())
