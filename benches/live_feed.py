"""Live feed benchmark: throughput into Python, the client's CPU time per row,
and publish-to-callback latency.

Against the emulator's firehose (every subscribed tenor republished as fast
as the emulator can), served from a process of its own so that this
process's CPU time is the client's alone, in one run:

- the limit: the emulator's own rate, read by a Rust client that only counts
  frames (``marketcurves.testing.probe_live``);
- the decoding reader: the same Rust client reading each frame with the
  client's frame reader (``probe_live(decode=True)``), and nothing else: no
  book, queue or Python behind it. Its CPU time per frame is the yardstick;
- the baseline: plain Python as a user would write it, ``websockets`` + ``json``;
- marketcurves: ticks/s through ``for tick in feed``, rows/s through
  ``feed.batches()``, and the CPU time of this process (every thread:
  the runtime's and Python's) per row ``batches()`` delivered.

The target is a ratio that does not depend on the number of cores, where
rates do (the emulator's writer shares the machine's cores with the reader):
``batches()``'s CPU time per row within 1.5 times the decoding reader's CPU
time per frame.

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
import os
import statistics
import time
from collections import Counter
from multiprocessing.managers import BaseManager
from pathlib import Path
from typing import Any, NamedTuple

from websockets.sync.client import connect

import marketcurves as mc
from marketcurves.testing import Emulator, probe_live

LIVE_PATH = "/v2/customer/socket/websocket"


def licensed_curves(client: mc.Client, count: int) -> list[str]:
    curves = [c for c in client.catalogue() if c.quotation != "Sales"]
    return [c.id for c in curves[:count]]


class CpuTime:
    """CPU time (user + system) this process spends in a ``with`` block: the
    sum over its threads, whatever the number of cores; by thread name too,
    for the threads alive at both ends (Linux only)."""

    seconds: float
    by_thread: Counter[str]

    def __enter__(self) -> CpuTime:
        self._threads = thread_cpu()
        self._began = time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.process_time() - self._began
        now = thread_cpu()
        self.by_thread = Counter()
        for (tid, name), seconds in now.items():
            self.by_thread[name] += seconds - self._threads.get((tid, name), 0.0)


def thread_cpu() -> dict[tuple[int, str], float]:
    """Each thread's CPU time so far, by (id, name), from /proc."""
    tasks = Path("/proc/self/task")
    if not tasks.is_dir():
        return {}
    tick = os.sysconf("SC_CLK_TCK")
    times = {}
    for task in tasks.iterdir():
        try:
            stat = (task / "stat").read_text()
        except FileNotFoundError:  # ended meanwhile
            continue
        # The name, in parentheses, may hold spaces: fields follow its end.
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        utime, stime = int(fields[11]), int(fields[12])
        times[int(task.name), name] = (utime + stime) / tick
    return times


def plain_python_rate(live_url: str, token: str, curve_ids: list[str], seconds: float) -> float:
    """Messages per second read and decoded by websockets + json."""
    with connect(live_url + LIVE_PATH, max_size=None) as socket:
        socket.send(json.dumps({"type": "auth", "payload": token}))
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


class Batches(NamedTuple):
    rows_per_second: float
    #: This process's CPU time per row delivered, after the warm-up.
    cpu_per_row: float
    cpu_by_thread: Counter[str]
    #: The share of the frames received after the warm-up that were
    #: conflated while the consumer fell behind.
    conflated: float


#: Read before the measure: while a feed subscribes, one curve after the
#: other, the firehose fills its queue with no one reading (conflating some).
WARM_UP = 1.0


def batches_run(client: mc.Client, curve_ids: list[str], seconds: float) -> Batches:
    with client.live(backfill=False) as feed:
        for curve_id in curve_ids:
            feed.subscribe(curve_id, "*")
        batches = feed.batches(max_rows=20_000, timeout=0.05)
        warm_until = time.perf_counter() + WARM_UP
        for _batch in batches:
            if time.perf_counter() > warm_until:
                break
        before = feed.stats()
        rows = 0
        with CpuTime() as cpu:
            began = time.perf_counter()
            deadline = began + seconds
            for batch in batches:
                rows += batch.num_rows
                if time.perf_counter() > deadline:
                    break
            rate = rows / (time.perf_counter() - began)
        after = feed.stats()
    messages = after["messages"] - before["messages"]
    conflated = (after["conflated"] - before["conflated"]) / max(1, messages)
    return Batches(rate, cpu.seconds / rows, cpu.by_thread, conflated)


class Decoding(NamedTuple):
    frames_per_second: float
    cpu_per_frame: float
    cpu_by_thread: Counter[str]


def decoding_run(
    live_url: str, token: str, subscriptions: list[tuple[str, str]], seconds: float
) -> Decoding:
    with CpuTime() as cpu:
        rate = probe_live(live_url, token, subscriptions, seconds, decode=True)
    # The probe reads for `seconds` from its subscriptions on, and overshoots
    # by at most the few hundred frames between its looks at the clock.
    frames = rate * seconds
    return Decoding(rate, cpu.seconds / frames, cpu.by_thread)


class EmulatorHost:
    """The emulator, served from a process of its own: the few of its
    controls the throughput run uses."""

    def __init__(self) -> None:
        self.emulator = Emulator(seed=0, time_scale=1.0)

    def addresses(self) -> tuple[str, str, dict[str, str]]:
        return self.emulator.base_url, self.emulator.live_url, self.emulator.credentials

    def token(self) -> str:
        return self.emulator.token()

    def firehose(self, enabled: bool) -> None:
        self.emulator.firehose(enabled)

    def stop(self) -> None:
        self.emulator.stop()


class Host(BaseManager):
    pass


Host.register("EmulatorHost", EmulatorHost)


def throughput(seconds: float) -> dict[str, Any]:
    with Host(ctx=multiprocessing.get_context("spawn")) as host:
        emulator = host.EmulatorHost()  # type: ignore[attr-defined]
        base_url, live_url, credentials = emulator.addresses()
        client = mc.Client(base_url=base_url, live_url=live_url, **credentials)
        curve_ids = licensed_curves(client, 10)
        emulator.firehose(True)
        token = emulator.token()
        subscriptions = [(c, "*") for c in curve_ids]
        probe = probe_live(live_url, token, subscriptions, seconds)
        decoding = decoding_run(live_url, token, subscriptions, seconds)
        batches = batches_run(client, curve_ids, seconds)
        figures = {
            "limit": probe,
            "decoding": decoding,
            "baseline": plain_python_rate(live_url, token, curve_ids, seconds),
            "iterator": iterator_rate(client, curve_ids, seconds),
            "batches": batches,
        }
        client.close()
        emulator.stop()
        return figures


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
            at = dt.datetime.fromisoformat(price["generatedOn"]).replace(tzinfo=dt.UTC)
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
        curve_ids = licensed_curves(emulator.client(), 10)
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
    limit, baseline = rates["limit"], rates["baseline"]
    decoding: Decoding = rates["decoding"]
    batches: Batches = rates["batches"]
    print(
        f"firehose, {args.seconds:.0f} s per reader, 10 curves x '*', emulator in a process of its own:"
    )
    print(f"  limit (Rust reader, counting)   {limit:>12,.0f} msg/s")
    print(
        f"  Rust reader, decoding each      {decoding.frames_per_second:>12,.0f} msg/s, "
        f"{decoding.cpu_per_frame * 1e9:,.0f} ns CPU per frame"
    )
    print(f"  baseline (websockets + json)    {baseline:>12,.0f} msg/s")
    print(f"  marketcurves iterator           {rates['iterator']:>12,.0f} ticks/s")
    print(
        f"  marketcurves batches()          {batches.rows_per_second:>12,.0f} rows/s, "
        f"{batches.cpu_per_row * 1e9:,.0f} ns CPU per row"
    )
    print(
        f"  batches() CPU per row / decoding reader CPU per frame: "
        f"{batches.cpu_per_row / decoding.cpu_per_frame:.2f} (target <= 1.5)"
    )
    print(
        f"  batches(): {batches.rows_per_second / baseline:.1f}x the baseline (target >= 10), "
        f"{limit / batches.rows_per_second:.2f}x below the limit; "
        f"{batches.conflated:.1%} of frames conflated while the consumer lagged"
    )
    print(f"  decoding alone: {limit / decoding.frames_per_second:.2f}x below the limit")
    print(f"  iterator: {rates['iterator'] / baseline:.1f}x the baseline (target >= 3)")
    for name, run in (("decoding reader", decoding), ("batches()", batches)):
        threads = ", ".join(
            f"{thread} {cpu:.2f} s"
            for thread, cpu in run.cpu_by_thread.most_common()
            if cpu >= 0.01
        )
        print(f"  CPU by thread, {name}: {threads}")

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
