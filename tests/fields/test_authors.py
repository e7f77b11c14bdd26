"""Author cleaning and the author sources of a page (Chinese and English)."""

from __future__ import annotations

import pytest

from sitesift.fields.author_names import clean_author, join_authors
from sitesift.fields.authors import (
    author_from_en_name_line,
    author_from_meta,
    author_from_text,
    thread_author,
)
from sitesift.fields.metadata import extract_metadata
from sitesift.fields.zh_bylines import author_from_account_line, author_from_name_line
from sitesift.parse import parse_html


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("By Erin Cunningham", "Erin Cunningham"),
        ("  by   Jane  Doe  ", "Jane Doe"),
        ("Par Sébastien Farcis", "Sébastien Farcis"),
        ("By Nathan Willis March 25, 2015", "Nathan Willis"),
        ("Lucas Nolan22 Dec 2016", "Lucas Nolan"),
        ("John Smith, Staff Writer", "John Smith"),
        # A job title after the name's comma, and the department and employer after it.
        ("by Daniel Burstein, Senior Director, Content & Marketing, MECLABS Institute",
         "Daniel Burstein"),
        ("This post was written by Danielle Padula, Director of Marketing", "Danielle Padula"),
        ("Mayank Gupta, CEO of CaseBasix", "Mayank Gupta"),
        ("Tom Chief", "Tom Chief"),  # a name, not a title after a comma
        ("jane@example.com Jane Roe", "Jane Roe"),
        # A home page or address in brackets after the name; a nickname in brackets stays.
        ("Bradley M. Kuhn (http://ebb.org/bkuhn/)", "Bradley M. Kuhn"),
        ("Jane Roe <jane@example.org>", "Jane Roe"),
        ("Richard (R.J.) Eskow", "Richard (R.J.) Eskow"),
        ("作者：郭励弘", "郭励弘"),
        ("赵  培", "赵培"),
        ("Discuz! Team", "Discuz! Team"),
        ("Bylines Inc", "Bylines Inc"),
        ("Author: Ann Lee", "Ann Lee"),
        ("Jane Doe for The Times", "Jane Doe"),
        ("Organization for Transformative Works", "Organization for Transformative Works"),
        ("CC7567", None),  # a user handle, not a name
        # Clauses of a sentence (a teaser's title), not several names.
        ("华裔移民之女，成全球最年轻的白手起家女性亿万富豪", None),
        ("叨叨姐、胡一刀&李小飞刀", "叨叨姐、胡一刀&李小飞刀"),
        ("https://www.facebook.com/someone", None),
        ("example.com", None),
        ("Last Updated: January 7, 2025", None),
        ("Share this article on Facebook", None),
        ("P", None),
        ("", None),
    ],
)
def test_clean_author(raw: str, expected: str | None) -> None:
    assert clean_author(raw) == expected


def test_join_authors_drops_repeats() -> None:
    assert join_authors(["Ben Silverman", "ben silverman", "Anna Roe"]) == "Ben Silverman, Anna Roe"
    assert join_authors(["Ben Silverman", "Ben Silverman Games"]) == "Ben Silverman"


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["新华网黑龙江频道 记者 伊琳 李清芬", "正文"], "伊琳 李清芬"),
        (["本报记者罗科苏盈发自北京"], "罗科苏盈"),
        (["新京报记者 彭冲 山东冠县报道"], "彭冲"),
        (["据新华社拉萨电（记者 格桑边觉）记者近日从会议上了解到"], "格桑边觉"),
        (["时间：2004年10月21日14:18 作者：郭励弘"], "郭励弘"),
        (["作者： 放飞&心情"], "放飞&心情"),
        (["ggjjzhzz 发表于 2005-9-15 11:46:00"], "ggjjzhzz"),
        (["所有的改革都是利益再分配的过程。（姚峰 上海报道）"], "姚峰"),
        (["作者： 周思博 (Joel Spolsky)"], "周思博 (Joel Spolsky)"),
        (["正文第一段。", "来源：巴彦淖尔日报 编辑：苏亮"], "苏亮"),
        # "来源" names the source, not the author.
        (["来源：新华社", "正文"], None),
        # A reporter mentioned in a sentence is not a byline.
        (["记者经历了近4个小时的车程赶赴南通"], None),
        (["By Jane Doe and John Roe", "Text"], "Jane Doe, John Roe"),
        (["by: Ziyi Xu, Dec 17, 2025", "Text"], "Ziyi Xu"),
        (["Written by", "Eliz - Product marketer", "Text"], "Eliz"),
        (["Author", "Isaiah Shelton", "Updated on"], "Isaiah Shelton"),
        (["Posted by msmash on Friday December 19, 2025"], "msmash"),
        (["Text about things.", "Nothing else"], None),
    ],
)
def test_author_from_text(lines: list[str], expected: str | None) -> None:
    assert author_from_text(lines) == expected


def _author(html: str) -> str | None:
    return extract_metadata(parse_html(html)).author


def test_jsonld_authors_are_joined() -> None:
    html = """<html><head><script type="application/ld+json">
    {"@type": "NewsArticle", "headline": "H",
     "author": [{"@type": "Person", "name": "Ann Lee"}, {"@id": "#bob"}]}
    </script><script type="application/ld+json">{"@type": "Person", "@id": "#bob",
     "name": "Bob Ray"}</script></head><body><h1>H</h1></body></html>"""
    assert _author(html) == "Ann Lee, Bob Ray"


def test_meta_author_and_url_values() -> None:
    html = """<html><head><meta property="article:author"
    content="https://www.facebook.com/someone"><meta name="author" content="Jane Doe">
    </head><body><p>x</p></body></html>"""
    assert _author(html) == "Jane Doe"


def test_byline_markup() -> None:
    html = """<html><body><h1>Headline here</h1>
    <div class="byline">By <a rel="author" href="/a">Kelli Miller</a></div>
    <p>Text.</p></body></html>"""
    assert _author(html) == "Kelli Miller"
    html = """<html><body><h1>Headline here</h1>
    <div class="article-author">By Kelli Miller | March 3, 2021</div></body></html>"""
    assert _author(html) == "Kelli Miller"


def test_chinese_byline_at_the_end_of_the_story() -> None:
    html = """<html><head><title>居家养老有“医”靠_太原新闻网</title></head><body>
    <h1>居家养老有“医”靠</h1><div>来源：太原晚报 2021-11-25 16:26:07</div>
    <p>11月23日，市政府新闻办举行新闻发布会。</p><p>记者 刘涛</p></body></html>"""
    assert _author(html) == "刘涛"


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["胡平", "——论争取自由的方式"], "胡平"),
        (["赵延东、风笑天", "近年来，下岗职工……"], "赵延东、风笑天"),
        (["欧阳修", "正文"], "欧阳修"),
        # Not names: words that start with no common surname, long lines, labelled lines.
        (["时间", "分享到"], None),
        (["来源：新华社"], None),
        (["第一段正文很长很长很长的一句话"], None),
    ],
)
def test_bare_line_of_names_under_a_chinese_headline(lines: list[str],
                                                      expected: str | None) -> None:
    assert author_from_name_line(lines) == expected


def test_chinese_issuing_body_is_the_author_of_a_government_notice() -> None:
    lines = ["发文字号：", "吉政明电〔2022〕1号", "发文机关：", "吉林省人民政府", "成文日期："]
    assert author_from_text(lines) == "吉林省人民政府"


def test_byline_box_gives_its_first_line_and_skips_follow_widgets() -> None:
    html = ("<html><head><title>Story</title></head><body>"
            "<ul><li class='author-follow'><a>Michael Isikoff</a> <a>Another story</a></li></ul>"
            "<h1>Story</h1>"
            "<div class='author'><a href='/author/ben'>Ben Silverman</a>"
            "<div class='author-title'>Games Editor</div></div>"
            "<p>The text of the story.</p></body></html>")
    assert extract_metadata(parse_html(html)).author == "Ben Silverman"


def test_marked_authors_join_only_within_one_byline() -> None:
    post = "<p>" + "A reply long enough to be a post of its own. " * 12 + "</p>"
    page = ('<html><body><h1>Question title here</h1>'
            '<div><span itemprop="author">Ann Lee</span> and '
            '<span itemprop="author">Bo Chen</span></div>'
            f'<div>{post}<span itemprop="author">Cy Dee</span></div>'
            f'<div>{post}<span itemprop="author">Di Eve</span></div></body></html>')
    assert extract_metadata(parse_html(page)).author == "Ann Lee, Bo Chen"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("89 points by koconder on Dec 26, 2023 | hide | 137 comments", "koconder"),
        ("by galitsyn » 11. Sep 2024, 18:36", "galitsyn"),
        # "by" without a date after it is no credit line: a phrase of the story.
        ("Stand by your man and see", None),
    ],
)
def test_dated_credit_line_of_a_post(line: str, expected: str | None) -> None:
    assert author_from_text(["Some thread title", line, "The post itself."]) == expected


def test_a_marked_handle_with_digits_is_the_posters_name() -> None:
    page = ('<html><body><h1>Suggestions for a beginner bike</h1>'
            '<div itemprop="author"><span itemprop="name">Ejp55230</span></div>'
            '<p>I am looking to get into mountain biking.</p></body></html>')
    assert extract_metadata(parse_html(page)).author == "Ejp55230"
    # In free text, or as a phrase of several words, digits mark no name.
    assert clean_author("Ejp55230") is None
    assert clean_author("5 Great On-page Seo For 2022", handles=True) is None


def test_a_person_marked_as_author_outvotes_the_publisher_declared_as_author() -> None:
    page = ('<html><head><meta property="og:site_name" content="Instructables">'
            '<script type="application/ld+json">{"@type": "Article", '
            '"author": {"@type": "Organization", "name": "Instructables"}}</script></head>'
            '<body><h1>How to Make Furniture</h1>'
            '<span itemprop="author">MixmasterFred</span><p>Text.</p></body></html>')
    assert extract_metadata(parse_html(page)).author == "MixmasterFred"
    # Without a person marked in the page the publisher stands.
    page = page.replace('<span itemprop="author">MixmasterFred</span>', "By the team")
    assert extract_metadata(parse_html(page)).author == "Instructables"


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["Trevor Jackins", "9 min read", "Text."], "Trevor Jackins"),
        (["A subtitle of the story.", "Oleg Parashchak", "Jul 18, 2025"], "Oleg Parashchak"),
        (["Juliette Carreiro", "Tech Writer", "Text."], "Juliette Carreiro"),
        # A short capitalised line alone is a section name or a subheading.
        (["Shop Mac", "Connect with a Specialist(Opens in a new window)"], None),
        (["Trusted By Leading Enterprises", "AI Experts"], None),
        (["Learn HTML", "A solid overview of HTML for developers, from novice to expert"], None),
    ],
)
def test_name_line_of_a_byline_box(lines: list[str], expected: str | None) -> None:
    assert author_from_en_name_line(lines) == expected


def test_gendered_author_label() -> None:
    assert clean_author("Autor/in: Korinna Hennig") == "Korinna Hennig"


def test_the_publisher_after_the_writers_is_no_co_author() -> None:
    page = ('<html><head><meta property="og:site_name" content="The Commercial Appeal">'
            '<meta name="author" content="Manoj Jain, The Commercial Appeal"></head>'
            '<body><h1>Meditation and health</h1><p>Text.</p></body></html>')
    assert extract_metadata(parse_html(page)).author == "Manoj Jain"


def test_a_final_initial_keeps_its_period_and_a_date_after_a_separator_goes() -> None:
    assert clean_author("Kaufman, Jeff T.") == "Kaufman, Jeff T."
    assert clean_author("Jane Doe.") == "Jane Doe"
    assert clean_author("Outer Armatonisdaristan » Tue Aug 27, 2019 1:47 am") \
        == "Outer Armatonisdaristan"


def test_a_thread_is_its_starters() -> None:
    posts = [{"author": "archuser38013", "text": "Boot fails"}, {"author": "seth", "text": "Try"}]
    assert thread_author(None, posts) == "archuser38013"
    assert thread_author("Named Writer", posts) == "Named Writer"  # the page's own byline
    assert thread_author(None, []) is None
    assert thread_author(None, [{"author": "", "text": "anonymous"}]) is None


def test_a_credits_list_in_meta_is_not_the_writer() -> None:
    credits = "content: MarketingSherpa, design: Scott McDaniel, code: Steve Beger, MECLABS"
    assert author_from_meta({"author": [credits]}) is None
    assert author_from_meta({"author": ["Jane Roe"]}) == "Jane Roe"


# Held-out check (pages the rules were not written for): publishers and sources
# named where an author field stands, and "记者" as a word of the story.

@pytest.mark.parametrize("raw", ["新京报", "证券时报网", "新浪财经-自媒体综合", "国际在线",
                                 "IT之家", "name, email@gmail.com", "未知", "特邀作者", "主作者",
                                 "本报记者", "作者"])
def test_organisations_and_placeholders_are_no_author(raw: str) -> None:
    assert clean_author(raw) is None


@pytest.mark.parametrize("name", ["陆一夫", "伊琳 李清芬", "刘国栋 周炜", "Ed Hornick"])
def test_personal_names_stay(name: str) -> None:
    assert clean_author(name) == name


def test_reporter_credit_is_a_byline_only_in_brackets_or_on_its_own_line() -> None:
    prose = ("一位业内人士向南都记者介绍，这类手机的续航只有四小时，"
             "用户普遍不满，厂商正在改进电池技术。")
    assert author_from_text([prose, "资料图：市民出行。中新社记者 贾天勇 摄"]) is None
    lead = "新京报快讯（记者 裴剑飞）今日有网友在暗网发现大量数据出售的情况。"
    assert author_from_text([lead]) == "裴剑飞"
    assert author_from_text([prose, "新京报记者 陆一夫"]) == "陆一夫"


def test_site_declared_as_author_in_a_chinese_title_is_no_author() -> None:
    html = ("<html><head><title>多地项目连环爆雷_网易财经</title>"
            "<meta name='author' content='网易'></head><body><h1>多地项目连环爆雷</h1>"
            "<p>2019-09-07 13:43:45 来源: 证券市场红周刊</p>"
            "<p>正文第一段。</p><p>本文来源：证券市场红周刊</p></body></html>")
    assert extract_metadata(parse_html(html)).author is None


def test_a_class_repeated_on_every_comment_is_no_byline() -> None:
    comments = "".join(f"<div class='tie-author'>网友{n}号[网易北京网友]</div><p>评论</p>"
                       for n in "甲乙丙丁戊")
    html = f"<html><body><h1>标题在这里</h1><p>正文第一段。</p>{comments}</body></html>"
    assert _author(html) is None
    byline = ("<html><body><h1>Headline here</h1><div class='author'>Kelli Miller</div>"
              "</body></html>")
    assert _author(byline) == "Kelli Miller"


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["采写：南都见习记者 林子沛"], "林子沛"),
        (["【文/观察者网专栏作者 王文】", "责任编辑: 小婷"], "王文"),
        (["长江网10月4日讯（记者陈智 整合） 国庆中秋长假过半。"], "陈智"),
        (["《棱镜》作者 周纯"], "周纯"),
        (["Publié par Unknown"], None),
    ],
)
def test_chinese_credit_forms(lines: list[str], expected: str | None) -> None:
    assert author_from_text(lines) == expected


def test_writer_over_outlet_under_the_headline_outvotes_the_editor() -> None:
    html = ("<html><body><h1>共享充电宝涨价告别1元时代</h1><p>石佳/中国青年报</p>"
            "<p>2019-09-24 09:10</p><p>正文第一段，很长的一段话。</p><p>责任编辑：张珺</p>"
            "</body></html>")
    assert _author(html) == "石佳"
    no_writer = html.replace("<p>石佳/中国青年报</p>", "")
    assert _author(no_writer) == "张珺"


_CNN = ("<html><head><title>Airport screening - CNN.com</title><meta name='author' content='{}'>"
        "</head><body><h1>Airport screening</h1><p>Text.</p></body></html>")


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (_CNN.format("By  Pam Benson CNN "), "Pam Benson"),
        # A credential the writer signs with is no acronym of the site.
        (_CNN.format("Jeffrey A. Slotnick CPP, PSP"), "Jeffrey A. Slotnick CPP, PSP"),
        (("<html><head><title>BBC News - Insight selling</title></head><body><h1>Insight "
          "selling</h1><p>By Jane O'Brien BBC, Washington</p><p>Text.</p></body></html>"),
         "Jane O'Brien"),
    ],
)
def test_the_sites_acronym_after_the_name_is_its_affiliation(html: str, expected: str) -> None:
    assert _author(html) == expected


def test_a_twitter_link_beside_the_author_link_is_no_second_author() -> None:
    html = ("<html><body><h1>Headline here</h1><span class='post-info'>"
            "<a rel='author' href='/author/z'>Zachary Roth</a>, "
            "<a rel='author-twitter external' href='https://twitter.com/zackroth'>@zackroth</a>"
            "</span><p>Text.</p></body></html>")
    assert _author(html) == "Zachary Roth"


def test_an_ap_writers_role_and_what_follows_it_are_cut() -> None:
    raw = "AMY LORENTZEN, Associated Press Writer Amy Lorentzen"
    assert clean_author(raw) == "AMY LORENTZEN"


def test_transliterated_names_keep_their_originals_and_are_joined() -> None:
    raw = "琳达·普雷斯利（Linda Pressly）& 埃斯佩兰萨·埃斯克里巴诺（Esperanza Escribano）"
    assert clean_author(raw) == ("琳达·普雷斯利（Linda Pressly）, "
                                 "埃斯佩兰萨·埃斯克里巴诺（Esperanza Escribano）")


def test_an_outlet_the_story_credits_as_a_reporters_is_no_author() -> None:
    html = ("<html><head><title>特朗普：无意解雇鲍威尔|美联储</title>"
            "<meta property='article:author' content='央视'></head><body>"
            "<h1>特朗普：无意解雇鲍威尔</h1><p>2025年04月23日 05:22 央视</p>"
            "<p>当地时间22日，美国总统特朗普称美联储应该降低利率。（央视记者 刘骁骞）</p>"
            "<p>责任编辑：刘德宾</p></body></html>")
    assert _author(html) == "刘骁骞"
    assert author_from_text(["（文/图 刘玺东 易赛楠）"]) == "刘玺东 易赛楠"


def test_credits_under_the_headline_outvote_a_footers_author_label() -> None:
    # A blog's repost: the paper's interns and reporters credited on consecutive lines under
    # the headline are the writers; the footer's "作者：" names the blogger who posted it.
    story = "".join(f"<p>正文第{i}段，记者在现场看到，拆房工地的安全措施形同虚设。</p>"
                    for i in range(30))
    html = ("<html><body><h2>谁来为无序拆房“埋单”？</h2><p>拆房屡出命案 管理形同虚设</p>"
            "<p>本报实习生 刘国栋 周炜</p><p>本报记者 王燕平 方云凤 柏建斌</p>"
            f"<p>2003-7-24 钱江晚报</p>{story}<div>- 作者： 流泉 访问统计：2005年08月30日</div>"
            "</body></html>")
    assert _author(html) == "刘国栋 周炜 王燕平 方云凤 柏建斌"


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["正文第一段。", "来源: 尹娟"], "尹娟"),
        # The publisher, nobody, or a name inside a longer line: no author.
        (["正文第一段。", "来源：新华社"], None),
        (["正文第一段。", "来源：人民网"], None),
        (["正文第一段。", "来源：网络"], None),
        (["正文第一段。", "来源：东方财富"], None),
        (["正文第一段。", "来源：金融界"], None),
        (["正文第一段。", "来源：尹娟的博客 2005-03-21"], None),
        # A labelled byline wins.
        (["作者：刘涛", "正文第一段。", "来源: 尹娟"], "刘涛"),
    ],
)
def test_a_source_is_an_author_only_when_it_is_a_persons_name(lines: list[str],
                                                               expected: str | None) -> None:
    assert author_from_text(lines, editors=False) == expected


def test_a_line_of_names_under_a_repeated_headline() -> None:
    # The headline printed again (a second title block) is no line under it; the names come
    # as printed, as every Chinese byline does.
    lines = ["» 社会资本与再就业", "2003-5-29 09:07 高山流水", "社会资本与再就业",
             "社会资本与再就业", "赵延东、风笑天", "近年来，下岗职工这一社会群体越来越引人注目。"]
    assert author_from_name_line(lines, "社会资本与再就业") == "赵延东、风笑天"
    assert author_from_name_line(lines) is None


def test_a_section_heading_inside_an_author_box_is_no_name() -> None:
    # The author card's "recent posts" block: its heading and its teasers are no byline.
    teaser = "华裔移民之女，成全球最年轻的白手起家女性亿万富豪"
    html = ("<html><body><h1>Anthropic分析了70万条Claude对话</h1><p>正文第一段。</p>"
            "<div class='author-wrapper'><h3 class='section-h3'>最近内容</h3>"
            f"<div class='author-itemslist'><a href='/p/1'>{teaser}</a> 25分钟前"
            "</div></div></body></html>")
    assert _author(html) is None
    # A heading alone in the box, or over a bio, is the name.
    for box in ("<div class='author-name'><h4>Jane Doe</h4></div>",
                ("<div class='author-box'><h4>Jane Doe</h4><p>Jane writes about food and "
                 "<a href='/x'>soup</a>.</p></div>")):
        assert _author(f"<html><body><h1>Soup</h1><p>Text.</p>{box}</body></html>") == "Jane Doe"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("发表于2014-08-24 21:30| 1164次阅读| 来源CSDN| 0 条评论| 作者魏星", "魏星"),
        ("来源CSDN | 作者魏星 | 责任编辑 张三", "魏星"),
        # A heading, a bio's label, a sentence: no author.
        ("作者简介", None),
        ("来源 | 作者简介 | 更多", None),
        ("作者王某认为这不对", None),
    ],
)
def test_an_author_label_glued_to_the_name_in_a_metadata_line(line: str,
                                                             expected: str | None) -> None:
    assert author_from_text([line]) == expected


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["华夏人文 2020-03-09 18:14:21", "最近，武汉一个顺丰小哥直升3级。"], "华夏人文"),
        (["原创 GameForce 2019-09-04 22:18:34", "FreeCell Quest是一款纸牌游戏。"], "GameForce"),
        (["去驴行", "关注", "1/10 当全世界绝大部分国家都在为吸引中国游客绞尽脑汁。"], "去驴行"),
        # A site's or paper's name, a menu, a name inside a longer line: no account.
        (["首页", "关注中国中心（CCC）"], None),
        (["新京报 2020-03-09 18:14:21"], None),
        (["2003-5-29 09:07 高山流水"], None),
        (["去驴行", "正文第一段。"], None),
    ],
)
def test_a_self_media_account_under_the_headline(lines: list[str], expected: str | None) -> None:
    assert author_from_account_line(lines) == expected


def test_a_byline_box_under_the_headline_outvotes_the_publisher_declared_as_author() -> None:
    # The CMS declares the organisation as every post's author; the post's byline box prints
    # the writer over the date.
    page = ('<html><head><meta property="og:site_name" content="GlossGenius">'
            '<script type="application/ld+json">{"@type": "Article", '
            '"author": {"@type": "Organization", "name": "GlossGenius"}}</script></head>'
            '<body><h1>How Much Should You Charge For A Yoga Class?</h1>'
            '<p>A guide to pricing yoga classes.</p><div>Shauna Mitchell</div>'
            '<div>August 25, 2024</div><p>Text of the story.</p></body></html>')
    assert extract_metadata(parse_html(page)).author == "Shauna Mitchell"


def test_a_share_bar_is_no_name() -> None:
    assert clean_author("LinkedIn Twitter Facebook Email") is None
    assert join_authors(["Arlene Marturano",
                         "South Carolina Garden-based Learning Network on Facebook"]) \
        == "Arlene Marturano"


def test_a_labelled_date_under_the_name_line() -> None:
    lines = ["CM", "Craig McCarthy", "Last updated on 17 December 2025", "Text."]
    assert author_from_en_name_line(lines) == "Craig McCarthy"
    assert author_from_en_name_line(["Jane Roe", "Published: Jan 3, 2024"]) == "Jane Roe"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Posted by David at December 16, 2025 11:15 AM", "David"),
        ("Edward M. Gomez (Email)", "Edward M. Gomez"),
        ("By Ben Grossman -- Broadcasting & Cable, 1/21/2008", "Ben Grossman"),
        ("Scott Garbarini, Associate NFL Editor -- (Sports Network)", "Scott Garbarini"),
    ],
)
def test_what_follows_a_name_in_a_credit(raw: str, expected: str) -> None:
    assert clean_author(raw) == expected


def test_a_name_before_the_outlet_under_the_headline_is_the_writer() -> None:
    # The CMS's author node holds only the outlet (", USA TODAY"); the byline prints the
    # writer before it.
    page = ('<html><head><meta property="og:site_name" content="USA TODAY">'
            '<script type="application/ld+json">{"@type": "NewsArticle", '
            '"author": {"@type": "Person", "name": ", USA TODAY"}}</script></head>'
            '<body><h1>Ten movies to stream now</h1><p>Need a new movie to watch?</p>'
            '<div><a href="/staff/1">Brian Truitt</a> <span>USA TODAY</span></div>'
            '<div>Show Caption</div><p>Text.</p></body></html>')
    assert extract_metadata(parse_html(page)).author == "Brian Truitt"
    assert author_from_en_name_line(["Brian Truitt USA TODAY", "Show Caption"]) is None


def test_the_printed_byline_adds_the_co_authors_structured_data_leaves_out() -> None:
    # A CMS plugin declares the post's owner; the byline under the headline credits all three
    # (modern-dev 0253's form): the byline, since it names the declared writer among them.
    page = ('<html><head><meta name="author" content="Marna van der Merwe">'
            '<script type="application/ld+json">{"@type": "Article", '
            '"author": {"name": "Marna van der Merwe"}}</script></head>'
            '<body><h1>HR Trends for 2026</h1><p>The HR function stands at a new intersection.'
            '</p><div class="hero-information-author">Written by <span>Dr Marna van der Merwe'
            '</span>, <span>Dr Dieter Veldsman</span>, <span>Erik van Vulpen</span></div>'
            '<p>Text of the story.</p></body></html>')
    assert extract_metadata(parse_html(page)).author == \
        "Dr Marna van der Merwe, Dr Dieter Veldsman, Erik van Vulpen"
    # "By A and B" declared as one string reads as the byline's two names.
    page2 = ('<html><head><meta name="author" content="Greg Miller and Josh Meyer"></head>'
             '<body><h1>Interrogations</h1><p>By Greg Miller and Josh Meyer</p>'
             '<p>Text of the story.</p></body></html>')
    assert extract_metadata(parse_html(page2)).author == "Greg Miller, Josh Meyer"


@pytest.mark.parametrize(
    "byline",
    [
        "By Shannon Williams, Journalist",  # a role after the comma, no second name
        "By Eleanor Ainge Roy (reporting), Adrian Malloch (photography)",  # a photo credit
        "By Ashlie Blakey Live and breaking news reporter",
        "By Jane Doe and John Roe",  # the declared writer is not among them
    ],
)
def test_a_byline_that_is_no_list_of_co_authors_leaves_the_declared_writer(byline: str) -> None:
    page = ('<html><head><meta name="author" content="Shannon Williams"></head>'
            f'<body><h1>A headline here</h1><p>{byline}</p><p>Text.</p></body></html>')
    assert extract_metadata(parse_html(page)).author == "Shannon Williams"


def test_a_list_of_names_may_pass_the_word_limit_a_sentence_may_not() -> None:
    assert clean_author("Dr Marna van der Merwe, Dr Dieter Veldsman, Erik van Vulpen") == \
        "Dr Marna van der Merwe, Dr Dieter Veldsman, Erik van Vulpen"
    assert clean_author("We went to the market and we bought apples, pears and plums") is None


def test_a_label_and_a_name_in_adjacent_inline_elements_are_read_apart() -> None:
    # "<span>Written by</span><span>AAA Travel Editor</span>" prints "Written by AAA ...",
    # as "<span>By</span><a>Jane Doe</a>" does (modern-dev 0149, dates-dev d0248).
    page = ('<html><body><h1>Ten Road Trips</h1><div><span>By</span><a href="/a/1">Alex '
            'Bozarjian</a></div><div>Thursday, November 9, 2023</div><p>Text.</p></body></html>')
    assert extract_metadata(parse_html(page)).author == "Alex Bozarjian"
    from sitesift.fields.lines import lines_after
    root = parse_html("<div><h1>T</h1><p><span>Written by</span><span>AAA Travel Editor</span>"
                      " <b>W</b>ord <i>in</i>side</p></div>")
    assert lines_after(root.find(".//h1"), root, 200) == \
        ["T", "Written by AAA Travel Editor Word inside"]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["Por Steven Lee Myers, Keith Bradsher y Tariq Panja"],
         "Steven Lee Myers, Keith Bradsher, Tariq Panja"),
        (["Von Anna Schmidt und Peter Müller"], "Anna Schmidt, Peter Müller"),
        (["Par Marie Dupont et Jean Martin"], "Marie Dupont, Jean Martin"),
        (["Por José Ortega y Gasset"], "José Ortega y Gasset"),  # one name
    ],
)
def test_co_authors_joined_by_another_language_s_and(lines: list[str], expected: str) -> None:
    assert author_from_text(lines) == expected


_STORY = "<p>" + "A sentence of the post. " * 50 + "</p>"  # past BYLINE_WINDOW


def test_a_post_signed_under_the_story_in_its_post_box() -> None:
    # Movable Type: the post's "Posted by" in the post's box; the comments' own, each in a
    # comments box, come after it (modern-dev 0452).
    page = ('<html><head><meta property="og:site_name" content="A Dabbler\'s Weblog"></head>'
            '<body><h1>Vibe Coding</h1><div class="blogbody">' + _STORY +
            '<span class="posted">Posted by David at December 16, 2025 11:15 AM</span></div>'
            '<div class="comments-body"><p>Nice.</p><span class="comments-post">Posted by: John '
            'at December 18, 2025</span></div></body></html>')
    assert extract_metadata(parse_html(page), url="https://davidbau.com/a.html").author == "David"
    colin = page.replace("A Dabbler's Weblog", "Colin Watson's blog").replace(
        "Posted by David", "Posted by Colin Watson")
    assert extract_metadata(parse_html(colin), url="https://example.org/p").author == "Colin Watson"


@pytest.mark.parametrize(
    "signature",
    [
        # A reader comment signed in a plain box (2008 news pages), no post box around it.
        '<table><tr><td><div>Posted by: Dom, London on 5:19pm Tue 1 Jan 08</div></td></tr></table>',
        # Signatures repeated with their class sign a list's items, even inside the article.
        ('<div id="article"><p class="posted">Posted by: Lucky Lakeshore | January 14, 2008</p>'
         '<p>Hm.</p><p class="posted">Posted by: Suzanne | January 14, 2008</p></div>'),
        # A signature inside a comments box.
        ('<article><div class="comment-list"><p>Posted by Jane Roe on May 2, 2024</p></div>'
         '</article>'),
    ],
)
def test_a_reader_comment_s_signature_is_no_author(signature: str) -> None:
    page = f'<html><body><h1>A headline here</h1>{_STORY}{signature}</body></html>'
    assert extract_metadata(parse_html(page)).author is None


def test_the_site_s_name_in_its_host_is_no_author_but_the_owner_s_first_name_is() -> None:
    from sitesift.fields.metadata import _is_site
    assert _is_site("HERALD", ["oheraldo.in"])
    assert _is_site("VOA News", ["voanews.com"])
    assert _is_site("USA TODAY", ["usatoday.com"])
    assert not _is_site("David", ["davidbau.com"])
    assert not _is_site("Colin Watson", ["Colin Watson's blog"])
    assert _is_site("GlossGenius", ["GlossGenius", "glossgenius.com"])
