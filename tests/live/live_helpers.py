"""Helpers of the live feed suite: opening a feed with keep-alive scaled to
the emulator's clock, collecting ticks, and checking what was delivered
against what the emulator published."""

from __future__ import annotations

import datetime as dt
import itertools
import threading
import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

import requests

import marketcurves as mc
from marketcurves.testing import Emulator

UTC = dt.UTC
#: A day before LIVE_START (support.py) whose intraday values show each curve's granularity.
PROBE_DAY = "2025-06-10"


def live_options(scale: float) -> dict[str, Any]:
    """``Client.live`` keep-alive settings for an emulator running ``scale``
    times real speed: pings after 30 emulated seconds of quiet, as a client
    of the real service would. A stopped clock never idles a connection out."""
    if scale <= 0:
        return {}
    return {
        "ping_interval": 30.0 / scale,
        "pong_timeout": max(0.5, 20.0 / scale),
        "reconnect_max": 0.5,
    }


def millis(when: dt.datetime) -> dt.datetime:
    """``when`` truncated to whole milliseconds (interface, live rule 5)."""
    return when.replace(microsecond=when.microsecond - when.microsecond % 1000)


class Curves:
    """Curves of the seed-0 world, picked by what the live tests need."""

    def __init__(self, emulator: Emulator) -> None:
        session = requests.Session()
        headers = {"Authorization": f"Bearer {emulator.token()}"}

        def get(path: str, **params: Any) -> Any:
            response = session.get(
                emulator.base_url + path, params=params, headers=headers, timeout=30
            )
            response.raise_for_status()
            return response.json()

        catalogue: list[dict[str, Any]] = []
        page = 1
        while True:
            body = get("/catalogue", page=page, pageSize=500)
            catalogue.extend(body["items"])
            if body["next"] is None:
                break
            page += 1

        def per_day(curve: dict[str, Any]) -> int:
            tenor = quote(curve["contracts"][-1], safe="")
            path = f"/historical/intraday/{curve['id']}/{tenor}"
            body = get(path, startDate=PROBE_DAY, endDate=PROBE_DAY, pageSize=1000)
            return len(body["items"]) + (1000 if body["next"] else 0)

        licensed = [c for c in catalogue if c["quotation"] != "Sales"]
        continuous = [c for c in licensed if "C 00" in c["contracts"]]
        self.fast = next(c for c in continuous if per_day(c) >= 1440)
        self.slow = next(c for c in licensed if 0 < per_day(c) <= 96)
        self.sales = next(c for c in catalogue if c["quotation"] == "Sales")
        session.close()

    @staticmethod
    def calendar_tenors(curve: dict[str, Any]) -> list[str]:
        return [t for t in curve["contracts"] if not t.startswith("C ")]


def open_feed(emulator: Emulator, **kwargs: Any) -> mc.LiveFeed:
    """A live feed of the demo account with keep-alive scaled to the clock."""
    client_args = {k: kwargs.pop(k) for k in ("token", "token_provider") if k in kwargs}
    client = emulator.client(**client_args)
    options = {**live_options(emulator.time_scale), **kwargs}
    return client.live(**options)


def collect(feed: mc.LiveFeed, seconds: float) -> list[mc.Tick]:
    """Every tick the feed delivers in the next ``seconds`` of real time."""
    ticks: list[mc.Tick] = []
    deadline = threading.Event()
    timer = threading.Timer(seconds, deadline.set)
    timer.start()
    try:
        while not deadline.is_set():
            tick = feed.next(timeout=0.05)
            if tick is not None:
                ticks.append(tick)
    finally:
        timer.cancel()
    return ticks


def by_tenor(ticks: Iterable[mc.Tick]) -> dict[tuple[str, str], list[mc.Tick]]:
    grouped: dict[tuple[str, str], list[mc.Tick]] = defaultdict(list)
    for tick in ticks:
        grouped[tick.curve_id, tick.tenor].append(tick)
    return dict(grouped)


def assert_strictly_increasing(ticks: Iterable[mc.Tick]) -> None:
    for key, series in by_tenor(ticks).items():
        times = [millis(t.generated_on) for t in series]
        repeats = [(a, b) for a, b in itertools.pairwise(times) if not a < b]
        assert not repeats, f"{key}: values not strictly later than the one before: {repeats[:3]}"


def assert_delivered_exactly_published(emulator: Emulator, ticks: list[mc.Tick]) -> int:
    """Per curve and tenor, the values delivered are every value the emulator
    published from the first delivered one to the last, each once, in order
    (times compared truncated to milliseconds). Returns how many were checked."""
    assert_strictly_increasing(ticks)
    checked = 0
    for (curve_id, tenor), series in by_tenor(ticks).items():
        first, last = series[0].generated_on, series[-1].generated_on
        # The feed truncates to milliseconds: the published instants of the
        # first and last values may lie up to a millisecond later.
        published = emulator.published(
            curve_id,
            tenor,
            start=first - dt.timedelta(milliseconds=1),
            end=last + dt.timedelta(milliseconds=1),
        )
        expected = [(millis(at), price) for at, price in published if millis(at) >= millis(first)]
        expected = [(at, price) for at, price in expected if at <= millis(last)]
        delivered = [(millis(t.generated_on), t.price) for t in series]
        missing = sorted(set(expected) - set(delivered))
        extra = sorted(set(delivered) - set(expected))
        assert not missing, (
            f"{tenor}: {len(missing)} published values never delivered: {missing[:3]}"
        )
        assert not extra, f"{tenor}: {len(extra)} delivered values never published: {extra[:3]}"
        assert delivered == expected
        checked += len(delivered)
    return checked


def live_threads() -> list[str]:
    """Names of the threads the live feed starts (callback threads)."""
    return [t.name for t in threading.enumerate() if t.name.startswith("marketcurves-live")]


def wait_connected(feed: mc.LiveFeed, seconds: float = 5.0) -> None:
    """Waits until the feed is connected (after a reconnect, say)."""
    deadline = time.monotonic() + seconds
    while not feed.stats()["connected"]:
        assert time.monotonic() < deadline, "the feed did not connect"
        time.sleep(0.01)


class TokenGate:
    """A token source that can hold a reconnect at its token request, so that
    a test can move the clock while the feed is away."""

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        self.open = threading.Event()
        self.open.set()
        self.asked = threading.Event()
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        self.asked.set()
        assert self.open.wait(10), "the test never let the reconnect go on"
        return self.emulator.token()

    def drop_and_advance(self, seconds: float) -> None:
        """Drops the feed's connection and moves the clock by ``seconds``
        before the feed can reconnect."""
        self.open.clear()
        self.asked.clear()
        self.emulator.drop_live_connections()
        assert self.asked.wait(5), "the feed did not try to reconnect"
        self.emulator.advance(seconds)
        self.open.set()


def missed_values(
    emulator: Emulator, tenors: Iterable[tuple[str, str]], before: dt.datetime, after: dt.datetime
) -> dict[tuple[str, str], list[tuple[dt.datetime, float]]]:
    """Per tenor that published in ``(before, after]``, those values (times
    truncated to milliseconds): what a feed away meanwhile must backfill."""
    missed = {}
    for key in tenors:
        values = [
            (millis(v.generated_on), v.price)
            for v in emulator.published(*key, start=before, end=after)
            if millis(v.generated_on) > millis(before)
        ]
        if values:
            missed[key] = values
    return missed


def backfill_requests(
    emulator: Emulator, changed: Iterable[tuple[str, str]], before: dt.datetime, after: dt.datetime
) -> int:
    """The REST requests a reconnect at ``after`` needs for the tenors that
    published in ``(before, after]``, each delivered up to its last value at
    ``before``, all within ``after``'s UTC day. The emulator lists a day
    oldest first, 100 values a page. Per curve: the first tenor reads page 1
    and, if there are more, the pages from the last back to the one holding
    its last delivered value; each other tenor starts at that last page
    (the tenors of a curve publish together) and reads back as far."""
    midnight = after.replace(hour=0, minute=0, second=0, microsecond=0)
    pages_of_curve: dict[str, set[tuple[int, int]]] = defaultdict(set)
    tenors_of_curve: dict[str, int] = defaultdict(int)
    for curve_id, tenor in changed:
        by_then = len(emulator.published(curve_id, tenor, start=midnight, end=after))
        delivered = len(emulator.published(curve_id, tenor, start=midnight, end=before))
        assert delivered >= 1, "the last delivered value is of the same day"
        last_page, mark_page = -(-by_then // 100), -(-delivered // 100)
        pages_of_curve[curve_id].add((last_page, mark_page))
        tenors_of_curve[curve_id] += 1
    total = 0
    for curve_id, shapes in pages_of_curve.items():
        assert len(shapes) == 1, f"the tenors of {curve_id} publish together: {shapes}"
        ((last_page, mark_page),) = shapes
        first = 1 if last_page == 1 else 1 + last_page - max(mark_page, 2) + 1
        sibling = last_page - mark_page + 1
        total += first + (tenors_of_curve[curve_id] - 1) * sibling
    return total
