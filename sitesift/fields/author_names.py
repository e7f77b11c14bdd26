"""What an author field holds: a name cleaned of its labels, dates, roles and outlets, or None.

Every source of an author (JSON-LD, meta tags, byline markup, bylines in the text) goes through
``clean_author``: "By "/"作者：" prefixes, dates, e-mail addresses, roles, social handles,
the site's acronym after a name and trailing punctuation go; URLs, placeholders ("unknown",
"佚名"), menu words and Chinese organisations' names are refused.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable
from typing import NamedTuple

from sitesift.parse.dom import HAN

__all__ = ["clean_author", "is_cjk_organisation", "join_authors", "split_names"]

#: Longest plausible author field (several names with "and"); longer text is a sentence.
MAX_AUTHOR_CHARS = 80
#: Most words in a Latin-script author field.
MAX_AUTHOR_WORDS = 10
#: Longest Chinese author field without separators (a few 2–4 character names).
MAX_CJK_AUTHOR_CHARS = 20
#: ... and longest name among several in a longer one (2-4 characters a Chinese name, a pen
#: name a little more; a transliteration joined by "·" may be longer).
MAX_CJK_NAME_CHARS = 8
_EMAIL = re.compile(r"\S+@\S+\.\w+")
#: "Bradley M. Kuhn (http://ebb.org/bkuhn/)", "Jane Roe <jane@example.org>": the writer's
#: home page or address in brackets after the name (a feed's and a meta author's convention).
_CONTACT = re.compile(r"\s*[(<\[]\s*([^\s()<>\[\]]+)\s*[)>\]]")
#: ... or the label of a link to them ("Edward M. Gomez (Email)").
_CONTACT_LABEL = re.compile(r"e-?mail|contact|twitter|bio", re.IGNORECASE)
_URL = re.compile(r"^(?:https?:)?//|^www\.|\.(?:com|org|net|html?)\b", re.IGNORECASE)
_PREFIX = re.compile(
    # Latin labels are whole words ("Discuz!" does not start with "di"); Chinese ones are not.
    r"^\s*(?:(?:this\s+(?:post|article|story|piece)\s+(?:was\s+)?)?"
    r"(?:(?:written|posted|published|reported|story|text|words|photos?|publi[ée]e?|post[ée]e?|"
    r"[ée]crit|geschrieben|ver[öo]ffentlicht)\s+)?"
    r"(?:by|from|von|par|por|di|door|av|af|autor(?:in|/in)?|auteur|author|authors|writer)"
    r"(?:\s*[:：/|]\s*|\s+)|"
    r"(?:作者|文|记者|編輯|编辑|责任编辑|責任編輯|撰文|文字|撰稿|稿件|供稿)\s*[:：/|]?\s*)",
    re.IGNORECASE)
_DATEISH = re.compile(
    r"(?:\d{4}\s*[-/.年]\s*\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|\b(?:on|am|le|el)\s+(?:\d|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b)|"
    r"\b(?:last\s+)?(?:updated|published|posted|aktualisiert)\b|\d{1,2}:\d{2}|"
    r"\d{1,2}\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b).*$",
    re.IGNORECASE)
#: Text after these labels in a byline is not part of the name (source, photo, editor, time).
_CJK_STOP = re.compile(r"\s*(?:来源|來源|出处|出處|发布|發佈|发表|發表|时间|時間|日期|浏览|瀏覽|"
                       r"点击|點擊|字号|字體|字体|编辑|編輯|责任|摄影|攝影|图|【|\[|\(|（|\||│|"
                       r"\d{4}).*$")
#: Punctuation after a name; the period of a final initial ("Jeff T.") stays.
_TRAILING = re.compile(r"(?:[\s,;:|/\-–—·•、，；：]|(?<!\b[A-Z])\.)+$")
_LEADING = re.compile(r"^[\s,;:|/\-–—·•.、，；：]+")
_ROLE = re.compile(
    r",?\s*(?:staff\s+(?:writer|reporter)|senior\s+\w+|contributing\s+\w+|correspondent|"
    r"reporter|editor|columnist|special to .*|associated press writers?\b.*|ap\b.*)$|"
    # "Daniel Burstein, Senior Director, Content & Marketing, MarketingSherpa": a job title
    # after the name's comma, and whatever follows it (department, employer).
    r",\s*(?:senior|director|manager|head of|chief|founder|co-founder|ceo|cto|cfo|president|"
    r"vice president|professor|associate|assistant|deputy|managing|executive)\b.*$",
    re.IGNORECASE)
#: "Jane Doe for The Times": the outlet after a person's name (first and last name at least;
#: "Organization for Transformative Works" is one name).
_FOR_OUTLET = re.compile(r"^(?P<name>\S+(?:\s+\S+)+?)\s+for\s+.*$", re.IGNORECASE)
#: Values a byline or author field holds when it names nobody: a template's placeholder
#: ("name, email@gmail.com"), "unknown", "anonymous", "compiled from the web".
_PLACEHOLDERS = frozenset((
    "name", "author", "unknown", "anonymous", "n/a", "none", "null",
    "未知", "佚名", "匿名", "不详", "无", "网络", "网络整理", "网友", "本站", "管理员",
    "系统管理员", "编辑", "小编",
))
#: A Chinese role label printed where a name would be: a few characters ending in the role's
#: word ("特邀作者" invited author, "主作者" main author, "原作者", "本报记者", "责任编辑"). A
#: Chinese name is a surname and one or two given characters, never one of these words.
_CJK_ROLE = re.compile(r"^[\u3400-\u9fff]{0,3}(?:作者|记者|記者|编辑|編輯)$")
#: "Ed Hornick CNN", "Jane O'Brien BBC, Washington": an acronym (and what follows) after a name
#: written in mixed case; cut when it is the site's (``outlets``), not a credential the writer
#: signs with ("Jeffrey A. Slotnick CPP, PSP", "Susan Hallam MBE").
_OUTLET_AFTER = re.compile(r"^(?P<name>[A-Z][a-z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)+?)"
                           r"\s+(?P<acronym>[A-Z]{2,5})\b.*$")
#: "Zachary Roth, @zackroth": the writer's social handle after the name.
_HANDLE_AFTER = re.compile(r"(?<=\w)\s*[,|·]?\s*@[\w.]+\s*$")
#: Words of menus, share bars ("LinkedIn Twitter Facebook Email": the networks a story is
#: shared to) and notices, which no author field holds.
_BAD_WORDS = re.compile(
    r"\b(?:comments?|share|tweet|follow|subscribe|login|log in|sign in|menu|home|"
    r"facebook|twitter|linkedin|instagram|pinterest|whatsapp|reddit|e-?mail|"
    r"read more|more from|all posts|view all|posts by|search|advertisement|admin|"
    r"cookie|privacy|copyright|©)\b", re.IGNORECASE)


class _CjkNames(NamedTuple):
    """The patterns only Chinese values reach (``_cjk_names``)."""

    #: "赵  培": a two-character name spaced out to align.
    spaced: re.Pattern[str]
    #: "琳达·普雷斯利（Linda Pressly）": a transliterated name with the original in brackets.
    transliterated: re.Pattern[str]
    #: What a Chinese organisation's name ends with: a paper (报), a site (网), an agency
    #: (社), a station (台), a magazine (刊, 杂志), a desk or office (编辑部, 部, 局, 中心), a
    #: trade's circle (界: "金融界", a common source), news (新闻, 消息, 资讯), a channel, an
    #: app, a company or a government body. Personal names (2-4 characters, given names of
    #: one or two) practically never end so; one-character endings count from three
    #: characters on.
    organisation_end: re.Pattern[str]


@functools.cache
def _cjk_names() -> _CjkNames:
    """Compiled on the first value holding a CJK ideograph (each match needs one): their
    character classes take 7-8 ms to compile, which pages in other scripts never use."""
    return _CjkNames(
        spaced=re.compile(r"^[\u3400-\u9fff](?: [\u3400-\u9fff]){1,3}$"),
        transliterated=re.compile(r"[\u3400-\u9fff]{1,8}(?:·[\u3400-\u9fff]{1,8})*\s*"
                                  r"[(（][A-Za-z][A-Za-z .'-]{1,40}[)）]"),
        organisation_end=re.compile(
            r"(?:(?:[\u3400-\u9fff\w]{2,})(?:报|網|网|社|台|刊|部|局|院|厅|处|所|办|界)|"
            r"(?:[\u3400-\u9fff\w]+)(?:新闻|新聞|消息|资讯|在线|频道|客户端|杂志|周刊|日报|晚报|"
            r"时报|科技|财经|財經|综合|编辑部|中心|集团|公司|政府|委员会|之家|基地|官网|官方号|号))$"),
    )


def clean_author(value: str | None, *, handles: bool = False,
                 outlets: Collection[str] = ()) -> str | None:
    """A cleaned author field, or None when ``value`` is not a plausible name.

    ``handles``: the value is marked as the author (``itemprop``/``rel=author``), so one word
    with digits ("Ejp55230", a forum poster's handle) is a name; in free text it is not.
    ``outlets``: the site's acronyms ("CNN"), cut after a name as the writer's affiliation.
    """
    if not value:
        return None
    text = " ".join(value.split())
    cjk = _cjk_names() if HAN.search(text) else None  # (both tests below need an ideograph)
    if cjk is not None and cjk.spaced.match(text):  # "赵  培": a name spaced out to align
        text = text.replace(" ", "")
    originals = re.split(r"\s*[&＆、]\s*", text)
    if cjk is not None and all(cjk.transliterated.fullmatch(n) for n in originals):
        # "琳达·普雷斯利（Linda Pressly）& 埃斯佩兰萨·埃斯克里巴诺（Esperanza Escribano）":
        # transliterated names with the original in brackets, which the bracket cut would lose.
        return ", ".join(originals)
    if not text or (_URL.search(text) and " " not in text):
        return None
    text = _CONTACT.sub(lambda m: "" if _URL.search(m.group(1)) or _EMAIL.search(m.group(1))
                        or _CONTACT_LABEL.fullmatch(m.group(1))
                        else m.group(0), text)
    text = _EMAIL.sub("", text)
    text = text.lstrip("@") if " " not in text else text
    for _ in range(2):
        text = _PREFIX.sub("", text)
    if HAN.search(text):
        text = _CJK_STOP.sub("", text)
    else:
        undated = _DATEISH.sub("", text)
        if undated != text:  # "Posted by David at December 16, 2025": the date's preposition
            undated = re.sub(r"\s+(?:at|on|um|le|el)\s*$", "", undated)
        text = undated
        # "Eliz - Product marketer", "ann » Tue Aug 27": a role or date after a separator.
        text = re.sub(r"\s*[|•·»]\s.*$|\s+(?:[-–—]|--)\s.*$", "", text)
        text = _FOR_OUTLET.sub(r"\g<name>", _ROLE.sub("", text))
        text = _HANDLE_AFTER.sub("", text)
        outlet = _OUTLET_AFTER.match(text)
        if outlet and outlet.group("acronym") in outlets:
            text = outlet.group("name")
    text = _TRAILING.sub("", _LEADING.sub("", text)).strip()
    if not text or len(text) > MAX_AUTHOR_CHARS or _URL.search(text):
        return None
    if _BAD_WORDS.search(text) or not re.search(r"[^\W\d_]{2}", text):
        return None
    if text.casefold() in _PLACEHOLDERS or _CJK_ROLE.match(text) or is_cjk_organisation(text):
        return None
    # Names have no digits; user handles ("CC7567") do, and are one word.
    if re.search(r"\d", text) and not (handles and " " not in text):
        return None
    if HAN.search(text):
        if len(text.replace(" ", "")) > MAX_CJK_AUTHOR_CHARS and not all(
                len(part) <= MAX_CJK_NAME_CHARS or "·" in part
                for part in re.split(r"[、，,\s&＆]+", text) if part):
            return None  # one long run, or clauses of a sentence ("华裔移民之女，成全球…")
    elif len(text.split()) > MAX_AUTHOR_WORDS and not _names_list(text):
        return None
    return text


def _names_list(text: str) -> bool:
    """Whether ``text`` is a list of short capitalised names ("Dr Marna van der Merwe, Dr
    Dieter Veldsman, Erik van Vulpen": three co-authors, 11 words), which may run past
    ``MAX_AUTHOR_WORDS`` where one sentence may not (``MAX_AUTHOR_CHARS`` still holds)."""
    names = _LIST_SEPARATOR.split(text)
    return len(names) > 1 and all(
        n[:1].isupper() and len(n.split()) <= MAX_NAME_WORDS for n in names)


#: Most words of one name in a list of several ("Dr Marna van der Merwe").
MAX_NAME_WORDS = 5
#: What separates co-authors in a byline: commas, "and", "&", and the "and" of other languages
#: ("Keith Bradsher y Tariq Panja", "A und B", "A et B", "A e B", "A en B") where a full name
#: (two capitalised words) follows: "José Ortega y Gasset" is one name.
_LIST_SEPARATOR = re.compile(r"\s*(?:,\s*and\s+|\s+and\s+|\s*,\s*|\s+&\s+)|"
                             r"\s+(?:und|y|et|e|en)\s+(?=[A-Z][\w'’.-]*\s+[A-Z])")


def split_names(text: str) -> list[str]:
    """The names of a byline listing several (``_LIST_SEPARATOR``), empty ones left out."""
    return [n for n in _LIST_SEPARATOR.split(text) if n]


def is_cjk_organisation(value: str) -> bool:
    """Whether ``value`` is a Chinese organisation's name (a paper, site, agency, desk or
    office: "新京报", "环球网", "新浪财经-自媒体综合"), which a source or publisher field holds
    and an author field sometimes does: not a person."""
    return bool(HAN.search(value)) and any(
        _cjk_names().organisation_end.search(part)
        for part in re.split(r"[-—–·|/ ]+", value.strip()) if part)


def join_authors(names: Iterable[str], *, handles: bool = False,
                 outlets: Collection[str] = ()) -> str | None:
    """Distinct cleaned names joined by ", " (a name inside another one counts once);
    ``handles`` and ``outlets`` as for ``clean_author``."""
    out: list[str] = []
    for name in names:
        cleaned = clean_author(name, handles=handles, outlets=outlets)
        if not cleaned:
            continue
        folded = cleaned.casefold()
        if any(folded in o.casefold() or o.casefold() in folded for o in out):
            continue
        out.append(cleaned)
    return ", ".join(out) if out else None
