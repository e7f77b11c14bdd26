"""benchmarks/long_code.py: the functions and modules over their limits, named as they are."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "long_code.py"
_spec = importlib.util.spec_from_file_location("long_code", _SCRIPT)
assert _spec and _spec.loader
long_code = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(long_code)


def _function(name: str, lines: int, indent: str = "") -> str:
    body = "".join(f"{indent}    x{k} = {k}\n" for k in range(lines - 1))
    return f"{indent}def {name}() -> None:\n{body}"


def test_long_functions_and_methods_are_named_nested_ones_count_in_their_parent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    source = (_function("short", 60) + _function("long", 61)
              + "class Box:\n" + _function("method", 70, "    ")
              + "def outer() -> None:\n" + _function("inner", 60, "    "))
    (package / "mod.py").write_text(source, encoding="utf-8")
    found = sorted(long_code.long_functions(package / "mod.py", 60))
    assert found == [(61, "long"), (61, "outer"), (70, "Box.method")]
    long_code.main([str(package), "--modules", "200"])
    out = capsys.readouterr().out
    assert "61  pkg/mod.py long" in out and "pkg/mod.py short" not in out
    assert "253  pkg/mod.py" in out.split("modules over 200 lines:")[1]
