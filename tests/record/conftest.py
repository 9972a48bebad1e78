"""Fixtures of the recorder suite: emulators on an accelerated clock and
curves of the seed-0 world that publish often."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from record_helpers import SCALE, START

# The live suite's helpers: what a reconnect's backfill needs, for the
# recorder's resume, which follows the same rule.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "live"))

from marketcurves.testing import Emulator


@pytest.fixture
def em() -> Iterator[Emulator]:
    with Emulator(seed=0, time_scale=SCALE, start=START) as emulator:
        yield emulator


@pytest.fixture(scope="session")
def busy_curves() -> list[str]:
    """The curves of the seed-0 world the demo account may follow live (not
    Sales), those with the most values published around START first."""
    with Emulator(seed=0, time_scale=0, start="2025-06-11T09:30:00Z") as emulator:
        client = emulator.client()
        counted = []
        for curve in client.catalogue()[:40]:
            if curve.quotation == "Sales":
                continue
            tenors = (curve.contracts or [])[:3]
            count = sum(
                len(emulator.published(curve.id, t, "2025-06-11T09:00:00Z", "2025-06-11T09:30:00Z"))
                for t in tenors
            )
            counted.append((-count, curve.id))
        client.close()
        return [curve_id for _, curve_id in sorted(counted)]


@pytest.fixture(scope="session")
def busy_curve(busy_curves: list[str]) -> str:
    """The curve with the most values published in the half hour before
    START: the recorder has plenty to catch."""
    return busy_curves[0]
