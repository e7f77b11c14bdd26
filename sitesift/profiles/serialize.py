"""Site profiles to bytes and back: compact, fast, and refusing what it cannot trust.

A profile is mostly numbers (a template's subtree signatures and counts, its medoid's leaf paths
and weights), so they are stored as raw little-endian numpy arrays, not JSON: a JSON list of
64-bit integers is three times larger and ten times slower to read. Layout::

    prefix   b"SSPF" | format version (uint16) | length of the body (uint64)   not compressed
    body     zlib( header length (uint32) | JSON header | arrays )

The JSON header holds the format version again, the site, its page count, ``info``, a
forum's rules when learned (``forum``, optional: older profiles simply lack it) and, per
template, its cluster id, page count, content container path, anchors, wrapper
(``methods.template.wrapper``, or null), field sources (``methods.template.fields``, or
null) and array sizes. The arrays follow, per template in order: signatures (uint64, sorted),
their counts (uint32), medoid paths (uint64), medoid weights (float64). Equal profiles give
equal bytes (signatures sorted, JSON in a fixed form).

The version sits in the uncompressed prefix so that a profile written by another version is
recognised (and refused with "learn the site again") before anything else of it is trusted;
zlib's checksum catches corruption inside the body, the sizes in the header the rest.

The same profile as plain JSON-able data, the form of the site-level interface
(``TemplateMethod.to_profile``), is ``sitesift.methods.template.profile_data``: a template's
header entry there and here is one (``template_entry``), its arrays there base64 of these
bytes.
"""

from __future__ import annotations

import array
import json
import struct
import sys
import zlib
from typing import TYPE_CHECKING, Any

from sitesift.errors import ProfileError
from sitesift.methods.template.profile import PROFILE_VERSION, SiteProfile
from sitesift.methods.template.profile_data import (
    StoredStructure,
    field_of,
    template_entry,
    template_from_entry,
)

__all__ = ["MAX_PROFILE_BYTES", "ZLIB_LEVEL", "profile_from_bytes", "profile_to_bytes"]

_MAGIC = b"SSPF"
_PREFIX = struct.Struct("<4sHQ")  # magic, format version, body length before compression
_HEADER_LENGTH = struct.Struct("<I")
#: zlib level: signatures and paths are random 64-bit numbers that no level compresses much
#: (a profile shrinks to ~60 % of its raw size). On the largest dev profile (50 KB raw) 6,
#: zlib's default, is 4 % smaller than 1 for 1.4 instead of 0.8 ms to encode, which happens
#: once per learned site; decoding, the frequent side, costs the same at every level.
ZLIB_LEVEL = 6
#: Largest body a profile may claim: far above any real profile (a 1,000-page site with many
#: templates is a few MB), low enough that corrupt or hostile bytes cannot make us allocate
#: gigabytes.
MAX_PROFILE_BYTES = 1 << 30

if TYPE_CHECKING:
    import numpy as np

# Array item codes and sizes. Reading uses the standard ``array`` module, not numpy: applying a
# saved profile needs the signatures and counts as Python ints only, and numpy's import is
# 0.1 s of each run's start-up (the medoid, which only learning reads, becomes numpy arrays
# when asked for: ``profile_data.StoredStructure``).
_SIG = ("Q", 8)  # uint64
_COUNT = ("I" if array.array("I").itemsize == 4 else "L", 4)  # uint32
_PATH = ("Q", 8)  # uint64
_WEIGHT = ("d", 8)  # float64
_COUNT_MAX = 2**32 - 1


def profile_to_bytes(profile: SiteProfile) -> bytes:
    """``profile`` as bytes that ``profile_from_bytes`` reads back equal.

    Raises ``ValueError`` for a profile this format cannot hold (another format version, a
    signature outside 0..2**64-1, a count above 2**32-1) and ``TypeError`` when ``info`` is
    not JSON (string keys; lists come back for tuples)."""
    if profile.version != PROFILE_VERSION:
        raise ValueError(
            f"cannot save a profile of format version {profile.version}: "
            f"this sitesift writes version {PROFILE_VERSION}"
        )
    templates: list[dict[str, Any]] = []
    arrays: list[bytes] = []
    for template in profile.templates:
        import numpy as np

        signatures, counts = _count_arrays(template.count)
        paths = np.asarray(template.medoid.paths, dtype="<u8")
        weights = np.asarray(template.medoid.weights, dtype="<f8")
        if paths.shape != weights.shape or paths.ndim != 1:
            raise ValueError(f"template {template.cluster!r}: medoid paths and weights differ")
        templates.append({**template_entry(template),
                          "signatures": len(signatures), "paths": len(paths)})
        arrays += [signatures.tobytes(), counts.tobytes(), paths.tobytes(), weights.tobytes()]
    fields: dict[str, Any] = {"version": PROFILE_VERSION, "site": profile.site,
                              "pages": profile.pages, "info": profile.info,
                              "templates": templates}
    if profile.forum is not None:  # optional key: profiles without it read as before
        fields["forum"] = profile.forum
    header = json.dumps(
        fields,
        ensure_ascii=False, separators=(",", ":"), allow_nan=False,
    ).encode("utf-8")
    body = b"".join([_HEADER_LENGTH.pack(len(header)), header, *arrays])
    return _PREFIX.pack(_MAGIC, PROFILE_VERSION, len(body)) + zlib.compress(body, ZLIB_LEVEL)


def _count_arrays(count: dict[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Signatures sorted (equal profiles, equal bytes) and their counts, range-checked: numpy
    would otherwise wrap a negative or oversized value silently."""
    keys = sorted(count)
    if keys and (keys[0] < 0 or keys[-1] > 0xFFFF_FFFF_FFFF_FFFF):
        raise ValueError("a template signature is outside 0..2**64-1")
    values = [count[k] for k in keys]
    if values and (min(values) < 0 or max(values) > _COUNT_MAX):
        raise ValueError("a template count is outside 0..2**32-1")
    import numpy as np

    return np.array(keys, dtype="<u8"), np.array(values, dtype="<u4")


def profile_from_bytes(data: bytes) -> SiteProfile:
    """The profile ``data`` holds. Raises ``ProfileError`` for a profile of another format
    version (the site must be learned again) and for bytes that are not a whole profile."""
    view = memoryview(data)
    if len(view) < _PREFIX.size:
        raise ProfileError("corrupt site profile: too short to be one")
    magic, version, length = _PREFIX.unpack_from(view)
    if magic != _MAGIC:
        raise ProfileError("corrupt site profile: it does not start as one")
    if version != PROFILE_VERSION:
        raise ProfileError(
            f"profile of format version {version}, this sitesift reads version "
            f"{PROFILE_VERSION}; learn the site again"
        )
    if length > MAX_PROFILE_BYTES:
        raise ProfileError(f"corrupt site profile: it claims {length} bytes")
    body = _inflate(view[_PREFIX.size:], length)
    try:
        return _read_body(body)
    except (ValueError, TypeError, KeyError, struct.error) as exc:
        # Only malformed content lands here: _read_body has no other source of these errors.
        raise ProfileError(f"corrupt site profile: {exc}") from exc


def _inflate(compressed: memoryview, length: int) -> bytes:
    inflater = zlib.decompressobj()
    try:
        body = inflater.decompress(compressed, length + 1)  # +1: notice a longer body
    except zlib.error as exc:
        raise ProfileError(f"corrupt site profile: {exc}") from exc
    if len(body) != length or not inflater.eof or inflater.unused_data:
        raise ProfileError("corrupt site profile: its body is not of the length it states")
    return body


def _read_body(body: bytes) -> SiteProfile:
    (header_length,) = _HEADER_LENGTH.unpack_from(body)
    start = _HEADER_LENGTH.size
    header = json.loads(body[start:start + header_length].decode("utf-8"))
    if header.get("version") != PROFILE_VERSION:
        raise ValueError("the header's version differs from the prefix's")
    offset = start + header_length
    templates = []
    for entry in field_of(header, "templates", list):
        n_sigs = field_of(entry, "signatures", int)
        n_paths = field_of(entry, "paths", int)
        signatures, offset = _numbers(body, offset, _SIG, n_sigs)
        counts, offset = _numbers(body, offset, _COUNT, n_sigs)
        paths = body[offset:_end(body, offset, _PATH, n_paths)]
        offset += len(paths)
        weights = body[offset:_end(body, offset, _WEIGHT, n_paths)]
        offset += len(weights)
        templates.append(template_from_entry(
            entry, dict(zip(signatures.tolist(), counts.tolist(), strict=True)),
            StoredStructure(paths, weights)))
    if offset != len(body):
        raise ValueError(f"{len(body) - offset} bytes after the last template")
    return SiteProfile(
        site=field_of(header, "site", str),
        pages=field_of(header, "pages", int),
        templates=tuple(templates),
        version=PROFILE_VERSION,
        info=field_of(header, "info", dict),
        forum=field_of(header, "forum", dict) if header.get("forum") is not None else None,
    )


def _end(body: bytes, offset: int, kind: tuple[str, int], n: int) -> int:
    """Where ``n`` items of ``kind`` starting at ``offset`` end, checked against the body."""
    end = offset + n * kind[1]
    if end > len(body):
        raise ValueError("the arrays end before the sizes in the header say")
    return end


def _numbers(body: bytes, offset: int, kind: tuple[str, int],
             n: int) -> tuple[array.array[Any], int]:
    """``n`` little-endian numbers of ``kind`` at ``offset`` and where they end."""
    end = _end(body, offset, kind, n)
    values = array.array(kind[0], body[offset:end])
    if sys.byteorder == "big":
        values.byteswap()
    return values, end
