"""The page's kind: the shipped model, the features it reads, its agreement with page types,
and the record's ``kind`` in every output."""

from __future__ import annotations

import io
import json
from importlib import resources

import pytest

from sitesift import Options
from sitesift.methods.interface import Decision
from sitesift.methods.page.kind import (
    KINDS,
    TYPE_KINDS,
    PageSignals,
    decide_kind,
    kind_features,
    kind_of_type,
    load_model,
    page_kind,
)
from sitesift.output import open_writer
from sitesift.parse import parse_html
from sitesift.pipeline.base import carry_out
from sitesift.pipeline.extractor import extract_html
from sitesift.record import Record

PROSE = ("The council voted on Tuesday to extend the harbour wall, a project that has been "
         "debated for a decade. Engineers say the new section will protect homes. ")

ARTICLE = f"""<html><head><title>Harbour wall to be extended | Coast News</title>
<meta property="og:type" content="article">
<meta property="article:published_time" content="2025-06-03T10:00:00Z">
<script type="application/ld+json">{{"@type": "NewsArticle", "headline": "Harbour wall",
 "datePublished": "2025-06-03", "author": {{"name": "Ann Lee"}}}}</script></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Harbour wall to be extended</h1><p class="byline">By Ann Lee, June 3, 2025</p>
{"".join(f"<p>{PROSE * 2}</p>" for _ in range(8))}</article></body></html>"""

PRODUCT = """<html><head><title>Trail Pack 25 | Outdoor Shop</title>
<meta property="og:type" content="product">
<script type="application/ld+json">{"@type": "Product", "name": "Trail Pack 25",
 "offers": {"@type": "Offer", "price": "89.95", "priceCurrency": "USD"}}</script></head>
<body><main><h1>Trail Pack 25</h1><div class="product-price">$89.95</div>
<select name="color"><option>Blue</option></select>
<button class="add-to-cart">Add to cart</button><p>In stock. Free shipping over $50.</p>
<h2>Details</h2><ul><li>25 litres</li><li>Weight: 1.1 kg</li></ul>
<h2>Reviews</h2><p>4.7 out of 5, 120 reviews.</p></main></body></html>"""

DOCS = """<html><head><title>Using promises - Reference | Docs</title></head><body>
<nav class="sidebar-toc"><ul>{toc}</ul></nav>
<main><h1>Using promises</h1><p>A promise is an object representing the eventual completion
or failure of an asynchronous operation. This guide explains how to chain them.</p>
<h2 id="chaining">Chaining</h2><pre><code>doSomething().then(result => next(result));</code></pre>
<p>The <code>then()</code> function returns a new promise, different from the original.</p>
<h2 id="errors">Error handling</h2><pre><code>promise.catch(failureCallback);</code></pre>
<h3>Parameters</h3><p><code>onRejected</code>: a function called if the promise is rejected.</p>
<h3>Returns</h3><p>A new promise. See also: async functions.</p>
<p><a href="#chaining">Previous</a> <a href="#errors">Next</a></p></main></body></html>
""".replace("{toc}", "".join(f'<li><a href="/docs/api/p{i}">Method {i}</a></li>'
                              for i in range(30)))


def test_the_shipped_model_is_small_plain_data_over_the_seven_kinds() -> None:
    text = resources.files("sitesift.methods.page.kind").joinpath("kind_model.json") \
        .read_text(encoding="utf-8")
    assert len(text) < 64_000  # a few tens of KB at most
    model = load_model()
    assert model.kinds == KINDS
    assert len(model.coef) == len(KINDS)
    assert all(len(row) == len(model.features) for row in model.coef)
    trained = json.loads(text)["trained"]  # the cross-validated figures kept with it
    assert trained["cv_by_site"] > 0.8


def test_features_read_declared_types_url_words_and_counts_without_editing_the_tree() -> None:
    root = parse_html(PRODUCT)
    before = len(list(root.iter()))
    seen = kind_features(root, "https://shop.example/products/trail-pack-25")
    assert len(list(root.iter())) == before
    assert seen["ld_product"] == 1.0 and seen["og_product"] == 1.0
    assert seen["url_w_product"] == 1.0 and seen["url_w_forum"] == 0.0
    assert seen["t_price"] > 0 and seen["t_cart"] > 0


@pytest.mark.parametrize(("html", "url", "kind"), [
    (ARTICLE, "https://coastnews.example/2025/06/03/harbour-wall-to-be-extended/", "article"),
    (PRODUCT, "https://shop.example/products/trail-pack-25", "product"),
    (DOCS, "https://developer.example/docs/reference/using-promises", "documentation"),
])
def test_clear_pages_get_their_kind_and_an_agreeing_page_type(html: str, url: str,
                                                                kind: str) -> None:
    record = extract_html(html, url=url)
    assert record.kind == kind
    assert kind in TYPE_KINDS[record.page_type or "other"]
    assert page_kind(parse_html(html), url) == kind  # (the kind alone, for other callers)


def test_a_thread_page_is_a_forum_and_a_list_of_headlines_a_listing() -> None:
    replies = [
        ("We moved the build to the new runners last week, and since then every nightly job "
        "fails at the packaging step with a timeout; has anyone seen this?"),
        ("Same here. It started after the image update, and pinning the old image made the "
        "jobs pass again, so I would look at the toolchain it ships."),
        ("The new image has a slower disk; raising the timeout to twenty minutes fixed it for "
        "us, although the real fix is caching the dependencies between runs."),
    ]
    posts = "".join(
        f"<div class='post' id='p{i}'><div class='meta'><a class='user' href='/u/{name}'>"
        f"{name}</a> <time datetime='2024-05-0{i + 1}T10:00'>May 1, 2024</time></div>"
        f"<div class='body'><p>{text}</p></div><div class='tools'>Reply</div></div>"
        for i, (name, text) in enumerate(zip(("alice", "bob", "carol"), replies, strict=True)))
    thread = (f"<html><body><nav class='menu'><a href='/'>Home</a></nav><h1>Topic</h1>"
              f"<div class='stream'>{posts}</div><footer class='foot'>About</footer>"
              f"</body></html>")
    record = extract_html(thread, url="https://forum.example/t/build-timeouts/40024")
    assert (record.kind, record.page_type) == ("forum", "thread")
    cards = "".join(
        f'<div class="card"><h3><a href="/news/story-{i}">Story number {i} of the day about '
        f'the harbour</a></h3><p>June {i + 1}, 2025. A short teaser of story {i}.</p></div>'
        for i in range(20))
    listing = (f"<html><head><title>Latest news</title></head><body><h1>News</h1>{cards}"
               f"</body></html>")
    record = extract_html(listing, url="https://coastnews.example/news/")
    assert (record.kind, record.page_type) == ("listing", "list")


def test_the_kind_is_held_to_the_page_type_decided_before_or_after_it() -> None:
    # An article's features with a list's type: the best of the list's kinds.
    root = parse_html(ARTICLE)
    seen = kind_features(root, "https://coastnews.example/2025/06/03/harbour/")
    assert decide_kind(seen, PageSignals(page_type="detail")) == "article"
    assert decide_kind(seen, PageSignals(page_type="list")) in TYPE_KINDS["list"]
    assert decide_kind(seen, PageSignals(page_type="thread")) == "forum"
    assert decide_kind(seen, PageSignals(page_type="other")) == "article"  # (no decision)
    assert kind_of_type("article", "thread") == "forum"
    assert kind_of_type("collection", "list") == "collection"
    assert kind_of_type("forum", "list") == "listing"
    assert kind_of_type("service", "other") == "service"
    record = Record(id="1", page_type="detail", kind="article")
    carry_out(record, Decision(page_type="thread"))  # (the forum method's site-level type)
    assert (record.page_type, record.kind) == ("thread", "forum")


def test_every_record_and_output_carries_the_kind() -> None:
    record = extract_html(ARTICLE, url="https://coastnews.example/2025/06/03/harbour/")
    assert record.to_dict()["kind"] == "article"
    out = io.StringIO()
    open_writer(out, "markdown").write(record)
    assert 'kind: "article"' in out.getvalue()
    # Without a URL, and with no signals: still one of the seven.
    assert extract_html("<html><body><p>Hello.</p></body></html>").kind in KINDS
    assert page_kind(parse_html("<p>x</p>"), None, PageSignals(page_type="list")) in KINDS
    assert Options().method == "auto"


def test_site_level_page_types_hold_the_kind() -> None:
    """Every record of a whole site read by ``auto`` has a kind its page type allows, also
    where a site step changed the type (a blog's archives and posts with comments)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import wordpress_pages

    from sitesift import Extractor
    from sitesift.record import Page

    crawl = wordpress_pages.site("zh", False, False)
    pages = [Page(id=str(k), url=u, site="blog.test", html=h) for k, (u, h, _) in enumerate(crawl)]
    records = list(Extractor(Options(method="auto")).extract_many(pages))
    assert [r.page_type for r in records] == [t for _, _, t in crawl]
    for record in records:
        allowed = TYPE_KINDS.get(record.page_type or "")
        assert record.kind in KINDS and (not allowed or record.kind in allowed), record
