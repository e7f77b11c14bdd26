import dataclasses

from lxml import etree

from sitesift.methods.template.istm import page_structure, similarity_matrix
from sitesift.methods.template.template import (
    PathFinder,
    SignatureIndex,
    TemplateModel,
    anchor_coverage,
    common_container,
    container_key,
    content_signatures,
    delete_shared,
    element_steps,
    find_container,
    in_middle,
    learn_anchors,
    learn_template,
)
from sitesift.parse import parse_html
from sitesift.parse.dom import SKIP_TAGS
from sitesift.parse.signatures import (
    TEXT_MEMO_MAX_CHARS,
    RelaxedLabels,
    TextHashes,
    combine,
    stable_hash,
    structural_children,
)

TEMPLATE = """<html><body>
<div class="nav"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="main"><h1>{title}</h1>{extra}<p>{body}</p>
<div class="share">Share this story</div></div>
<div class="foot">Copyright Harbour News</div></body></html>"""


def page(title: str, body: str, extra: str = "") -> etree._Element:
    return parse_html(TEMPLATE.format(title=title, body=body, extra=extra))


def text(root: etree._Element) -> str:
    return " ".join(root.text_content().split())


def _reference_signature(el: etree._Element, labels: RelaxedLabels) -> int:
    """An element's signature as ``content_signatures`` documents it, by recursion and
    ``combine``: its label and folded own text (text and children's tails), then each
    structural child in order."""
    own = " ".join(" ".join([el.text or "", *(c.tail or "" for c in el)]).split())
    h = combine(labels.get(el)[1], 0, stable_hash(own) if own else 0)
    for i, child in enumerate(structural_children(el)):
        h = combine(h, i, _reference_signature(child, labels))
    return h


def test_content_signatures_are_the_documented_hash() -> None:
    # (its loop writes ``combine`` out: the same values, structure and order as the recursion)
    root = parse_html("""<html><body> <div class="a b" id="x1">lead <b>bold</b> tail
        <script>var x;</script> after script <p>one</p>\n <p> two  words </p>
        <svg><g><text>in svg</text></g></svg><span></span>end</div>
        <ul><li>a</li><li>a</li><li><i>b</i> c</li></ul></body></html>""")
    labels = RelaxedLabels()
    structure: dict[etree._Element, tuple[int, list[etree._Element]]] = {}
    sigs = content_signatures(root, labels=labels, structure=structure)
    elements = [el for el in root.iter(etree.Element) if el.tag not in SKIP_TAGS]
    assert list(sigs) == elements[::-1]
    for el in elements:
        assert sigs[el] == _reference_signature(el, labels)
        assert structure[el] == (labels.get(el)[1], structural_children(el))


def test_equal_subtrees_get_equal_signatures_wherever_they_are() -> None:
    a = page("One", "first body")
    b = page("Two", "second body", extra="<div class='ad'>ad</div>")
    sa, sb = content_signatures(a), content_signatures(b)
    nav_a = a.find(".//div[@class='nav']")
    nav_b = b.find(".//div[@class='nav']")
    assert sa[nav_a] == sb[nav_b]
    assert sa[a.find(".//p")] != sb[b.find(".//p")]


def test_a_sites_text_memo_gives_the_same_signatures() -> None:
    """``TextHashes`` shared by a site's pages: every signature as without it (texts with
    white space to fold, a text too long to keep, an empty one), and each hash that of the
    folded text."""
    long = "word " * TEXT_MEMO_MAX_CHARS
    pages = [page(f"T{i}", f"body {i}", extra=f"<p>  Share\n this </p><p>{long}</p><b> </b>")
             for i in range(3)]
    texts = TextHashes()
    for root in pages:
        assert content_signatures(root, texts=texts) == content_signatures(root)
    assert texts.folded("  Share\n this ") == stable_hash("Share this")
    assert texts.folded(long) == stable_hash(long.strip()) and texts.folded(" \n") == 0


def test_shared_template_goes_and_content_stays_despite_an_inserted_block() -> None:
    refs = [page(f"T{i}", f"body number {i}") for i in range(3)]
    target = page("Target", "the one true article", extra="<div class='ad'>ad slot</div>")
    index = SignatureIndex(content_signatures(r).values() for r in refs)
    removed = delete_shared(target, index)
    left = text(target)
    assert "the one true article" in left and "Target" in left
    assert "Home" not in left and "Copyright" not in left and "Share this story" not in left
    assert "ad slot" in left  # no reference holds it: kept (the page extractor judges it)
    assert removed and all(el.getparent() is None for el in removed)


def test_with_edges_a_shared_label_of_the_pages_own_text_stays() -> None:
    """``edges``: between two parts of the main block's own text, a shared label heading a
    box of the page's own text (an admonition's "Tip") stays; a shared notice right in the
    block between its paragraphs (an ad slot's "Advertisement") and the share line at its
    end go."""
    def tip(k: object) -> str:
        return (f"<p>lead {k}</p><div class='note'><p class='title'>Tip</p><p>advice {k}</p>"
                f"</div><p>Advertisement</p>")
    refs = [page(f"T{i}", f"body number {i}", extra=tip(i)) for i in range(3)]
    index = SignatureIndex(content_signatures(r).values() for r in refs)
    for edges in (False, True):
        target = page("Target", "the one true article", extra=tip("own"))
        main = target.find(".//div[@class='main']")
        delete_shared(main, index, edges=edges)
        left = text(main)
        assert ("Tip" in left) is edges
        assert "Advertisement" not in left and "Share this story" not in left
        assert "advice own" in left and "the one true article" in left


def test_in_middle_finds_what_lies_between_the_blocks_own_text() -> None:
    root = parse_html("<html><body><div><b>head</b> own <i>mid</i><p>more</p>"
                      "<span>end</span></div></body></html>")
    div = root.find(".//div")
    b, i, span = div.find("b"), div.find("i"), div.find("span")
    assert in_middle([div], [b, i, span]) == {i}
    para = div.find("p")
    assert in_middle([div], [para]) == {para}
    assert in_middle([div], [para, span]) == set()  # ("end" goes too: nothing own after)


def test_member_pages_are_not_their_own_reference() -> None:
    pages = [page(f"T{i}", f"body {i}") for i in range(3)]
    dup = page("T0", "body 0")  # the same page twice in the cluster
    index = SignatureIndex(content_signatures(p).values() for p in [*pages, dup])
    target = page("T0", "body 0")
    delete_shared(target, index, member=True)
    # one other page (the duplicate) of three others holds the body: below half, kept
    assert "body 0" in text(target)


def test_no_references_removes_nothing() -> None:
    target = page("T", "b")
    before = text(target)
    assert delete_shared(target, SignatureIndex()) == []
    assert text(target) == before


def test_learned_model_keeps_only_repeated_signatures_and_removes_template() -> None:
    pages = [page(f"T{i}", f"body {i}") for i in range(4)]
    sigs = [content_signatures(p).values() for p in pages]
    structs = [page_structure(p, relaxed=True) for p in pages]
    model = learn_template("s#0", sigs, structs, similarity_matrix(structs, relaxed=True))
    assert model.pages == 4 and min(model.count.values()) >= 2
    new = page("Fresh", "a new article")
    delete_shared(new, model)
    assert "Home" not in text(new) and "Fresh" in text(new) and "a new article" in text(new)


def test_inline_template_bits_inside_running_text_stay() -> None:
    body = 'Shares of Intel (<a class="t">news</a> - <a class="t">people</a>) fell.<br>More.'
    refs = [parse_html(f"<html><body><p>Other {i} (<a class='t'>news</a>)<br>x</p></body></html>")
            for i in range(3)]
    target = parse_html(f"<html><body><div class='nav'>Home</div><p>{body}</p></body></html>")
    refs = [*refs, *(parse_html(f"<html><body><div class='nav'>Home</div><p>{i}</p></body></html>")
                     for i in range(3))]
    index = SignatureIndex(content_signatures(r).values() for r in refs)
    delete_shared(target, index)
    left = text(target)
    assert "Home" not in left  # a shared block goes
    assert "(news - people) fell." in left and target.find(".//br") is not None


def test_code_tokens_and_labels_beside_a_line_of_its_own_stay() -> None:
    code = ('<pre><span class="k">def</span> <span class="n">f{i}</span>'
            '<span class="p">():</span>\n    <span class="k">return</span> {i}</pre>')
    label = ('<div class="rev"><span class="who">u***{i} ({i})</span>'
             '<span class="l">- Left by buyer.</span></div>')

    def site_page(i: int) -> etree._Element:
        return parse_html(f"<html><body><div class='nav'>Home</div>{code.format(i=i)}"
                          f"{label.format(i=i)}</body></html>")

    refs = [site_page(i) for i in range(3)]
    target = site_page(7)
    index = SignatureIndex(content_signatures(r).values() for r in refs)
    delete_shared(target, index)
    left = text(target)
    assert "Home" not in left  # a shared block goes
    assert "def f7():" in left and "return 7" in left  # a listing is one text
    assert "u***7 (7)- Left by buyer." in left  # a shared label inside a line of its own


def test_repeated_items_keep_their_shared_labels_when_asked() -> None:
    def site_page(i: int) -> etree._Element:
        items = "".join(f'<div class="rev"><p>Review {i}-{k}: sturdy and light.</p>'
                        '<div class="lab">Verified purchase</div></div>' for k in range(3))
        return parse_html(f"<html><body><div class='nav'>Home</div><div>{items}</div>"
                          "</body></html>")

    index = SignatureIndex(content_signatures(site_page(i)).values() for i in range(3))
    plain, whole = site_page(7), site_page(7)
    delete_shared(plain, index)
    delete_shared(whole, index, items=True)
    assert "Home" not in text(plain) and "Home" not in text(whole)
    assert "Verified" not in text(plain)
    assert text(whole).count("Verified purchase") == 3 and "Review 7-2" in text(whole)


def test_container_path_finds_the_same_block_in_a_new_page_despite_extra_siblings() -> None:
    a = page("One", "first body")
    main = a.find(".//div[@class='main']")
    key = container_key(main, element_steps(a), a)
    assert len(key) == 1
    # An ad before the block and another page's text: the path leads to its block all the same.
    b = parse_html(TEMPLATE.format(title="Two", body="second", extra="").replace(
        "<body>", "<body><div class='ad'>ad</div><div class='ad'>ad</div>"))
    found = find_container(b, key)
    assert found is not None and found.get("class") == "main"
    assert "second" in text(found)
    assert find_container(parse_html("<html><body><p>x</p></body></html>"), key) is None


def test_container_key_starts_above_elements_the_extractor_made() -> None:
    a = page("One", "first body")
    steps = element_steps(a)
    main = a.find(".//div[@class='main']")
    wrapper = etree.SubElement(main, "div")  # not in the page as read: no step of its own
    assert container_key(wrapper, steps, a) == container_key(main, steps, a)


def test_common_container_is_the_deepest_shared_ancestor() -> None:
    assert common_container([((1, 0), (2, 0), (3, 1)), ((1, 0), (2, 0), (4, 0))]) == \
        ((1, 0), (2, 0))
    assert common_container([((1, 0),), ((5, 0),)]) == ()
    assert common_container([]) == ()


def test_copies_of_a_page_count_once_and_a_story_is_never_deleted_whole() -> None:
    story = page("Same story", "Told once, published under two URLs, word for word.")
    copy = page("Same story", "Told once, published under two URLs, word for word.")
    index = SignatureIndex(content_signatures(r).values() for r in (story, copy))
    assert index.pages == 1
    # A near copy (one more block) is two pages, and shares the story: it still stays.
    near = page("Same story", "Told once, published under two URLs, word for word.",
                extra="<div class='ad'>ad</div>")
    index = SignatureIndex(content_signatures(r).values() for r in (story, near))
    target = story.find(".//div[@class='main']")
    delete_shared(target, index, member=True)
    assert "word for word" in text(target)


OTHER_LAYOUT = """<html><body><div class="nav"><a href="/">Home</a></div>
<table class="listing"><tr><td>{body}</td></tr></table>
<div class="legal">Terms of use</div></body></html>"""


def anchors_of(pages: list[etree._Element]) -> TemplateModel:
    sigs = [content_signatures(p) for p in pages]
    structures = [page_structure(p) for p in pages]
    model = learn_template("site#0", [s.values() for s in sigs], structures,
                           similarity_matrix(structures))
    trees = [(p, element_steps(p), s) for p, s in zip(pages, sigs, strict=True)]
    return TemplateModel(model.cluster, model.pages, model.count, model.medoid,
                         anchors=learn_anchors(model, trees))


def test_anchors_recognise_a_new_page_of_the_template_and_not_another_layout() -> None:
    model = anchors_of([page(f"T{i}", f"body number {i}") for i in range(4)])
    assert model.anchors  # the nav, the share bar and the footer at their paths
    assert all(h in model.count for _key, h in model.anchors)
    new = page("New", "a story never seen", extra="<div class='ad'>ad slot</div>")
    assert anchor_coverage(PathFinder(new), model.anchors) == 1.0
    other = parse_html(OTHER_LAYOUT.format(body="a list of links"))
    assert anchor_coverage(PathFinder(other), model.anchors) < 0.4
    assert anchor_coverage(PathFinder(other), ()) == 0.0


def test_anchor_coverage_stops_hashing_once_a_mark_is_settled() -> None:
    model = anchors_of([page(f"T{i}", f"body number {i}") for i in range(4)])
    n = len(model.anchors)
    assert n >= 2
    new = page("New", "a story never seen")
    # Enough at the first anchor held: its share so far, 1/n.
    assert anchor_coverage(PathFinder(new), model.anchors, enough=0.01) == 1 / n
    other = parse_html(OTHER_LAYOUT.format(body="a list of links"))
    exact = anchor_coverage(PathFinder(other), model.anchors)
    # Above a mark the page cannot pass: a value no higher than the mark, at least the truth.
    bounded = anchor_coverage(PathFinder(other), model.anchors, above=0.9)
    assert exact <= bounded <= 0.9


def test_assign_page_without_exact_shares_chooses_the_same_template() -> None:
    from sitesift.methods.template.profile import SiteProfile

    first = anchors_of([page(f"T{i}", f"body number {i}") for i in range(4)])
    second = anchors_of([parse_html(OTHER_LAYOUT.format(body=f"list {i}")) for i in range(4)])
    second = dataclasses.replace(second, cluster="site#1")
    profile = SiteProfile(site="site", pages=8, templates=(first, second))
    for root in (page("New", "unseen"), parse_html(OTHER_LAYOUT.format(body="new list")),
                 parse_html("<html><body><p>nothing alike</p></body></html>")):
        exact = profile.assign_page(PathFinder(root))
        fast = profile.assign_page(PathFinder(root), exact=False)
        assert (exact[0] and exact[0].cluster) == (fast[0] and fast[0].cluster)
        assert fast[1] <= exact[1] or fast[0] is None


def test_anchors_are_outermost_shared_subtrees_not_their_parts() -> None:
    model = anchors_of([page(f"T{i}", f"body number {i}") for i in range(4)])
    pages = [page("X", "x")]
    nav = pages[0].find(".//div[@class='nav']")
    steps = element_steps(pages[0])
    nav_key = container_key(nav, steps, pages[0])
    keys = [key for key, _h in model.anchors]
    assert nav_key in keys
    # the links inside the navigation are covered by it, never anchors of their own
    assert not any(key[:len(nav_key)] == nav_key and key != nav_key for key in keys)


def test_delete_template_counts_its_deletions_and_zero_leaves_the_text() -> None:
    # (``auto`` keeps the text it rendered before the template step when nothing went)
    from sitesift.methods.page.content import Content
    from sitesift.methods.template.features import page_features
    from sitesift.methods.template.site import delete_template

    refs = [page(f"T{i}", f"body number {i}") for i in range(3)]
    index = SignatureIndex(content_signatures(r).values() for r in refs)
    target = page("Target", "the one true article")
    main = target.find(".//div[@class='main']")
    content = Content(nodes=(main,))
    assert delete_template(content, page_features(target), index, member=False) == 1
    assert "Share this story" not in content.text and "the one true article" in content.text
    before = content.text
    assert delete_template(content, page_features(target), index, member=False) == 0  # (gone)
    assert content.text == before
