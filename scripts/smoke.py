"""Smoke test of an installed marketcurves, through its public API only.

Run by CI against the release wheel in the oldest and newest CPython at hand
(the abi3 claim) and by the release workflow on each platform's wheel:
``python scripts/smoke.py``. It starts the emulator, reads the catalogue, pulls
a week of settlements and waits for three live ticks; it needs nothing but
the package and pyarrow, and never hangs (a watchdog ends it).
"""

from __future__ import annotations

import faulthandler
import importlib.metadata
import platform
import sys
import time

import marketcurves as mc
from marketcurves.testing import Emulator

#: A Wednesday morning: a business day, so the curves publish.
START = "2025-06-11T09:00:00Z"
#: Emulated seconds per real second: curves publishing every minute tick every second.
TIME_SCALE = 60.0
LIVE_TICKS = 3
LIVE_WAIT = 30.0
#: Past this, every thread's traceback is printed and the process exits 1.
WATCHDOG = 120.0


def main() -> int:
    faulthandler.dump_traceback_later(WATCHDOG, exit=True)
    installed = importlib.metadata.version("marketcurves")
    print(
        f"marketcurves {mc.__version__} on {platform.python_implementation()} {platform.python_version()}"
    )
    if mc.__version__ != installed:
        raise SystemExit(f"__version__ {mc.__version__} != installed {installed}")

    with Emulator(seed=0, time_scale=TIME_SCALE, start=START) as emulator:
        with emulator.client() as client:
            catalogue = client.catalogue()
            # The demo account's licence leaves out the Sales quotation.
            licensed = [c for c in catalogue if c.quotation != "Sales"]
            print(f"catalogue: {len(catalogue)} curves, {len(licensed)} licensed")
            if not licensed:
                raise SystemExit("the catalogue lists no licensed curve")

            curve = licensed[0]
            week = client.settlements(curve, "2025-06-02", "2025-06-06")
            print(f"settlements of {curve.id}, 2-6 June 2025: {week.num_rows} rows")
            if week.num_rows == 0:
                raise SystemExit("a business week of settlements is empty")

            print(f"live: {watch(client, licensed[:5])}")
    print("smoke test passed")
    return 0


def watch(client: mc.Client, curves: list[mc.Curve]) -> str:
    """Waits for LIVE_TICKS updates (values published after subscribing, not
    the snapshots) of any of ``curves``."""
    # Keep-alive scaled to the emulator's clock: it drops a connection
    # silent for 60 emulated seconds, one real second here.
    with client.live(ping_interval=30 / TIME_SCALE, pong_timeout=1.0) as feed:
        for curve in curves:
            feed.subscribe(curve, "*")
        updates: list[mc.Tick] = []
        deadline = time.monotonic() + LIVE_WAIT
        while len(updates) < LIVE_TICKS and (left := deadline - time.monotonic()) > 0:
            tick = feed.next(timeout=left)
            if tick is not None and tick.source == "update":
                updates.append(tick)
    if len(updates) < LIVE_TICKS:
        raise SystemExit(f"{len(updates)} live updates in {LIVE_WAIT:.0f} s, not {LIVE_TICKS}")
    return ", ".join(f"{t.curve_id} {t.tenor} {t.price}" for t in updates)


if __name__ == "__main__":
    sys.exit(main())
