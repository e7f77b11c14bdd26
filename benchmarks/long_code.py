"""Functions and modules longer than a limit (issue 24: no function over about 60 lines, no
module over about 500, where a split reads better).

    python benchmarks/long_code.py [--functions 60] [--modules 500] [ROOT]

A function's length is ``end_lineno - lineno + 1`` (decorators left out, nested functions
counted in their parent), a module's its lines; methods are named ``Class.method``. Prints
the longest first; exits 0 whatever it finds (a row is a place to look, not a verdict)."""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "sitesift"


def long_functions(path: Path, limit: int) -> Iterator[tuple[int, str]]:
    """(lines, name) of each function of ``path`` longer than ``limit`` lines."""
    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[int, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (child.end_lineno or child.lineno) - child.lineno + 1
                if lines > limit:
                    yield lines, prefix + child.name
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")

    yield from walk(ast.parse(path.read_text(encoding="utf-8")), "")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=ROOT)
    parser.add_argument("--functions", type=int, default=60, help="function limit (lines)")
    parser.add_argument("--modules", type=int, default=500, help="module limit (lines)")
    args = parser.parse_args(argv)
    functions, modules = [], []
    for path in sorted(args.root.rglob("*.py")):
        name = path.relative_to(args.root.parent).as_posix()
        functions += [(n, f"{name} {f}") for n, f in long_functions(path, args.functions)]
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > args.modules:
            modules.append((lines, name))
    print(f"functions over {args.functions} lines:")
    for n, where in sorted(functions, reverse=True):
        print(f"  {n:5d}  {where}")
    print(f"modules over {args.modules} lines:")
    for n, where in sorted(modules, reverse=True):
        print(f"  {n:5d}  {where}")


if __name__ == "__main__":
    main()
