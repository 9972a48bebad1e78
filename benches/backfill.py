"""The backfill at work: against the bound latency sets on one machine, on
Dask with one worker against two, and its memory as the range grows.

* **One machine**, 20 ms of emulator latency per request: the time of a
  backfill over the time its requests need at best,
  ``requests / max_concurrency x latency``. Target: at most 1.15.
* **Dask**, 100 ms of latency, where latency rather than CPU is the limit:
  a ``LocalCluster`` of 2 worker processes against one of 1, each worker a
  client of 16 requests in flight. Target: 2 workers at least 1.8 times
  one's throughput.
* **Memory**: a worker's peak resident memory (``VmHWM``), running
  the tasks of a 30-day and of a 120-day backfill one after the other as a
  Dask worker does, in a process of its own. Target: within 10 %.

Each backfill runs into a fresh folder, against one emulator on a stopped
clock. Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/backfill.py
"""

from __future__ import annotations

import argparse
import datetime as dt
import subprocess
import sys
import tempfile
import time

import marketcurves as mc
from marketcurves.testing import Emulator

START = "2025-06-13T17:00:00Z"
CONCURRENCY = 16
INTRADAY = "/historical/intraday"


def curves_and_tenors(client: mc.Client, curves: int, tenors: int) -> list[tuple[str, str]]:
    """``(curve, tenor)`` pairs: ``tenors`` calendar contracts of ``curves`` curves."""
    pairs = []
    chosen = [c for c in client.catalogue() if len(c.contracts or []) >= tenors + 3][:curves]
    for curve in chosen:
        calendar = [t for t in curve.contracts if not t.startswith("C ")][:tenors]
        pairs += [(curve.id, t) for t in calendar]
    return pairs


def timed(em: Emulator, run) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    """Seconds a backfill took, and the intraday requests it sent."""
    before = em.request_count(INTRADAY)
    started = time.perf_counter()
    run()
    return time.perf_counter() - started, em.request_count(INTRADAY) - before


def one_machine(em: Emulator, latency: float, runs: int = 3) -> None:
    with em.client(max_concurrency=CONCURRENCY) as client:
        pairs = curves_and_tenors(client, 1, 10)
        em.set_latency(latency)
        try:
            # A first, short backfill opens the client's connections.
            with tempfile.TemporaryDirectory() as lake:
                client.backfill(lake, pairs[:1], "2025-05-01", "2025-05-01")
            measured = []
            for _ in range(runs):
                with tempfile.TemporaryDirectory() as lake:
                    measured.append(
                        timed(em, lambda: client.backfill(lake, pairs, "2025-03-01", "2025-05-29"))
                    )
        finally:
            em.set_latency(0)
    seconds, requests = min(measured)
    bound = requests / CONCURRENCY * latency
    print(
        f"one machine, {latency * 1000:.0f} ms: {requests} requests in {seconds:.2f} s "
        f"(best of {runs}; all: {', '.join(f'{s:.2f}' for s, _ in measured)}), "
        f"bound {bound:.2f} s: ratio {seconds / bound:.3f} (target <= 1.15)"
    )


def on_dask(em: Emulator, latency: float) -> None:
    import distributed

    rates = {}
    with em.client() as client:
        pairs = curves_and_tenors(client, 2, 5)
    for workers in (1, 2):
        with (
            distributed.LocalCluster(
                n_workers=workers,
                processes=True,
                threads_per_worker=1,
                dashboard_address=":0",
                env={"MARKETCURVES_TOKEN": em.token()},
            ) as local,
            distributed.Client(local) as dask,
            em.client(max_concurrency=CONCURRENCY) as client,
            tempfile.TemporaryDirectory() as lake,
        ):
            # A first task starts each worker's client, outside the timing.
            client.backfill(lake, pairs[:1], "2025-01-01", "2025-01-01", cluster=dask)
            em.set_latency(latency)
            try:
                seconds, requests = timed(
                    em,
                    lambda: client.backfill(lake, pairs, "2025-01-02", "2025-04-30", cluster=dask),
                )
            finally:
                em.set_latency(0)
        rates[workers] = requests / seconds
        bound = requests / (CONCURRENCY * workers) * latency
        print(
            f"dask, {workers} worker(s), {latency * 1000:.0f} ms: {requests} requests in "
            f"{seconds:.2f} s ({rates[workers]:.0f}/s; bound {bound:.2f} s)"
        )
    print(f"dask: 2 workers / 1 worker throughput {rates[2] / rates[1]:.2f} (target >= 1.8)")


#: A worker's part of a backfill, in a process of its own: the tasks of a
#: plan run one after the other through the very function a Dask worker
#: calls, without Dask's own memory around it (which varies by tens of MiB
#: from one worker process to the next, whatever the work).
WORKER = """
import sys
import marketcurves as mc
from marketcurves import _backfill_worker, _core, backfill

base_url, token, dest, curve_id, tenors, first, last = sys.argv[1:]
pairs = [(curve_id, t) for t in tenors.split("|")]
with mc.Client(base_url=base_url, token=token) as client:
    checked = backfill._checked(dest, pairs, first, last, "listed", None)
    tasks, _ = _core.backfill_plan(client._core, checked)
    settings = client._worker_settings()
    settings["token_provider"] = lambda: token
    for task in tasks:
        _backfill_worker.run_task(settings, checked["dest"], None, task)
# VmHWM, not ru_maxrss: a child's ru_maxrss starts at its parent's size at
# the fork, which the exec does not reset.
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(len(tasks), peak)
"""


def memory(em: Emulator) -> None:
    with em.client() as client:
        pairs = curves_and_tenors(client, 1, 5)
    curve_id, tenors = pairs[0][0], "|".join(t for _, t in pairs)
    warmed = False
    peaks: dict[int, list[float]] = {}
    # The emulator makes a day's values when first asked, and then answers
    # at once: a first, unmeasured run over the whole range, so that every
    # measured run meets the same emulator. (A client's memory follows how
    # fast pages arrive: with more of them decoded at once, the peak is higher.)
    for days in (120, 30, 120, 30, 120):
        last = dt.date(2025, 6, 5)
        first = last - dt.timedelta(days=days - 1)
        with tempfile.TemporaryDirectory() as lake:
            arguments = [em.base_url, em.token(), lake, curve_id, tenors, str(first), str(last)]
            done = subprocess.run(
                [sys.executable, "-c", WORKER, *arguments],
                capture_output=True,
                text=True,
                check=True,
            )
            values = mc.read_ticks(lake).num_rows
        tasks, peak = (int(n) for n in done.stdout.split()[-2:])
        if not warmed:
            warmed = True
            continue
        peaks.setdefault(days, []).append(peak / 1024)
        print(f"memory, {days} days: {tasks} tasks, {values:,} values, peak {peak / 1024:.1f} MiB")
    low, high = min(peaks[30]), max(peaks[120])
    print(
        f"memory: 120 days / 30 days {high / low:.3f} (the highest over the lowest; target <= 1.10)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("one", "dask", "memory", "all"), default="all")
    args = parser.parse_args()
    with Emulator(seed=0, start=START) as em:
        if args.part in ("one", "all"):
            one_machine(em, 0.020)
        if args.part in ("dask", "all"):
            on_dask(em, 0.100)
        if args.part in ("memory", "all"):
            memory(em)


if __name__ == "__main__":
    main()
