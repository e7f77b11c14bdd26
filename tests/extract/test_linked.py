"""Linked teasers make a list even when their summaries add up to an article's prose
(small pages written for these tests)."""

from __future__ import annotations

from sitesift.extract.content import extract_content
from sitesift.parse import parse_html

SUMMARY = ("The council met on Tuesday and approved the budget for next year, with money "
           "for the harbour and the schools.")
ENTRY = ("This mover packs every room for you, brings its own boxes and blankets, and quotes "
         "a fixed price after a video call; customers praise the crews for their care with "
         "pianos and antiques, although weekend slots fill weeks ahead. ") * 3


def _type(body: str) -> str | None:
    return extract_content(parse_html(f"<html><body>{body}</body></html>")).page_type


def test_linked_teasers_are_a_list_despite_their_prose() -> None:
    cards = "".join(
        f"<div class='card'><h3><a href='/2024/05/story-{i}'>Harbour story number {i} of the "
        f"day</a></h3><p>{SUMMARY}</p><span>May {i + 1}</span></div>" for i in range(8))
    assert _type(f"<main><h1>News</h1><div class='stream'>{cards}</div></main>") == "list"


def test_a_listicle_of_long_entries_stays_detail() -> None:
    # Each entry links its subject's own site (URLs of every kind) and holds long prose.
    entries = "".join(
        f"<div class='entry'><h2><a href='https://mover{i}.example/{'x/' * i}'>Mover number "
        f"{i} of the city</a></h2><p>{ENTRY}</p></div>" for i in range(6))
    assert _type(f"<article><h1>Best movers</h1>{entries}</article>") == "detail"


def test_same_shaped_links_with_long_entries_stay_detail() -> None:
    # Even linking pages of one kind, entries of several hundred prose characters are an
    # article's sections, not teasers.
    entries = "".join(
        f"<div class='entry'><h2><a href='/movers/{i}'>Mover number {i} of the city</a></h2>"
        f"<p>{ENTRY}</p></div>" for i in range(6))
    assert _type(f"<article><h1>Best movers</h1>{entries}</article>") == "detail"


def test_a_priced_grid_beside_a_category_text_is_a_list() -> None:
    intro = f"<div class='about'><p>{SUMMARY * 5}</p></div>"
    cards = "".join(
        f"<div class='tile'><a href='/products/wallet-{i}'>Slim leather wallet model {i}</a>"
        f"<span class='price'>${20 + i}.00</span></div>" for i in range(12))
    assert _type(f"<div class='grid'>{cards}</div>{intro}") == "list"
    # The same grid without prices beside the text: a box of links beside a story.
    plain = cards.replace("<span class='price'>", "<span>").replace("$", "No. ")
    assert _type(f"<div class='grid'>{plain}</div>{intro}") == "detail"
