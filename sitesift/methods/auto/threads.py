"""``auto``'s reading of a forum thread: a page the forum method (paper 001) reads as a thread
is answered with its posts only where they hold the page's own text (``reads_as_thread``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sitesift.similarity import shingle_prf

__all__ = ["THREAD_MIN_HELD", "THREAD_MIN_SHARE", "holds_post", "reads_as_thread",
           "thread_holds"]

#: Share of a post's word 4-grams the page's main text must hold (for one post at least) for
#: ``auto`` to read the page as a forum thread.
THREAD_MIN_HELD = 0.5


#: Share of the page method's main text (word 4-grams) a thread's text (its posts joined) must
#: hold for ``auto`` to answer with the posts. On the thread pages of forum-dz, forum-flux and
#: forum-awful the posts hold 0.88, 0.73 and 0.51 of it at least (the rest: author panels,
#: signatures); on a news page read as a forum a 123-character "first post" held
#: 0.04 of a 2,800-character story. 0.25 lies between.
THREAD_MIN_SHARE = 0.25


def reads_as_thread(posts: Sequence[Mapping[str, str | None]], text: str | None) -> bool:
    """Whether ``auto`` answers a page whose main text is ``text`` with its ``posts``. A forum
    thread's posts are its main text; a news story's comments are posts too, but the story
    is the main text and holds none of them: those pages stay articles. Nor does a thread's
    text replace a main text it holds little of (a story's standfirst read as a "first
    post"): what it would drop lies outside any post."""
    return any(holds_post(text, post["text"]) for post in posts) and thread_holds(posts, text)


def holds_post(text: str | None, post: str | None) -> bool:
    """Whether ``text`` holds most of ``post``: the recall of the post's word 4-grams (every
    CJK character a word), as the body scorer counts them."""
    if not post or not post.strip():
        return False
    return shingle_prf(post, text or "")[1] >= THREAD_MIN_HELD


def thread_holds(posts: Sequence[Mapping[str, str | None]], text: str | None) -> bool:
    """Whether the thread's text (``posts`` joined) holds at least ``THREAD_MIN_SHARE`` of the
    page's main ``text``, so that answering with the posts drops no main text."""
    thread = "\n".join(post["text"] or "" for post in posts)
    return not (text or "").strip() or shingle_prf(text, thread)[1] >= THREAD_MIN_SHARE
