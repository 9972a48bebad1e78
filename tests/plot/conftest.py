"""Fixtures of the plots' suite: tables of one emulated curve (settlements
over six weeks, a tenor's intraday values) and figures closed after each
test. Plots are drawn by the Agg backend, without a display."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from plot_helpers import FIRST, INTRADAY_FIRST, LAST

import marketcurves as mc
from marketcurves.testing import Emulator

# Drawn without a display, whatever the machine has.
pytest.importorskip("matplotlib").use("Agg")


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    import matplotlib.pyplot as plt

    # Before too: a suite run earlier in this process (the docs' examples)
    # may have left figures open, which tests that count figures would see.
    plt.close("all")
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def client(em: Emulator) -> Iterator[mc.Client]:
    with em.client() as c:
        yield c


@pytest.fixture(scope="module")
def jet(client: mc.Client) -> list[mc.Curve]:
    return [c for c in client.catalogue(vertical="Jet") if c.quotation != "Sales"]


@pytest.fixture(scope="module")
def curve(jet: list[mc.Curve]) -> mc.Curve:
    return jet[0]


@pytest.fixture(scope="module")
def settlements(client: mc.Client, curve: mc.Curve):
    return client.settlements(curve, FIRST, LAST)


@pytest.fixture(scope="module")
def tenor(curve: mc.Curve) -> str:
    return curve.contracts[2]


@pytest.fixture(scope="module")
def intraday(client: mc.Client, curve: mc.Curve, tenor: str):
    return client.intraday_history(curve, INTRADAY_FIRST, LAST, tenors=[tenor, curve.contracts[3]])
