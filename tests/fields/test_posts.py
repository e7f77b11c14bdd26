"""KSF (paper 001): post-body rules learned from a few thread pages, and posts."""

from __future__ import annotations

from forum_pages import USERS, thread_page

from sitesift.fields.post_rules import PostRule
from sitesift.fields.posts import (
    ContentSimilarRule,
    ShortLineRule,
    learn_post_rule,
    tf_idf,
    tokenize,
)
from sitesift.methods.template.profile import SiteProfile
from sitesift.parse import parse_html
from sitesift.profiles.serialize import profile_from_bytes, profile_to_bytes


def _roots(n: int = 8) -> list:
    return [parse_html(thread_page(tid, 2 + tid % 3)) for tid in range(1, n + 1)]


def test_learns_the_class_of_the_post_bodies_and_cuts_posts() -> None:
    rule = learn_post_rule(_roots())
    assert rule is not None
    assert rule.body.css == "div.msgtext"
    assert rule.author is not None and rule.author.css == "span.uname"
    posts = rule.posts(parse_html(thread_page(40, 3)))
    assert len(posts) == 4
    assert [p["author"] for p in posts] == [USERS[(40 + k) % len(USERS)] for k in range(4)]
    assert posts[0]["published"] == "2024-03-01 10:00"
    assert posts[0]["text"].endswith(".") and "Reply" not in posts[0]["text"]


def test_every_seed_finds_the_rule() -> None:
    roots = _roots(10)
    assert {learn_post_rule(roots, seed=s).body.css for s in range(5)} == {"div.msgtext"}


def test_learning_leaves_the_trees_unchanged() -> None:
    roots = _roots(5)
    from lxml import etree

    before = [etree.tostring(r) for r in roots]
    learn_post_rule(roots)
    assert [etree.tostring(r) for r in roots] == before


def test_rules_are_pluggable() -> None:
    # A stop rule that calls every line noise leaves nothing to vote with.
    class Everything:
        def is_noise(self, line: str) -> bool:
            return True

    assert learn_post_rule(_roots(), stop_rules=(Everything(),)) is None
    assert ShortLineRule(min_chars=4).is_noise("ok")
    similar = ContentSimilarRule(prefix=4)
    assert similar.template_lines([["Posted today", "unique words"], ["Posted never"]]) == {
        "Post"}


def test_tokenize_uses_jieba_for_chinese_and_words_otherwise() -> None:
    words = tokenize("负利率债券的市场也不断扩大 bond markets")
    assert "债券" in words and "市场" in words and "bond" in words and "markets" in words
    assert "的" not in words


def test_tf_idf_weighs_rare_words_up() -> None:
    weights = tf_idf([["apple", "common"], ["pear", "common"], ["plum", "common"]])
    assert weights[0]["apple"] > 0 > weights[0]["common"]


def test_post_rule_round_trips_through_a_profile() -> None:
    rule = learn_post_rule(_roots())
    assert rule is not None
    forum = {**rule.to_dict(), "thread_regex": "[/]show"}
    profile = SiteProfile(site="forum.test", pages=8, forum=forum)
    back = profile_from_bytes(profile_to_bytes(profile))
    assert back.forum == forum
    assert PostRule.from_dict(back.forum) == rule
    # Profiles without forum rules keep their bytes and read back without them.
    plain = SiteProfile(site="x", pages=1)
    assert profile_from_bytes(profile_to_bytes(plain)).forum is None


def test_a_post_without_the_author_element_names_its_bare_poster() -> None:
    # A guest's post shows a bare name where members' names sit in the author element.
    rule = learn_post_rule(_roots())
    assert rule is not None
    page = thread_page(40, 2).replace('<span class="uname">', '<b>', 1).replace(
        "</span><span class=\"rank\">", "</b><span class=\"rank\">", 1)
    posts = rule.posts(parse_html(page))
    assert posts[0]["author"] == USERS[40 % len(USERS)]
    assert posts[1]["author"] == USERS[41 % len(USERS)]


def test_a_time_shown_before_the_poster_is_no_name() -> None:
    # Each post's frame shows its time first, then its poster's name: the name is learned.
    from sitesift.fields.post_rules import author_rule

    posts = "".join(
        f"<li class='postbit'><span class='date'>11-29-2024, <span class='time'>0{i}:03 AM"
        f"</span></span><a class='username' href='/u/{i}'><strong>{name}</strong></a>"
        f"<blockquote class='postcontent'>Post number {i} says something long enough."
        f"</blockquote></li>" for i, name in enumerate(("HOSTLAR", "1Ali", "mira")))
    root = parse_html(f"<html><body><ol class='posts'>{posts}</ol></body></html>")
    rule = author_rule([root.xpath("//blockquote")], 1)
    assert rule is not None and rule.tag == "a"


def test_has_stable_class_is_whether_stable_classes_holds_any() -> None:
    from sitesift.fields.post_rules import has_stable_class, stable_classes

    for cls in (None, "", "  ", "post", "post-123", "post-123 row", "post-123 id-4567",
                "a1 b22", "\tx\n", "цвет-1234 ok"):
        el = parse_html(f"<html><body><p class='{cls}'>x</p></body></html>" if cls is not None
                        else "<html><body><p>x</p></body></html>").find(".//p")
        assert has_stable_class(el) == bool(stable_classes(el)), cls


def test_a_post_s_time_in_day_first_and_month_first_forms() -> None:
    from sitesift.fields.date_forms import MONTH_FIRST_ALWAYS
    # A poster's join date stands above the post's <time>, whose printed text is read in the
    # site's order.
    page = parse_html(
        '<html><body><div class="post"><dl class="profile"><a class="who">ann</a>'
        '<dd>Joined: 27/01/2025 03:16</dd></dl><p class="meta">by ann '
        '<time datetime="2025-09-12T08:25:54+00:00">12/09/2025 08:25</time></p>'
        '<div class="content">Some words of the post that say enough.</div></div></body></html>')
    rule = PostRule.from_dict({"body": ["div", ["content"]], "depth": 1,
                               "author": ["a", ["who"]]})
    assert rule.posts(page, False)[0]["published"] == "2025-09-12 08:25"
    # A month-first site's dashes (its other pages print "08-13-2025").
    page = parse_html(
        '<html><body><div class="post"><a class="who">ann</a><span class="when">'
        '08-12-2025, 05:29 PM</span><div class="content">Some words of the post.</div></div>'
        '</body></html>')
    assert rule.posts(page, MONTH_FIRST_ALWAYS)[0]["published"] == "2025-08-12 17:29"
    assert rule.posts(page, True)[0]["published"] == "2025-12-08 17:29"
    # A date and its clock time in two elements.
    page = parse_html(
        '<html><body><div class="post"><a class="who">ann</a><span class="day">13/08/2025</span>'
        ' <span class="clock">05:29 PM</span><div class="content">Some words of the post.</div>'
        '</div></body></html>')
    assert rule.posts(page, False)[0]["published"] == "2025-08-13 17:29"
