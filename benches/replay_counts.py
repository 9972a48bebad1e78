"""Replay of a local lake at every pace: values delivered against the source's.

The lake is ``replay.py``'s (one curve, 20 tenors, one file a day, by time),
two days of it; the replay runs a day across midnight, from the first day's
noon to the second's, so that it reads two days and crosses from one to the
other. At each speed (``max``, then paced from 1e4 to 1e8 times real time),
conflated and not, a consumer takes every tick by the iterator (then a
slow one, which sleeps a millisecond every 100 ticks, with a queue of
1,000), and the counts are set against the source's: its values in the
span, each once (``read_ticks``, one value per tenor and millisecond, as the
replay keeps them), and a snapshot of each tenor at the subscribe.

Targets: not conflated, every value delivered (0 lost, 0 repeated);
conflated, delivered + conflated = the source's count. Counts do not depend
on the build's profile (how many are conflated does: a slower consumer
falls further behind).

    python benches/replay_counts.py [--per-day 100000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import tempfile
import time
from pathlib import Path

import pyarrow.compute as pc

import marketcurves as mc
from marketcurves.testing import Emulator

# A sibling script: run as ``python benches/replay_counts.py``.
import replay  # isort: skip

SPEEDS: list[str | float] = ["max", 1e4, 1e5, 1e6, 1e7, 1e8]
# The slow consumer's queue: small, so that a pace it cannot follow conflates.
SLOW_QUEUE = 1_000


def source_count(lake: Path, start: dt.datetime, end: dt.datetime) -> tuple[int, int]:
    """The lake's values after ``start`` and up to ``end``, each once (a
    replay delivers a subscription's values after the time it took effect),
    and its tenors with a value before: a snapshot each at the subscribe."""
    table = mc.read_ticks(lake, start=start, end=end)
    values = table.filter(pc.greater(table["generated_on"], start)).num_rows
    before = mc.read_ticks(lake, end=start)
    return values, len(pc.unique(before["tenor"]))


def run(em: Emulator, lake: Path, start: dt.datetime, end: dt.datetime, speed, conflate, slow):
    """Updates delivered, how many of them repeat a (tenor, time) already
    delivered, snapshots, the feed's conflated count, and the seconds taken."""
    options = {} if conflate is None else {"conflate": conflate}
    if slow:
        options["queue_size"] = SLOW_QUEUE
    seen: set[tuple[str, dt.datetime]] = set()
    updates = repeated = snapshots = 0
    with em.client() as client:
        started = time.perf_counter()
        with client.replay(start, end, source=lake, speed=speed, **options) as feed:
            feed.subscribe(replay.CURVE, "*", strict=False)
            for tick in feed:
                if tick.source == "snapshot":
                    snapshots += 1
                    continue
                updates += 1
                if slow and updates % 100 == 0:
                    time.sleep(0.001)
                key = (tick.tenor, tick.generated_on)
                repeated += key in seen
                seen.add(key)
            conflated = feed.stats()["conflated"]
        seconds = time.perf_counter() - started
    return updates, repeated, snapshots, conflated, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-day", type=int, default=replay.PER_DAY)
    args = parser.parse_args()
    replay.PER_DAY = args.per_day
    noon = dt.datetime.combine(replay.FIRST_DAY, dt.time(12), dt.UTC)
    start, end = noon, noon + dt.timedelta(days=1)
    with tempfile.TemporaryDirectory() as scratch, Emulator(seed=0) as em:
        lake = Path(scratch) / "lake"
        replay.write_lake(lake, 2)
        values, tenors = source_count(lake, start, end)
        expected = values + tenors
        print(
            f"source: {values:,} values from {start:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M} UTC, "
            f"and a snapshot of each of its {tenors} tenors: {expected:,}"
        )
        print(
            "| speed | consumer | conflate | delivered (updates + snapshots) | repeated | conflated | "
            "delivered + conflated | lost | seconds |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        failures = []
        for slow, speed in [(slow, speed) for slow in (False, True) for speed in SPEEDS]:
            for conflate in [None] if speed == "max" else [False, True]:
                updates, repeated, snapshots, conflated, seconds = run(
                    em, lake, start, end, speed, conflate, slow
                )
                delivered = updates + snapshots
                lost = expected - delivered - conflated
                shown = "n/a" if conflate is None else str(conflate).lower()
                pace = "max" if speed == "max" else f"{speed:.0e}"
                print(
                    f"| {pace} | {'slow' if slow else 'iterator'} | {shown} | {delivered:,} ({updates:,} + {snapshots}) | {repeated} "
                    f"| {conflated:,} | {delivered + conflated:,} | {lost} | {seconds:.2f} |"
                )
                if lost or repeated or (not conflate and conflated):
                    failures.append((speed, conflate, slow))
        print(
            "every value delivered or counted as conflated"
            if not failures
            else f"FAILED: {failures}"
        )


if __name__ == "__main__":
    main()
