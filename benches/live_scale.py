"""The live feed at a desk's scale: every licensed curve of the emulator's
catalogue subscribed with ``*`` (203 curves, about 5,900 tenors), then
abrupt drops of the connection, each while a known set of tenors publishes.

The emulator's clock is stopped, so that nothing is published while the
feed is connected, and every REST response is delayed by 20 ms. For each
drop, the feed's reconnect is held at its token request while the clock
moves on by ``--outage`` emulated seconds; the tenors that published in
that time (``Emulator.published``) are the ones whose gaps need values.

Figures:

- subscribe time: the ``subscribe`` calls for the whole catalogue, and the
  time until every snapshot is in;
- memory per subscribed tenor: the growth of this process's resident memory
  from before the feed to after every snapshot, over the tenors (the bench
  keeps only a set of the tenors' names, about 0.2 KiB each of it);
- per drop: REST requests (counted by the emulator) over the tenors that
  changed during the outage (target <= 1.2), and the time from letting the
  reconnect go on to every gap closed (target <= 2 s): the later of the
  last missed value delivered and the last backfill request received (the
  bench waits for a second of no requests to know it was the last).

Every missed value is checked against what the emulator published: none
lost, none repeated. Run on an optimised build (``maturin build --profile
release-fast``), installed, as ``python benches/live_scale.py``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import statistics
import threading
import time
from collections import Counter

import marketcurves as mc
from marketcurves.testing import Emulator

START = "2025-06-11T09:00:00Z"  # a Wednesday morning
LATENCY = 0.02
QUIET = 1.0


def rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


class Gate:
    """A token source that can hold a reconnect at its token request."""

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        self.open = threading.Event()
        self.open.set()
        self.asked = threading.Event()

    def __call__(self) -> str:
        self.asked.set()
        if not self.open.wait(60):
            raise RuntimeError("the bench never let the reconnect go on")
        return self.emulator.token()


def millis(when: dt.datetime) -> dt.datetime:
    return when.replace(microsecond=when.microsecond - when.microsecond % 1000)


def drain(feed: mc.LiveFeed, quiet: float) -> tuple[set[tuple[str, str]], float]:
    """The (curve, tenor) of the ticks until none has come for ``quiet``
    seconds (the ticks themselves are not kept, so that memory measures the
    feed); and when the last came."""
    tenors: set[tuple[str, str]] = set()
    last = time.perf_counter()
    while time.perf_counter() - last < quiet:
        tick = feed.next(timeout=0.05)
        if tick is not None:
            tenors.add((tick.curve_id, tick.tenor))
            last = time.perf_counter()
    return tenors, last


def one_drop(
    em: Emulator, feed: mc.LiveFeed, gate: Gate, tenors: set[tuple[str, str]], outage: float
) -> dict[str, float]:
    before = em.now()
    gate.open.clear()
    gate.asked.clear()
    em.drop_live_connections()
    if not gate.asked.wait(10):
        raise RuntimeError("the feed did not try to reconnect")
    em.advance(outage)
    after = em.now()
    missed = {
        key: [
            (millis(v.generated_on), v.price) for v in em.published(*key, start=before, end=after)
        ]
        for key in tenors
    }
    missed = {key: [v for v in values if v[0] > millis(before)] for key, values in missed.items()}
    missed = {key: values for key, values in missed.items() if values}
    expected = sum(len(values) for values in missed.values())
    requests_before = em.request_count()
    released = time.perf_counter()
    gate.open.set()

    backfilled: list[mc.Tick] = []
    requests, requests_changed = requests_before, released
    values_done = None
    while True:
        tick = feed.next(timeout=0.01)
        now = time.perf_counter()
        if tick is not None and tick.source == "backfill":
            backfilled.append(tick)
            if len(backfilled) >= expected and values_done is None:
                values_done = now
        count = em.request_count()
        if count != requests:
            requests, requests_changed = count, now
        if values_done is not None and now - requests_changed >= QUIET:
            break
        if now - released > 300:
            raise RuntimeError(f"only {len(backfilled)} of {expected} missed values came")
    delivered: dict[tuple[str, str], list[tuple[dt.datetime, float]]] = {}
    for tick in backfilled:
        delivered.setdefault((tick.curve_id, tick.tenor), []).append(
            (millis(tick.generated_on), tick.price)
        )
    lost = sum(len(set(v) - set(delivered.get(k, []))) for k, v in missed.items())
    repeated = sum(n - len(set(v)) for v in delivered.values() for n in [len(v)])
    extra = sum(len(set(v) - set(missed.get(k, []))) for k, v in delivered.items())
    return {
        "changed": len(missed),
        "missed values": expected,
        "requests": requests - requests_before,
        "closed in": max(values_done or released, requests_changed) - released,
        "lost": lost,
        "repeated": repeated,
        "extra": extra,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drops", type=int, default=3)
    parser.add_argument("--outage", type=float, default=1.0, help="emulated seconds away")
    args = parser.parse_args()
    # The curves outside the licence are refused, each with a warning.
    logging.getLogger("marketcurves").setLevel(logging.ERROR)

    with Emulator(seed=0, time_scale=0, start=START) as em:
        em.set_latency(LATENCY)
        gate = Gate(em)
        client = em.client(token_provider=gate)
        catalogue = list(client.catalogue())
        rss_before = rss_mib()
        with client.live(reconnect_max=0.25) as feed:
            began = time.perf_counter()
            refused = 0
            for curve in catalogue:
                try:
                    feed.subscribe(curve.id, "*")
                except mc.AccessDenied:
                    refused += 1
            subscribed = time.perf_counter() - began
            tenors, last = drain(feed, QUIET)
            snapshots_in = last - began
            per_tenor = (rss_mib() - rss_before) * 2**20 / max(1, len(tenors))
            print(
                f"subscribed {len(catalogue) - refused} curves ({refused} refused, outside the"
                f" licence) in {subscribed:.2f} s; {len(tenors)} tenors' snapshots in"
                f" {snapshots_in:.2f} s"
            )
            print(f"memory per subscribed tenor: {per_tenor / 1024:.2f} KiB")
            drops = []
            for number in range(1, args.drops + 1):
                drop = one_drop(em, feed, gate, tenors, args.outage)
                drops.append(drop)
                ratio = drop["requests"] / max(1, drop["changed"])
                print(
                    f"drop {number}: {drop['changed']} tenors changed ({drop['missed values']}"
                    f" values), {drop['requests']} REST requests: {ratio:.2f} per changed tenor"
                    f" (target <= 1.2); every gap closed {drop['closed in']:.2f} s after the"
                    f" reconnect began (target <= 2); lost {drop['lost']}, repeated"
                    f" {drop['repeated']}, not published {drop['extra']}"
                )
            stats = feed.stats()
    ratios = [d["requests"] / max(1, d["changed"]) for d in drops]
    closing = [d["closed in"] for d in drops]
    print(
        f"requests per changed tenor: median {statistics.median(ratios):.2f}, worst"
        f" {max(ratios):.2f}; gaps closed in: median {statistics.median(closing):.2f} s, worst"
        f" {max(closing):.2f} s"
    )
    counters = Counter({k: v for k, v in stats.items() if isinstance(v, int)})
    keys = ("reconnects", "backfilled", "backfill_requests", "gaps_skipped", "duplicates_dropped")
    print("feed stats: " + ", ".join(f"{k} {counters[k]}" for k in keys if k in stats))


if __name__ == "__main__":
    main()
