"""The examples in the package's docstrings and in the stubs of its compiled
core (``_core.pyi``), which the API reference shows, run as doctests.

They run as a reader of the reference runs them (docs/reference/index.md
says so): with ``mc`` (the package), a ``client`` and a ``curve`` (the
catalogue's first Jet Fob curve, Jet Fob AG), against an emulator of seed 0
whose clock stands at the docs' time (``CLOCK``, as for the pages), with
``mc.Client()`` finding it in the environment, in an empty working
directory. The clock runs only where an example needs it to (a bulk job
runs on it). Examples that need what the tests do not have (a cluster, a
bucket, a recorder running until Ctrl-C) are marked ``+SKIP``.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import marketcurves
from marketcurves.testing import Emulator

#: Every module, those of subpackages too: doctest finds only the examples
#: of what a module defines itself, and ``mc.plot``'s functions are defined
#: in its private modules.
SUBMODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(marketcurves.__path__, "marketcurves.")
    if info.name not in ("marketcurves.__main__", "marketcurves._core")
)
MODULES = ["marketcurves", *SUBMODULES]
STUBS = Path(marketcurves.__file__).with_name("_core.pyi")

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

#: Emulated seconds per real second where an example waits on the clock: a
#: bulk job runs 2 s plus 0.5 s a month of it. Elsewhere the clock stands.
TIME_SCALE = {"marketcurves.bulk": 60.0, "marketcurves.client": 60.0, "marketcurves._core": 60.0}


@pytest.fixture
def reader(reader_env: Callable[[float], Emulator], request: pytest.FixtureRequest) -> Any:
    """Makes the namespace of the examples of a module."""
    clients: list[marketcurves.Client] = []

    def namespace(module: str) -> dict[str, Any]:
        emulator = reader_env(TIME_SCALE.get(module, 0.0))
        client = emulator.client()
        clients.append(client)
        curve = client.catalogue(vertical="Jet", quotation="Fob")[0]
        return {"mc": marketcurves, "client": client, "curve": curve}

    yield namespace
    for client in clients:
        client.close()


@pytest.fixture
def without_display() -> Iterator[None]:
    """The plots' examples draw with the Agg backend, whatever the machine
    has, and leave no figure open (tests/plot counts them)."""
    import matplotlib

    matplotlib.use("Agg")
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.mark.parametrize("name", MODULES)
@pytest.mark.usefixtures("without_display")
def test_docstring_examples_run(name: str, reader: Any) -> None:
    module = importlib.import_module(name)
    globs = reader(name)
    with warnings.catch_warnings():
        # An example that warns shows it in its output; none does.
        warnings.simplefilter("error")
        result = doctest.testmod(
            module, extraglobs=globs, optionflags=FLAGS, verbose=False, report=False
        )
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"


def stub_docstrings() -> list[tuple[str, str, int]]:
    """``(qualified name, docstring, line)`` of every class, function and
    attribute docstring of the stubs that holds an example."""
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef)):
                name = f"{prefix}{child.name}"
                text = ast.get_docstring(child, clean=True)
                if text and ">>>" in text:
                    found.append((name, text, child.body[0].lineno))
                if isinstance(child, ast.ClassDef):
                    visit(child, f"{name}.")

    visit(tree, "marketcurves._core.")
    return found


def test_stub_examples_run(reader: Any) -> None:
    """The stubs are not imported, so doctest does not find their examples:
    they are read from the file and run the same way."""
    examples = stub_docstrings()
    assert examples, "no example in _core.pyi"
    globs = reader("marketcurves._core")
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=FLAGS)
    failures: list[str] = []
    for name, text, line in examples:
        test = parser.get_doctest(text, dict(globs), name, str(STUBS), line)
        output: list[str] = []
        if runner.run(test, out=output.append).failed:
            failures.append("".join(output))
    assert not failures, "\n".join(failures)
