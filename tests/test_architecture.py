"""The architecture of docs/design/architecture.md holds: no import cycles between sitesift's
modules, and the import-linter contracts of pyproject.toml (layers, independent site-level
methods) kept.

``.ci/run`` runs ``lint-imports`` too; these tests make the README's test command fail on a
broken layer as well, and name the cycle when there is one."""

from __future__ import annotations

from pathlib import Path

import pytest

import sitesift

ROOT = Path(__file__).resolve().parents[1]

grimp = pytest.importorskip("grimp", reason="needs import-linter (pip install -e '.[test]')")


def _cycles(graph: object) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    modules = sorted(graph.modules)  # type: ignore[attr-defined]
    edges = {m: sorted(graph.find_modules_directly_imported_by(m))  # type: ignore[attr-defined]
             for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in modules:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def test_the_checked_package_is_this_checkout() -> None:
    assert Path(sitesift.__file__).resolve().is_relative_to(ROOT)


def test_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for name in ("p.a", "p.b", "p.c", "p.d"):
        graph.add_module(name)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.c")
    graph.add_import(importer="p.c", imported="p.a")
    graph.add_import(importer="p.c", imported="p.d")
    assert _cycles(graph) == [["p.a", "p.b", "p.c"]]


def test_no_import_cycles() -> None:
    # Imports under ``if TYPE_CHECKING`` count: they are cycles of design all the same.
    graph = grimp.build_graph("sitesift", include_external_packages=False)
    assert _cycles(graph) == []


def test_import_contracts_kept(capsys: pytest.CaptureFixture[str]) -> None:
    from importlinter.cli import lint_imports

    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                        no_logo=True)
    assert code == 0, capsys.readouterr().out


def test_no_element_is_made_outside_the_pages_own_parser() -> None:
    """Every element of a page's tree is an ``lxml.html.HtmlElement`` (``parse_html``'s class
    lookup): one made by ``etree.Element`` is a bare ``_Element`` without ``text_content()``,
    which broke ``auto`` on a documentation home page. New elements come from
    ``el.makeelement(tag, {})``, which the tree's parser makes."""
    offenders = [f"{path.relative_to(ROOT)}:{n}"
                 for path in sorted((ROOT / "sitesift").rglob("*.py"))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if "etree.Element(" in line and not line.lstrip().startswith("#")]
    assert not offenders, offenders
