"""Fixtures of the curve analytics suite: one emulator on a stopped clock,
the catalogue's curves by product and units, and small tables built by hand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import marketcurves as mc
from marketcurves.testing import Emulator


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """The world of seed 7, for the root ``em``."""
    return {"seed": 7}


@pytest.fixture(scope="module")
def client(em: Emulator) -> Iterator[mc.Client]:
    with em.client() as c:
        yield c


@pytest.fixture(scope="module")
def catalogue(client: mc.Client) -> Any:
    return client.catalogue()


def _first(catalogue: Any, **want: str) -> mc.Curve:
    for curve in catalogue:
        if all(curve.filters.get(k) == v for k, v in want.items() if k != "units") and (
            "units" not in want or curve.units == want["units"]
        ):
            return curve
    raise LookupError(f"no curve with {want}")


@pytest.fixture(scope="module")
def gasoline_cents(catalogue: Any) -> mc.Curve:
    """A US gasoline curve quoted in c/gal."""
    return _first(catalogue, vertical="Gasoline", quotation="Price", units="c/gal")


@pytest.fixture(scope="module")
def crude(catalogue: Any) -> mc.Curve:
    return _first(catalogue, vertical="Crude", quotation="Fob", units="$/bbl")


@pytest.fixture(scope="module")
def jet_tonnes(catalogue: Any) -> mc.Curve:
    return _first(catalogue, vertical="Jet", quotation="Fob", units="$/mt")
