import json
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitesift.errors import InputError
from sitesift.methods.template.istm import PageStructure, page_structure
from sitesift.methods.template.profile import PROFILE_VERSION, SiteProfile
from sitesift.methods.template.template import TemplateModel, content_signatures, learn_template
from sitesift.parse import parse_html
from sitesift.profiles.serialize import profile_from_bytes, profile_to_bytes

U64 = st.integers(min_value=0, max_value=2**64 - 1)
U32 = st.integers(min_value=0, max_value=2**32 - 1)


def assert_same_profile(a: SiteProfile, b: SiteProfile) -> None:
    """Field by field: templates hold numpy arrays, which dataclass equality cannot compare."""
    assert (a.site, a.pages, a.version, a.info) == (b.site, b.pages, b.version, b.info)
    assert len(a.templates) == len(b.templates)
    for x, y in zip(a.templates, b.templates, strict=True):
        assert (x.cluster, x.pages, x.count, x.container, x.anchors) == \
            (y.cluster, y.pages, y.count, y.container, y.anchors)
        assert x.medoid.paths.dtype == y.medoid.paths.dtype == np.uint64
        assert x.medoid.weights.dtype == y.medoid.weights.dtype == np.float64
        assert np.array_equal(x.medoid.paths, y.medoid.paths)
        assert np.array_equal(x.medoid.weights, y.medoid.weights)  # bit-exact floats


@st.composite
def templates(draw: st.DrawFn) -> TemplateModel:
    n = draw(st.integers(min_value=0, max_value=30))
    paths = draw(st.lists(U64, min_size=n, max_size=n))
    weights = draw(st.lists(st.floats(allow_nan=False), min_size=n, max_size=n))
    return TemplateModel(
        cluster=draw(st.text(max_size=12)),
        pages=draw(st.integers(min_value=0, max_value=10**6)),
        count=draw(st.dictionaries(U64, U32, max_size=40)),
        medoid=PageStructure(np.array(paths, dtype=np.uint64), np.array(weights)),
        container=tuple(draw(st.lists(st.tuples(U64, st.integers(0, 500)), max_size=6))),
        anchors=tuple(draw(st.lists(st.tuples(
            st.lists(st.tuples(U64, st.integers(0, 500)), min_size=1, max_size=4).map(tuple),
            U64), max_size=5))),
    )


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.text(max_size=10)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=10,
)

PROFILES = st.builds(
    SiteProfile,
    site=st.text(max_size=30),  # any Unicode: site keys may be IDN hosts or folder names
    pages=st.integers(min_value=0, max_value=10**9),
    templates=st.lists(templates(), max_size=4).map(tuple),
    info=st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5),
)


# No example database: it would write a .hypothesis folder into the working tree.
@settings(max_examples=60, deadline=None, database=None)
@given(PROFILES)
def test_any_profile_round_trips_exactly(profile: SiteProfile) -> None:
    data = profile_to_bytes(profile)
    assert_same_profile(profile_from_bytes(data), profile)
    assert profile_to_bytes(profile_from_bytes(data)) == data  # stable bytes


PAGES = [
    f"""<html><body><div id="nav"><a href="/">Home</a><a href="/n">News</a></div>
    <div class="story"><h1>Story {i}</h1><p>Paragraph {i} of the story, unique text.</p></div>
    <div id="foot"><p>Copyright Example</p></div></body></html>"""
    for i in range(4)
]


def learned_profile() -> SiteProfile:
    roots = [parse_html(page) for page in PAGES]
    structures = [page_structure(root, relaxed=True) for root in roots]
    template = learn_template(
        "0", [content_signatures(root).values() for root in roots], structures,
        np.ones((len(roots), len(roots))),
    )
    return SiteProfile(site="example.com", pages=len(roots), templates=(template,),
                       info={"seconds": 0.25, "clusters": [4]})


def test_a_learned_profile_round_trips_and_still_assigns_pages() -> None:
    profile = learned_profile()
    assert profile.templates[0].count  # nav and footer are shared
    back = profile_from_bytes(profile_to_bytes(profile))
    assert_same_profile(back, profile)
    new_page = PAGES[0].replace("Story 0", "Another story")
    signatures = list(content_signatures(parse_html(new_page)).values())
    ((template, share),), ((template_back, share_back),) = (
        profile.assign([signatures]), back.assign([signatures])
    )
    assert template is not None and template_back is not None
    assert template_back.cluster == template.cluster and share_back == share > 0.9


def test_bytes_are_compact() -> None:
    # 64 signatures + counts and 64 paths + weights: 28 bytes each raw; random 64-bit numbers
    # do not compress, but the header and small counts must not add much on top.
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 2**63, 64, dtype=np.uint64).tolist()
    template = TemplateModel("0", 10, dict.fromkeys(keys, 2),
                             PageStructure(rng.integers(0, 2**63, 64, dtype=np.uint64),
                                           np.full(64, 1 / 64)))
    data = profile_to_bytes(SiteProfile("s", 10, (template,)))
    assert len(data) < 64 * 8 * 2 + 300


def _repack(data: bytes, *, version: int | None = None, body: bytes | None = None) -> bytes:
    """``data`` with its prefix or body replaced, the prefix kept consistent otherwise."""
    magic, old_version, _length = struct.unpack_from("<4sHQ", data)
    if body is None:
        body = zlib.decompress(data[14:])
    return struct.pack("<4sHQ", magic, old_version if version is None else version,
                       len(body)) + zlib.compress(body)


def test_another_format_version_says_learn_again() -> None:
    data = _repack(profile_to_bytes(learned_profile()), version=PROFILE_VERSION + 1)
    with pytest.raises(InputError, match=f"format version {PROFILE_VERSION + 1}.*learn the site"):
        profile_from_bytes(data)


def test_saving_a_profile_of_another_version_is_refused() -> None:
    with pytest.raises(ValueError, match="format version 99"):
        profile_to_bytes(SiteProfile("s", 1, version=99))


def test_out_of_range_numbers_are_refused_not_wrapped() -> None:
    empty = PageStructure(np.zeros(0, dtype=np.uint64), np.zeros(0))
    for count in ({-1: 2}, {2**64: 2}, {5: 2**32}, {5: -1}):
        with pytest.raises(ValueError, match="outside"):
            profile_to_bytes(SiteProfile("s", 1, (TemplateModel("0", 1, count, empty),)))


def test_info_that_is_not_json_is_refused() -> None:
    with pytest.raises(TypeError):
        profile_to_bytes(SiteProfile("s", 1, info={"when": object()}))


def _body(data: bytes) -> bytes:
    return zlib.decompress(data[14:])


def _header_swap(data: bytes, change: dict[str, object]) -> bytes:
    body = _body(data)
    (n,) = struct.unpack_from("<I", body)
    header = json.loads(body[4:4 + n])
    header.update(change)
    new = json.dumps(header).encode()
    return _repack(data, body=struct.pack("<I", len(new)) + new + body[4 + n:])


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: b"",
        lambda d: d[:10],
        lambda d: b"XXXX" + d[4:],
        lambda d: d[:-5],  # truncated stream
        lambda d: d[:20] + bytes([d[20] ^ 0xFF]) + d[21:],  # a flipped byte: checksum fails
        lambda d: d + b"tail",
        lambda d: _repack(d, body=_body(d)[:-8]),  # one weight short
        lambda d: _repack(d, body=_body(d) + b"\0" * 8),  # bytes after the last array
        lambda d: _repack(d, body=b"\xff\xff\xff\x7f{}"),  # header longer than the body
        lambda d: _repack(d, body=struct.pack("<I", 3) + b"{x}"),  # header not JSON
        lambda d: _header_swap(d, {"site": 7}),
        lambda d: _header_swap(d, {"pages": True}),
        lambda d: _header_swap(d, {"version": PROFILE_VERSION + 1}),
        lambda d: _header_swap(d, {"templates": [{"cluster": "0", "pages": 2}]}),
        lambda d: _header_swap(d, {"templates": [7]}),
        lambda d: struct.pack("<4sHQ", b"SSPF", PROFILE_VERSION, 2**40) + d[14:],
    ],
)
def test_corrupt_bytes_give_input_error(damage) -> None:  # type: ignore[no-untyped-def]
    data = profile_to_bytes(learned_profile())
    with pytest.raises(InputError, match="corrupt site profile"):
        profile_from_bytes(damage(data))


def test_decoded_arrays_are_owned_copies() -> None:
    back = profile_from_bytes(profile_to_bytes(learned_profile()))
    medoid = back.templates[0].medoid
    assert medoid.paths.flags.owndata and medoid.weights.flags.owndata
