"""Fixtures of the concurrency suite: one ``Client`` shared by many threads
and asyncio tasks, and closed while they use it, end to end against the
emulator on a stopped clock.

Read-only tests share one emulator per module; tests that add latency or
close clients get one of their own (``fresh_em``).
"""

from __future__ import annotations

import pytest

import marketcurves as mc
from marketcurves.testing import Emulator


def _pick(emulator: Emulator) -> list[mc.Curve]:
    """Three licensed curves of different verticals with the summer 2025 months."""
    with emulator.client(token=emulator.token()) as client:
        catalogue = client.catalogue()
    picked: dict[str, mc.Curve] = {}
    for curve in catalogue:
        wanted = {"Jul 25", "Aug 25"} <= set(curve.contracts)
        if wanted and curve.quotation != "Sales" and curve.vertical not in picked:
            picked[curve.vertical or ""] = curve
    assert len(picked) >= 3, "the emulator's catalogue lacks the curves this suite needs"
    return list(picked.values())[:3]


@pytest.fixture(scope="module")
def curves(em: Emulator) -> list[mc.Curve]:
    return _pick(em)
