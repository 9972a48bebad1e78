"""The forms of reading the feed (iterator, batches, callback, async), its
events and counters, a slow consumer, and a close that leaves nothing behind."""

from __future__ import annotations

import _thread
import asyncio
import datetime as dt
import logging
import threading
import time
import typing

import pyarrow as pa
import pytest
from live_helpers import (
    TokenGate,
    assert_delivered_exactly_published,
    assert_strictly_increasing,
    collect,
    live_options,
    live_threads,
    open_feed,
)

import marketcurves as mc
from marketcurves.testing import table_schema


def wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_iterating_yields_ticks_until_the_feed_is_closed(em, curves):
    feed = open_feed(em)
    feed.subscribe(curves.fast["id"], "*")
    threading.Timer(1.5, feed.close).start()
    ticks = list(feed)  # ends when closed
    assert ticks and all(isinstance(t, mc.Tick) for t in ticks)
    assert feed.closed
    assert "Tick(curve_id=" in repr(ticks[0])
    assert ticks[0] == ticks[0] and hash(ticks[0]) == hash(ticks[0])
    assert_delivered_exactly_published(em, ticks)


def test_batches_carry_the_design_schema(em, curves):
    curve = curves.fast
    with open_feed(em) as feed:
        feed.subscribe(curve["id"], "*")
        feed.subscribe(curve["id"], "C 00")
        batches = []
        for batch in feed.batches(max_rows=50, timeout=0.3):
            batches.append(batch)
            if sum(b.num_rows for b in batches) >= 120:
                break
    assert all(isinstance(b, pa.RecordBatch) for b in batches)
    assert all(0 < b.num_rows <= 50 for b in batches)
    schema = batches[0].schema
    assert schema.names == [
        "curve_id",
        "tenor",
        "tenor_kind",
        "tenor_start",
        "tenor_end",
        "generated_on",
        "price",
        "source",
    ]
    assert schema.field("generated_on").type == pa.timestamp("us", tz="UTC")
    assert schema.field("price").type == pa.float64()
    assert schema.field("tenor_start").type == pa.date32()
    table = pa.Table.from_batches(batches).to_pylist()
    kinds = {row["tenor"]: row["tenor_kind"] for row in table}
    assert kinds["C 00"] == "continuous"
    assert {row["source"] for row in table} <= {"snapshot", "update", "backfill"}
    for row in table:
        tenor = mc.Tenor.parse(row["tenor"])
        assert (row["tenor_start"], row["tenor_end"]) == (tenor.start, tenor.end)


def test_ctrl_c_ends_a_batch_at_once_and_its_rows_come_in_the_next(em, curves):
    interrupted_at: list[float] = []

    def interrupt() -> None:
        interrupted_at.append(time.monotonic())
        _thread.interrupt_main()

    with open_feed(em) as feed:
        feed.subscribe(curves.fast["id"], "*")  # its snapshots are queued on return
        timer = threading.Timer(0.5, interrupt)
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                next(feed.batches(max_rows=1_000_000, timeout=None))  # waits to be full
            ended = time.monotonic()
        finally:
            timer.cancel()
            timer.join()
        batch = next(feed.batches(max_rows=1_000_000, timeout=0.2))
        delivered = feed.stats()["ticks_delivered"]
    assert interrupted_at, "the batch ended before the interrupt"
    assert ended - interrupted_at[0] < 1.0
    # The rows the interrupted batch had gathered, snapshots first, are the
    # next batch's: none was lost, none delivered twice.
    assert batch.column("source")[0].as_py() == "snapshot"
    assert delivered == batch.num_rows


def test_callbacks_get_every_tick_and_their_errors_do_not_stop_the_feed(em, curves, caplog):
    seen: list[mc.Tick] = []
    calls = 0

    def on_price(tick: mc.Tick) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise RuntimeError("a bug in the user's code")
        seen.append(tick)

    caplog.set_level(logging.ERROR, logger="marketcurves")
    client = em.client()
    with client.live(on_price=on_price, **live_options(em.time_scale)) as feed:
        assert live_threads(), "callbacks run on a thread of the feed"
        feed.subscribe(curves.fast["id"], "*")
        assert wait_for(lambda: len(seen) > 40)
        with pytest.raises(mc.InvalidRequest, match="on_price"):
            iter(feed).__next__()
        assert feed.stats()["callback_errors"] == 1
    assert "a bug in the user's code" in caplog.text
    assert not live_threads(), "close() ends the callback thread"
    assert_strictly_increasing(seen)


def test_a_fatal_error_in_callback_mode_is_raised_by_wait(em, curves):
    client = em.client(token=em.token())
    feed = client.live(on_price=lambda tick: None, **live_options(em.time_scale))
    feed.subscribe(curves.fast["id"], "*")
    em.fail_next_auth(2)
    em.drop_live_connections()
    with pytest.raises(mc.AuthError):
        feed.wait(timeout=10)
    feed.close()
    assert not live_threads()


def test_async_with_and_async_for(em, curves):
    async def main() -> list[mc.Tick]:
        ticks: list[mc.Tick] = []
        async with open_feed(em) as feed:
            await feed.subscribe_async(curves.fast["id"], "*")
            async for tick in feed:
                ticks.append(tick)
                if len(ticks) == 60:
                    break
            await feed.unsubscribe_async(curves.fast["id"], "*")
        assert feed.closed
        return ticks

    ticks = asyncio.run(main())
    assert len(ticks) == 60
    assert_strictly_increasing(ticks)


def test_events_and_stats_report_reconnects_and_gaps(em, curves):
    events: list[dict] = []
    tokens = TokenGate(em)
    with open_feed(em, on_event=events.append, token_provider=tokens) as feed:
        feed.subscribe(curves.fast["id"], "*")
        collect(feed, 1.2)
        tokens.drop_and_advance(120)  # two minutes of values published meanwhile
        collect(feed, 1.5)
        stats = feed.stats()
    assert stats["reconnects"] == 1
    assert stats["gaps_filled"] >= 1
    assert stats["messages"] > 0
    assert stats["ticks_delivered"] > stats["backfilled"] > 0
    assert stats["subscriptions"] == 1
    assert isinstance(stats["last_message"], dt.datetime)
    # A fast curve's every tenor changed in two minutes: each took a request.
    assert stats["backfill_requests"] >= stats["gaps_filled"]
    assert stats["gaps_skipped"] == 0 and stats["backfill_failures"] == 0
    # Exactly the keys its type declares, each of the type it declares.
    hints = typing.get_type_hints(mc.live.LiveStats)
    assert set(stats) == set(hints)
    for key, value in stats.items():
        expected = bool if hints[key] is bool else int
        if key != "last_message":
            assert type(value) is expected, key
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "connected"
    assert "disconnected" in kinds and "reconnected" in kinds
    gap = next(e for e in events if e["kind"] == "gap_filled")
    assert gap["count"] > 0 and gap["start"] <= gap["end"]


def test_a_slow_consumer_stays_within_bounded_memory(fast_em, curves):
    curve = curves.fast
    tenors = len(curves.calendar_tenors(curve)) + 1
    with open_feed(fast_em, queue_size=50) as feed:
        feed.subscribe(curve["id"], "*")
        feed.subscribe(curve["id"], "C 00")
        for _ in range(6):  # an hour of publication, unread
            time.sleep(0.5)
            assert feed.stats()["queued"] <= max(50, tenors)
        stats = feed.stats()
        assert stats["conflated"] > 0
        ticks = collect(feed, 0.5)
    assert_strictly_increasing(ticks)


def test_close_leaves_no_connection_thread_or_task(em, curves):
    before = threading.active_count()
    for _ in range(3):
        feed = open_feed(em, on_price=lambda tick: None)
        feed.subscribe(curves.fast["id"], "*")
        time.sleep(0.2)
        feed.close()
        feed.close()  # twice is harmless
    assert wait_for(lambda: em.live_connections == 0)
    assert threading.active_count() <= before
    assert not live_threads()


def test_leaving_a_loop_with_break_loses_no_tick(em, curves):
    # Subscribing queues a snapshot of every tenor at once, so the first
    # chunk taken from the core holds more ticks than the loop uses. A second
    # feed, read plainly, says which snapshots there are.
    with open_feed(em) as plain, open_feed(em) as feed:
        for f in (plain, feed):
            f.subscribe(curves.slow["id"], "*")
        taken: list[tuple[str, str]] = []
        for tick in feed:
            taken.append((tick.tenor, tick.source))
            if len(taken) == 2:
                break
        after_break = feed.next(timeout=1)
        assert after_break is not None
        taken.append((after_break.tenor, after_break.source))
        for tick in feed:
            taken.append((tick.tenor, tick.source))
            break
        batch = next(feed.batches(max_rows=2, timeout=0.5))
        taken += [(row["tenor"], row["source"]) for row in batch.to_pylist()]
        taken += [(t.tenor, t.source) for t in collect(feed, 1.0)]
        expected = [(t.tenor, t.source) for t in collect(plain, 1.0)]
    snapshots = sorted(tenor for tenor, source in taken if source == "snapshot")
    assert len(snapshots) > 6, "the first chunk held more than the loops took"
    assert snapshots == sorted(tenor for tenor, source in expected if source == "snapshot")
    assert len(set(snapshots)) == len(snapshots), "no snapshot twice"
    assert batch.schema.equals(table_schema("live"))
