"""A small made-up forum (class names invented here) for the forum tests."""

from __future__ import annotations

from collections.abc import Callable

WORDS = [
    "harbour", "lantern", "meadow", "granite", "orchard", "compass", "velvet", "thunder",
    "saffron", "glacier", "pepper", "quartz", "willow", "canyon", "falcon", "ember", "maple",
    "cobalt", "tundra", "juniper", "marble", "nectar", "oyster", "pylon", "quiver", "raven",
]
USERS = ["alba", "borin", "cyra", "dunmore", "esk", "fennick"]


def _sentence(seed: int, n: int = 14) -> str:
    # Compound words of three pieces: each page has words (and line starts) of its own, as
    # real posts do.
    m = len(WORDS)
    words = [WORDS[(seed * 7 + k * 3) % m][:3] + WORDS[(seed * 11 + k) % m][:3]
             + WORDS[(seed * 5 + k * 13 + seed // m) % m][:3] for k in range(n)]
    return " ".join(words).capitalize() + "."


def _iso_stamp(tid: int, k: int) -> str:
    return f"2024-03-{k + 1:02d} 1{k % 10}:0{k % 6}"


def _posts(tid: int, replies: int) -> list[tuple[int, str, str]]:
    """(k, poster, text) of the thread's ``replies + 1`` posts."""
    return [(k, USERS[(tid + k) % len(USERS)],
             " ".join(_sentence(tid * 31 + k * 5 + j) for j in range(3)))
            for k in range(replies + 1)]


def thread_page(tid: int, replies: int, stamp: Callable[[int, int], str] = _iso_stamp) -> str:
    """A thread of ``replies + 1`` posts; ``stamp(tid, k)``: post k's printed time."""
    posts = []
    for k, user, text in _posts(tid, replies):
        posts.append(
            f'<div class="msgbox" id="m{tid}{k}"><div class="side">'
            f'<span class="uname">{user}</span><span class="rank">Member</span></div>'
            f'<div class="head">Posted {stamp(tid, k)}</div>'
            f'<div class="msgtext">{text}</div>'
            f'<div class="tools"><a href="/reply?t={tid}">Reply</a> Quote Report</div></div>')
    return (
        f"<html><head><title>Thread {tid}</title></head><body>"
        '<div class="menu"><a href="/">Home</a> <a href="/board?b=1">Board</a></div>'
        f'<h1 class="subject">Thread {tid}</h1>{"".join(posts)}'
        '<div class="foot">Powered by a forum engine. All rights reserved.</div>'
        "</body></html>"
    )


def list_page(board: int, tids: list[int]) -> str:
    rows = "".join(
        f'<tr><td class="t"><a href="/show?t={t}">Topic number {t} about things</a></td>'
        f'<td class="by"><a href="/user?u={t % 5}">{USERS[t % 6]}</a></td><td>{t}</td></tr>'
        for t in tids)
    return (
        f"<html><head><title>Board {board}</title></head><body>"
        '<div class="menu"><a href="/">Home</a> <a href="/board?b=1">Board</a></div>'
        f'<table class="threads">{rows}</table>'
        '<div class="foot">Powered by a forum engine. All rights reserved.</div>'
        "</body></html>"
    )


def site() -> list[tuple[str, str, str]]:
    """(url, html, type) of a crawl of the made-up forum."""
    out = []
    for tid in range(1, 13):
        out.append((f"http://forum.test/show?t={tid}", thread_page(tid, tid % 4), "thread"))
    for board in range(1, 4):
        tids = list(range(board, 13, 3))
        out.append((f"http://forum.test/board?b={board}", list_page(board, tids), "list"))
        out.append((f"http://forum.test/board?b={board}&page=2", list_page(board, tids[:2]),
                    "list"))
    return out


def archive_page(tid: int, replies: int) -> str:
    """The same thread as ``thread_page`` in a second, text-only template (an archive copy:
    other classes, no tools)."""
    posts = []
    for k, user, text in _posts(tid, replies):
        posts.append(
            f'<div class="entry"><div class="top"><h2 class="poster"><a href="/user?u={k}">'
            f'{user}</a></h2><div class="when">{_iso_stamp(tid, k)}</div></div>'
            f'<div class="words">{text}</div></div>')
    return (f"<html><head><title>Thread {tid} (archive)</title></head><body>"
            f'<div class="crumbs"><a href="/archive/board-1.html">Board</a></div>'
            f'<h1>Thread {tid}</h1>{"".join(posts)}<div class="full">Full version: '
            f'<a href="/show?t={tid}">Thread {tid}</a></div></body></html>')


def profile_page(uid: int) -> str:
    """A member's page: one member's fields, a few links."""
    return (
        f"<html><head><title>Profile of {USERS[uid % 6]}</title></head><body>"
        '<div class="menu"><a href="/">Home</a> <a href="/board?b=1">Board</a></div>'
        f'<h1 class="subject">{USERS[uid % 6]}</h1><dl class="fields">'
        f'<dt>Posts:</dt><dd>{uid * 7}</dd><dt>Joined:</dt><dd>2023-0{uid % 9 + 1}-11</dd>'
        f'<dt>Location:</dt><dd>Somewhere near the harbour of town {uid}</dd></dl>'
        f'<a href="/user?u={uid}&amp;area=posts">Show posts</a>'
        '<div class="foot">Powered by a forum engine. All rights reserved.</div>'
        "</body></html>")
