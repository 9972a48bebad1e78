"""A replay's time: at full speed the time of the last value handed out,
never further, whatever the read-ahead holds and however the feed is read;
paced, a clock that starts with the first subscription; every value the
source holds delivered or counted."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time

import pytest
from replay_helpers import updates_after
from test_cli_replay import _cli

import marketcurves as mc

#: Updates of the first tenor handed out before the second is subscribed.
AFTER = 3


def _lake(days_lake):
    return days_lake["em"], days_lake["lake"], days_lake["curve_id"], days_lake["rows"]


def _expected_after(rows, tenors, at):
    """The updates of `tenors` after `at`, in replay order."""
    chosen = [x for x in updates_after(rows, at) if x[0] in tenors]
    return sorted(chosen, key=lambda x: (x[1], mc.Tenor.parse(x[0])))


def _snapshot_of(rows, tenor, at):
    before = [r for r in rows if r["tenor"] == tenor and r["generated_on"] <= at]
    last = max(before, key=lambda r: r["generated_on"])
    return (tenor, last["generated_on"], last["price"])


def _check(rows, one, other, at, now, later):
    """What a subscription to `other` made once `one`'s update at `at` was
    handed out must give: its snapshot as of `at`, then every later value
    of both tenors in time order."""
    assert now == at, "the replay's time is the last value handed out"
    snapshots = [(t.tenor, t.generated_on, t.price) for t in later if t.source == "snapshot"]
    assert snapshots == [_snapshot_of(rows, other, at)]
    assert later[0].source == "snapshot"
    updates = [(t.tenor, t.generated_on, t.price) for t in later if t.source == "update"]
    assert updates == _expected_after(rows, {one, other}, at)


def test_the_iterator_sees_nothing_ahead(days_lake):
    em, lake, curve_id, rows = _lake(days_lake)
    first, last = days_lake["start"], days_lake["end"]
    one, other = days_lake["tenors"]
    with em.client() as client, client.replay(first, last, source=lake) as feed:
        feed.subscribe(curve_id, one)
        handed, at, now = 0, None, None
        later = []
        for tick in feed:
            if at is not None:
                later.append(tick)
            elif tick.source == "update":
                handed += 1
                if handed == AFTER:
                    at, now = tick.generated_on, feed.now
                    feed.subscribe(curve_id, other)
    _check(rows, one, other, at, now, later)


class _Row:
    """A batch's row read as a tick."""

    def __init__(self, row):
        self.tenor, self.generated_on = row["tenor"], row["generated_on"]
        self.price, self.source = row["price"], row["source"]


def test_batches_see_nothing_ahead(days_lake):
    em, lake, curve_id, rows = _lake(days_lake)
    first, last = days_lake["start"], days_lake["end"]
    one, other = days_lake["tenors"]
    with em.client() as client, client.replay(first, last, source=lake) as feed:
        feed.subscribe(curve_id, one)
        at, now = None, None
        later = []
        for batch in feed.batches(max_rows=2, timeout=None):
            if at is not None:
                later.extend(_Row(r) for r in batch.to_pylist())
                continue
            updates = [r for r in batch.to_pylist() if r["source"] == "update"]
            if updates:
                at, now = updates[-1]["generated_on"], feed.now
                feed.subscribe(curve_id, other)
    _check(rows, one, other, at, now, later)


def test_a_callback_sees_nothing_ahead(days_lake):
    em, lake, curve_id, rows = _lake(days_lake)
    first, last = days_lake["start"], days_lake["end"]
    one, other = days_lake["tenors"]
    seen: dict = {"handed": 0, "at": None, "now": None, "later": []}

    def on_price(tick):
        if seen["at"] is not None:
            seen["later"].append(tick)
        elif tick.source == "update":
            seen["handed"] += 1
            if seen["handed"] == AFTER:
                seen["at"], seen["now"] = tick.generated_on, feed.now
                feed.subscribe(curve_id, other)

    with em.client() as client:
        feed = client.replay(first, last, source=lake, on_price=on_price)
        with feed:
            feed.subscribe(curve_id, one)
            assert feed.wait(timeout=60)
    _check(rows, one, other, seen["at"], seen["now"], seen["later"])


def test_async_iteration_sees_nothing_ahead(days_lake):
    em, lake, curve_id, rows = _lake(days_lake)
    first, last = days_lake["start"], days_lake["end"]
    one, other = days_lake["tenors"]

    async def run(client):
        async with client.replay(first, last, source=lake) as feed:
            await feed.subscribe_async(curve_id, one)
            handed, at, now = 0, None, None
            later = []
            async for tick in feed:
                if at is not None:
                    later.append(tick)
                elif tick.source == "update":
                    handed += 1
                    if handed == AFTER:
                        at, now = tick.generated_on, feed.now
                        await feed.subscribe_async(curve_id, other)
            return at, now, later

    with em.client() as client:
        at, now, later = asyncio.run(run(client))
    _check(rows, one, other, at, now, later)


def test_subscribing_and_unsubscribing_mid_replay_always_works(days_lake):
    em, lake, curve_id, rows = _lake(days_lake)
    first, last = days_lake["start"], days_lake["end"]
    one, other = days_lake["tenors"]
    with em.client() as client, client.replay(first, last, source=lake) as feed:
        feed.subscribe(curve_id, one)
        ticks = iter(feed)
        tick = next(t for t in ticks if t.source == "update")
        # Time for the read-ahead to hold every value up to the end.
        time.sleep(0.5)
        feed.subscribe(curve_id, other)
        feed.unsubscribe(curve_id, one)
        later = list(ticks)
    at = tick.generated_on
    assert [t.tenor for t in later if t.source == "snapshot"] == [other]
    got = [(t.tenor, t.generated_on, t.price) for t in later if t.source == "update"]
    assert got == _expected_after(rows, {other}, at)


def test_a_paced_replay_starts_its_clock_with_the_first_subscription(days_lake):
    em, lake, curve_id, rows = _lake(days_lake)
    start, last = days_lake["start"], days_lake["end"]
    one, _ = days_lake["tenors"]
    # The whole span in a tenth of a second: the clock would be at the end
    # long before the subscription, had it started with the replay.
    speed = (last - start).total_seconds() / 0.1
    with em.client() as client:
        feed = client.replay(start, last, source=lake, speed=speed, conflate=False)
        with feed:
            assert feed.now == start
            time.sleep(0.5)
            assert feed.now == start
            feed.subscribe(curve_id, one)
            ticks = list(feed)
    assert (ticks[0].tenor, ticks[0].generated_on, ticks[0].price) == _snapshot_of(rows, one, start)
    got = [(t.tenor, t.generated_on, t.price) for t in ticks if t.source == "update"]
    assert got == _expected_after(rows, {one}, start)


def test_a_paced_replays_first_subscription_takes_every_value_from_the_start(days_lake):
    em, lake, curve_id, rows = _lake(days_lake)
    # A value a millisecond after the start: at 1e8 times real time, the
    # clock passes it a ten-billionth of a second after it starts.
    first, last = days_lake["start"], days_lake["end"]
    start = first - dt.timedelta(milliseconds=1)
    with em.client() as client:
        for conflate in (False, True):
            with client.replay(start, last, source=lake, speed=1e8, conflate=conflate) as feed:
                feed.subscribe(curve_id, "*")
                ticks = list(feed)
                conflated = feed.stats()["conflated"]
            got = [(t.tenor, t.generated_on, t.price) for t in ticks if t.source == "update"]
            expected = _expected_after(rows, set(days_lake["tenors"]), start)
            assert expected[0][1] == first
            if conflate:
                assert len(ticks) + conflated == len(days_lake["tenors"]) + len(expected)
            else:
                assert got == expected


# Paced over the lake's three days: 2.6 s of real time a run at 1e5.
@pytest.mark.parametrize("speed", ["max", 1e5, 1e6, 1e8])
def test_every_value_is_delivered_or_counted_as_conflated(days_lake, speed):
    em, lake, curve_id, rows = _lake(days_lake)
    start, end = days_lake["start"], days_lake["end"]
    expected_updates = sorted(
        (r["tenor"], r["generated_on"], r["price"])
        for r in rows
        if start < r["generated_on"] <= end
    )
    tenors = sorted({r["tenor"] for r in rows})
    with em.client() as client:
        for conflate in [False, True] if speed != "max" else [None]:
            options = {} if conflate is None else {"conflate": conflate}
            with client.replay(
                start, end, source=lake, speed=speed, queue_size=4, **options
            ) as feed:
                feed.subscribe(curve_id, "*")
                delivered = []
                for tick in feed:
                    delivered.append(tick)
                    if len(delivered) % 50 == 0:
                        time.sleep(0.001)  # a consumer slower than the pace
                conflated = feed.stats()["conflated"]
            updates = [
                (t.tenor, t.generated_on, t.price) for t in delivered if t.source == "update"
            ]
            snapshots = [t for t in delivered if t.source == "snapshot"]
            if conflate:
                assert len(delivered) + conflated == len(tenors) + len(expected_updates)
                assert set(updates) <= set(expected_updates)
            else:
                assert conflated == 0
                assert len(snapshots) == len(tenors)
                assert sorted(updates) == expected_updates


def test_the_cli_speed_gives_the_librarys_values(days_lake):
    em, lake, curve_id, _ = _lake(days_lake)
    start, last = days_lake["start"], days_lake["end"]
    args = ["--source", str(lake), "--curve", curve_id, "--start", start.isoformat()]
    args += ["--end", last.isoformat(), "--speed", "1e8", "--format", "ndjson"]
    result = _cli(args, em)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    with em.client() as client, client.replay(start, last, source=lake) as feed:
        feed.subscribe(curve_id, "*")
        expected = [(t.tenor, t.price, t.source) for t in feed]
    assert [(x["tenor"], x["price"], x["source"]) for x in lines] == expected != []
