"""The map is the code: ARCHITECTURE.md's layer table against `cargo metadata`,
`.ci/run`'s `cargo tree` check against the table, and no cycle among the
top-level modules of any crate."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
PREFIX = "marketcurves-"


class Layer(NamedTuple):
    folder: str
    depends_on: frozenset[str]
    never_on: frozenset[str]


def short(crate: str) -> str:
    """`marketcurves-live` as the table's "Depends on" names it: `live`."""
    return crate.removeprefix(PREFIX)


def cells(text: str) -> list[str]:
    return [c.strip().strip("`") for c in text.split(",") if c.strip()]


def layer_table() -> dict[str, Layer]:
    """The rows of the table that follows the `layers` mark in ARCHITECTURE.md."""
    text = (ROOT / "ARCHITECTURE.md").read_text()
    after = text.split("<!-- layers: the test reads this table -->", 1)[1]
    rows = {}
    for line in after.strip().splitlines():
        if not line.startswith("|"):
            break
        crate, folder, depends_on, never_on = (c.strip() for c in line.strip("|").split("|"))
        if crate in ("Crate", "---"):
            continue
        rows[crate.strip("`")] = Layer(
            folder.strip("`"), frozenset(cells(depends_on)), frozenset(cells(never_on))
        )
    return rows


def workspace() -> list[dict]:
    """The workspace's packages, as `cargo metadata` reads their manifests."""
    cargo = shutil.which("cargo")
    assert cargo, "cargo is needed to read the workspace (https://rustup.rs)"
    out = subprocess.run(
        [cargo, "metadata", "--format-version", "1", "--no-deps", "--offline"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    packages: list[dict] = json.loads(out)["packages"]
    return packages


def ours(package: dict, members: set[str], kind: str | None) -> set[str]:
    return {
        short(d["name"])
        for d in package["dependencies"]
        if d["name"] in members and d["kind"] == kind
    }


def test_the_layer_table_names_every_crate_and_its_dependencies_exactly() -> None:
    table = layer_table()
    packages = workspace()
    members = {p["name"] for p in packages}
    assert set(table) == members, "ARCHITECTURE.md's layer table and the workspace differ"
    for package in packages:
        row = table[package["name"]]
        folder = Path(package["manifest_path"]).parent.relative_to(ROOT)
        assert str(folder) == row.folder, package["name"]
        assert ours(package, members, None) == row.depends_on, (
            f"{package['name']} depends on {sorted(ours(package, members, None))}; "
            f"ARCHITECTURE.md says {sorted(row.depends_on)}"
        )
        # A test may use the shared fixtures, or a crate already below it
        # (with a test-only feature), never one above.
        allowed = row.depends_on | {short(PREFIX + "test-support")}
        assert ours(package, members, "dev") <= allowed, package["name"]


def below(crate: str, table: dict[str, Layer]) -> set[str]:
    """Every crate of ours `crate` depends on, directly or through another."""
    seen: set[str] = set()
    todo = list(table[crate].depends_on)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(table[PREFIX + name].depends_on)
    return seen


def forbidden_patterns() -> dict[str, str]:
    """The `forbidden <crate> "<pattern>"` lines of `.ci/run`."""
    text = (ROOT / ".ci" / "run").read_text()
    return dict(re.findall(r'^forbidden (\S+) "([^"]+)"$', text, re.M))


def test_ci_forbids_each_crate_what_its_layer_must_never_reach() -> None:
    table = layer_table()
    patterns = forbidden_patterns()
    assert set(patterns) == set(table), ".ci/run needs one forbidden line per crate"
    everyone = {short(c) for c in table if c != "marketcurves"}
    for crate, row in table.items():
        pattern = re.compile(f"^({patterns[crate]})$")
        above = everyone - below(crate, table) - {short(crate)}
        for name in sorted(row.never_on):
            assert pattern.match(name), f".ci/run lets {crate} depend on {name}"
        for name in sorted(above):
            assert pattern.match(PREFIX + name), f".ci/run lets {crate} depend on {PREFIX + name}"
        for name in sorted(below(crate, table)):
            assert not pattern.match(PREFIX + name), f".ci/run forbids {crate} its own layer {name}"


TEST_FILE = re.compile(r"(^|_)tests?\.rs$|^test_")


def top_modules(src: Path) -> list[str]:
    lib = (src / "lib.rs").read_text()
    return re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", lib, re.M)


def product_files(src: Path, module: str) -> list[tuple[Path, bool]]:
    """The files of a top-level module that are not test code; each with
    whether it is the module's own file (where `super::` is the crate root)."""
    files = []
    if (src / f"{module}.rs").exists():
        files.append((src / f"{module}.rs", True))
    if (src / module).is_dir():
        for path in sorted((src / module).rglob("*.rs")):
            parts = path.relative_to(src).parts
            if not TEST_FILE.search(path.name) and not any(p.endswith("_tests") for p in parts):
                files.append((path, path == src / module / "mod.rs"))
    return files


def module_imports(src: Path) -> dict[str, set[str]]:
    """Which top-level modules each top-level module of a crate names."""
    modules = top_modules(src)
    graph: dict[str, set[str]] = {}
    for module in modules:
        names: set[str] = set()
        for path, own_file in product_files(src, module):
            code = re.sub(r"//.*", "", path.read_text())
            groups = " ".join(re.findall(r"\bcrate::\{([^}]*)\}", code))
            for other in modules:
                if other == module:
                    continue
                word = rf"\b{other}\b"
                if re.search(rf"\bcrate::{other}\b", code) or re.search(word, groups):
                    names.add(other)
                elif own_file and re.search(rf"(?<![:\w])super::{other}\b", code):
                    names.add(other)
        graph[module] = names
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph, as the modules along it, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def crate_sources() -> list[Path]:
    return [ROOT / layer.folder / "src" for layer in layer_table().values()]


@pytest.mark.parametrize("src", crate_sources(), ids=lambda p: p.parent.name)
def test_no_two_top_level_modules_of_a_crate_import_each_other(src: Path) -> None:
    found = cycle(module_imports(src))
    assert found is None, f"{src.parent.name}: modules import each other: {' -> '.join(found)}"


def test_the_module_check_finds_a_cycle_and_ignores_tests_and_comments(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "low").mkdir(parents=True)
    (src / "lib.rs").write_text("pub mod low;\nmod high;\npub(crate) mod side;\n")
    (src / "low" / "mod.rs").write_text("// crate::high is named in a comment only\n")
    (src / "low" / "helper_tests.rs").write_text("use crate::high::Thing;\n")
    (src / "high.rs").write_text("use super::low;\nuse crate::{side, low::X};\n")
    (src / "side.rs").write_text("")
    assert module_imports(src) == {"low": set(), "high": {"low", "side"}, "side": set()}
    assert cycle(module_imports(src)) is None
    (src / "side.rs").write_text("fn f() { crate::high::g() }\n")
    assert cycle(module_imports(src)) == ["high", "side", "high"]
