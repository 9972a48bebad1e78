"""The examples in the package's docstrings, which the API reference shows,
run as doctests (those marked ``+SKIP`` need a client and a curve)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import marketcurves

SUBMODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(marketcurves.__path__, "marketcurves.")
    if info.name not in ("marketcurves.__main__", "marketcurves._core")
)
MODULES = ["marketcurves", *SUBMODULES]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(module, optionflags=flags, verbose=False, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
