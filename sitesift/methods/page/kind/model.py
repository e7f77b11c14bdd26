"""The kind model: plain data (JSON), applied in pure Python (neither scikit-learn nor numpy
at run time: the page method's start-up stays free of numpy, and a page costs ~0.1 ms).

The model is trained by ``benchmarks/train_kind.py`` (scikit-learn, cross-validated by
site) and written to ``kind_model.json`` beside this module.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = ["KINDS", "MODEL_FILE", "KindModel", "load_model"]

#: WCXB's page kinds, in the model's class order.
KINDS = ("article", "forum", "product", "collection", "listing", "documentation", "service")
MODEL_FILE = "kind_model.json"


@dataclass(frozen=True, slots=True)
class KindModel:
    """A multinomial logistic regression over standardised features: a kind's score is
    ``sum(w * (x - mean) / scale) + b`` (a feature absent from a page is 0 before scaling)."""

    kinds: tuple[str, ...]
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[tuple[float, ...], ...]
    intercept: tuple[float, ...]

    def scores(self, features: dict[str, float]) -> list[float]:
        z = [(features.get(name, 0.0) - m) / s
             for name, m, s in zip(self.features, self.mean, self.scale, strict=True)]
        return [sum(w * v for w, v in zip(row, z, strict=True)) + b
                for row, b in zip(self.coef, self.intercept, strict=True)]

    def predict(self, features: dict[str, float], allowed: Sequence[str] | None = None) -> str:
        """The best-scoring kind, among ``allowed`` when given."""
        scored = [(score, kind) for score, kind in zip(self.scores(features), self.kinds,
                                                        strict=True)
                  if allowed is None or kind in allowed]
        return max(scored)[1] if scored else self.kinds[0]

    def to_data(self) -> dict[str, Any]:
        return {
            "kinds": list(self.kinds), "features": list(self.features),
            "mean": _rounded(self.mean), "scale": _rounded(self.scale),
            "coef": [_rounded(row) for row in self.coef],
            "intercept": _rounded(self.intercept),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> KindModel:
        return cls(kinds=tuple(data["kinds"]), features=tuple(data["features"]),
                   mean=_floats(data["mean"]), scale=_floats(data["scale"]),
                   coef=tuple(_floats(row) for row in data["coef"]),
                   intercept=_floats(data["intercept"]))


def _floats(values: Sequence[Any]) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def _rounded(values: Sequence[Any]) -> list[float]:
    """Four significant digits: the model's size without changing a decision."""
    return [float(f"{float(v):.4g}") for v in values]


def load_model() -> KindModel:
    """The model shipped in the package."""
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return KindModel.from_data(json.loads(text))
