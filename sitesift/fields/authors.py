"""Authors: from JSON-LD, meta tags, byline markup, then bylines written in the text.

Every source is cleaned the same way (``author_names.clean_author``): "By "/"作者：" prefixes,
dates, e-mail addresses, roles and trailing punctuation go; URLs and values that do not look
like names are refused. A source ("来源", "Quelle") names the publisher, not the author, and is
read only where it is a personal name alone on its line ("来源: 尹娟"), after every labelled
byline.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import lxml.html
from lxml import etree

from sitesift.fields.author_names import clean_author, is_cjk_organisation, join_authors
from sitesift.fields.date_forms import iter_dates

__all__ = [
    "BYLINE_WINDOW",
    "author_from_account_line",
    "author_from_editor_line",
    "author_from_en_name_line",
    "author_from_markup",
    "author_from_meta",
    "author_from_name_line",
    "author_from_text",
    "may_hold_author",
    "thread_author",
]

#: Most authors taken from ``itemprop=author``/``rel=author`` markup (more are comment authors).
#: Marked names whose nearest common element with the first holds at most this many
#: characters share its byline (a byline of five long names with roles fits; two posts do not).
MAX_BYLINE_CHARS = 400
MAX_MARKUP_AUTHORS = 4
#: Most elements of one author class read as a byline: co-authors' names may each carry the
#: class (two or three), while comment or teaser lists repeat it once per item.
MAX_CLASSED_REPEATS = 3
#: How many characters of text after the headline are searched for an English "By X" byline.
BYLINE_WINDOW = 800

#: Meta keys naming the author, best first (lower-cased name/property).
AUTHOR_META_KEYS = (
    "citation_author", "citation_authors", "dc.creator", "dcterms.creator", "dcterm.creator",
    "author", "article:author",
    "article:author_name", "og:article:author", "dc.creator.name", "sailthru.author",
    "parsely-author",
    "byl", "byline", "authors", "creator", "twitter:creator:name", "dc.contributor",
)

_CJK = re.compile(r"[\u3400-\u9fff]")


#: 记者 X, 本报记者X发自北京, （记者 X）
_ZH_REPORTER = re.compile(r"(?:记者|記者|通讯员|通訊員|实习生|實習生)\s*[:：]?\s*"
                          r"(?P<v>[^\n]{1,40})")
_ZH_AUTHOR_SPACED = re.compile(r"(?:作\s*者)\s+(?P<v>[^\n]{1,40})")
#: 编辑：X, 责任编辑：X: the editor, the author only where the page names no other.
_ZH_EDITOR = re.compile(r"(?:责任编辑|責任編輯|责编|編輯|编辑)\s*[:：]\s*(?P<v>[^\n]{1,40})")
#: Chinese byline labels, best first; each group is searched in the whole window before the
#: next. "来源" (source) names the publisher: only a person's name after it is read, last.
_ZH_BYLINES = (
    # 作者：X / 文：X / 撰文：X (a colon or slash is required: 文 alone is a common character)
    re.compile(r"(?:作\s*者|原作者|撰\s*文|撰稿人?|执\s*笔|執\s*筆|采\s*写|採\s*寫|文\s*字|"
               r"(?<![\u3400-\u9fff])文)\s*[:：/]\s*"
               r"(?P<v>[^\n]{1,40})"),
    # 《棱镜》作者 周纯: the label and the name spaced, on a credit line of its own
    _ZH_AUTHOR_SPACED,
    # "发表于2014-08-24 21:30| 1164次阅读| 来源CSDN| 作者魏星": a field of a metadata line, the
    # label glued to a personal name (``_is_personal_name``) ending the field, right
    # after another field ("作者简介" alone is a heading)
    _ZH_AUTHOR_GLUED := re.compile(r"[|｜│]\s*作者(?P<v>[\u3400-\u9fff]{2,3})"
                                   r"(?=\s*(?:$|[|｜│]))", re.MULTILINE),
    # (文/图 刘玺东 易赛楠): text and photos by
    re.compile(r"(?<![\u3400-\u9fff])文\s*/\s*[图圖]\s*[:：]?\s*(?P<v>[^\n]{1,40})"),
    _ZH_REPORTER,
    # （姚峰 上海报道）: a name and a place before 报道 inside brackets
    re.compile(r"[（(]\s*(?P<v>[\u3400-\u9fff]{2,4}(?:[ 、][\u3400-\u9fff]{2,4})*)\s+"
               r"[\u3400-\u9fff]{2,8}(?:报道|報道)\s*[)）]"),
    _ZH_EDITOR,
    # X 发表于 2005-9-15 (blogs and forums)
    re.compile(r"(?:^|\n)(?P<v>[^\s:：]{2,20})\s*发表于"),
    # 来源：尹娟, alone on its line: a source that is a person (``_is_personal_name``)
    re.compile(r"(?:^|\n)\s*(?:来源|來源)\s*[:：]\s*(?P<v>[\u3400-\u9fff]{2,4})\s*(?=\n|$)"),
)
#: The pattern above: its value counts only as a personal name.
_ZH_PERSON_SOURCE = _ZH_BYLINES[-1]
#: Longest line read as a reporter's credit line ("新京报记者 陆一夫", "采写：南都见习记者 林子沛");
#: in a longer line "记者" is a word of the story ("记者获悉", "向南都记者介绍").
MAX_CREDIT_LINE_CHARS = 30
_CREDIT_LINES = (_ZH_REPORTER, _ZH_AUTHOR_SPACED)
_PHOTO_CREDIT = re.compile(r"^[^\n]{0,30}?\s*(?:摄|攝|/摄|供图|供圖)(?:$|[\s。，)）])")


def _credit_context(text: str, m: re.Match[str]) -> bool:
    """Whether the reporter credit ``m`` in ``text`` is a byline: in brackets ("（记者 裴剑飞）",
    "电（记者唐霁）") or on a short line of its own, and not a photographer's ("记者 贾天勇 摄")."""
    if _PHOTO_CREDIT.match(m.group("v")) or not m.group("v")[:1].isalnum():
        return False  # a photographer's credit, or "记者，" ending a clause ("名记者，晋升部级")
    start = text.rfind("\n", 0, m.start()) + 1
    end = text.find("\n", m.end())
    line = text[start:end if end >= 0 else len(text)]
    before = text[start:m.start()]
    bracketed = before.rfind("（") > before.rfind("）") or before.rfind("(") > before.rfind(")")
    return bracketed or len(line.strip()) <= MAX_CREDIT_LINE_CHARS


def _next_credits(text: str, end: int) -> list[str]:
    """The names of the credit lines right after the line ending at ``end``: a paper prints
    its interns and reporters on consecutive lines ("本报实习生 刘国栋 周炜" / "本报记者 王燕平
    方云凤"), all of them the story's writers, kept as printed (space-separated)."""
    out: list[str] = []
    for line in text[end:].split("\n")[1:]:
        m = _ZH_REPORTER.search(line)
        if not m or len(line.strip()) > MAX_CREDIT_LINE_CHARS or _PHOTO_CREDIT.match(m.group("v")):
            break
        names = _zh_names(m.group("v"))
        if not names:
            break
        out.append(names)
    return out


#: Where a Chinese byline value ends: the next label, a date, a place ("发自北京"), brackets.
_ZH_VALUE_END = re.compile(
    r"\s*(?:\S*(?:报道|報道)|来源|來源|出处|出處|发布|發佈|发表|發表|发自|發自|摄影|攝影|/?摄|时间|時間|日期|"
    r"阅读|閱讀|浏览|瀏覽|评论|評論|点击|點擊|字号|字體|字体|编辑|編輯|责任|通讯员|实习生|记者|"
    r"原标题|整合|整理|编译|綜合|【|】|\[|\]|\(|（|\)|）|\||│|\d{4}).*$")
#: An outlet and role before the name in a byline value ("南都见习记者 林子沛", "观察者网专栏作者
#: 王文", "澎湃新闻记者 段彦超"): the credit's own label, not a name.
_ZH_ROLE_PREFIX = re.compile(r"^[\u3400-\u9fff《》]{0,12}?"
                             r"(?:见习|實習|实习|特约|特約|专栏|專欄|首席)?(?:记者|記者|作者|撰稿人|通讯员|通訊員|评论员|評論員)\s*")
#: A Chinese personal name (2-4 characters, longer transliterations joined by "·") or a user
#: name (letters, digits, CJK and "&._-", up to 20 characters, not all CJK).
_NAME_TOKEN = re.compile(r"^(?:[\u3400-\u9fff]{2,4}|[\u3400-\u9fff]{1,6}(?:·[\u3400-\u9fff]{1,6})+|"
                         r"[A-Za-z][A-Za-z0-9_.\-]{1,29}|[\u3400-\u9fff\w]{1,10}&[\u3400-\u9fff\w]{1,10})$")
_ORIGINAL_NAME = re.compile(r"[\u3400-\u9fff·]{2,8}\s*[(（][A-Za-z][A-Za-z .'-]{1,40}[)）]")
#: Government documents name their author as the issuing body: "发文机关：吉林省人民政府".
_ZH_ISSUER = re.compile(r"(?:发文机关|發文機關|发布机构|發佈機構|发文单位|發文單位)"
                        r"\s*[:：]?\s*\n?\s*(?P<v>[\u3400-\u9fff]{2,20})(?=\s|$)")
#: Common Chinese surnames (about nine in ten people carry one; those that are also common
#: word starts, such as 时 or 全, are left out) and two-character ones: a bare line of names
#: under a headline starts with one of them.
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏"
    "魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵"
    "钱严覃武戴莫孔汤温康施牛樊葛邢齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿兰焦俞左柳甘"
    "祝包宁尚符舒阮柯纪梅童凌毕季裴霍涂苗谷盛曲翁冉骆蓝辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟"
    "艾尤阳穆卓吉缪简车项芦麦褚娄窦戚岑党费卜冷晏席卫米柏宗瞿桂佟臧闵苟邬卞"
    "姬仇栾隋刁沙荣巫寇郎甄丛仲虞敖巩佘池苑迟邝")
_COMPOUND_SURNAMES = ("欧阳", "司马", "诸葛", "上官", "东方", "皇甫", "令狐", "慕容", "尉迟",
                      "公孙")
#: A line that is only Chinese personal names: 2-4 characters each, joined by "、", "，" or
#: spaces, at most four of them.
_NAME_LINE = re.compile(r"^[\u3400-\u9fff]{2,4}"
                        r"(?:\s*[、，,]\s*[\u3400-\u9fff]{2,4}|\s+[\u3400-\u9fff]{2,4}){0,3}$")
#: How many lines under the headline may hold a bare line of names.
NAME_LINE_PROBE = 2
#: "By X", "by: X", "Written by X"; the label may sit alone on its line, the name on the next
#: ("Written By" / "Reyan Perumal": a byline box's label and name in separate elements), as
#: may a bare "Author" label.
_EN_BYLINE = re.compile(
    r"(?:^|\n)\s*(?:(?:(?:written|posted|published|reported|words|text|story)\s+)?"
    r"(?:by|von|par|por)\s*[:：]?\s+|(?:author|autor|auteur)\s*[:：]?\s*\n\s*)"
    r"(?P<v>[A-Z][^\n]{1,80})", re.IGNORECASE)
#: A post's credit inside a line: "by NAME" right before its date ("89 points by ann on Dec
#: 26, 2023", "Title by ann: 3:21pm", "by ann » 11 Sep 2024"), the line forums print per post.
_DATED_BYLINE = re.compile(
    r"\bby\s+(?P<v>[\w.-]{2,40}(?: [\w.-]{2,40}){0,2}?)"
    r"(?=\s*(?:\bon\s+(?:\d|(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|"
    r"oct|nov|dec)[a-z]*\b)|»|:\s*\d|\|\s*\d|,\s*\d{1,2}\b|\s\d{1,2}:\d\d))",
    re.IGNORECASE)


def _zh_names(value: str) -> str | None:
    """The names at the start of a Chinese byline value, as written ("伊琳 李清芬"); an original
    name in brackets right after a name stays ("周思博 (Joel Spolsky)")."""
    value = value.strip()
    original = _ORIGINAL_NAME.match(value)
    if original:  # already a name by construction; clean_author would cut at the bracket
        return " ".join(original.group(0).split())
    value = _ZH_VALUE_END.sub("", _ZH_ROLE_PREFIX.sub("", value, count=1))
    kept: list[str] = []
    for token in re.split(r"(\s+|、|，|,)", value):
        if not token.strip() or token in ("、", "，", ","):
            kept.append(token)
            continue
        if not _NAME_TOKEN.match(token):
            break
        kept.append(token)
    return clean_author("".join(kept))


#: "design: Scott McDaniel, code: Steve Beger": names after role labels credit the site's
#: makers; with this many labels a meta author value is such a list, not the writer.
MIN_CREDIT_LABELS = 2
_CREDIT_LABEL = re.compile(r"(?:^|,\s*)[^\W\d_]+:\s")


def author_from_meta(meta: dict[str, list[str]], *, outlets: Collection[str] = ()) -> str | None:
    """The first meta key in ``AUTHOR_META_KEYS`` with a plausible name (all its values);
    ``outlets`` as for ``clean_author``."""
    for key in AUTHOR_META_KEYS:
        values = [v for v in meta.get(key, []) if len(_CREDIT_LABEL.findall(v)) < MIN_CREDIT_LABELS]
        if values:
            joined = join_authors(values, outlets=outlets)
            if joined:
                return joined
    return None


#: Cheap pre-filter of elements that may hold a byline (lower-cased class/id substrings).
AUTHOR_HINTS = ("author", "byline", "byl", "writer", "autor", "auteur")
_AUTHOR_CLASS = re.compile(r"\b(?:author|byline|byl|writer|autor|auteur)(?:[-_]?name|s)?\b|"
                           r"author-name|authorname")
_NOT_AUTHOR_CLASS = re.compile(r"avatar|image|img|photo|bio|desc|about|date|time|social|follow|"
                               r"note")


def may_hold_author(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` is worth ``author_from_markup``'s attention (called on every element)."""
    prop = el.get("itemprop")
    if prop and prop.lower() in ("author", "creator"):
        return True
    if "author" in (el.get("rel") or "").lower().split():
        return True
    attrs = _attrs(el)
    return bool(attrs) and any(hint in attrs for hint in AUTHOR_HINTS)


def _attrs(el: lxml.html.HtmlElement) -> str:
    return " ".join(filter(None, (el.get("class"), el.get("id")))).lower()


def author_from_markup(elements: Iterable[lxml.html.HtmlElement], *,
                       classes: bool = False) -> str | None:
    """Names in ``itemprop=author`` or ``rel=author`` elements; with ``classes``, in
    author/byline-classed elements instead (a weaker sign: site widgets use such classes too).

    ``elements`` are the page's elements in document order that pass ``may_hold_author``.
    """
    itemprop: list[tuple[lxml.html.HtmlElement, str]] = []
    rel: list[tuple[lxml.html.HtmlElement, str]] = []
    classed: list[tuple[str, str]] = []
    for el in elements:
        if el.tag in ("script", "style", "meta", "link", "body", "html", "head"):
            continue
        prop = (el.get("itemprop") or "").lower()
        if prop == "author" or prop == "creator":
            names = [n.get("content") or n.text_content() for n in el.iter()
                     if (n.get("itemprop") or "").lower() == "name"]
            itemprop.extend((el, n) for n in names or [el.get("content") or el.text_content()])
            continue
        # rel holds space-separated link types: "author-twitter" is another one.
        if "author" in (el.get("rel") or "").lower().split() and el.tag == "a":
            rel.append((el, el.text_content()))
            continue
        attrs = _attrs(el)
        if attrs and _AUTHOR_CLASS.search(attrs) and not _NOT_AUTHOR_CLASS.search(attrs):
            classed.append((attrs, _first_line(el)))
    if not classes:
        for group in (itemprop, rel):
            joined = join_authors(_one_byline(group)[:MAX_MARKUP_AUTHORS], handles=True)
            if joined:
                return joined
        return None
    # Classed elements nest (a byline box around a name link): the first clean one is the byline.
    # A class that many elements carry marks the authors of a list's items (comments, related
    # stories), each printed with its own text: not the page's byline.
    repeats = Counter(attrs for attrs, _text in classed)
    for attrs, text in classed:
        if repeats[attrs] > MAX_CLASSED_REPEATS:
            continue
        cleaned = clean_author(text)
        if cleaned:
            return cleaned
    return None


def _one_byline(marked: list[tuple[lxml.html.HtmlElement, str]]) -> list[str]:
    """The names printed together with the first one: co-authors share a byline, while the
    authors of a thread's posts or a page's comments are each printed with their own text."""
    if not marked:
        return []
    first = marked[0][0]
    ancestors = [first, *first.iterancestors()]  # (held: lxml reuses the ids of freed proxies)
    around = {id(a) for a in ancestors}
    names = []
    for el, name in marked:
        common = el
        while common is not None and id(common) not in around:
            common = common.getparent()
        if common is not None and len(common.text_content()) <= MAX_BYLINE_CHARS:
            names.append(name)
    return names


_LINE_BREAKING = frozenset(("address", "article", "blockquote", "br", "dd", "div", "dl", "dt",
                            "figcaption", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header",
                            "li", "ol", "p", "section", "table", "td", "tr", "ul"))


_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
#: A box whose text after its heading is at least this share link text is a list of links
#: (the author's recent posts), which the heading titles.
MIN_LIST_LINK_SHARE = 0.5


def _first_line(el: lxml.html.HtmlElement) -> str:
    """The text of ``el`` up to its first block boundary after some text: a byline box's
    name, without the role or date printed on the lines below it ("Ben Silverman" /
    "Games Editor"). Empty when that line is a heading inside ``el`` over a list of links:
    the title of the author's recent posts ("最近内容"), not a name (a heading over a bio, or
    alone in ``el``, is read)."""
    parts: list[str] = []
    walker = etree.iterwalk(el, events=("start", "end"))
    heading: lxml.html.HtmlElement | None = None
    for event, node in walker:
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag in _LINE_BREAKING and "".join(parts).strip():
            break
        if event == "start":
            if tag in ("script", "style"):
                walker.skip_subtree()
                continue
            if node is not el and tag in _HEADINGS and not "".join(parts).strip():
                heading = node
            parts.append(node.text or "")
        elif node is not el:
            parts.append(node.tail or "")
    if heading is not None and _titles_a_list(el, heading):
        return ""
    return " ".join("".join(parts).split())


def _titles_a_list(box: lxml.html.HtmlElement, heading: lxml.html.HtmlElement) -> bool:
    """Whether the text of ``box`` after ``heading`` is mostly link text."""
    rest = len("".join(box.text_content().split())) - len("".join(heading.text_content().split()))
    links = sum(len("".join(a.text_content().split())) for a in box.iter("a")
                if heading not in a.iterancestors() and a is not heading)
    return rest > 0 and links >= MIN_LIST_LINK_SHARE * rest


def author_from_text(lines: Sequence[str], *, editors: bool = True,
                     outlets: Collection[str] = ()) -> str | None:
    """A byline written in the text below the headline ("作者：X", "记者 X", "By X and Y").

    ``lines`` are the visible text lines from the headline on. Chinese labelled bylines are
    searched in all of them (reporters and editors are often credited at the end of the
    story); an English "By X" only in the first ``BYLINE_WINDOW`` characters. ``editors``
    False: "编辑：X" is not read (``author_from_editor_line``, after the other bylines);
    ``outlets`` as for ``clean_author``.
    """
    window: list[str] = []
    used = 0
    for line in lines:
        window.append(line)
        used += len(line)
        if used >= BYLINE_WINDOW:
            break
    text = "\n".join(window)
    everything = "\n".join(lines)
    for pattern in _ZH_BYLINES:
        for m in pattern.finditer(everything):
            if pattern is _ZH_EDITOR and not editors:
                break
            if pattern in _CREDIT_LINES and not _credit_context(everything, m):
                continue
            if pattern in (_ZH_PERSON_SOURCE, _ZH_AUTHOR_GLUED) \
                    and (not _is_personal_name(m.group("v")) or m.group("v") in _BIO_WORDS):
                continue  # "来源：新华社", "来源：网络": the publisher or nobody
            names = _zh_names(m.group("v"))
            if names and pattern is _ZH_REPORTER:
                names = " ".join((names, *_next_credits(everything, m.end())))
            if names:
                return names
    for m in _ZH_ISSUER.finditer(text):
        return m.group("v")
    for m in _EN_BYLINE.finditer(text):
        cleaned = clean_author(m.group("v"), outlets=outlets)
        if cleaned:
            parts = re.split(r"\s*(?:,\s*and\s+|\s+and\s+|\s*,\s*|\s+&\s+)", cleaned)
            return ", ".join(p for p in parts if p) if len(parts) > 1 else cleaned
    for m in _DATED_BYLINE.finditer(text):
        cleaned = clean_author(m.group("v"))
        if cleaned:
            return cleaned
    return None


#: A personal name alone on its line: two to four capitalised words ("Trevor Jackins",
#: "Julian K. Arni", "Marna van der Merwe"), none of them a function word ("Trusted By ...").
_EN_NAME_LINE = re.compile(
    r"^(?!.*\b(?i:by|the|of|and|for|with|our|your|to|in|on|at|an?|we|you|us|my)\b)"
    r"[A-Z][\w'’.-]+(?:\s+(?:[A-Z][\w'’.-]*|van|von|de|der|da|di|la|le|du)){1,3}$")
#: What a byline box prints on the line under the name: the date, a reading time or the
#: writer's role.
_UNDER_NAME = re.compile(
    r"^(?:\d+\s*min(?:ute)?s?\b.*read|(?:[A-Z][\w&-]*\s+){0,4}(?i:writer|editor|producer|"
    r"manager|director|author|contributor|reporter|journalist|correspondent|founder|ceo|"
    r"analyst|expert|specialist|strategist|marketer|engineer)s?(?:,?\s+(?:at|of|for)\s.{1,40})?)$")
#: How many lines under an English headline may hold a byline box's name line (a subtitle
#: may come first).
EN_NAME_LINE_PROBE = 3


def author_from_en_name_line(lines: Sequence[str], *, now: datetime | None = None) -> str | None:
    """A name printed alone on a line under the headline, in a byline box: the next line is a
    date, a reading time or a role ("Trevor Jackins" / "9 min read"). Without that second line
    a short capitalised line is as likely a section name or a subheading."""
    for i, line in enumerate(lines[:EN_NAME_LINE_PROBE]):
        line = line.strip()
        if not _EN_NAME_LINE.match(line) or i + 1 >= len(lines):
            continue
        below = lines[i + 1].strip()
        dated = next(iter(iter_dates(below[:40], now=now)), None)
        if (dated is not None and dated[0] <= 2) or _UNDER_NAME.match(below):
            return clean_author(line)
    return None


def author_from_editor_line(lines: Sequence[str]) -> str | None:
    """The editor credited in a Chinese story ("责任编辑：X"): its author where the page names
    no other (the last resort of the Chinese bylines)."""
    for m in _ZH_EDITOR.finditer("\n".join(lines)):
        names = _zh_names(m.group("v"))
        if names:
            return names
    return None


#: "石佳/中国青年报": a writer and the paper they write for, alone on a line under the headline.
_NAME_SLASH_OUTLET = re.compile(r"^(?P<v>[\u3400-\u9fff]{2,4}(?:[、，][\u3400-\u9fff]{2,4}){0,3})"
                                r"\s*/\s*(?P<org>[^/]{2,15})$")


#: "作者简介", "作者简历" (the author's bio): 简 is a surname, the word no name.
_BIO_WORDS = ("简介", "简历")


def _is_personal_name(name: str) -> bool:
    """Whether the Chinese ``name`` reads as a person's: two or three characters starting
    with a common surname, and no organisation's ending. "来源" names the publisher ("新华社",
    "人民网", "网络"); where it names a person, a small site credits the writer of a story it
    took ("来源: 尹娟"). (Compound surnames are left out: "东方财富" is a source.)"""
    if is_cjk_organisation(name) or clean_author(name) != name:
        return False
    return name[0] in _SURNAMES and 2 <= len(name) <= 3


#: A line repeating the headline ("» " + headline, a second title block) with at most this
#: many other characters is the headline again, not a line under it.
MAX_HEADLINE_REPEAT_EXTRA = 4


def author_from_name_line(lines: Sequence[str], title: str | None = None) -> str | None:
    """Names printed alone on a line right under a Chinese headline ("胡平", "赵延东、风笑天"),
    as printed (the Chinese bylines' convention); the first must start with a common surname,
    so that a short section name or a two-word phrase is not taken for a person. Lines that
    repeat the headline ``title`` do not count among the first ``NAME_LINE_PROBE``."""
    probe = [line.strip() for line in lines if not (
        title and title in line and len(line.strip()) - len(title) <= MAX_HEADLINE_REPEAT_EXTRA)]
    for line in probe[:NAME_LINE_PROBE]:
        outlet = _NAME_SLASH_OUTLET.match(line)
        if outlet and is_cjk_organisation(outlet.group("org")):
            line = outlet.group("v")
        if not _NAME_LINE.match(line):
            continue
        names = [n for n in re.split(r"\s*[、，,]\s*|\s+", line) if n]
        if names[0][0] in _SURNAMES or names[0][:2] in _COMPOUND_SURNAMES:
            return clean_author(line)
    return None


#: What a self-media page prints under its account's name: a follow button alone on its line
#: ("关注", "+关注", "订阅"; not "关注中国中心", a name), the account's id ("微信号 FViewXFG").
_ACCOUNT_SIGN = re.compile(r"^(?:\+\s*)?(?:关注|關注|订阅|訂閱)$|"
                           r"^(?:微信号|微信號)\s*[:：]?\s*\w+$")
#: "原创 GameForce 2019-09-04 22:18:34": the mark of an original post before the account.
_ORIGINAL_MARK = re.compile(r"^(?:原创|原創)\s*")


def author_from_account_line(lines: Sequence[str], title: str | None = None, *,
                             now: datetime | None = None) -> str | None:
    """The account a self-media page (a 头条号, a WeChat or Baijiahao post) prints under the
    headline without a label: a name followed on its line by the date ("华夏人文 2020-03-09
    18:14:21"), or on the next line by a follow button ("去驴行" / "关注"). Lines repeating the
    headline do not count among the first ``NAME_LINE_PROBE``."""
    probe = [line.strip() for line in lines if not (
        title and title in line and len(line.strip()) - len(title) <= MAX_HEADLINE_REPEAT_EXTRA)]
    for i, line in enumerate(probe[:NAME_LINE_PROBE]):
        line = _ORIGINAL_MARK.sub("", line)
        name = line
        dated = next(iter(iter_dates(line, now=now)), None)
        if dated is not None and dated[0] > 0:
            name = line[:dated[0]]
        elif not (i + 1 < len(probe) and _ACCOUNT_SIGN.match(probe[i + 1])):
            continue
        name = name.strip()
        if not _NAME_TOKEN.match(name) and not re.fullmatch(r"[\u3400-\u9fff\w]{2,12}", name):
            continue
        cleaned = clean_author(name)
        if cleaned == name:
            return cleaned
    return None


def thread_author(author: str | None, posts: Sequence[Mapping[str, Any]]) -> str | None:
    """``author``, or on a thread page where the page names none, the first post's author: a
    thread is its starter's (forum software marks each post's poster, not the thread's)."""
    if author or not posts:
        return author
    return clean_author(posts[0].get("author"), handles=True)
