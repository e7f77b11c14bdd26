from dataclasses import replace

from sitesift import Extractor, Options, Page
from sitesift.methods.page.content import Content
from sitesift.methods.siblings.clean import clean_content, noise_blocks, remove_block
from sitesift.methods.siblings.layer import same_layer
from sitesift.methods.siblings.match import match_subtree
from sitesift.methods.siblings.site import SiblingSite
from sitesift.methods.siblings.strings import NodeString, _Subtree
from sitesift.output.render import to_text
from sitesift.parse import parse_html
from sitesift.parse.signatures import RelaxedLabels
from sitesift.segment.blocks import blocks_of, segment_blocks
from sitesift.segment.layout import BLOCK_ELEMENT_TAGS, TEXT_TAG, UNLABELLED, Layout

LAYOUT = """<html><body><div id="nav"><ul><li><a href="/">Home</a></li>
<li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></div>
<div class="story"><h1>{t}</h1><p>{b}</p><p class="share">Share this story by email</p>
<ul class="related">{r}</ul></div>
<div id="foot">Copyright 2008 Harbour News. All rights reserved.</div></body></html>"""


def page(k: int) -> str:
    related = "".join(f'<li><a href="/r{k}{j}">Other story {k}-{j}</a></li>' for j in range(3))
    return LAYOUT.format(t=f"Story number {k}", r=related,
                         b=f"Body of story {k}, which no other page repeats, told at length. "
                         + f"It goes on for several sentences, as articles do (story {k}). " * 8)


def strings(html: str) -> tuple[NodeString, object]:
    root = parse_html(html)
    return NodeString.of(root), root


def test_same_layer_takes_the_longest_directory_prefix_then_widens() -> None:
    urls = ["http://a.com/news/x/1.html", "http://a.com/news/x/2.html",
            "http://a.com/news/y/3.html", "http://a.com/sport/4.html", None]
    assert same_layer(urls, 0, minimum=1) == [1]
    assert same_layer(urls, 0, minimum=2) == [1, 2]
    assert same_layer(urls, 0, minimum=3) == [1, 2, 3]  # the host is shared by all with URLs
    assert same_layer(urls, 4) == [0, 1, 2, 3]  # no URL: the whole site


def test_node_string_has_depths_ends_and_text_nodes() -> None:
    s, _ = strings("<html><body><div><p>One <b>two</b></p></div></body></html>")
    assert s.tags == ["body", "div", "p", "#text", "b", "#text"]
    assert s.depths == [0, 1, 2, 3, 3, 4]
    assert s.ends == [6, 6, 6, 4, 6, 6]


def test_the_site_memos_give_each_page_the_string_it_has_alone() -> None:
    codes: dict[str, tuple[int, int]] = {}
    labels = RelaxedLabels()
    pages = [page(k) for k in range(3)] + [
        "<html><body><p> Home\n</p><p>Home</p><div>Home <b>x</b>Home\u00a0</div></body></html>"]
    for html in pages:
        shared, alone = NodeString.of(parse_html(html), labels, codes), strings(html)[0]
        for name in ("tags", "depths", "ends", "parents", "texts", "weights", "labels",
                     "at_text", "at_label"):
            assert getattr(shared, name) == getattr(alone, name), name
    assert codes[" Home\n"] == codes["Home"] and codes["Home\u00a0"] == codes["Home"]


def test_only_the_elements_a_leaf_block_may_be_are_labelled() -> None:
    html = ("<html><body><div class=a><span class=b>x</span><ul><li><a href=y>one</a></li>"
            "<li><a href=z>two</a></li></ul></div><select><option>s</option></select>"
            "<p>para <b>bold</b></p></body></html>")
    roots = [parse_html(html), parse_html(page(1))]
    site = SiblingSite(roots, [None, None])
    for root, string in zip(roots, site.strings, strict=True):
        full = NodeString.of(root)
        for p, tag in enumerate(string.tags):
            if tag in BLOCK_ELEMENT_TAGS:  # (body among them)
                assert string.labels[p] == full.labels[p] and p in string.at_label[full.labels[p]]
            elif tag != "#text":
                assert string.labels[p] == UNLABELLED
        top = segment_blocks(root)
        for leaf in top.leaves():  # every leaf element block's base is labelled
            if not leaf.is_run:
                assert string.labels[leaf.base] != UNLABELLED


def test_node_string_sums_and_lists_the_text_of_any_stretch() -> None:
    s, _ = strings("<html><body><div><p>One  two <b>three</b></p>four</div>"
                   "<p> five\nsix </p></body></html>")
    assert s.weights == [0, 0, 0, 6, 0, 5, 4, 0, 7]  # (characters without white space)
    for start in range(len(s.tags) + 1):
        for stop in range(start, len(s.tags) + 1):
            assert s.text_weight(start, stop) == sum(s.weights[start:stop])
            assert s.text_nodes(start, stop) == [p for p in range(start, stop) if s.texts[p]]


def test_state_machine_slides_over_an_extra_subtree_of_the_sibling() -> None:
    t, _ = strings("<html><body><ul><li>a</li><li>b</li></ul></body></html>")
    s, _ = strings("<html><body><ul><li>a</li><p>extra</p><li>b</li></ul></body></html>")
    sub = _Subtree(1, t.ends[1], 1, True)
    m = match_subtree(t, sub, s, 1)
    assert m is not None and m.tag_similarity == 1.0 and m.text_similarity == 1.0
    assert match_subtree(t, sub, s, 1, max_slide=0).text_similarity < 1.0  # type: ignore[union-attr]


def test_second_verification_rejects_equal_strings_of_different_trees() -> None:
    # Paper 004, figure 1: DFS strings are equal, depths are not.
    t, _ = strings("<html><body><div><p><b>x</b></p><i>y</i></div></body></html>")
    s, _ = strings("<html><body><div><p><b>x</b><i>y</i></p></div></body></html>")
    assert [x for x in t.tags] == [x for x in s.tags]
    assert match_subtree(t, _Subtree(1, t.ends[1], 1, True), s, 1) is None


def test_the_node_string_is_the_pages_layout_and_divides_as_the_tree() -> None:
    html = ("<html><body>lead <div>One <a href=x>two <b>three</b></a> four<!-- c -->five"
            "<p hidden>gone <b>too</b></p>tail<ul><li><a href=y>six</a></li></ul>"
            "<span style='display: none'><p>hidden block</p></span> after</div>"
            "<select><option>seven</option></select><script>x()</script>end</body></html>")
    root = parse_html(html)
    walked, read = Layout.walk(root.find("body")), NodeString.of(root)
    for name in ("tags", "depths", "ends", "parents", "texts", "weights", "labels", "holders"):
        assert getattr(read, name) == getattr(walked, name), name
    assert len(read.tags) == 19
    assert "gone" not in str(read.holders) and TEXT_TAG in read.tags
    top = segment_blocks(root, layout=read)
    assert shape(top) == shape(segment_blocks(root))
    tops = [top, segment_blocks(root, texts=False), blocks_of(root.find("body"), read)]
    assert [len(t.leaves()) for t in tops] == [len(tops[0].leaves())] * 3
    for a, b, c in zip(*(t.leaves() for t in tops), strict=True):
        assert (a.start, a.stop, a.base, a.pieces) == (b.start, b.stop, b.base, b.pieces) == (
            c.start, c.stop, c.base, c.pieces)
    hidden = parse_html("<html><body hidden><p>x</p></body></html>")
    assert segment_blocks(hidden).start == -1 and not segment_blocks(hidden).children


def shape(block) -> tuple:
    return (block.owner, block.nodes, block.text, block.weight, block.link_weight,
            block.is_run, block.pieces, [shape(c) for c in block.children])


def test_identical_subtrees_match_as_the_walk_matches_them() -> None:
    html = "<ul><li>a</li><li><b>b</b> c</li></ul>"
    t, _ = strings(f"<html><body>{html}</body></html>")
    deeper, _ = strings(f"<html><body><div>{html}</div></body></html>")
    sub = _Subtree(1, t.ends[1], 1, True)
    # Equal depths: the slices compare equal; one level down the walk pairs node by node.
    assert match_subtree(t, sub, t, 1) == match_subtree(t, sub, deeper, 2) == (1.0, 1.0)
    other = html.replace(" c", " other words")
    same_shape, _ = strings(f"<html><body>{other}</body></html>")
    deeper, _ = strings(f"<html><body><div>{other}</div></body></html>")
    m = match_subtree(t, sub, same_shape, 1)
    assert m == match_subtree(t, sub, deeper, 2) and m.tag_similarity == 1.0  # type: ignore[union-attr]
    assert m.text_similarity == 2 / 3  # type: ignore[union-attr]  (a and b of abc)


def test_the_shapes_matched_for_one_page_give_the_others_the_same_verdicts() -> None:
    roots = [parse_html(page(k)) for k in range(4)]
    urls = [f"http://h.com/news/{k}.html" for k in range(4)]
    site = SiblingSite(roots, urls)
    tops = [segment_blocks(r) for r in roots]
    for k in range(4):
        alone = SiblingSite(roots, urls).judge(k, tops[k])  # (nothing matched before)
        judged = site.judge(k, tops[k])
        assert judged == alone and any(v.kind == "varying" for v in judged.values())


def test_a_block_content_is_matched_once_per_sibling_page_for_the_site(monkeypatch) -> None:
    roots = [parse_html(page(k)) for k in range(6)]
    urls = [f"http://h.com/news/{k}.html" for k in range(6)]
    tops = [segment_blocks(r) for r in roots]
    alone = [SiblingSite(roots, urls).judge(k, tops[k]) for k in range(6)]
    calls: list[int] = []
    match_in = SiblingSite._match_in

    def counted(self, t, sub, probe, k, total, slack):  # type: ignore[no-untyped-def]
        calls.append(k)
        return match_in(self, t, sub, probe, k, total, slack)

    monkeypatch.setattr(SiblingSite, "_match_in", counted)
    site = SiblingSite(roots, urls)
    for k in (5, 0, 3, 1, 4, 2):  # (any order: the memo holds matches, not verdicts)
        before = len(calls)
        assert site.judge(k, tops[k]) == alone[k]
        if k == 5:
            first = len(calls) - before
        elif k == 2:  # the menu and footer were matched in its siblings for the pages before
            assert len(calls) - before < first
    assert len(set(site._probes)) == len(site._probes)


def test_a_candidate_lacking_a_heavy_text_is_not_matched(monkeypatch) -> None:
    roots = [parse_html(page(k)) for k in range(4)]
    site = SiblingSite(roots, [None] * 4)
    t, s = site.strings[0], site.strings[1]
    story = next(p for p in t.text_nodes(0, len(t.tags)) if t.weights[p] > 100)
    heavy = (t.texts[story], t.weights[story])  # (hash, weight, hash, weight...)
    body = 0  # page 1's body holds its own story, not page 0's
    assert site._misses_text(1, body, s.ends[body], heavy, slack=40)
    assert not site._misses_text(0, body, t.ends[body], heavy, slack=40)
    assert not site._misses_text(1, body, s.ends[body], heavy, slack=t.weights[story])
    top = segment_blocks(roots[0])
    bounded = site.judge(0, top)
    monkeypatch.setattr("sitesift.methods.siblings.site.TEXT_BOUND_TEXTS", 0)
    assert SiblingSite(roots, [None] * 4).judge(0, top) == bounded


def test_judge_finds_the_template_and_the_changing_link_list_not_the_story() -> None:
    roots = [parse_html(page(k)) for k in range(4)]
    site = SiblingSite(roots, [f"http://h.com/news/{k}.html" for k in range(4)])
    top = segment_blocks(roots[0])
    verdicts = site.judge(0, top)
    noise = {b.text: v for b, v in noise_blocks(top, verdicts)}
    assert "Home World Sport" in noise and noise["Home World Sport"].kind == "same"
    assert noise["Home World Sport"].pages == 1  # one of three is enough (MIN_MATCH_SHARE)
    assert noise["Home World Sport"].siblings == 3
    assert "Share this story by email" in noise
    assert "Copyright 2008 Harbour News. All rights reserved." in noise
    assert any(v.kind == "varying" for v in noise.values())  # the related links
    assert not any("Body of story 0" in text for text in noise)
    assert not any(text.startswith("Story number") for text in noise)


def test_thresholds_are_the_papers_and_configurable() -> None:
    roots = [parse_html(page(k)) for k in range(2)]
    strict = SiblingSite(roots, [None, None], text_similarity=1.0, tag_similarity=1.0)
    top = segment_blocks(roots[0])
    assert noise_blocks(top, strict.judge(0, top))  # identical blocks pass any threshold


def test_remove_block_deletes_a_run_and_keeps_its_neighbours() -> None:
    root = parse_html("<html><body><div>Before<p>para</p>run <b>bold</b> end<p>after</p>"
                      "</div></body></html>")
    top = segment_blocks(root)
    run = next(b for b in top.leaves() if b.text == "run bold end")
    remove_block(run)
    assert to_text([root.find("body")]) == "Before\n\npara\n\nafter"


def test_clean_content_removes_noise_inside_the_main_block() -> None:
    roots = [parse_html(page(k)) for k in range(3)]
    site = SiblingSite(roots, [None] * 3)
    top = segment_blocks(roots[0])
    story = roots[0].find(".//div[@class='story']")
    cleaned = clean_content(Content(nodes=(story,)), top, site.judge(0, top))
    assert "Share this story" not in cleaned.text and "Body of story 0" in cleaned.text


def test_clean_content_hands_back_the_content_when_no_deletion_reaches_it() -> None:
    """Noise only outside the main block (the menu, the footer): the same ``content`` comes
    back, its text as before; noise inside it (the share line): a new content."""
    roots = [parse_html(page(k)) for k in range(3)]
    site = SiblingSite(roots, [None] * 3)
    top = segment_blocks(roots[0])
    body = roots[0].find(".//div[@class='story']/p")
    content = Content(nodes=(body,))
    before = content.text
    assert noise_blocks(top, site.judge(0, top))  # the menu and footer go
    assert clean_content(content, top, site.judge(0, top)) is content
    assert content.text == before and roots[0].find(".//div[@id='foot']") is None
    roots = [parse_html(page(k)) for k in range(3)]
    site = SiblingSite(roots, [None] * 3)
    top = segment_blocks(roots[0])
    story = Content(nodes=(roots[0].find(".//div[@class='story']"),))
    assert clean_content(story, top, site.judge(0, top)) is not story


def test_siblings_method_records_and_one_page_site_falls_back() -> None:
    pages = [Page(id=str(k), url=f"http://h.com/news/{k}.html", site="h", html=page(k))
             for k in range(3)]
    pages.append(Page(id="lone", site="other", html=page(9)))
    records = list(Extractor(Options(method="siblings", blocks=True)).extract_many(pages))
    assert [r.method for r in records] == ["siblings"] * 3 + ["page"]
    assert "Share this story" not in (records[0].text or "")
    assert "Body of story 0" in (records[0].text or "")
    blocks = records[0].extra["blocks"]
    assert {b["label"] for b in blocks} == {"noise", "content"}
    assert any(b["reason"].startswith("matches 1 of 2") for b in blocks)
    assert records[3].extra["blocks"] and not records[3].error


def test_a_broken_page_does_not_stop_its_site() -> None:
    pages = [Page(id=str(k), url=f"http://h.com/n/{k}.html", site="h", html=page(k))
             for k in range(3)]
    pages[1] = replace(pages[1], error="decode: bad bytes")
    records = list(Extractor(Options(method="siblings")).extract_many(pages))
    assert records[1].error == "decode: bad bytes"
    assert records[0].method == records[2].method == "siblings"


def test_a_main_block_inside_a_noise_block_goes_whole() -> None:
    notice = ("<html><body><div id='n'><p>This page is best viewed in an up-to-date browser with "
              "style sheets enabled, please upgrade.</p></div><ul>{}</ul></body></html>")
    roots = [parse_html(notice.format(f"<li><a href='/{k}'>Link {k}</a></li>")) for k in range(3)]
    site = SiblingSite(roots, [None] * 3)
    top = segment_blocks(roots[0])
    main = roots[0].find(".//p")
    cleaned = clean_content(Content(nodes=(main,)), top, site.judge(0, top))
    assert cleaned.text == "" and cleaned.nodes == ()


def test_a_copy_of_the_page_is_no_sibling() -> None:
    roots = [parse_html(page(0)), parse_html(page(0)), parse_html(page(1))]
    site = SiblingSite(roots, [f"http://h.com/news/{k}.html" for k in range(3)])
    assert site.siblings(0) == [2] and site.siblings(1) == [2]


def test_the_sibling_method_runs_through_the_interface() -> None:
    """``SiblingsMethod`` is a site-level method like any (``methods.interface``): given to
    ``extract_with`` it reads the pages as ``--method siblings`` does (which runs it so too,
    with the site's titles learned first: the same here)."""
    from sitesift.methods.siblings.method import SiblingsMethod

    pages = [Page(id=str(k), url=f"http://h.com/news/{k}.html", site="h", html=page(k))
             for k in range(3)]
    by_path = list(Extractor(Options(method="siblings")).extract_many(pages))
    records, models = Extractor(Options(method="page")).extract_with(SiblingsMethod(), pages)
    assert [r.to_dict() for r in records] == [r.to_dict() for r in by_path]
    assert list(models) == ["h"] and SiblingsMethod().to_profile(models["h"]) is None
    assert "Share this story" not in (records[0].text or "")


def test_verdicts_are_judged_on_articles_only(monkeypatch) -> None:
    """``apply`` reads the verdicts on an article only, so a list page is never judged; and
    judged after the page extractor edited the tree, an article's verdicts are those of its
    untouched tree (they read the node strings and the block tree, made before)."""
    from sitesift.methods.interface import SitePage
    from sitesift.methods.siblings.method import SiblingsMethod

    roots = [parse_html(page(k)) for k in range(4)]
    urls = [f"http://h.com/news/{k}.html" for k in range(4)]
    method = SiblingsMethod()
    model = method.learn([SitePage(id=str(k), url=u, root=r, meta=None, index=k)  # type: ignore[arg-type]
                          for k, (r, u) in enumerate(zip(roots, urls, strict=True))])
    assert model is not None
    top = segment_blocks(roots[0])
    untouched = {(b.owner, b.pieces) for b, _ in noise_blocks(top, model.judge(0, top))}
    assert untouched
    judged: list[int] = []
    judge = SiblingSite.judge
    monkeypatch.setattr(SiblingSite, "judge",
                        lambda self, target, top: judged.append(target) or judge(self, target, top))
    site_page = SitePage(id="0", url=urls[0], root=roots[0], meta=None, index=0)  # type: ignore[arg-type]
    seen = method.look(model, site_page)
    assert judged == []  # (looking reads the blocks only)
    content = Content(page_type="list", nodes=(roots[0].find("body"),))
    assert method.apply(model, site_page, content, seen) is None and judged == []
    for el in list(roots[0].iter("p")):  # the page extractor edits the tree
        el.getparent().remove(el)
    decision = method.apply(model, site_page, replace(content, page_type="detail"), seen)
    assert decision is not None and judged == [0]
    assert {(b.owner, b.pieces) for b, _ in noise_blocks(seen.top, seen.verdicts)  # type: ignore[arg-type]
            } == untouched


DOC = """<html><body><div id="nav"><a href="/">Home</a> <a href="/guide/">Guide</a></div>
<div class="doc"><h1>Deploying with server {k}</h1><p>{own}</p>{shared}<p>{more}</p>
<p class="share">Share this page by email</p></div>
<div id="foot">Copyright 2024 Harbour Docs. All rights reserved.</div></body></html>"""
STEPS = ("<pre>$ python -m venv .venv\n$ . .venv/bin/activate\n$ pip install .\n"
         "$ pip install the-server-of-your-choice</pre>")


def doc_page(k: int) -> Page:
    """A documentation page; pages 0 and 1 share their install steps between their own
    paragraphs, as a site's sibling tutorials do."""
    own = f"Server {k} runs your application in its own way, as told here at length. " * 3
    more = f"Then configure server {k} with the options that suit your deployment. " * 3
    return Page(id=str(k), url=f"http://docs.test/deploying/{k}.html", site="docs",
                html=DOC.format(k=k, own=own, more=more, shared=STEPS if k < 2 else ""))


def test_what_few_siblings_share_between_the_pages_own_text_stays() -> None:
    """Inside the main block's varying region, a block a few same-layer pages share is
    content (the install steps); what sits at its edges and the siblings show as noise
    (the share line) still goes."""
    records = list(Extractor(Options(method="siblings", blocks=True)).extract_many(
        [doc_page(k) for k in range(5)]))
    text = records[0].text or ""
    assert "pip install the-server-of-your-choice" in text
    assert "Share this page" not in text and "Server 0 runs" in text
    steps = next(b for b in records[0].extra["blocks"] if "pip install ." in b["text"])
    assert steps["label"] == "content"
