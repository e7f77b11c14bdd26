"""A site profile as plain JSON-able data, the form the site-level interface promises
(``TemplateMethod.to_profile`` / ``from_profile``), and the pieces of it the store's bytes
(``sitesift.profiles.serialize``) share.

The mapping::

    {"format": "sitesift.template-profile", "version": PROFILE_VERSION,
     "site": str, "pages": int, "info": {...}, "forum": {...} (optional),
     "templates": [{"cluster", "pages", "container", "anchors", "wrapper", "fields",
                    "signatures", "counts", "paths", "weights"}, ...]}

A template's entry holds what the store's JSON header holds of it (``template_entry``), and
its four arrays as base64 of the little-endian bytes the store writes (signatures uint64
sorted, their counts uint32, the medoid's paths uint64 and weights float64): a JSON list of
64-bit numbers is three times larger and loses precision in readers that parse numbers as
doubles. The version is the profile format's: data of another version is refused (learn the
site again), as the store refuses its bytes.
"""

from __future__ import annotations

import base64
import binascii
import sys
from array import array
from typing import TYPE_CHECKING, Any

from sitesift.errors import ProfileError
from sitesift.methods.template.fields import FieldSources
from sitesift.methods.template.istm import PageStructure
from sitesift.methods.template.profile import PROFILE_VERSION, SiteProfile
from sitesift.methods.template.template import TemplateModel
from sitesift.methods.template.wrapper import Wrapper

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DATA_FORMAT", "StoredStructure", "field_of", "profile_from_data", "profile_to_data",
    "read_anchors", "read_path", "template_entry", "template_from_entry",
]

#: What a mapping says it is, so that another kind of data is not read as a profile.
DATA_FORMAT = "sitesift.template-profile"
_MAX64 = 0xFFFF_FFFF_FFFF_FFFF
_COUNT_MAX = 2**32 - 1
_UINT32 = "I" if array("I").itemsize == 4 else "L"


def template_entry(template: TemplateModel) -> dict[str, Any]:
    """A template's fields but its arrays, JSON-able (the store's header holds them in this
    order: its bytes depend on it)."""
    return {"cluster": template.cluster, "pages": template.pages,
            "container": [list(step) for step in template.container],
            "anchors": [[[list(step) for step in key], h] for key, h in template.anchors],
            "wrapper": template.wrapper.to_dict() if template.wrapper else None,
            "fields": template.fields.to_dict() if template.fields else None}


def template_from_entry(entry: dict[str, Any], count: dict[int, int],
                        medoid: PageStructure) -> TemplateModel:
    """The template ``template_entry`` wrote, given its arrays read back. Raises
    ``ValueError`` / ``TypeError`` / ``KeyError`` for a malformed entry."""
    return TemplateModel(
        cluster=field_of(entry, "cluster", str),
        pages=field_of(entry, "pages", int),
        count=count,
        medoid=medoid,
        container=read_path(field_of(entry, "container", list)),
        anchors=read_anchors(field_of(entry, "anchors", list)),
        wrapper=Wrapper.from_dict(entry["wrapper"]) if entry.get("wrapper") else None,
        fields=FieldSources.from_dict(entry["fields"]) if entry.get("fields") else None,
    )


def profile_to_data(profile: SiteProfile) -> dict[str, Any]:
    """``profile`` as JSON-able data that ``profile_from_data`` reads back equal. Raises
    ``ValueError`` for what the store's format cannot hold either (another version, a
    signature outside 0..2**64-1, a count above 2**32-1, medoid paths and weights of
    different lengths)."""
    if profile.version != PROFILE_VERSION:
        raise ValueError(f"cannot save a profile of format version {profile.version}: "
                         f"this sitesift writes version {PROFILE_VERSION}")
    templates = []
    for template in profile.templates:
        keys = sorted(template.count)
        values = [template.count[k] for k in keys]
        if keys and (keys[0] < 0 or keys[-1] > _MAX64):
            raise ValueError("a template signature is outside 0..2**64-1")
        if values and (min(values) < 0 or max(values) > _COUNT_MAX):
            raise ValueError("a template count is outside 0..2**32-1")
        paths, weights = _medoid_bytes(template.medoid)
        if len(paths) // 8 != len(weights) // 8:
            raise ValueError(f"template {template.cluster!r}: medoid paths and weights differ")
        templates.append({**template_entry(template),
                          "signatures": _b64(_little(array("Q", keys))),
                          "counts": _b64(_little(array(_UINT32, values))),
                          "paths": _b64(paths), "weights": _b64(weights)})
    data: dict[str, Any] = {"format": DATA_FORMAT, "version": PROFILE_VERSION,
                            "site": profile.site, "pages": profile.pages,
                            "info": profile.info, "templates": templates}
    if profile.forum is not None:
        data["forum"] = profile.forum
    return data


def profile_from_data(data: object) -> SiteProfile:
    """The profile ``profile_to_data`` gave. Raises ``ProfileError`` for data of another
    version (the site must be learned again) or that is no whole profile."""
    try:
        if field_of(data, "format", str) != DATA_FORMAT:
            raise ValueError(f"it is no {DATA_FORMAT!r}")
        version = field_of(data, "version", int)
        if version != PROFILE_VERSION:
            raise ProfileError(f"profile of format version {version}, this sitesift reads "
                               f"version {PROFILE_VERSION}; learn the site again")
        assert isinstance(data, dict)
        templates = []
        for entry in field_of(data, "templates", list):
            signatures = _numbers(field_of(entry, "signatures", str), "Q")
            counts = _numbers(field_of(entry, "counts", str), _UINT32)
            paths = _bytes(field_of(entry, "paths", str))
            weights = _bytes(field_of(entry, "weights", str))
            if len(counts) != len(signatures) or len(paths) % 8 or len(paths) != len(weights):
                raise ValueError("a template's arrays are not of matching lengths")
            count = dict(zip(signatures.tolist(), counts.tolist(), strict=True))
            templates.append(template_from_entry(entry, count, StoredStructure(paths, weights)))
        return SiteProfile(
            site=field_of(data, "site", str), pages=field_of(data, "pages", int),
            templates=tuple(templates), version=PROFILE_VERSION,
            info=field_of(data, "info", dict),
            forum=field_of(data, "forum", dict) if data.get("forum") is not None else None,
        )
    except (ValueError, TypeError, KeyError, binascii.Error) as exc:
        raise ProfileError(f"corrupt site profile data: {exc}") from exc


def _medoid_bytes(medoid: PageStructure) -> tuple[bytes, bytes]:
    if isinstance(medoid, StoredStructure):  # (read back: its bytes as stored)
        return medoid.stored
    import numpy as np

    return (np.asarray(medoid.paths, dtype="<u8").tobytes(),
            np.asarray(medoid.weights, dtype="<f8").tobytes())


def _little(values: array[Any]) -> bytes:
    if sys.byteorder == "big":
        values.byteswap()
    return values.tobytes()


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _bytes(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"), validate=True)


def _numbers(text: str, code: str) -> array[Any]:
    raw = _bytes(text)
    values = array(code)
    if len(raw) % values.itemsize:
        raise ValueError("an array's bytes do not divide into its items")
    values.frombytes(raw)
    if sys.byteorder == "big":
        values.byteswap()
    return values


def read_path(steps: list[Any]) -> tuple[tuple[int, int], ...]:
    """A container path read back: pairs of a 64-bit label hash and an ordinal."""
    path = []
    for step in steps:
        if not (isinstance(step, list) and len(step) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in step)
                and 0 <= step[0] <= _MAX64 and step[1] >= 0):
            raise ValueError("a container step is not a (label hash, ordinal) pair")
        path.append((step[0], step[1]))
    return tuple(path)


def read_anchors(entries: list[Any]) -> tuple[tuple[tuple[tuple[int, int], ...], int], ...]:
    """Anchors read back: a path (as a container's) and a 64-bit signature each."""
    anchors = []
    for entry in entries:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], list)
                and isinstance(entry[1], int) and not isinstance(entry[1], bool)
                and 0 <= entry[1] <= _MAX64):
            raise ValueError("an anchor is not a (path, signature) pair")
        anchors.append((read_path(entry[0]), entry[1]))
    return tuple(anchors)


def field_of(obj: object, name: str, kind: type) -> Any:
    """``obj[name]``, checked to be of ``kind`` (bool is no int here)."""
    if not isinstance(obj, dict):
        raise ValueError(f"expected an object holding {name!r}")
    value = obj.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{name!r} is not of type {kind.__name__}")
    if kind is int and value < 0:
        raise ValueError(f"{name!r} is negative")
    return value


class StoredStructure(PageStructure):
    """A medoid as a profile stores it (little-endian bytes): its numpy arrays are made, as
    owned copies, each time they are read. Only learning reads a medoid (applying a profile
    never does), so a run that applies profiles does not import numpy."""

    __slots__ = ("_paths", "_weights")

    def __init__(self, paths: bytes, weights: bytes) -> None:  # (not the dataclass's)
        object.__setattr__(self, "_paths", paths)
        object.__setattr__(self, "_weights", weights)

    @property
    def stored(self) -> tuple[bytes, bytes]:
        """The paths' and weights' bytes as stored."""
        return self._paths, self._weights

    @property  # type: ignore[override]
    def paths(self) -> np.ndarray:
        import numpy as np

        return np.frombuffer(self._paths, dtype="<u8").astype(np.uint64)

    @property  # type: ignore[override]
    def weights(self) -> np.ndarray:
        import numpy as np

        return np.frombuffer(self._weights, dtype="<f8").astype(np.float64)
