"""Closing a client ends the live feeds opened from it, however they are read:
the reader gets ClientClosed (after the ticks already queued), the feed's
connection, tasks and callback thread end, and the feed refuses new work."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from concurrency_helpers import HANG_GUARD, thread_idents, wait_until

import marketcurves as mc


def read_with_iterator(feed: mc.LiveFeed, first: threading.Event) -> int:
    count = 0
    for _ in feed:
        count += 1
        first.set()
    return count


def read_with_next(feed: mc.LiveFeed, first: threading.Event) -> int:
    count = 0
    while True:
        if feed.next(timeout=1.0) is not None:
            count += 1
            first.set()


def read_with_batches(feed: mc.LiveFeed, first: threading.Event) -> int:
    rows = 0
    for batch in feed.batches(max_rows=5, timeout=0.05):
        rows += batch.num_rows
        first.set()
    return rows


def read_with_async_for(feed: mc.LiveFeed, first: threading.Event) -> int:
    async def main() -> int:
        count = 0
        async for _ in feed:
            count += 1
            first.set()
        return count

    return asyncio.run(main())


READERS: dict[str, Callable[[mc.LiveFeed, threading.Event], int]] = {
    "iterator": read_with_iterator,
    "next": read_with_next,
    "batches": read_with_batches,
    "async for": read_with_async_for,
}


def assert_feed_ended(emulator, feed: mc.LiveFeed, curve: mc.Curve, before: set[int]) -> None:
    assert feed.closed
    with pytest.raises(mc.ClientClosed):
        feed.subscribe(curve, "*")
    wait_until(lambda: emulator.live_connections == 0, "the feed's connection to close")
    assert thread_idents() == before


@pytest.mark.parametrize("reader", list(READERS))
def test_closing_the_client_ends_a_feed_being_read(fresh_em, curves, reader):
    before = thread_idents()
    client = fresh_em.client(token=fresh_em.token())
    feed = client.live(backfill=False)
    feed.subscribe(curves[0], "*")
    first = threading.Event()
    with ThreadPoolExecutor(1) as pool:
        reading = pool.submit(READERS[reader], feed, first)
        assert first.wait(HANG_GUARD), "no tick came"
        client.close()
        with pytest.raises(mc.ClientClosed, match="client was closed"):
            reading.result(timeout=HANG_GUARD)
    # Raised once: the feed then reads as ended.
    assert feed.next(timeout=0) is None
    assert_feed_ended(fresh_em, feed, curves[0], before)


def test_closing_the_client_stops_a_callback_feed_and_its_thread(fresh_em, curves):
    before = thread_idents()
    client = fresh_em.client(token=fresh_em.token())
    first = threading.Event()
    ticks: list[mc.Tick] = []

    def on_price(tick: mc.Tick) -> None:
        ticks.append(tick)
        first.set()

    feed = client.live(backfill=False, on_price=on_price)
    feed.subscribe(curves[0], "*")
    assert first.wait(HANG_GUARD), "no tick came"
    client.close()  # returns once the callback thread has ended
    with pytest.raises(mc.ClientClosed):
        feed.wait(timeout=HANG_GUARD)
    assert ticks
    assert_feed_ended(fresh_em, feed, curves[0], before)


def test_closing_the_client_ends_a_subscribe_waiting_for_a_connection(fresh_em, curves):
    before = thread_idents()
    # Nothing listens there: the feed keeps trying, the subscribe keeps waiting.
    client = mc.Client(
        base_url=fresh_em.base_url, live_url="ws://127.0.0.1:9", token=fresh_em.token()
    )
    feed = client.live(backfill=False, reconnect_max=0.2)
    outcome: list[Any] = []

    def subscribe() -> None:
        try:
            feed.subscribe(curves[0], "*")
        except Exception as error:
            outcome.append(error)

    waiting = threading.Thread(target=subscribe)
    waiting.start()
    wait_until(lambda: feed.subscriptions != [], "the subscription to be recorded")
    client.close()
    waiting.join(HANG_GUARD)
    assert not waiting.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], mc.ClientClosed), outcome
    assert feed.closed
    assert thread_idents() == before


def test_feeds_of_other_clients_go_on(fresh_em, curves):
    closing = fresh_em.client(token=fresh_em.token())
    staying = fresh_em.client(token=fresh_em.token())
    with staying.live(backfill=False) as feed:
        feed.subscribe(curves[0], "*")
        doomed = closing.live(backfill=False)
        doomed.subscribe(curves[0], "*")
        closing.close()
        assert doomed.closed and not feed.closed
        feed.subscribe(curves[1], "*")
        assert feed.next(timeout=HANG_GUARD) is not None
    staying.close()


def test_a_feed_object_kept_after_it_closed_does_not_hold_its_client(fresh_em, curves, caplog):
    client = fresh_em.client()
    feed = client.live()
    feed.subscribe(curves[0], "*")  # strict: the catalogue is asked
    feed.close()
    with caplog.at_level("WARNING", logger="marketcurves"):
        client.close()
    assert not [r for r in caplog.records if "had not ended" in r.getMessage()]
    assert feed.closed
