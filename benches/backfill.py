"""The backfill at work: against the bound latency sets on one machine, on
Dask with one worker against two, and its memory as the range grows.

* **One machine**, 20 ms of emulator latency per request: the time of a
  backfill over the time its requests need at best,
  ``requests / max_concurrency x latency``. Target: at most 1.15.
* **Dask**, 100 ms of latency, where latency rather than CPU is the limit:
  a ``LocalCluster`` of 2 worker processes against one of 1, each worker a
  client of 16 requests in flight. Target: 2 workers at least 1.8 times
  one's throughput.
* **Memory**: a Dask worker's peak resident memory (``ru_maxrss``) over 30
  days and over 120, each in a cluster of its own. Target: within 10 %.

Each backfill runs into a fresh folder, against one emulator on a stopped
clock. Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/backfill.py
"""

from __future__ import annotations

import argparse
import datetime as dt
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
                dashboard_address=None,
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


def memory(em: Emulator) -> None:
    """A worker's peak resident memory, in a cluster of one worker made for
    each range: it runs one task at a time, whatever the range."""
    import distributed

    with em.client() as client:
        pairs = curves_and_tenors(client, 1, 5)
    peaks = {}
    for days in (30, 120):
        last = dt.date(2025, 6, 5)
        first = last - dt.timedelta(days=days - 1)
        with (
            distributed.LocalCluster(
                n_workers=1,
                processes=True,
                threads_per_worker=1,
                dashboard_address=None,
                env={"MARKETCURVES_TOKEN": em.token()},
            ) as local,
            distributed.Client(local) as dask,
            em.client() as client,
            tempfile.TemporaryDirectory() as lake,
        ):
            client.backfill(lake, pairs, first, last, cluster=dask)
            values = mc.read_ticks(lake).num_rows
            (peak,) = dask.run(_peak_kib).values()
        peaks[days] = peak / 1024
        print(f"memory, {days} days: {values:,} values, worker's peak {peaks[days]:.1f} MiB")
    print(f"memory: 120 days / 30 days {peaks[120] / peaks[30]:.3f} (target <= 1.10)")


def _peak_kib() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


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
