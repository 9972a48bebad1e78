"""Live feed benchmark: throughput into Python and publish-to-callback latency.

Against the emulator's firehose (every subscribed tenor republished as fast
as the emulator can), in one run:

- the limit: the emulator's own rate, read by a Rust client that only counts
  frames (``marketcurves.testing.probe_live``);
- the same Rust client reading each frame with the client's frame reader
  (``probe_live(decode=True)``): what decoding alone, with no book, queue or
  Python behind it, leaves of the limit;
- the baseline: plain Python as a user would write it, ``websockets`` + ``json``;
- marketcurves: ticks/s through ``for tick in feed``, rows/s through ``feed.batches()``.

Then latency from publication to the ``on_price`` callback, on an emulator
whose clock runs 600 times real speed with ordinary publication (so that the
feed's millisecond truncation of ``generatedOn`` is worth under 2 µs of real
time), against the same plain-Python reader run at the same time in a
process of its own.

Run on an optimised build: ``maturin build --release`` (what users install,
as the figures in benches/README.md are) or ``--profile release-fast`` (no link-time
optimisation: minutes quicker to build, rates here 5-10% lower), install
the wheel, then ``python benches/live_feed.py [--seconds 5]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import multiprocessing
import statistics
import time
from typing import Any

from websockets.sync.client import connect

import marketcurves as mc
from marketcurves.testing import Emulator, probe_live

LIVE_PATH = "/v2/customer/socket/websocket"


def licensed_curves(emulator: Emulator, count: int) -> list[str]:
    client = emulator.client()
    curves = [c for c in client.catalogue() if c.quotation != "Sales"]
    return [c.id for c in curves[:count]]


def plain_python_rate(emulator: Emulator, curve_ids: list[str], seconds: float) -> float:
    """Messages per second read and decoded by websockets + json."""
    with connect(emulator.live_url + LIVE_PATH, max_size=None) as socket:
        socket.send(json.dumps({"type": "auth", "payload": emulator.token()}))
        for curve_id in curve_ids:
            payload = {"id": curve_id, "tenor": "*", "type": "price"}
            socket.send(json.dumps({"type": "subscribe", "payload": payload}))
        count = 0
        began = time.perf_counter()
        deadline = began + seconds
        while (now := time.perf_counter()) < deadline:
            message = json.loads(socket.recv(timeout=1.0))
            if message["type"] == "price":
                price = message["payload"]
                dt.datetime.fromisoformat(price["generatedOn"])
                count += 1
        return count / (now - began)


def iterator_rate(client: mc.Client, curve_ids: list[str], seconds: float) -> float:
    with client.live(backfill=False) as feed:
        for curve_id in curve_ids:
            feed.subscribe(curve_id, "*")
        count = 0
        began = time.perf_counter()
        deadline = began + seconds
        for _tick in feed:
            count += 1
            if count % 1024 == 0 and time.perf_counter() > deadline:
                break
        return count / (time.perf_counter() - began)


def batches_rate(client: mc.Client, curve_ids: list[str], seconds: float) -> tuple[float, float]:
    """Rows per second through ``feed.batches()``, and the share of the
    frames received that were conflated while the consumer fell behind."""
    with client.live(backfill=False) as feed:
        for curve_id in curve_ids:
            feed.subscribe(curve_id, "*")
        rows = 0
        began = time.perf_counter()
        deadline = began + seconds
        for batch in feed.batches(max_rows=20_000, timeout=0.05):
            rows += batch.num_rows
            if time.perf_counter() > deadline:
                break
        rate = rows / (time.perf_counter() - began)
        stats = feed.stats()
        return rate, stats["conflated"] / max(1, stats["messages"])


def throughput(seconds: float) -> dict[str, float]:
    with Emulator(seed=0, time_scale=1.0) as emulator:
        curve_ids = licensed_curves(emulator, 10)
        emulator.firehose(True)
        client = emulator.client()
        token = emulator.token()
        subscriptions = [(c, "*") for c in curve_ids]
        probe = probe_live(emulator.live_url, token, subscriptions, seconds)
        decoding = probe_live(emulator.live_url, token, subscriptions, seconds, decode=True)
        batches, conflated = batches_rate(client, curve_ids, seconds)
        return {
            "limit": probe,
            "decoding": decoding,
            "baseline": plain_python_rate(emulator, curve_ids, seconds),
            "iterator": iterator_rate(client, curve_ids, seconds),
            "batches": batches,
            "batches_conflated": conflated,
        }


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class EmulatedClock:
    """The emulator's time read locally: its anchor plus scaled real time.

    ``time.perf_counter`` reads the system's monotonic clock, so a copy of
    this clock in another process agrees with it."""

    def __init__(self, scale: float, real: float, emulated: dt.datetime) -> None:
        self.scale, self.real, self.emulated = scale, real, emulated

    @classmethod
    def of(cls, emulator: Emulator) -> EmulatedClock:
        return cls(emulator.time_scale, time.perf_counter(), emulator.now())

    def now(self) -> dt.datetime:
        elapsed = (time.perf_counter() - self.real) * self.scale
        return self.emulated + dt.timedelta(seconds=elapsed)

    def real_delay(self, generated_on: dt.datetime) -> float:
        return (self.now() - generated_on).total_seconds() / self.scale


Arrivals = dict[tuple[str, str, dt.datetime], float]


def plain_reader(
    live_url: str,
    token: str,
    curve_ids: list[str],
    seconds: float,
    clock: EmulatedClock,
    subscribed: Any,
    results: Any,
) -> None:
    """The plain-Python reader of the latency run, in a process of its own so
    that neither reader waits for the other's GIL: records when each update
    arrived and how long after its publication."""
    arrivals: Arrivals = {}
    delays: list[float] = []
    with connect(live_url + LIVE_PATH) as socket:
        socket.send(json.dumps({"type": "auth", "payload": token}))
        for curve_id in curve_ids:
            payload = {"id": curve_id, "tenor": "*", "type": "price"}
            socket.send(json.dumps({"type": "subscribe", "payload": payload}))
        subscribed.set()
        deadline = time.perf_counter() + seconds
        snapshots = True
        # A ping every 30 emulated seconds, as any client of the feed must
        # send to outlive the 60-second idle drop.
        ping_every = 30 / clock.scale
        next_ping = time.perf_counter() + ping_every
        while (now := time.perf_counter()) < deadline:
            if now >= next_ping:
                socket.send(json.dumps({"type": "ping", "payload": {"at": now}}))
                next_ping = now + ping_every
            try:
                text = socket.recv(timeout=max(0.001, next_ping - now))
            except TimeoutError:
                continue
            message = json.loads(text)
            if message["type"] != "price":
                continue
            price = message["payload"]
            at = dt.datetime.fromisoformat(price["generatedOn"]).replace(tzinfo=dt.timezone.utc)
            delay = clock.real_delay(at)
            # Snapshots are old values; updates arrive as they are published.
            snapshots = snapshots and delay > 0.05
            if not snapshots:
                arrivals[price["id"], price["tenor"], at] = time.perf_counter()
                delays.append(delay)
    results.put((arrivals, delays))


def latency(seconds: float) -> dict[str, Any]:
    """Both readers on the same feed at once, each in its own process: each
    one's delay from the publication time, and what marketcurves adds to the
    plain reader for the same values (callback time less the plain reader's
    arrival time)."""
    scale = 600.0
    processes = multiprocessing.get_context("spawn")
    with Emulator(seed=0, time_scale=scale, start="2025-06-11T09:00:00Z") as emulator:
        curve_ids = licensed_curves(emulator, 10)
        clock = EmulatedClock.of(emulator)
        delays: list[float] = []
        ours: Arrivals = {}

        def on_price(tick: mc.Tick) -> None:
            if tick.source == "update":
                ours[tick.curve_id, tick.tenor, tick.generated_on] = time.perf_counter()
                delays.append(clock.real_delay(tick.generated_on))

        subscribed, results = processes.Event(), processes.Queue()
        args = (emulator.live_url, emulator.token(), curve_ids, seconds, clock, subscribed, results)
        reader = processes.Process(target=plain_reader, args=args)
        reader.start()
        subscribed.wait(30)
        client = emulator.client()
        with client.live(on_price=on_price, ping_interval=30 / scale) as feed:
            for curve_id in curve_ids:
                feed.subscribe(curve_id, "*")
            time.sleep(seconds)
        theirs, plain = results.get(timeout=30)
        reader.join()
    added = [ours[key] - theirs[key] for key in ours.keys() & theirs.keys()]
    return {"marketcurves": delays, "baseline": plain, "added": added}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    args = parser.parse_args()

    rates = throughput(args.seconds)
    print(f"firehose, {args.seconds:.0f} s per reader, 10 curves x '*':")
    print(f"  limit (Rust reader, counting)   {rates['limit']:>12,.0f} msg/s")
    print(f"  Rust reader, decoding each      {rates['decoding']:>12,.0f} msg/s")
    print(f"  baseline (websockets + json)    {rates['baseline']:>12,.0f} msg/s")
    print(f"  marketcurves iterator           {rates['iterator']:>12,.0f} ticks/s")
    print(f"  marketcurves batches()          {rates['batches']:>12,.0f} rows/s")
    print(
        f"  batches: {rates['limit'] / rates['batches']:.2f}x below the limit (target <= 1.5), "
        f"{rates['batches'] / rates['baseline']:.1f}x the baseline (target >= 10); "
        f"{rates['batches_conflated']:.1%} of frames conflated while the consumer lagged"
    )
    print(f"  decoding alone: {rates['limit'] / rates['decoding']:.2f}x below the limit")
    print(f"  iterator: {rates['iterator'] / rates['baseline']:.1f}x the baseline (target >= 3)")

    delays = latency(args.seconds)
    for name, values in delays.items():
        if not values:
            print(f"latency {name}: no samples")
            continue
        ms = [v * 1000 for v in values]
        what = {
            "marketcurves": "publish -> callback (marketcurves)",
            "baseline": "publish -> json.loads (baseline)",
            "added": "added by marketcurves (callback - plain arrival, same values)",
        }[name]
        print(
            f"latency {what}, {len(ms)} updates: median {statistics.median(ms):.3f} ms, "
            f"p99 {percentile(ms, 99):.3f} ms"
        )
    print("target: publish -> callback p99 under 2 ms (both readers share the publisher's delay)")


if __name__ == "__main__":
    main()
