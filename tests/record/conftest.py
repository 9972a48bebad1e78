"""Fixtures of the recorder suite: emulators on an accelerated clock and
curves of the seed-0 world that publish often."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from record_helpers import SCALE, START

from marketcurves.testing import Emulator


@pytest.fixture
def em() -> Iterator[Emulator]:
    with Emulator(seed=0, time_scale=SCALE, start=START) as emulator:
        yield emulator


@pytest.fixture(scope="session")
def busy_curve() -> str:
    """The curve of the seed-0 world with the most values published in a
    minute around START: the recorder has plenty to catch."""
    with Emulator(seed=0, time_scale=0, start="2025-06-11T09:30:00Z") as emulator:
        client = emulator.client()
        best, most = "", -1
        for curve in client.catalogue()[:40]:
            tenors = (curve.contracts or [])[:3]
            count = sum(
                len(emulator.published(curve.id, t, "2025-06-11T09:00:00Z", "2025-06-11T09:30:00Z"))
                for t in tenors
            )
            if count > most:
                best, most = curve.id, count
        client.close()
        return best
