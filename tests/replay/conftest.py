"""Fixtures of the replay suite: a lake recorded from the emulator's live
feed, once for the module, and the curve it holds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from replay_helpers import SCALE
from support import LIVE_START, start_emulator

import marketcurves as mc

#: Values the replay tests need after the first third of the recording's
#: span, and the rounds of recording a loaded machine may take to get them.
ENOUGH_UPDATES = 20
RECORDING_ROUNDS = 5


def _enough(rows: list[dict[str, Any]]) -> bool:
    """Whether the recording holds values published while it listened,
    at several times: a round that only connected holds the snapshots,
    often all of one time."""
    times = sorted(r["generated_on"] for r in rows)
    if len(set(times)) < 3:
        return False
    third = times[0] + (times[-1] - times[0]) / 3
    return sum(1 for t in times if t > third) >= ENOUGH_UPDATES


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A few emulated minutes of a curve's live feed recorded into a lake;
    the emulator, stopped after, serves the same history. Yields the
    emulator, the lake, the curve and the recording as rows."""
    lake = tmp_path_factory.mktemp("lake")
    with start_emulator(time_scale=SCALE, start=LIVE_START) as em:
        with em.client() as client:
            curve = next(c for c in client.catalogue() if c.quotation != "Sales")
            # A loaded machine may spend most of a round connecting: the
            # recorder resumes into the same lake until it holds enough
            # values published while it listened (not only the snapshots).
            for _ in range(RECORDING_ROUNDS):
                client.record(
                    lake,
                    [(curve.id, "*")],
                    rotate="1s",
                    duration=4,
                    ping_interval=30 / SCALE,
                    pong_timeout=0.5,
                    reconnect_max=0.5,
                )
                if _enough(mc.read_ticks(lake).to_pylist()):
                    break
            else:
                pytest.fail(f"{RECORDING_ROUNDS} rounds of recording held too few updates")
        em.time_scale = 0
        yield {"em": em, "lake": lake, "curve": curve, "rows": mc.read_ticks(lake).to_pylist()}


@pytest.fixture(scope="module")
def days_lake(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Three days of two tenors backfilled into a lake. Yields the emulator,
    the lake, the curve id, the two tenors, the lake's rows, and a span
    across the days from the middle of the first."""
    lake = tmp_path_factory.mktemp("days")
    with start_emulator(time_scale=0, start=LIVE_START) as em:
        with em.client() as client:
            curve = next(c for c in client.catalogue() if len(c.contracts or []) >= 5)
            tenors = [t for t in curve.contracts if not t.startswith("C ")][:2]
            client.backfill(lake, [(curve.id, t) for t in tenors], "2025-06-02", "2025-06-04")
        rows = mc.read_ticks(lake).to_pylist()
        times = sorted(r["generated_on"] for r in rows)
        yield {
            "em": em,
            "lake": lake,
            "curve_id": curve.id,
            "tenors": tenors,
            "rows": rows,
            "start": times[len(times) // 6],
            "end": times[-1],
        }
