"""Fixtures of the recorder suite: emulators on an accelerated clock and
curves of the seed-0 world that publish often."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from record_helpers import SCALE
from support import LIVE_START, start_emulator

# The live suite's helpers: what a reconnect's backfill needs, for the
# recorder's resume, which follows the same rule.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "live"))

from marketcurves.testing import Emulator


@pytest.fixture
def em(make_emulator: Callable[..., Emulator]) -> Emulator:
    return make_emulator(time_scale=SCALE, start=LIVE_START)


@pytest.fixture(scope="session")
def busy_curves() -> list[str]:
    """The curves of the seed-0 world the demo account may follow live (not
    Sales), those with the most values published around LIVE_START first."""
    with start_emulator(start="2025-06-11T09:30:00Z") as emulator:
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
    LIVE_START: the recorder has plenty to catch."""
    return busy_curves[0]
