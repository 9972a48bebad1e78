"""Fixtures of the console script's suite: an emulator on a stopped clock,
the environment that points the script at it, a client of it for the
answers to compare with, and a curve."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cli_helpers import environment

import marketcurves as mc
from marketcurves.testing import Emulator


@pytest.fixture(scope="module")
def env(em: Emulator) -> dict[str, str]:
    return environment(em)


@pytest.fixture(scope="module")
def client(em: Emulator) -> Iterator[mc.Client]:
    with em.client() as c:
        yield c


@pytest.fixture(scope="module")
def curve(client: mc.Client) -> mc.Curve:
    """A Jet curve the demo account may read."""
    return next(c for c in client.catalogue(vertical="Jet") if c.quotation != "Sales")
