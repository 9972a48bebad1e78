"""Soak: the live feed for a long stretch under random abrupt drops, feed
restarts, silences and a consumer that stalls now and then; then every value
the emulator published is checked to have been delivered exactly once, and
the client process's memory and thread count to have stayed flat. The
emulator runs in a process of its own, so that the figures are the client's
alone.

    python benches/soak.py [--seconds 600] [--scale 60] [--queue-size 100000]

The emulator's clock runs ``--scale`` times real speed (by default ten hours
of a trading day in ten minutes). With a ``--queue-size`` small enough for the
stalls to fill it, the feed conflates, and the values it conflated away are
reported rather than counted as lost (they remain in the intraday history).
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import multiprocessing
import random
import threading
import time
from array import array
from collections import Counter, defaultdict
from multiprocessing.managers import BaseManager
from pathlib import Path
from typing import Any, NamedTuple

import marketcurves as mc
from marketcurves.testing import Emulator

#: Growth of resident memory after the first third that counts as flat.
MAX_GROWTH_MIB_A_MINUTE = 0.25
#: The least run after the first third on which memory is judged.
MIN_MINUTES_JUDGED = 3

#: A Wednesday at 08:00 UTC: a whole trading day ahead, no weekly restart.
START = "2025-06-11T08:00:00Z"


class Sample(NamedTuple):
    seconds: float
    rss_kib: int
    #: What this script keeps of the values delivered, for its check.
    kept_kib: int
    threads: Counter[str]


def sample(seconds: float, delivered: Delivered) -> Sample:
    """This process's resident memory and OS threads by name."""
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    names = Counter(
        (task / "comm").read_text().strip() for task in Path("/proc/self/task").iterdir()
    )
    return Sample(seconds, int(status["VmRSS"].split()[0]), delivered.kib(), names)


class EmulatorHost:
    """The emulator, served from a process of its own: the few of its
    controls the soak uses."""

    def __init__(self, scale: float, start: str) -> None:
        self.emulator = Emulator(seed=0, time_scale=scale, start=start)

    def addresses(self) -> tuple[str, str, dict[str, str]]:
        return self.emulator.base_url, self.emulator.live_url, self.emulator.credentials

    def fault(self, kind: str, enabled: bool = True) -> None:
        if kind == "drop":
            self.emulator.drop_live_connections()
        elif kind == "restart":
            self.emulator.restart_feed()
        else:
            self.emulator.silence_live(enabled)

    def published(self, *args: Any, **kwargs: Any) -> list[tuple[dt.datetime, float]]:
        return self.emulator.published(*args, **kwargs)

    def live_connections(self) -> int:
        return self.emulator.live_connections

    def stop(self) -> None:
        self.emulator.stop()


class Host(BaseManager):
    pass


Host.register("EmulatorHost", EmulatorHost)


def busy_curves(client: mc.Client, count: int) -> list[str]:
    return [c.id for c in client.catalogue() if c.quotation != "Sales"][:count]


class Saboteur(threading.Thread):
    """Drops, restarts or silences the feed every few seconds, at random."""

    def __init__(self, emulator: Any, seed: int) -> None:
        super().__init__(name="soak-saboteur")
        self.emulator = emulator
        self.random = random.Random(seed)
        self.stop = threading.Event()
        self.done: dict[str, int] = defaultdict(int)

    def run(self) -> None:
        while not self.stop.wait(self.random.uniform(3.0, 12.0)):
            fault = self.random.choice(["drop", "drop", "restart", "silence"])
            self.emulator.fault(fault)
            if fault == "silence":
                self.stop.wait(self.random.uniform(0.5, 2.0))
                self.emulator.fault(fault, enabled=False)
            self.done[fault] += 1


EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def millis(when: dt.datetime) -> int:
    """Microseconds since the epoch, truncated to the millisecond (the feed's
    precision)."""
    micros = (when - EPOCH) // dt.timedelta(microseconds=1)
    return micros - micros % 1000


class Delivered:
    """The values delivered, per tenor, as arrays of machine numbers: 16 bytes
    a value, so that what this script keeps does not blur the memory figures
    of the feed (Python objects for 40,000 ticks would take some 12 MiB)."""

    def __init__(self) -> None:
        self.series: dict[tuple[str, str], tuple[array[int], array[float]]] = {}
        self.count = 0

    def add(self, tick: mc.Tick) -> None:
        key = (tick.curve_id, tick.tenor)
        if (series := self.series.get(key)) is None:
            series = self.series[key] = (array("q"), array("d"))
        series[0].append(millis(tick.generated_on))
        series[1].append(tick.price)
        self.count += 1

    def kib(self) -> int:
        return self.count * 16 // 1024


def check(emulator: Any, delivered: Delivered) -> dict[str, int]:
    """Per tenor, compares what was delivered with what was published between
    the first and last values delivered."""
    figures = {"tenors": len(delivered.series), "checked": 0, "missing": 0, "repeated": 0}
    figures["extra"] = 0
    for (curve_id, tenor), (times, prices) in delivered.series.items():
        first, last = times[0], times[-1]
        published = emulator.published(
            curve_id,
            tenor,
            start=EPOCH + dt.timedelta(microseconds=first - 1000),
            end=EPOCH + dt.timedelta(microseconds=last + 1000),
        )
        expected = {(millis(at), price) for at, price in published}
        expected = {v for v in expected if first <= v[0] <= last}
        got = list(zip(times, prices, strict=True))
        figures["checked"] += len(got)
        figures["repeated"] += len(got) - len(set(got))
        figures["missing"] += len(expected - set(got))
        figures["extra"] += len(set(got) - expected)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="real time to run")
    parser.add_argument("--scale", type=float, default=60.0, help="emulator clock speed")
    parser.add_argument("--curves", type=int, default=6, help="curves subscribed, every tenor")
    parser.add_argument("--queue-size", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # The feed's reports of drops and reconnects, as they happen.
    logging.basicConfig(format="%(asctime)s %(name)s: %(message)s", level=logging.WARNING)

    rng = random.Random(args.seed)
    samples: list[Sample] = []
    delivered = Delivered()
    with Host(ctx=multiprocessing.get_context("spawn")) as host:
        emulator = host.EmulatorHost(args.scale, START)  # type: ignore[attr-defined]
        base_url, live_url, credentials = emulator.addresses()
        client = mc.Client(base_url=base_url, live_url=live_url, **credentials)
        curve_ids = busy_curves(client, args.curves)
        # Keep-alive scaled to the clock, as a client of the real service would ping.
        feed = client.live(
            queue_size=args.queue_size,
            ping_interval=30.0 / args.scale,
            pong_timeout=max(0.5, 20.0 / args.scale),
            reconnect_max=1.0,
        )
        with feed:
            for curve_id in curve_ids:
                feed.subscribe(curve_id, "*")
            saboteur = Saboteur(emulator, args.seed)
            saboteur.start()
            began = time.monotonic()
            next_sample = began
            next_stall = began + rng.uniform(5, 20)
            try:
                while (now := time.monotonic()) - began < args.seconds:
                    if now >= next_sample:
                        samples.append(sample(now - began, delivered))
                        next_sample += 10.0
                    if now >= next_stall:
                        time.sleep(rng.uniform(1.0, 4.0))  # the consumer stalls
                        next_stall = time.monotonic() + rng.uniform(5, 20)
                    tick = feed.next(timeout=0.2)
                    if tick is not None:
                        delivered.add(tick)
            finally:
                saboteur.stop.set()
                saboteur.join()
                emulator.fault("silence", enabled=False)
            while (tick := feed.next(timeout=1.0)) is not None:
                delivered.add(tick)
            stats = feed.stats()
        client.close()
        figures = check(emulator, delivered)
        left_open = emulator.live_connections()
        emulator.stop()

    rss = [s.rss_kib for s in samples]
    native = [s.rss_kib - s.kept_kib for s in samples]
    threads = [s.threads.total() for s in samples]
    third = len(samples) // 3
    print(f"ran {args.seconds:.0f} s at {args.scale:g}x: {len(curve_ids)} curves, every tenor")
    print("faults: " + ", ".join(f"{n} {kind}s" for kind, n in sorted(saboteur.done.items())))
    print(
        f"feed: {stats['messages']} messages, {stats['reconnects']} reconnects, "
        f"{stats['backfilled']} backfilled, {stats['conflated']} conflated"
    )
    print(
        f"delivered: {figures['checked']} values over {figures['tenors']} tenors; "
        f"missing {figures['missing']}, repeated {figures['repeated']}, "
        f"never published {figures['extra']}"
    )
    for name, series in (("RSS", rss), ("RSS less the values kept for the check", native)):
        print(
            f"memory, {name}: {series[0] / 1024:.1f} MiB at start, "
            f"{series[third] / 1024:.1f} MiB after a third, {series[-1] / 1024:.1f} MiB at the end"
        )
    # The first third warms up (connections, pools, the first backfills);
    # after it, memory that still grows is memory kept.
    minutes = (samples[-1].seconds - samples[third].seconds) / 60
    growth = (native[-1] - native[third]) / 1024 / max(minutes, 1e-9)
    print(f"  growth after the first third: {growth:+.2f} MiB a minute")
    print(f"OS threads: {threads[0]} at start, {min(threads)}-{max(threads)}, {threads[-1]} at end")
    most = max(samples, key=lambda s: s.threads.total()).threads
    print(
        "  by name at their most: " + ", ".join(f"{n} {name}" for name, n in sorted(most.items()))
    )
    print(f"live connections left open: {left_open}")
    lost = figures["missing"] - stats["conflated"]
    delivered_once = lost <= 0 and not figures["repeated"] and not figures["extra"]
    # Flat: after warming up, memory grows by less than the allocator's
    # noise, and the threads are the runtime's, with at most the one
    # blocking-pool thread tokio keeps for 10 s after its last use. Shorter
    # runs are still warming up after their first third.
    judged = minutes >= MIN_MINUTES_JUDGED
    threads_flat = max(threads) <= threads[0] + 1 and threads[-1] <= threads[0] + 1
    verdicts = {
        "every published value delivered exactly once": delivered_once,
        "no connection left open": not left_open,
        "thread count flat": threads_flat,
    }
    if judged:
        flat = f"memory flat (under {MAX_GROWTH_MIB_A_MINUTE} MiB a minute after warming up)"
        verdicts[flat] = growth <= MAX_GROWTH_MIB_A_MINUTE
    else:
        print(
            f"(memory not judged: the run after its first third is under {MIN_MINUTES_JUDGED} min)"
        )
    for verdict, held in verdicts.items():
        print(f"{'OK' if held else 'FAILED'}: {verdict}")
    return 0 if all(verdicts.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
