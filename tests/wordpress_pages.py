"""A small made-up blog in the shape of a default WordPress theme (an ``<article>`` per post, a
comment list under it, a comment form), in Chinese or English, for the page-type tests: a post
with comments is an article with comments, the home and category pages are lists."""

from __future__ import annotations

ZH_WORDS = [
    "城市", "河流", "图书馆", "市场", "花园", "桥梁", "车站", "果园", "节日", "博物馆", "山谷",
    "学校", "冬天", "夏天", "铁路", "村庄", "森林", "海岛", "草地", "灯笼", "厨房", "工作室",
    "剧院", "旅行", "信件", "季节", "天气", "收获", "高山", "海岸", "街道", "朋友",
]
EN_WORDS = [
    "river", "council", "market", "harbour", "garden", "bridge", "library", "station",
    "orchard", "festival", "museum", "valley", "school", "winter", "summer", "railway",
    "village", "forest", "island", "meadow", "lantern", "kitchen", "workshop", "theatre",
    "journey", "letter", "season", "weather", "harvest", "mountain", "coast", "street",
]
COMMENTERS = ["小明", "阿红", "老王", "林林", "大海"]
BASE = "http://blog.test"

_LABELS = {
    "zh": {"posted": "发布于", "by": "作者", "says": "说道：", "reply": "回复",
           "leave": "发表评论", "comments": "{n} 条评论", "cat": "分类", "older": "较早文章",
           "recent": "近期文章", "field": "评论", "submit": "发表评论",
           "powered": "自豪地采用WordPress"},
    "en": {"posted": "Published", "by": "By", "says": "says:", "reply": "Reply",
           "leave": "Leave a Reply", "comments": "{n} thoughts on this", "cat": "Categorized as",
           "older": "Older posts", "recent": "Recent Posts", "field": "Comment",
           "submit": "Post Comment", "powered": "Proudly powered by WordPress"},
}


def _sentence(seed: int, lang: str, n: int = 18) -> str:
    words = ZH_WORDS if lang == "zh" else EN_WORDS
    m = len(words)
    picked = [words[(seed * 7 + k * 5 + seed // m) % m] for k in range(n)]
    if lang == "zh":
        return "的".join("".join(picked[k:k + 3]) for k in range(0, n, 3)) + "。"
    return " ".join(picked).capitalize() + "."


def _paragraphs(pid: int, lang: str, count: int = 4) -> str:
    return "".join(f"<p>{_sentence(pid * 13 + j, lang)}{_sentence(pid * 17 + j, lang)}</p>"
                   for j in range(count))


def title(pid: int, lang: str) -> str:
    words = ZH_WORDS if lang == "zh" else EN_WORDS
    if lang == "zh":
        return f"{words[pid % 32]}与{words[(pid * 5 + 3) % 32]}的故事"
    return f"The {words[pid % 32]} and the {words[(pid * 5 + 3) % 32]}"


def post_url(pid: int) -> str:
    return f"{BASE}/?p={pid}"


def _frame(body_class: str, main: str, lang: str) -> str:
    lab = _LABELS[lang]
    recent = "".join(f'<li><a href="{post_url(p)}">{title(p, lang)}</a></li>' for p in range(1, 6))
    return (
        f'<!doctype html><html lang="{"zh-CN" if lang == "zh" else "en-US"}"><head>'
        f'<meta charset="utf-8"><title>Blog</title></head><body class="{body_class}">'
        '<div id="page" class="site"><header id="masthead" class="site-header">'
        f'<p class="site-title"><a href="{BASE}/">Blog</a></p>'
        f'<nav class="primary-navigation"><a href="{BASE}/">Home</a> '
        f'<a href="{BASE}/?cat=1">News</a></nav></header>'
        f'<div id="content" class="site-content"><main id="main" class="site-main">{main}</main>'
        f'<aside class="widget-area"><section class="widget widget_recent_entries">'
        f'<h2 class="widget-title">{lab["recent"]}</h2><ul>{recent}</ul></section></aside></div>'
        f'<footer id="colophon" class="site-footer"><div class="powered-by">{lab["powered"]}'
        '</div></footer></div></body></html>')


def _entry_footer(pid: int, lang: str) -> str:
    lab = _LABELS[lang]
    day = 1 + pid % 27
    printed = f"2024年3月{day}日" if lang == "zh" else f"March {day}, 2024"
    return (
        '<footer class="entry-footer default-max-width"><div class="posted-by">'
        f'<span class="posted-on">{lab["posted"]} <time class="entry-date published" '
        f'datetime="2024-03-{day:02d}T10:00:00+08:00">{printed}</time></span>'
        f'<span class="byline">{lab["by"]} <a href="{BASE}/?author=1" rel="author">admin</a>'
        f'</span></div><div class="post-taxonomies"><span class="cat-links">{lab["cat"]} '
        f'<a href="{BASE}/?cat=1" rel="category tag">News</a></span></div></footer>')


def _comment(pid: int, k: int, lang: str, sentences: int = 0) -> str:
    """Comment k of post ``pid``: a short sentence, or ``sentences`` paragraphs."""
    lab = _LABELS[lang]
    who = COMMENTERS[(pid + k) % len(COMMENTERS)] if lang == "zh" else f"reader{(pid + k) % 5}"
    printed = f"2024年3月{1 + (pid + k) % 27}日 上午10:0{k}" if lang == "zh" else \
        f"March {1 + (pid + k) % 27}, 2024 at 10:0{k} am"
    return (
        f'<li id="comment-{pid}{k}" class="comment even thread-even depth-1">'
        f'<article id="div-comment-{pid}{k}" class="comment-body"><footer class="comment-meta">'
        f'<div class="comment-author vcard"><b class="fn">{who}</b> '
        f'<span class="says">{lab["says"]}</span></div><div class="comment-metadata">'
        f'<a href="{post_url(pid)}#comment-{pid}{k}"><time datetime="2024-03-01T10:00:00+08:00">'
        f'{printed}</time></a></div></footer><div class="comment-content">'
        f'{_comment_text(pid, k, lang, sentences)}</div><div class="reply">'
        f'<a rel="nofollow" class="comment-reply-link" href="{post_url(pid)}&replytocom={k}">'
        f'{lab["reply"]}</a></div></article></li>')


def _comment_text(pid: int, k: int, lang: str, sentences: int) -> str:
    if not sentences:
        return f"<p>{_sentence(pid * 29 + k, lang, 9)}</p>"
    return "".join(f"<p>{_sentence(pid * 31 + k * 7 + j, lang)}</p>" for j in range(sentences))


def post_page(pid: int, comments: int, lang: str = "zh", paragraphs: int = 4,
              comment_sentences: int = 0) -> str:
    """A post's own page (``paragraphs`` long) with ``comments`` comments (a short sentence
    each, or ``comment_sentences`` paragraphs) and the comment form."""
    lab = _LABELS[lang]
    listed = "".join(_comment(pid, k, lang, comment_sentences) for k in range(comments))
    thread = (f'<h2 class="comments-title">{lab["comments"].format(n=comments)}</h2>'
              f'<ol class="comment-list">{listed}</ol>') if comments else ""
    main = (
        f'<article id="post-{pid}" class="post-{pid} post type-post status-publish hentry entry">'
        f'<header class="entry-header alignwide"><h1 class="entry-title">{title(pid, lang)}</h1>'
        f'</header><div class="entry-content">{_paragraphs(pid, lang, paragraphs)}</div>'
        f'{_entry_footer(pid, lang)}</article>'
        f'<div id="comments" class="comments-area default-max-width">{thread}'
        '<div id="respond" class="comment-respond"><h2 id="reply-title" '
        f'class="comment-reply-title">{lab["leave"]}</h2><form action="{BASE}/wp-comments-post.php"'
        f' method="post" id="commentform" class="comment-form"><p class="comment-form-comment">'
        f'<label for="comment">{lab["field"]}</label><textarea id="comment" name="comment">'
        f'</textarea></p><p class="form-submit"><input name="submit" type="submit" '
        f'class="submit" value="{lab["submit"]}"></p></form></div></div>')
    return _frame(f"post-template-default single single-post postid-{pid}", main, lang)


def _excerpt(pid: int, lang: str) -> str:
    """WordPress's excerpt: 55 words, or 55 characters where words are not spaced (its
    Chinese translation counts characters), then a link to read on."""
    text = _paragraphs(pid, lang, 2)
    text = text.replace("<p>", "").replace("</p>", "")
    short = text[:55] if lang == "zh" else " ".join(text.split()[:55])
    more = "继续阅读" if lang == "zh" else "Continue reading"
    return f'<p>{short}…</p><a class="more-link" href="{post_url(pid)}">{more}</a>'


def list_page(pids: list[int], lang: str = "zh", older: str | None = None,
              excerpts: bool = False) -> str:
    """An archive of posts (whole, as some themes show them, or ``excerpts``), newest first."""
    lab = _LABELS[lang]
    items = "".join(
        f'<article id="post-{p}" class="post-{p} post type-post status-publish hentry entry">'
        f'<header class="entry-header"><h2 class="entry-title default-max-width">'
        f'<a href="{post_url(p)}">{title(p, lang)}</a></h2></header>'
        f'<div class="entry-content">{_excerpt(p, lang) if excerpts else _paragraphs(p, lang, 2)}'
        f'</div>{_entry_footer(p, lang)}'
        '</article>' for p in pids)
    nav = (f'<nav class="navigation pagination"><a class="next page-numbers" href="{older}">'
           f'{lab["older"]}</a></nav>') if older else ""
    return _frame("home blog hfeed", items + nav, lang)


def site(lang: str = "zh", excerpts: bool = False,
         long_comments: bool = False) -> list[tuple[str, str, str]]:
    """(url, html, page type) of a crawl of the made-up blog: 12 posts (0 to 5 comments),
    the home page and its second page, a category page (``excerpts``: lists of excerpts;
    ``long_comments``: posts of two paragraphs, comments of three)."""
    shape = {"paragraphs": 2, "comment_sentences": 3} if long_comments else {}
    out = [(post_url(p), post_page(p, p % 6, lang, **shape), "detail") for p in range(1, 13)]
    newest = list(range(12, 0, -1))
    out.append((f"{BASE}/", list_page(newest[:5], lang, f"{BASE}/?paged=2", excerpts), "list"))
    second = list_page(newest[5:10], lang, f"{BASE}/?paged=3", excerpts)
    out.append((f"{BASE}/?paged=2", second, "list"))
    out.append((f"{BASE}/?cat=1", list_page(newest[:5], lang, None, excerpts), "list"))
    return out
