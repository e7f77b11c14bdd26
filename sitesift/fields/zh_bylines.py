"""Chinese bylines and credit lines: labelled bylines ("作者：X", "文/图 X", "（姚峰 上海报道）"),
reporters' credit lines ("本报记者 王燕平", with the credit lines right under them), the editor
("责任编辑：X"), names alone under the headline ("赵延东、风笑天"), a self-media account's line
("华夏人文 2020-03-09 18:14:21") and a government document's issuing body ("发文机关：").

Values are cut at the next label, date or place and kept as printed (names space-separated).
A source ("来源") names the publisher, not the author, and is read only where it is a personal
name alone on its line ("来源: 尹娟"), after every labelled byline. ``fields.authors`` reads these
with the English and structured sources.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from sitesift.fields.author_names import clean_author, is_cjk_organisation
from sitesift.fields.date_forms import iter_dates

__all__ = ["author_from_account_line", "author_from_editor_line", "author_from_name_line",
           "zh_byline"]

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


def zh_byline(everything: str, text: str, *, editors: bool) -> str | None:
    """A Chinese labelled byline or credit line anywhere in ``everything`` (the lines from the
    headline on), else the issuing body a government document names in ``text`` (the lines
    just under the headline); ``editors`` as for ``authors.author_from_text``."""
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
