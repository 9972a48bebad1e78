"""Replay of a local lake: its speed and its memory.

A lake is written here, in the recorder's layout, with pyarrow: one curve,
20 tenors, 100,000 values a day, in one file a day; the small lake has 10
days (1 M values), the large one 100 days (10 M).

* ``batches()`` rows a second, and the iterator's ticks a second, over the
  large lake (targets: at least 3 M and 1 M);
* ``batches()`` against an Arrow floor measured in the same run: each day's
  files read by pyarrow, sorted by time, sliced into batches of the same size
  (target: at most 1.3 x its time);
* against a plain-Python replay of the same values: ``read_ticks``, a pandas
  sort by time, ``itertuples`` into the same callback (target: at least 20 x);
* peak memory (``VmHWM`` of a process of its own, the median of three)
  replaying the small and the large lake (target: within 10 %).

Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/replay.py [--days-small 10 --days-large 100] [--part floor]
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from marketcurves.testing import Emulator

CURVE = "bench-curve"
TENORS = [f"{month} 27" for month in ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul")] + [
    f"{month} 28"
    for month in (
        "Jan",
        "Feb",
        "Mar",
        "Apr",
        "May",
        "Jun",
        "Jul",
        "Aug",
        "Sep",
        "Oct",
        "Nov",
        "Dec",
        "Q1",
    )
][:13]
PER_DAY = 100_000
FIRST_DAY = dt.date(2025, 1, 1)

CHILD = """
import sys
import marketcurves as mc
base_url, token, lake, start, end = sys.argv[1:]
with mc.Client(base_url=base_url, token=token) as client:
    with client.replay(start, end, source=lake) as feed:
        feed.subscribe("bench-curve", "*", strict=False)
        rows = sum(batch.num_rows for batch in feed.batches(max_rows=100_000, timeout=None))
# VmHWM, not ru_maxrss: a child's ru_maxrss starts at its parent's size at
# the fork, which the exec does not reset.
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(rows, peak)
"""


def write_lake(folder: Path, days: int) -> None:
    """``days`` days of PER_DAY values, one Parquet file a day, by time."""
    rng = np.random.default_rng(0)
    day_us = 86_400_000_000
    for offset in range(days):
        day = FIRST_DAY + dt.timedelta(days=offset)
        midnight = int(dt.datetime.combine(day, dt.time(), dt.UTC).timestamp() * 1e6)
        times = np.sort(rng.integers(0, day_us, PER_DAY)) + midnight
        tenors = rng.integers(0, len(TENORS), PER_DAY)
        table = pa.table(
            {
                "curve_id": pa.array([CURVE] * PER_DAY, pa.string()),
                "tenor": pa.array([TENORS[i] for i in tenors], pa.string()),
                "generated_on": pa.array(times, pa.timestamp("us", "UTC")),
                "price": pa.array(rng.normal(100, 5, PER_DAY), pa.float64()),
                "source": pa.array(["update"] * PER_DAY, pa.string()),
                "recorded_at": pa.array(times + 1000, pa.timestamp("us", "UTC")),
            }
        )
        name = f"date={day}/part-{day:%Y%m%d}T235959.000000Z-bench-000001.parquet"
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, folder / name)


def bounds(days: int) -> tuple[str, str]:
    last = FIRST_DAY + dt.timedelta(days=days - 1)
    return f"{FIRST_DAY}T00:00:00Z", f"{last}T23:59:59.999999Z"


BATCH_ROWS = 100_000


def arrow_floor(lake: Path) -> tuple[int, float]:
    """What reading the lake costs Arrow alone: every file read by pyarrow,
    a day at a time as the replay reads it, sorted by time and sliced into
    batches of ``batches()``'s size. Rows and seconds."""
    started = time.perf_counter()
    rows = 0
    for day in sorted(lake.iterdir()):
        table = pa.concat_tables(pq.read_table(f) for f in sorted(day.glob("*.parquet")))
        table = table.sort_by("generated_on")
        for batch in table.to_batches(max_chunksize=BATCH_ROWS):
            rows += batch.num_rows
    return rows, time.perf_counter() - started


def speed(em: Emulator, lake: Path, days: int, floor_only: bool = False) -> None:
    start, end = bounds(days)
    with em.client() as client:
        started = time.perf_counter()
        with client.replay(start, end, source=lake) as feed:
            feed.subscribe(CURVE, "*", strict=False)
            rows = sum(b.num_rows for b in feed.batches(max_rows=BATCH_ROWS, timeout=None))
        batches = time.perf_counter() - started
        print(
            f"batches(): {rows:,} rows in {batches:.2f} s, {rows / batches / 1e6:.2f} M rows/s (target >= 3)"
        )
        floor_rows, floor = arrow_floor(lake)
        print(
            f"Arrow floor (pyarrow reads each day's files, sorts them by time, slices them): "
            f"{floor_rows:,} rows in {floor:.2f} s; batches() / floor {batches / floor:.2f} (target <= 1.3)"
        )
        if floor_only:
            return

        count = 0

        def on_tick(tick: object) -> None:
            nonlocal count
            count += 1

        started = time.perf_counter()
        with client.replay(start, end, source=lake) as feed:
            feed.subscribe(CURVE, "*", strict=False)
            for tick in feed:
                on_tick(tick)
        iterated = time.perf_counter() - started
        print(
            f"iterator: {count:,} ticks in {iterated:.2f} s, {count / iterated / 1e6:.2f} M ticks/s (target >= 1)"
        )

        import marketcurves as mc

        started = time.perf_counter()
        frame = mc.to_pandas(mc.read_ticks(lake)).sort_values("generated_on", kind="stable")
        for row in frame.itertuples(index=False):
            on_tick(row)
        plain = time.perf_counter() - started
        print(
            f"plain Python (read_ticks, pandas sort, itertuples): {plain:.2f} s; "
            f"against it, batches() {plain / batches:.1f} x, the iterator {plain / iterated:.1f} x "
            "(target >= 20)"
        )


def memory(em: Emulator, lakes: dict[int, Path], runs: int) -> None:
    """The median of ``runs`` children's peaks for each lake: a peak is one
    moment, and which batches, reads and frees meet at it varies by a few
    MiB from run to run."""
    peaks = {}
    for days, lake in lakes.items():
        start, end = bounds(days)
        each = []
        for _ in range(runs):
            done = subprocess.run(
                [sys.executable, "-c", CHILD, em.base_url, em.token(), str(lake), start, end],
                capture_output=True,
                text=True,
                check=True,
            )
            rows, peak = (int(n) for n in done.stdout.split()[-2:])
            each.append(peak / 1024)
        peaks[days] = statistics.median(each)
        shown = ", ".join(f"{p:.1f}" for p in each)
        print(
            f"memory, {rows:,} values ({days} days): peak {peaks[days]:.1f} MiB (median of {shown})"
        )
    small, large = peaks.values()
    print(f"memory: large / small {large / small:.3f} (target <= 1.10)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days-small", type=int, default=10)
    parser.add_argument("--days-large", type=int, default=100)
    parser.add_argument("--memory-runs", type=int, default=3)
    parser.add_argument(
        "--part",
        choices=["all", "floor"],
        default="all",
        help="floor: batches() and its Arrow floor over the large lake, nothing else",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, Emulator(seed=0) as em:
        lakes = {}
        sizes = (args.days_large,) if args.part == "floor" else (args.days_small, args.days_large)
        for days in sizes:
            lakes[days] = Path(scratch) / f"lake-{days}"
            started = time.perf_counter()
            write_lake(lakes[days], days)
            print(
                f"lake of {days * PER_DAY:,} values written in {time.perf_counter() - started:.1f} s"
            )
        speed(em, lakes[args.days_large], args.days_large, floor_only=args.part == "floor")
        if args.part == "all":
            memory(em, lakes, args.memory_runs)


if __name__ == "__main__":
    main()
