"""The awaitable twins of the live feed's blocking reads, end to end against
the emulator: ``next_async``, ``batches_async`` (``async for``) and, in
callback mode, ``wait_async``."""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict

import pyarrow as pa
import pytest
from live_helpers import assert_delivered_exactly_published, live_options, live_threads, open_feed

import marketcurves as mc
from marketcurves.testing import table_schema

#: What every wait of these tests is bound by, in seconds.
BOUND = 60


def run(coroutine):
    async def bounded():
        return await asyncio.wait_for(coroutine, BOUND)

    return asyncio.run(bounded())


def test_next_async_gives_each_tick_once_in_order(em, curves):
    async def main() -> tuple[list[mc.Tick], mc.Tick | None]:
        ticks: list[mc.Tick] = []
        async with open_feed(em) as feed:
            await feed.subscribe_async(curves.fast["id"], "*")
            while len(ticks) < 40:
                tick = await feed.next_async(timeout=10)
                assert tick is not None, "no tick within 10 s"
                ticks.append(tick)
            await feed.unsubscribe_async(curves.fast["id"], "*")
        # Closed, every queued tick read: None, at once.
        while (last := await feed.next_async(timeout=0)) is not None:
            ticks.append(last)
        return ticks, last

    ticks, last = run(main())
    assert last is None
    assert all(isinstance(t, mc.Tick) for t in ticks)
    assert {t.source for t in ticks} >= {"snapshot"}
    assert_delivered_exactly_published(em, ticks)


def test_next_async_returns_none_when_its_timeout_passes(em, curves):
    async def main() -> mc.Tick | None:
        async with open_feed(em) as feed:
            return await feed.next_async(timeout=0.2)  # nothing subscribed

    assert run(main()) is None


def test_batches_async_carry_the_design_schema_and_every_value(em, curves):
    async def main() -> list[pa.RecordBatch]:
        batches: list[pa.RecordBatch] = []
        async with open_feed(em) as feed:
            await feed.subscribe_async(curves.fast["id"], "*")
            async for batch in feed.batches_async(max_rows=50, timeout=0.3):
                batches.append(batch)
                if sum(b.num_rows for b in batches) >= 120:
                    break
        return batches

    batches = run(main())
    assert all(isinstance(b, pa.RecordBatch) and 0 < b.num_rows <= 50 for b in batches)
    assert all(b.schema.equals(table_schema("live")) for b in batches)
    series: dict[tuple[str, str], list] = defaultdict(list)
    for row in pa.Table.from_batches(batches).to_pylist():
        series[(row["curve_id"], row["tenor"])].append(row["generated_on"])
    assert all(times == sorted(set(times)) for times in series.values()), "in order, each once"


def test_batches_async_start_with_the_ticks_an_async_for_left(em, curves):
    """Leaving ``async for tick in feed`` (here after its first tick) keeps
    the rest of its chunk: the next batch starts with it, as for the
    blocking forms."""

    async def main() -> tuple[list[mc.Tick], pa.RecordBatch]:
        async with open_feed(em) as feed:
            await feed.subscribe_async(curves.slow["id"], "*")
            first = await anext(aiter(feed))
            batch = await anext(feed.batches_async(max_rows=500, timeout=0.5))
        return [first], batch

    (first,), batch = run(main())
    assert first.source == "snapshot"
    snapshots = [row["tenor"] for row in batch.to_pylist() if row["source"] == "snapshot"]
    assert snapshots, "the snapshots the loop left come in the batch"
    assert first.tenor not in snapshots, "and the one it took does not come again"


def test_wait_async_ends_with_the_feed_and_raises_its_fatal_error(em, curves):
    seen: list[mc.Tick] = []

    def keep_three(tick: mc.Tick) -> None:
        seen.append(tick)
        if len(seen) == 3:
            threading.Thread(target=feed.close).start()

    feed = open_feed(em, on_price=keep_three)
    feed.subscribe(curves.fast["id"], "*")
    assert run(feed.wait_async(timeout=30)) is True
    assert len(seen) >= 3 and feed.closed
    assert run(feed.wait_async(timeout=0.1)) is True

    client = em.client(token=em.token())
    failing = client.live(on_price=lambda tick: None, **live_options(em.time_scale))
    failing.subscribe(curves.fast["id"], "*")
    em.fail_next_auth(2)
    em.drop_live_connections()
    with pytest.raises(mc.AuthError):
        run(failing.wait_async(timeout=10))
    failing.close()
    assert not live_threads()


def test_wait_async_returns_false_when_its_timeout_passes(em, curves):
    feed = open_feed(em, on_price=lambda tick: None)
    try:
        assert run(feed.wait_async(timeout=0.2)) is False
    finally:
        feed.close()


def test_the_read_twins_refuse_a_feed_in_callback_mode(em, curves):
    feed = open_feed(em, on_price=lambda tick: None)
    try:
        with pytest.raises(mc.InvalidRequest, match="on_price"):
            run(feed.next_async())
        with pytest.raises(mc.InvalidRequest, match="on_price"):
            run(anext(feed.batches_async()))
    finally:
        feed.close()
    plain = open_feed(em)
    with plain, pytest.raises(mc.InvalidRequest, match="wait"):
        run(plain.wait_async())
