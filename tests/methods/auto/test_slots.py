import difflib
import random
from collections import defaultdict

from lxml import etree

from sitesift import Extractor, Page
from sitesift.methods.auto.recurrence import (
    COPY_MIN_SHARE,
    PATTERN_MIN_RATIO,
    RECUR_MIN_PAGES,
    RECUR_MIN_RATIO,
    Printed,
    left_out_lines,
    printed_lines,
)
from sitesift.methods.auto.restore import (
    dropped_paragraphs,
    headline_leads,
    paragraph_places,
    standfirsts,
)
from sitesift.methods.auto.slots import (
    MAX_SLOT_SHARE,
    MIN_CLUSTER_PAGES,
    delete_fields,
    field_lines,
    pictured,
)
from sitesift.parse import parse_html

STORY = ("<p>The harbour board met on day {k} and voted on the tide gates, the clerk said.</p>"
         "<p>Work starts in spring {k} and ends before the storms of autumn, she added.</p>")


def _page(k: int, byline: bool = True) -> etree._Element:
    by = f'<div class="by">By Writer Number{k}</div>' if byline else ""
    return parse_html(f"<html><body><div class='story'>{by}{STORY.format(k=k)}"
                      f"<a href='mailto:w{k}@x.test'>w{k}@x.test</a><br></div></body></html>")


def _main(root: etree._Element) -> list[etree._Element]:
    return [root.find(".//div")]


def test_a_line_each_page_fills_once_with_its_own_text_is_a_field() -> None:
    roots = [_page(k) for k in range(4)]
    fields = field_lines([_main(r) for r in roots])
    texts = [sorted(" ".join(el.text_content().split()) for el in f) for f in fields]
    assert texts[2] == ["By Writer Number2", "w2@x.test"]  # byline, and an e-mail line alone
    # the story's paragraphs fill their place twice a page: never fields
    assert all(el.tag != "p" for f in fields for el in f)


def test_a_named_line_is_a_field_though_its_wrappers_ids_vary_by_section() -> None:
    def page(k: int) -> etree._Element:
        section = ("news", "sport", "arts")[k % 3]
        return parse_html(f"<html><body><div id='{section}'><div class='story'>"
                          f"<div class='by'>By Writer Number{k}</div>{STORY.format(k=k)}"
                          "</div></div></body></html>")

    roots = [page(k) for k in range(6)]  # three sections: each place on a third of them
    fields = field_lines([[r.find(".//div[@class='story']")] for r in roots])
    assert [[el.text_content() for el in f] for f in fields] == [
        [f"By Writer Number{k}"] for k in range(6)]


def test_too_few_pages_say_nothing_and_a_page_keeps_most_of_its_text() -> None:
    assert field_lines([_main(_page(k)) for k in range(2)]) == [[], []]
    root = _page(1)
    main = _main(root)
    lines = field_lines([main] + [_main(_page(k)) for k in range(2, 5)])[0]
    size = sum(1 for ch in main[0].text_content() if not ch.isspace())
    assert not delete_fields(main, lines, int(size * MAX_SLOT_SHARE / 10))  # would take too much
    assert delete_fields(main, lines, size)
    left = main[0].text_content()
    assert "Writer" not in left and "@" not in left and "tide gates" in left


def test_a_caption_one_per_page_is_a_field_though_a_sentence_long() -> None:
    def page(k: int) -> etree._Element:
        caption = (f"<div class='photoCaption'><p>Workers {k} lift the old tide gate onto a "
                   "barge at the outer pier on a grey morning.</p></div>")
        return parse_html(f"<html><body><div class='story'>{caption}{STORY.format(k=k)}"
                          "</div></body></html>")

    fields = field_lines([_main(page(k)) for k in range(4)])
    assert all(len(f) == 1 and "tide gate onto" in f[0].text_content() for f in fields)


def test_the_line_after_the_headline_most_pages_print_is_the_story_s_start() -> None:
    def page(k: int, dek: bool = True) -> tuple[etree._Element, str, list[etree._Element]]:
        lead = (f"<p class='teaser'>Gate {k}: the board agreed to spend the reserve on new "
                "tide gates before the winter storms arrive at the outer harbour.</p>")
        lead = lead if dek else ""
        root = parse_html(f"<html><body><div class='head'><h2>Tide gates {k}</h2>{lead}</div>"
                          f"<div class='story'>{STORY.format(k=k)}</div></body></html>")
        return root, f"Tide gates {k}", [root.find(".//div[@class='story']")]

    leads = standfirsts([page(k) for k in range(3)] + [page(3, dek=False)])
    assert leads[1] is not None and leads[1].startswith("Gate 1: the board")
    assert leads[3] is None
    assert standfirsts([page(k) for k in range(2)]) == [None, None]  # too few pages
    root, title, _ = page(5)  # a main block holding the teaser already: nothing to add
    assert standfirsts([(root, title, [root.find(".//body")])] * 3) == [None] * 3


def test_highlights_beside_a_headline_alone_in_its_column_start_the_story() -> None:
    def page(k: int, links: bool = False) -> tuple[etree._Element, str, list[etree._Element]]:
        points = "".join(
            (f"<li><a href='/x{k}{j}'>Point {j} of story {k}: the gates close at the spring "
             "tide.</a></li>") if links else
            f"<li>Point {j} of story {k}: the gates close at the spring tide.</li>"
            for j in range(3))
        root = parse_html(f"<html><body><div class='top'><div class='left'><h1>Gates {k}</h1>"
                          f"</div><div class='right'><ul>{points}</ul></div></div>"
                          f"<div class='story'>{STORY.format(k=k)}</div></body></html>")
        return root, f"Gates {k}", [root.find(".//div[@class='story']")]

    leads = standfirsts([page(k) for k in range(3)])
    assert leads[2] is not None and leads[2].count("\n") >= 2 and "Point 1 of story 2" in leads[2]
    assert standfirsts([page(k, links=True) for k in range(3)]) == [None] * 3  # related links


def test_captions_of_figure_boxes_are_fields_however_many_a_page_holds() -> None:
    def page(k: int) -> tuple[etree._Element, list[etree._Element]]:
        boxes = "".join(f"<div><img src='/p{k}{j}.jpg'><div class='cap'>Gate {k}.{j} at dawn"
                        "</div></div>" for j in range(k % 3))
        flow = (f"<p><img src='/f{k}.jpg'></p><p class='desc'>Figure {k}: the gate plan as "
                "the board drew it in the spring, with the old pier and the new gates side by "
                "side</p>")
        root = parse_html(f"<html><body><div class='story'>{boxes}{STORY.format(k=k)}{flow}"
                          "</div></body></html>")
        main = [root.find(".//div[@class='story']")]
        return root, main

    built = [page(k) for k in range(6)]  # 0, 1 or 2 boxes a page
    mains = [main for _, main in built]
    shown = [pictured(main) for main in mains]
    for _, main in built:  # the template step deletes the pictures before the field step
        for img in list(main[0].iter("img")):
            img.getparent().remove(img)
    fields = field_lines(mains, pictures=shown)
    texts = [sorted(el.text_content() for el in f) for f in fields]
    assert texts[2] == ["Gate 2.0 at dawn", "Gate 2.1 at dawn"]
    assert texts[3] == []  # no box; its figure's description in the story's flow stays
    assert field_lines(mains) == [[] for _ in mains]  # without the pictures, no captions


def test_a_subheadline_the_page_extractor_took_out_with_the_headline_starts_the_story() -> None:
    def page(k: int, sub: str) -> tuple[etree._Element, str, list[etree._Element], dict]:
        root = parse_html(f"<html><body><div class='story'><h1>Tide gates {k}</h1>"
                          f"<h3>{sub}</h3>{STORY.format(k=k)}</div></body></html>")
        leads = headline_leads(root)
        story = root.find(".//div[@class='story']")
        for heading in list(story.iter("h1", "h3")):  # as the page extractor does
            story.remove(heading)
        return root, f"Tide gates {k}", [story], leads

    subs = [page(k, f"The board votes on spending the reserve, case {k}") for k in range(4)]
    found = standfirsts([p[:3] for p in subs], leads=[p[3] for p in subs])
    assert found[2] == "The board votes on spending the reserve, case 2"
    assert standfirsts([p[:3] for p in subs]) == [None] * 4  # the edited tree has no headline
    dates = [page(k, f"1/{k + 1}/09 at 5:50 PM") for k in range(4)]  # a dateline, not a phrase
    assert standfirsts([p[:3] for p in dates], leads=[p[3] for p in dates]) == [None] * 4


def test_a_paragraph_left_out_where_the_cluster_s_pages_keep_their_story_comes_back() -> None:
    para = ("<p>Paragraph {j} of story {k}: the harbour board met again and the clerk read "
            "the minutes of the vote on the tide gates aloud to the hall.</p>")

    def page(k: int, keep: int = 3) -> tuple[dict, list[etree._Element]]:
        root = parse_html("<html><body><div class='story'>"
                          + "".join(para.format(j=j, k=k) for j in range(3))
                          + "</div></body></html>")
        places = paragraph_places(root)
        story = root.find(".//div[@class='story']")
        wrapper = etree.SubElement(story, "div")  # the page extractor's run of paragraphs
        for p in story.findall("p")[:keep]:
            wrapper.append(p)
        return places, [wrapper]

    pages = [page(0, keep=2)] + [page(k) for k in range(1, 4)]
    back = dropped_paragraphs(pages)
    assert [len(b) for b in back] == [1, 0, 0, 0]
    assert "Paragraph 2 of story 0" in back[0][0].text_content()
    # another page leaving one out there too: the place is not the story's whole, none comes back
    assert dropped_paragraphs([page(0, keep=2), page(1, keep=2), page(2), page(3)]) == [
        [], [], [], []]
    places, nodes = page(0, keep=2)
    left = next(p for p in places if p not in set(nodes[0]))
    left.getparent().remove(left)  # a step deleted it: it stays out
    assert dropped_paragraphs([(places, nodes), *pages[1:]]) == [[], [], [], []]


def _shell(k: int) -> etree._Element:
    flag = ("true", "false")[k % 2]
    return parse_html(
        f"<html><body><div id='shell'><div class='hidden'>???initialComments:{flag}! "
        f"pubdate:0{k}/1{k}/2011 10:0{k} EST! commentPeriod:1{k}! allowComments:false! "
        f"displayComments:{flag}!</div><div class='story'>{STORY.format(k=k)}</div>"
        "</div></body></html>")


def test_a_line_the_other_pages_print_with_other_values_and_leave_out_goes() -> None:
    roots = [_shell(k) for k in range(4)]
    # the page extractor took the whole shell on page 0, the story alone on the others
    mains = [[r.find(".//div[@id='shell']")] if k == 0 else [r.find(".//div[@class='story']")]
             for k, r in enumerate(roots)]
    # page 3's tree lost it (the page extractor deletes hidden blocks): read before, it counts
    printed = [printed_lines(r) for r in roots]
    roots[3].find(".//div[@class='hidden']").drop_tree()
    found = left_out_lines(list(zip(printed, mains, strict=True)))
    assert [[el.get("class") for el in f] for f in found] == [["hidden"], [], [], []]


def test_a_line_most_pages_keep_or_none_print_alike_stays() -> None:
    roots = [_shell(k) for k in range(4)]
    shells = [[r.find(".//div[@id='shell']")] for r in roots]
    # every page keeps it: the site's pages show nothing against it
    printed = [printed_lines(r) for r in roots]
    assert left_out_lines(list(zip(printed, shells, strict=True))) == [[], [], [], []]
    # a story's paragraphs, kept on one page only, read like no other page's paragraphs
    stories = [[r.find(".//div[@class='story']")] for r in roots]
    for p in stories[0][0].iter("p"):
        p.text = "A different story told in words of its own about the council and the rain."
    mains = [stories[0], *([r.find(".//div[@class='hidden']")] for r in roots[1:])]
    printed = [printed_lines(r) for r in roots]
    assert left_out_lines(list(zip(printed, mains, strict=True))) == [[], [], [], []]
    # two pages are too few to tell
    assert left_out_lines(list(zip(printed[:2], [shells[0], stories[1]], strict=True))) == [[], []]


def test_a_paragraph_under_a_video_on_every_page_is_story_not_a_caption() -> None:
    """A photo's caption is a sentence; the paragraph a site prints under each video
    (``p.embedded-caption``) tells the story in short, and stays."""
    def page(k: int, words: str) -> tuple[etree._Element, list[etree._Element]]:
        root = parse_html(f"<html><body><div class='story'><div class='player'>"
                          f"<img src='/v{k}.jpg'><div class='box'>"
                          f"<p class='embedded-caption'>{words}</p></div></div>"
                          f"{STORY.format(k=k)}</div></body></html>")
        return root, [root.find(".//div[@class='story']")]

    short = [page(k, f"The gate {k} at dawn.") for k in range(4)]
    long = [page(k, f"Host {k} talks to the harbour board's clerk about the tide gates, the "
                    "vote of the spring, the money the town set aside for them, and why the "
                    "storms of autumn will test the old pier before the new gates are built.")
            for k in range(4)]
    for built, kept in ((short, False), (long, True)):
        mains = [main for _, main in built]
        fields = field_lines(mains, pictures=[pictured(main) for main in mains])
        assert all(not f for f in fields) is kept


def _left_out_pairwise(pages: list[tuple[list[Printed], list[etree._Element]]],
                       ) -> list[list[etree._Element]]:
    """``left_out_lines`` as first written: each kept line against every other page's lines
    at its places (quadratic in the cluster's pages): the reference the index must match."""
    found: list[list[etree._Element]] = [[] for _ in pages]
    if len(pages) < MIN_CLUSTER_PAGES:
        return found
    by_page = []
    mains = []
    for printed, nodes in pages:
        inside = {el for node in nodes for el in node.iter(etree.Element)}
        by_place: dict[tuple[str, ...], list[tuple[tuple[str, ...], bool]]] = defaultdict(list)
        for line in printed:
            for slot in line.slots:
                by_place[slot].append((line.words, line.element in inside))
        by_page.append(by_place)
        mains.append([line for line in printed if line.element in inside])
    kept_words = [{line.words for line in kept} for kept in mains]
    printed_words = [{line.words for line in printed} for printed, _ in pages]
    for k, kept in enumerate(mains):
        recurring = []
        for line in kept:
            out = held = recur = 0
            alone = {slot for slot in line.slots if len(by_page[k][slot]) == 1}
            for j, by_place in enumerate(by_page):
                if j == k:
                    continue
                rated = [(slot, inside, difflib.SequenceMatcher(
                    None, other, line.words, autojunk=False).ratio())
                    for slot in line.slots for other, inside in by_place.get(slot, ())]
                alike = [inside for _, inside, ratio in rated if ratio >= PATTERN_MIN_RATIO]
                if alike and not any(alike):
                    out += 1
                elif alike:
                    held += 1
                copy = (len(kept_words[k] & printed_words[j])
                        >= COPY_MIN_SHARE * len(kept_words[k]))
                if not copy and any(ratio >= RECUR_MIN_RATIO and slot in alone
                                    and len(by_place[slot]) == 1 for slot, _, ratio in rated):
                    recur += 1
            if out >= MIN_CLUSTER_PAGES - 1 and out > held:
                found[k].append(line.element)
            elif recur >= RECUR_MIN_PAGES:
                recurring.append(line.element)
        # a line recurring word for word goes at an edge of the page's own lines only
        own = [n for n, line in enumerate(kept)
               if line.element not in found[k] and line.element not in recurring]
        for n, line in enumerate(kept):
            if line.element in recurring and (not own or not own[0] < n < own[-1]):
                found[k].append(line.element)
        order = {line.element: n for n, line in enumerate(kept)}
        found[k].sort(key=order.__getitem__)
    return found


def test_left_out_lines_match_the_pairwise_definition() -> None:
    # Random clusters of few words and places, so that lines recur, read alike, sit in and
    # out of the main text: the index gives what comparing every pair of pages gives.
    words = ["one", "two", "three", "four", "five", "six"]
    places = [("p", "div.a"), ("p", "div.b"), ("span.by",)]
    for seed in range(150):
        rng = random.Random(seed)
        pages = []
        for _k in range(rng.randint(2, 7)):
            body = etree.Element("body")
            main, rest = etree.SubElement(body, "div"), etree.SubElement(body, "div")
            printed = []
            for _n in range(rng.randint(0, 6)):
                el = etree.SubElement(main if rng.random() < 0.5 else rest, "p")
                slots = tuple(rng.sample(places, rng.randint(1, 2)))
                line = tuple(rng.choice(words) for _ in range(rng.randint(4, 6)))
                printed.append(Printed(el, slots, line))
            pages.append((printed, [main]))
        assert left_out_lines(pages) == _left_out_pairwise(pages), seed


def test_a_notice_every_page_prints_alike_with_its_own_address_goes_though_kept() -> None:
    """The template step matches word for word: a copyright line naming the page's own
    address differs on every page. Its words (numbers aside) and its place, filled once a
    page, show it to be the template's, though the page extractor keeps it everywhere."""
    topics = ["harbour gates", "school roof", "river bridge", "market hall"]

    def page(k: int, notice: bool = True) -> etree._Element:
        line = (f"<div class='cr'>© All rights reserved, Base 2024, see the source at "
                f"https://base.test/news/{17400 + k}</div>" if notice else "")
        story = (f"<p>The council voted on the {topics[k]} and the clerk read it out.</p>"
                 f"<p>Work on the {topics[k]} starts in spring, the mayor said.</p>")
        return parse_html(f"<html><body><div class='story'>{story}{line}</div></body></html>")

    roots = [page(k) for k in range(4)]
    mains = [[r.find(".//div[@class='story']")] for r in roots]
    found = left_out_lines([(printed_lines(r), m) for r, m in zip(roots, mains, strict=True)])
    assert [[el.get("class") for el in f] for f in found] == [["cr"]] * 4
    # printed alike on one other page only, but that page is a copy of the story: it stays
    roots = [page(0), page(0), page(2, notice=False), page(3, notice=False)]
    mains = [[r.find(".//div[@class='story']")] for r in roots]
    assert left_out_lines([(printed_lines(r), m) for r, m in zip(roots, mains, strict=True)]) \
        == [[], [], [], []]


def test_a_line_few_pages_share_between_their_own_lines_is_theirs() -> None:
    """A line two pages print word for word, alone at its place, goes as a credit line at the
    end of the main text; between two of the page's own paragraphs it is theirs (a note, a
    code listing a documentation site's sibling pages share)."""
    topics = ["harbour gates", "school roof", "river bridge", "market hall"]
    note = "<div class='note'>Prefer the annotated version of the code when you can.</div>"

    def page(k: int, where: str) -> etree._Element:
        first = f"<p>The council voted on the {topics[k]} and the clerk read it out.</p>"
        last = f"<p>Work on the {topics[k]} starts in spring, the mayor said.</p>"
        if k >= 2:
            where = "none"
        parts = {"middle": [first, note, last], "end": [first, last, note],
                 "none": [first, last]}[where]
        return parse_html(f"<html><body><div class='story'>{''.join(parts)}</div></body></html>")

    for where, expected in (("middle", [[], [], [], []]),
                            ("end", [["note"], ["note"], [], []])):
        roots = [page(k, where) for k in range(4)]
        mains = [[r.find(".//div[@class='story']")] for r in roots]
        found = left_out_lines([(printed_lines(r), m) for r, m in zip(roots, mains, strict=True)])
        assert [[el.get("class") for el in f] for f in found] == expected, where


ITEM_LD = ('<script type="application/ld+json">{"@context": "https://schema.org", '
           '"@type": "Product", "name": "Lamp"}</script>')


def _item_page(k: int) -> Page:
    """An item on sale (schema.org Product): its price a short line of its own at one place,
    different on each page, as a story's byline is."""
    html = (f"<html><head>{ITEM_LD}</head><body><div class='nav'><a href='/'>Home</a></div>"
            f"<div class='story'><div class='price'>Price EUR {k + 10}.50</div>"
            f"{STORY.format(k=k)}</div></body></html>")
    return Page(id=f"{k}", url=f"https://shop.example/itm/{k}", site="shop", html=html)


def test_an_item_on_sale_keeps_its_fields() -> None:
    records = list(Extractor().extract_many([_item_page(k) for k in range(4)]))
    assert all(r.method.startswith("template") for r in records)  # the site steps ran
    assert all(f"Price EUR {k + 10}.50" in (r.text or "") for k, r in enumerate(records))


def test_delete_fields_deletes_nothing_on_an_item_s_page() -> None:
    root = _page(1)
    main = _main(root)
    lines = field_lines([main] + [_main(_page(k)) for k in range(2, 5)])[0]
    assert lines and not delete_fields(main, lines, 10_000, item=True)
    assert "Writer" in main[0].text_content()
