"""Field sources of a template: learned from a few hand-written pages, read on a new one."""

from __future__ import annotations

import json

import pytest

from sitesift.methods.template.field_learning import learn_field_sources
from sitesift.methods.template.fields import FieldSources, Source
from sitesift.methods.template.template import PathFinder
from sitesift.parse import parse_html

STORIES = [
    ("Rain falls on the plain", "2021-03-04", "Ann Lee"),
    ("Markets rise again today", "2021-05-06", "Bo Chen"),
    ("A new bridge opens downtown", "2022-01-09", "Cy Diaz"),
    ("Schools reopen after storm", "2022-02-11", "Dan Eng"),
]


def _page(title: str, day: str, author: str, *, meta_date: bool = True,
          printed: str | None = None, byline: bool = True, extra_block: bool = False) -> str:
    meta = f'<meta property="article:published_time" content="{day}">' if meta_date else ""
    date_line = f'<span class="date">{printed}</span>' if printed else ""
    by = f'<p class="byline">By {author}</p>' if byline else ""
    extra = '<div class="header">Ad</div>' if extra_block else ""
    return (f"<html><head><title>{title} | Daily Example</title>{meta}</head><body>"
            f'<div class="header">Daily Example</div>{extra}'
            f'<div class="story"><h1>{title}</h1>{by}<div class="meta">{date_line}</div>'
            f"<p>Story text of {title.lower()}.</p></div></body></html>")


def _finder(html: str) -> PathFinder:
    return PathFinder(parse_html(html))


def _learn(pages: list[tuple[str, dict[str, str | None]]]) -> FieldSources:
    return learn_field_sources([(_finder(html), None, values) for html, values in pages])


def _values(title: str, day: str | None, author: str | None) -> dict[str, str | None]:
    return {"title": title, "published": day, "author": author}


def test_meta_date_path_title_and_byline_are_learned_and_read_on_a_new_page() -> None:
    sources = _learn([(_page(t, d, a), _values(t, d, a)) for t, d, a in STORIES[:3]])
    assert sources.published == Source("meta", key="article:published_time")
    # The printed h1 comes before <title> with its " | Daily Example" decoration.
    assert sources.title is not None and sources.title.kind == "path"
    assert sources.author is not None and sources.author.kind == "path"
    assert sources.complete()
    t, d, a = STORIES[3]
    assert sources.read(_finder(_page(t, d, a)), url=None) == _values(t, d, a)


def test_a_title_only_in_the_document_title_is_read_without_its_decoration() -> None:
    pages = [(_page(t, d, a).replace(f"<h1>{t}</h1>", "<h1>Daily Example</h1>"), _values(t, d, a))
             for t, d, a in STORIES]
    sources = _learn(pages[:3])
    assert sources.title == Source("doctitle", suffix=" | Daily Example")
    assert sources.read(_finder(pages[3][0]), url=None) == pages[3][1]
    # Another decoration is not this template's <title>.
    other = pages[3][0].replace(" | Daily Example</title>", " - Other</title>")
    assert sources.read(_finder(other), url=None) is None


def test_a_date_printed_at_a_fixed_path_is_a_path_source() -> None:
    printed = ["March 4, 2021", "May 6, 2021", "January 9, 2022", "February 11, 2022"]
    pages = [(_page(t, d, a, meta_date=False, printed=p), _values(t, d, a))
             for (t, d, a), p in zip(STORIES, printed, strict=True)]
    sources = _learn(pages[:3])
    assert sources.published is not None and sources.published.kind == "path"
    assert sources.read(_finder(pages[3][0]), url=None) == pages[3][1]


def test_read_gives_up_when_the_learned_element_is_missing() -> None:
    printed = ["March 4, 2021", "May 6, 2021", "January 9, 2022"]
    sources = _learn([(_page(t, d, a, meta_date=False, printed=p), _values(t, d, a))
                      for (t, d, a), p in zip(STORIES[:3], printed, strict=True)])
    t, d, a = STORIES[3]
    assert sources.read(_finder(_page(t, d, a, meta_date=False)), url=None) is None
    # A long text at the path is another element there, not a date line.
    long_line = "Published on March 4, 2021 " + "and more words " * 30
    assert sources.read(_finder(_page(t, d, a, meta_date=False, printed=long_line)),
                        url=None) is None
    # A date that does not parse is no date either.
    assert sources.read(_finder(_page(t, d, a, meta_date=False, printed="soon")),
                        url=None) is None


def test_a_field_no_source_reproduces_has_none_and_the_sources_are_incomplete() -> None:
    # The pipeline's author is nowhere on the pages.
    sources = _learn([(_page(t, d, a), _values(t, d, f"Someone {i}"))
                      for i, (t, d, a) in enumerate(STORIES[:3])])
    assert sources.author is None
    assert not sources.complete()
    t, d, a = STORIES[3]
    assert sources.read(_finder(_page(t, d, a)), url=None) is None


def test_a_field_none_on_every_learning_page_is_absent() -> None:
    sources = _learn([(_page(t, d, a, byline=False), _values(t, d, None))
                      for t, d, a in STORIES[:3]])
    assert sources.author == Source("absent")
    t, d, a = STORIES[3]
    assert sources.read(_finder(_page(t, d, a)), url=None) == _values(t, d, None)


def test_a_byline_some_pages_lack_is_optional() -> None:
    pages = [(_page(t, d, a, byline=i != 1), _values(t, d, a if i != 1 else None))
             for i, (t, d, a) in enumerate(STORIES)]
    sources = _learn(pages[:3])
    assert sources.author is not None and sources.author.optional
    t, d, a = STORIES[3]
    assert sources.read(_finder(_page(t, d, a, byline=False)), url=None) == _values(t, d, None)


def test_one_learning_page_learns_nothing() -> None:
    t, d, a = STORIES[0]
    assert _learn([(_page(t, d, a), _values(t, d, a))]) == FieldSources(None, None, None)


def test_an_extra_block_before_the_story_does_not_move_a_path() -> None:
    printed = ["March 4, 2021", "May 6, 2021", "January 9, 2022", "February 11, 2022"]
    pages = [(_page(t, d, a, meta_date=False, printed=p, extra_block=i == 3), _values(t, d, a))
             for i, ((t, d, a), p) in enumerate(zip(STORIES, printed, strict=True))]
    sources = _learn(pages[:3])
    assert sources.read(_finder(pages[3][0]), url=None) == pages[3][1]


def test_to_dict_round_trips_through_json() -> None:
    printed = ["March 4, 2021", "May 6, 2021", "January 9, 2022"]
    sources = _learn([(_page(t, d, a, meta_date=False, printed=p), _values(t, d, a))
                      for (t, d, a), p in zip(STORIES[:3], printed, strict=True)])
    data = json.loads(json.dumps(sources.to_dict()))
    assert FieldSources.from_dict(data) == sources
    assert FieldSources.from_dict(FieldSources(None, None, None).to_dict()) == FieldSources(
        None, None, None)


@pytest.mark.parametrize("garbage", [
    None, [], "title", {"title": None},
    {"title": None, "published": None, "author": None, "anchor": None, "extra": None},
    {"title": {"kind": "guess"}, "published": None, "author": None,
     "anchor": None},
    {"title": {"kind": "path", "path": []}, "published": None, "author": None,
     "anchor": None},
    {"title": {"kind": "path", "path": [[1]]}, "published": None, "author": None,
     "anchor": None},
    {"title": {"kind": "path", "path": [["a", 0]]}, "published": None, "author": None,
     "anchor": None},
    {"title": {"kind": "meta", "key": 3}, "published": None, "author": None,
     "anchor": None},
    {"title": {"kind": "meta"}, "published": None, "author": None,
     "anchor": None},
    {"title": {"kind": "meta", "key": "og:title", "optional": "yes"}, "published": None,
     "author": None, "anchor": None},
    {"title": "meta", "published": None, "author": None,
     "anchor": None},
    {"title": None, "published": None, "author": None, "anchor": {"kind": "meta", "key": "x"}},
])
def test_from_dict_rejects_garbage(garbage: object) -> None:
    with pytest.raises(ValueError):
        FieldSources.from_dict(garbage)


MORE = [*STORIES, ("Harbor fog delays ferries", "2022-03-15", "Eve Fox")]
PRINTED = ["March 4, 2021", "May 6, 2021", "January 9, 2022", "February 11, 2022",
           "March 15, 2022"]


def _dated(skip: int | None = None, *, wrong: int | None = None,
           count: int = 5) -> list[tuple[str, dict[str, str | None]]]:
    """Pages with the date printed at one place, except page ``skip`` (no date line there: the
    pipeline found its date elsewhere) and page ``wrong`` (printed with another date)."""
    return [(_page(t, d, a, meta_date=False,
                   printed=None if i == skip else "June 1, 2020" if i == wrong else p),
             _values(t, d, a))
            for i, ((t, d, a), p) in enumerate(zip(MORE[:count], PRINTED[:count], strict=True))]


def test_a_source_missing_on_one_learning_page_in_five_is_kept() -> None:
    pages = _dated(skip=0)
    sources = _learn(pages)
    assert sources.published is not None and sources.published.kind == "path"
    assert not sources.published.optional
    # A new page without the date line makes read give up, as on the missed learning page.
    assert sources.read(_finder(pages[0][0]), url=None) is None
    assert sources.read(_finder(pages[1][0]), url=None) == pages[1][1]


def test_no_miss_with_fewer_learning_pages_or_more_misses() -> None:
    assert _learn(_dated(skip=0, count=4)[:3]).published is None
    assert _learn(_dated(skip=0, count=4)).published is None  # 4 pages: no miss allowed
    five = _dated(skip=0)
    five[3] = _dated(skip=3)[3]
    assert _learn(five).published is None


def test_a_source_reading_another_value_on_a_learning_page_is_not_kept() -> None:
    assert _learn(_dated(wrong=2)).published is None


def test_a_value_the_pipeline_missed_on_one_page_in_five_is_tolerated() -> None:
    pages = [(_page(t, d, a), _values(t, d, None if i == 2 else a))
             for i, (t, d, a) in enumerate(MORE)]
    sources = _learn(pages)
    assert sources.author is not None and sources.author.kind == "path"
    assert sources.read(_finder(pages[2][0]), url=None) == _values(*MORE[2])


def test_no_value_where_the_pipeline_found_one_is_not_tolerated() -> None:
    # Page 1 has no byline but the pipeline found an author; page 2 has neither.
    pages = [(_page(t, d, a, byline=i not in (1, 2)), _values(t, d, None if i == 2 else a))
             for i, (t, d, a) in enumerate(MORE)]
    assert _learn(pages).author is None


def test_a_fallback_place_is_read_where_the_learned_one_is_missing() -> None:
    def page(t: str, d: str, a: str, *, meta: bool = True) -> str:
        tag = f'<meta name="author" content="{a}">' if meta else ""
        return _page(t, d, a).replace("</head>", f"{tag}</head>")

    sources = _learn([(page(t, d, a), _values(t, d, a)) for t, d, a in STORIES[:3]])
    assert sources.author is not None and sources.author.kind == "meta"
    assert sources.author.fallback is not None and sources.author.fallback.kind == "path"
    t, d, a = STORIES[3]
    assert sources.read(_finder(page(t, d, a, meta=False)), url=None) == _values(t, d, a)
    # Neither place there: read gives up.
    bare = page(t, d, a, meta=False).replace(f"By {a}", "")
    assert sources.read(_finder(bare), url=None) is None
    assert FieldSources.from_dict(json.loads(json.dumps(sources.to_dict()))) == sources


def test_no_fallback_inside_the_source_nor_in_the_document_title() -> None:
    # The headline's link is the same place; <title> may word the story otherwise.
    pages = [(_page(t, d, a).replace(f"<h1>{t}</h1>", f'<h1><a href="/s">{t}</a></h1>'),
              _values(t, d, a)) for t, d, a in STORIES[:3]]
    sources = _learn(pages)
    assert sources.title is not None and sources.title.kind == "path"
    assert sources.title.fallback is None
    untitled = [(html.replace(f"<title>{v['title']} | ", "<title>"), v) for html, v in pages]
    assert _learn(untitled).title.fallback is None  # type: ignore[union-attr]


def test_an_optional_source_has_no_fallback() -> None:
    pages = [(_page(t, d, a, byline=i != 1), _values(t, d, a if i != 1 else None))
             for i, (t, d, a) in enumerate(STORIES)]
    sources = _learn(pages[:3])
    assert sources.author is not None and sources.author.fallback is None


def _moving_date(i: int, title: str, printed: str, author: str) -> str:
    """The date printed right under the headline on even pages, and at the end of the byline
    box after a varying number of lines on odd ones: no one element holds it."""
    lines = "".join(f"<p>Note {k}.</p>" for k in range(i % 3))
    date = f"<p>{printed}</p>"
    return (f"<html><head><title>{title} | Daily Example</title></head><body>"
            f'<div class="header">Daily Example</div><div class="story"><h1>{title}</h1>'
            f'{date if i % 2 == 0 else ""}<p class="byline">By {author}</p>'
            f'<div class="box">{lines}{date if i % 2 else ""}</div>'
            f"<p>Story text of {title.lower()}, told at length.</p></div></body></html>")


def test_fields_without_a_source_are_found_from_the_headline_place() -> None:
    from sitesift.fields.metadata import extract_metadata

    pages = []
    for i, ((t, _d, a), p) in enumerate(zip(MORE, PRINTED, strict=True)):
        html = _moving_date(i, t, p, a)
        meta = extract_metadata(parse_html(html))
        pages.append((html, _values(meta.title or "", meta.published, meta.author)))
    assert all(values["published"] for _html, values in pages)  # (the pipeline finds them)
    sources = _learn(pages[:4])
    assert sources.published is None  # printed at no one place
    assert sources.title is not None and sources.anchor is not None
    assert sources.anchor.kind == "path" and sources.complete()
    html, values = pages[4]
    assert sources.read(_finder(html), url=None) == values
    assert FieldSources.from_dict(json.loads(json.dumps(sources.to_dict()))) == sources
    # A page without the headline's element: read gives up (the caller runs the full rules).
    assert sources.read(_finder(html.replace("<h1>", "<h2>").replace("</h1>", "</h2>")),
                        url=None) is None


def test_authors_named_by_rel_author_links_anywhere_are_a_markup_source() -> None:
    def blog(i: int, title: str, author: str) -> str:
        # The byline link sits in a different box on every page: no one path holds it.
        boxes = "".join(f'<div class="box">Box {k}</div>' for k in range(i))
        return (f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{boxes}"
                f'<div class="box"><a rel="author" href="/u/{i}">{author}</a></div>'
                f"<p>Text of {title.lower()}.</p></body></html>")

    pages = [(blog(i, t, a), _values(t, None, a)) for i, (t, _d, a) in enumerate(MORE)]
    sources = _learn(pages[:4])
    assert sources.author == Source("markup")
    html, values = pages[4]
    read = sources.read(_finder(html), url=None)
    assert read is not None and read["author"] == values["author"]


def test_the_headline_place_reads_a_huge_or_cut_off_page_without_failing() -> None:
    from sitesift.fields.metadata import extract_metadata

    pages = []
    for i, ((t, _d, a), p) in enumerate(zip(MORE, PRINTED, strict=True)):
        html = _moving_date(i, t, p, a)
        meta = extract_metadata(parse_html(html))
        pages.append((html, _values(meta.title or "", meta.published, meta.author)))
    sources = _learn(pages[:4])
    assert sources.anchor is not None
    html, values = pages[4]
    story = f"<p>Story text of {MORE[4][0].lower()}, told at length.</p>"
    assert story in html
    huge = html.replace(story, story * 20_000)
    assert sources.read(_finder(huge), url=None) == values  # the windows stay bounded
    cut = html[:html.index("<p>Story text")]  # a crawl cut off before the story
    read = sources.read(_finder(cut), url=None)
    assert read is None or read["title"] == values["title"]
