"""``Client.replay`` of a recorded lake and of the service, end to end: the
live feed's class and surface, snapshots at the replay's time, every later
value in time order, pacing on a virtual clock, and bad input refused."""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import time

import pytest
from replay_helpers import updates_after

import marketcurves as mc


def _bounds(rows):
    times = sorted(r["generated_on"] for r in rows)
    return times[0], times[-1]


def test_a_replay_of_the_lake_is_the_recording(recorded):
    em, lake, curve, rows = recorded["em"], recorded["lake"], recorded["curve"], recorded["rows"]
    first, last = _bounds(rows)
    start = first + (last - first) / 3
    with em.client() as client, client.replay(start, last, source=lake) as feed:
        assert isinstance(feed, mc.LiveFeed)
        assert feed.now == start
        feed.subscribe(curve.id, "*")
        ticks = list(feed)
        assert feed.now == last
        with pytest.raises(mc.MarketCurvesError, match="for a replay at its end"):
            feed.subscribe(curve.id, "*")
    snapshots = [t for t in ticks if t.source == "snapshot"]
    updates = [t for t in ticks if t.source == "update"]
    assert updates and snapshots and ticks[: len(snapshots)] == snapshots
    expected = updates_after(rows, start)
    assert sorted((t.tenor, t.generated_on, t.price) for t in updates) == expected
    # In time order, ties by curve then tenor: the same on every run.
    order = [(t.generated_on, mc.Tenor.parse(t.tenor)) for t in updates]
    assert order == sorted(order)
    # A snapshot per tenor: its last value at or before the start.
    for snapshot in snapshots:
        before = [r for r in rows if r["tenor"] == snapshot.tenor and r["generated_on"] <= start]
        last_one = max(before, key=lambda r: r["generated_on"])
        assert (snapshot.generated_on, snapshot.price) == (
            last_one["generated_on"],
            last_one["price"],
        )
    # Ticks hold no Python object: the cyclic collector need not visit
    # the millions a replay makes.
    assert not any(gc.is_tracked(t) for t in ticks)


def test_a_replay_of_the_service_delivers_the_same_values(recorded):
    em, lake, curve, rows = recorded["em"], recorded["lake"], recorded["curve"], recorded["rows"]
    first, last = _bounds(rows)
    start, end = first + (last - first) / 3, last + dt.timedelta(seconds=1)
    with em.client() as client:
        with client.replay(start, end, source=lake) as feed:
            feed.subscribe(curve.id, "*")
            from_lake = [t for t in feed if t.source == "update"]
        with client.replay(start, end) as feed:
            feed.subscribe(curve.id, "*")
            from_service = [t for t in feed if t.source == "update"]

    def by_ms(ticks):
        return [
            (
                t.tenor,
                t.generated_on.replace(microsecond=t.generated_on.microsecond // 1000 * 1000),
                t.price,
            )
            for t in ticks
        ]

    assert by_ms(from_service) == by_ms(from_lake) != []


def test_subscriptions_take_effect_at_the_replays_time(recorded):
    em, lake, curve, rows = recorded["em"], recorded["lake"], recorded["curve"], recorded["rows"]
    first, last = _bounds(rows)
    tenors = sorted({r["tenor"] for r in rows if not r["tenor"].startswith("C ")})
    one, other = tenors[0], tenors[1]
    # Paced, so that the replay is still under way when the consumer acts.
    speed = (last - first).total_seconds() / 2
    with em.client() as client, client.replay(first, last, source=lake, speed=speed) as feed:
        feed.subscribe(curve.id, one)
        seen = []
        for tick in feed:
            seen.append(tick)
            if len(seen) == 1:
                at = feed.now
                feed.subscribe(curve.id, other)
                feed.unsubscribe(curve.id, one)
    assert [(t.tenor, t.source) for t in seen[:1]] == [(one, "snapshot")]
    later = seen[1:]
    snapshot = [t for t in later if t.source == "snapshot"]
    assert [t.tenor for t in snapshot] == [other]
    assert snapshot[0].generated_on <= at
    # Ticks of `one` already queued when it was unsubscribed may still come;
    # every value of `other` after the subscription does.
    assert [t for t in later if t.tenor == other and t.source == "update"] == [
        t for t in later if t.tenor == other and t.source == "update" and t.generated_on > at
    ]
    expected = [x for x in updates_after(rows, at) if x[0] == other]
    got = [
        (t.tenor, t.generated_on, t.price)
        for t in later
        if t.tenor == other and t.source == "update"
    ]
    assert got == expected


def test_paced_replay_follows_a_virtual_clock(recorded):
    em, lake, curve, rows = recorded["em"], recorded["lake"], recorded["curve"], recorded["rows"]
    first, last = _bounds(rows)
    span = (last - first).total_seconds()
    speed = span / 1.5
    with em.client() as client, client.replay(first, last, source=lake, speed=speed) as feed:
        started = time.monotonic()
        feed.subscribe(curve.id, "*")
        count = sum(1 for _ in feed)
        took = time.monotonic() - started
    assert count > 0
    assert took >= 1.0, "values wait for their time"


def test_batches_and_async_iteration_work_as_on_the_live_feed(recorded):
    em, lake, curve, rows = recorded["em"], recorded["lake"], recorded["curve"], recorded["rows"]
    first, last = _bounds(rows)
    with em.client() as client:
        with client.replay(first, last, source=lake) as feed:
            feed.subscribe(curve.id, "*")
            batched = sum(b.num_rows for b in feed.batches(max_rows=7, timeout=1))

        async def run() -> int:
            async with client.replay(first, last, source=lake) as feed:
                await feed.subscribe_async(curve.id, "*")
                return sum([1 async for _ in feed])

        assert asyncio.run(run()) == batched > 0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"start": "2025-06-11T10:00:00Z", "end": "2025-06-11T09:00:00Z"}, "before start"),
        ({"start": "0025-06-11T09:00:00Z"}, "at most"),
        ({"speed": 0}, "speed"),
        ({"speed": -2.0}, "speed"),
        ({"speed": "fast"}, "speed"),
        ({"conflate": True}, "conflate"),
        ({"source": "no/such/lake"}, "not a folder"),
        ({"source": "service", "storage_options": {"aws_region": "x"}}, "storage_options"),
        ({"storage_options": {"aws_region": "x"}}, "storage_options"),
    ],
)
def test_bad_input_is_refused_before_anything_is_read(recorded, arguments, message):
    em, lake = recorded["em"], recorded["lake"]
    call = {
        "start": "2025-06-11T09:00:00Z",
        "end": "2025-06-11T09:10:00Z",
        "source": str(lake),
        **arguments,
    }
    before = em.request_count()
    with em.client() as client, pytest.raises(mc.InvalidRequest, match=message):
        client.replay(**call)
    assert em.request_count() == before


@pytest.mark.parametrize("source", ["lake", "service"])
@pytest.mark.parametrize(
    ("tenor", "curve_id"),
    [("Jan 19", None), ("*", "00000000-0000-4000-8000-000000000000")],
    ids=["a-tenor-long-delivered", "a-curve-not-there"],
)
def test_a_strict_subscribe_refuses_what_the_source_does_not_hold(
    recorded, source, tenor, curve_id
):
    em, lake, curve, rows = recorded["em"], recorded["lake"], recorded["curve"], recorded["rows"]
    first, last = _bounds(rows)
    where = lake if source == "lake" else "service"
    curve_id = curve_id or curve.id
    with em.client() as client, client.replay(first, last, source=where) as feed:
        with pytest.raises(mc.InvalidRequest, match="deliver nothing") as refused:
            feed.subscribe(curve_id, tenor)
        assert "strict=False" in str(refused.value)
        assert feed.subscriptions == []
        # Told to, it subscribes, and the replay ends with nothing.
        feed.subscribe(curve_id, tenor, strict=False)
        assert list(feed) == []


@pytest.mark.parametrize("conflate", [True, False])
def test_a_slow_consumer_of_a_paced_replay_gets_the_newest_values_unless_told(recorded, conflate):
    em, lake, curve, rows = recorded["em"], recorded["lake"], recorded["curve"], recorded["rows"]
    first, last = _bounds(rows)
    speed = (last - first).total_seconds() / 0.5
    expected = updates_after(rows, first)
    with em.client() as client:
        feed = client.replay(first, last, source=lake, speed=speed, queue_size=4, conflate=conflate)
        with feed:
            feed.subscribe(curve.id, "*")
            time.sleep(1.5)  # the whole replay's time, with nothing read
            delivered = list(feed)
            conflated = feed.stats()["conflated"]
    updates = [t for t in delivered if t.source == "update"]
    if conflate:
        # Each tenor's newest value, once: what the live feed gives a slow consumer.
        assert conflated > 0
        tenors = [t.tenor for t in delivered]
        assert len(tenors) == len(set(tenors))
        newest = {tenor: (at, price) for tenor, at, price in expected}
        assert all(newest[t.tenor] == (t.generated_on, t.price) for t in updates)
    else:
        assert conflated == 0
        assert sorted((t.tenor, t.generated_on, t.price) for t in updates) == expected
