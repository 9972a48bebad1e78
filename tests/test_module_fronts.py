"""Modules talk through their fronts: no module of the package reads a name
another module keeps private.

The rule, as this test reads the source of ``python/marketcurves/**/*.py``:

- A *private name* is one that starts with ``_`` and is not a protocol name
  (``__dunder__``, or ``_sunder_`` such as Jupyter's ``_repr_html_``). A
  module *defines* it when it binds it at its top level (a function, a class,
  an assignment), in a class body, or as an attribute it assigns
  (``self._x = ...``). Names bound by an import do not count: they are the
  other module's.
- A module may not import another module's private name
  (``from marketcurves.x import _y``), nor read one as an attribute
  (``x._y``, ``client._core``) unless it defines that name itself (a class
  reading its own attribute on another instance of itself).
- Allowed: a private *module* (``from marketcurves import _args``) and its
  public names (``_args.place``): the leading ``_`` of a module keeps it out
  of the documented API, not out of the package. And the compiled core,
  ``marketcurves._core``, whose every name, its stubs' private typed dicts
  included, is there for the Python modules that wrap it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "marketcurves"
#: The compiled core: its names are all meant for the package's modules.
CORE = "_core"


def is_private(name: str) -> bool:
    if not name.startswith("_") or name == "_":
        return False
    return not name.endswith("_")  # __dunder__ and _sunder_ are protocols


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, ast.Module]:
    return {
        module_name(path): ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def submodule_names() -> set[str]:
    """Every module and subpackage of the package, by its last name."""
    names = {p.stem for p in PACKAGE.rglob("*.py")} | {p.stem for p in PACKAGE.rglob("*.pyi")}
    return names | {p.name for p in PACKAGE.rglob("*") if p.is_dir()}


def bound(target: ast.AST) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Attribute):
        yield target.attr
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from bound(element)
    elif isinstance(target, ast.Starred):
        yield from bound(target.value)


def defined(tree: ast.Module) -> set[str]:
    """The private names a module defines (not those it imports)."""
    names: set[str] = set()

    def body(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            if isinstance(node, ast.ClassDef):
                body(node.body)
            elif isinstance(node, (ast.If, ast.Try)):
                body(node.body + node.orelse + getattr(node, "finalbody", []))

    body(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names.update(bound(target))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            names.update(bound(node.target))
    return {n for n in names if is_private(n)}


def imported_from(node: ast.ImportFrom) -> str | None:
    """The package module an import reads from, or None outside the package
    (a relative import is always inside)."""
    if node.level:
        return "." * node.level + (node.module or "")
    if node.module and (node.module == "marketcurves" or node.module.startswith("marketcurves.")):
        return node.module
    return None


def violations(trees: dict[str, ast.Module], submodules: set[str]) -> list[str]:
    """Each import or attribute that reads another module's private name."""
    own = {name: defined(tree) for name, tree in trees.items()}
    found = []
    for name, tree in trees.items():
        elsewhere = set().union(*(names for other, names in own.items() if other != name))
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.ImportFrom):
                source = imported_from(node)
                if source is None or source.rsplit(".", 1)[-1] == CORE:
                    continue
                for alias in node.names:
                    if is_private(alias.name) and alias.name not in submodules:
                        found.append(f"{where}: from {source} import {alias.name}")
            elif isinstance(node, ast.Attribute) and is_private(node.attr):
                if isinstance(node.value, ast.Name) and node.value.id == CORE:
                    continue
                if node.attr in own[name]:
                    continue
                if node.attr in elsewhere:
                    found.append(f"{where}: {ast.unparse(node)}")
    return found


def test_no_module_reads_another_modules_private_names():
    assert violations(modules(), submodule_names()) == []


def test_the_check_catches_both_forms_and_allows_what_the_rule_allows():
    trees = {
        "marketcurves.client": ast.parse(
            "_env = 1\n"
            "class Client:\n"
            "    def __init__(self):\n"
            "        self._core = None\n"
            "    def __eq__(self, other):\n"
            "        return self._core is other._core\n"
        ),
        "marketcurves.reader": ast.parse(
            "from marketcurves import _args, _core\n"
            "from marketcurves._core import _BackfillTask\n"
            "from marketcurves.client import _env\n"
            "def f(client):\n"
            "    _args.place(_core._Hidden)\n"
            "    return client._core, client._unknown_elsewhere\n"
        ),
    }
    assert violations(trees, {"_args", "_core", "client", "reader"}) == [
        "marketcurves.reader:3: from marketcurves.client import _env",
        "marketcurves.reader:6: client._core",
    ]


def test_the_html_helpers_know_none_of_the_classes_they_draw():
    """Each class draws its own view with ``_html``'s helpers: ``_html``
    imports nothing of the package, not even for its annotations."""
    tree = modules()["marketcurves._html"]
    imports = [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom)) and "marketcurves" in ast.unparse(node)
    ]
    assert [ast.unparse(node) for node in imports] == []
