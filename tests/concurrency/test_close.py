"""Closing a client while threads and asyncio tasks use it: every call in
flight ends promptly with ClientClosed, every later call raises it before
sending anything, and no thread or connection is left behind.

The emulator holds every response (``set_latency``) so that calls are
surely in flight when the client closes; a close that did not cut them
would let them finish, and the tests would see results instead of errors.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from concurrency_helpers import (
    HANG_GUARD,
    HAS_PROC_NET,
    connections_to,
    mixed_calls,
    port_of,
    thread_idents,
    wait_until,
)

import marketcurves as mc

#: Longer than any test waits: a response held this long never arrives in time.
HELD = 300.0


def hold_responses(emulator) -> int:
    emulator.set_latency(HELD)
    return port_of(emulator.base_url)


def wait_in_flight(port: int, count: int) -> None:
    """Until ``count`` connections to the emulator are open, i.e. requests are
    waiting for their held responses (where /proc/net/tcp cannot tell, a pause)."""
    if HAS_PROC_NET:
        wait_until(lambda: connections_to(port) >= count, f"{count} requests in flight")
    else:
        time.sleep(0.5)


async def wait_in_flight_async(port: int, count: int) -> None:
    if not HAS_PROC_NET:
        await asyncio.sleep(0.5)
        return

    async def poll() -> None:
        while connections_to(port) < count:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), HANG_GUARD)


def assert_released(port: int) -> None:
    """The client's connections to the emulator are all closed: its pool is gone."""
    if HAS_PROC_NET:
        wait_until(lambda: connections_to(port) == 0, "the client's connections to close")


def assert_closed_error(outcome: Any) -> None:
    assert isinstance(outcome, mc.ClientClosed), outcome
    assert isinstance(outcome, mc.MarketCurvesError)
    assert "client was closed" in str(outcome)


def outcome_of(run: Callable[[], Any]) -> Any:
    try:
        return run()
    except Exception as error:
        return error


def test_close_ends_blocking_calls_in_flight_in_every_thread(fresh_em, curves):
    calls = mixed_calls(curves)
    before = thread_idents()
    client = fresh_em.client(token=fresh_em.token())
    port = hold_responses(fresh_em)
    with ThreadPoolExecutor(len(calls)) as pool:
        futures = [pool.submit(outcome_of, lambda c=call: c.run(client)) for call in calls]
        wait_in_flight(port, 8)
        client.close()
        outcomes = [f.result(timeout=HANG_GUARD) for f in futures]
    for outcome in outcomes:
        assert_closed_error(outcome)
    assert client.closed and "closed" in repr(client)
    assert thread_idents() == before
    assert_released(port)


@pytest.mark.parametrize("closer", ["close_async", "close in the loop", "close from a thread"])
def test_close_ends_awaitable_calls_in_flight(fresh_em, curves, closer):
    calls = mixed_calls(curves)
    before = thread_idents()
    port = hold_responses(fresh_em)

    async def main() -> list[Any]:
        client = fresh_em.client(token=fresh_em.token())
        tasks = [asyncio.ensure_future(call.run_async(client)) for call in calls * 3]
        await wait_in_flight_async(port, 8)
        if closer == "close_async":
            await client.close_async()
        elif closer == "close in the loop":
            client.close()
        else:
            await asyncio.get_running_loop().run_in_executor(None, client.close)
        gathered = asyncio.gather(*tasks, return_exceptions=True)
        outcomes = await asyncio.wait_for(gathered, HANG_GUARD)
        with pytest.raises(mc.ClientClosed):
            await client.last_settlement_async(curves[0].id)
        return outcomes

    outcomes = asyncio.run(main())
    assert len(outcomes) == 3 * len(calls)
    for outcome in outcomes:
        assert_closed_error(outcome)
    assert thread_idents() == before
    assert_released(port)


def test_close_while_threads_and_tasks_are_in_flight_at_once(fresh_em, curves):
    calls = mixed_calls(curves)
    before = thread_idents()
    client = fresh_em.client(token=fresh_em.token())
    port = hold_responses(fresh_em)

    async def tasks() -> list[Any]:
        gathered = asyncio.gather(*(c.run_async(client) for c in calls), return_exceptions=True)
        return await asyncio.wait_for(gathered, HANG_GUARD)

    with ThreadPoolExecutor(9) as pool:
        blocking = [pool.submit(outcome_of, lambda c=call: c.run(client)) for call in calls[:8]]
        awaited = pool.submit(asyncio.run, tasks())
        wait_in_flight(port, 12)
        client.close()
        outcomes = [f.result(timeout=HANG_GUARD) for f in blocking]
        outcomes += awaited.result(timeout=HANG_GUARD)
    assert len(outcomes) == 8 + len(calls)
    for outcome in outcomes:
        assert_closed_error(outcome)
    assert thread_idents() == before
    assert_released(port)


def test_close_is_idempotent_even_from_many_threads_at_once(fresh_em, curves):
    client = fresh_em.client(token=fresh_em.token())
    client.last_settlement(curves[0].id, "Jul 25")
    start = threading.Barrier(8)

    def close() -> None:
        start.wait(HANG_GUARD)
        client.close()

    with ThreadPoolExecutor(8) as pool:
        for future in [pool.submit(close) for _ in range(8)]:
            future.result(timeout=HANG_GUARD)
    client.close()
    asyncio.run(client.close_async())
    assert client.closed


def test_with_and_async_with_close_the_client(fresh_em, curves):
    curve = curves[0].id
    with fresh_em.client(token=fresh_em.token()) as client:
        assert client.last_settlement(curve, "Jul 25").num_rows == 1
        assert not client.closed
    assert client.closed
    with pytest.raises(mc.ClientClosed):
        client.last_settlement(curve, "Jul 25")

    async def main() -> mc.Client:
        async with fresh_em.client(token=fresh_em.token()) as client:
            assert (await client.last_settlement_async(curve, "Jul 25")).num_rows == 1
        return client

    closed = asyncio.run(main())
    assert closed.closed
    with pytest.raises(mc.ClientClosed):
        closed.catalogue()
    # An exception inside the block closes the client too, and goes on up.
    with pytest.raises(KeyError), fresh_em.client(token=fresh_em.token()) as failing:
        raise KeyError("inside")
    assert failing.closed


def test_every_call_after_close_raises_before_sending_anything(fresh_em, curves, tmp_path):
    fresh_em.time_scale = 1000  # bulk jobs end at once
    client = fresh_em.client(token=fresh_em.token())
    curve = curves[0].id
    job = client.bulk_submit("NAPHTHA", "2025-01", "2025-01").wait(poll_interval=0.05)
    feed = client.live(backfill=False)
    client.close()
    # The next request the emulator sees fails: a call that reached it would show.
    fresh_em.fail_next(1, 500)
    dest = tmp_path / "dest"
    blocking: list[Callable[[], Any]] = [
        lambda: client.catalogue(),
        lambda: client.last_settlement(curve),
        lambda: client.last_assessments(curve, "Jul 25"),
        lambda: client.intraday(curve, "Jul 25"),
        lambda: client.settlements(curve, "2025-05-01", "2025-05-02"),
        lambda: client.intraday_history(curve, "2025-05-01", "2025-05-02", "Jul 25"),
        lambda: client.bulk_submit("JET", "2025-01", "2025-02"),
        lambda: client.bulk_download("JET", "2025-01", "2025-02", dest, progress=False),
        lambda: job.status(),
        lambda: job.wait(poll_interval=0.05),
        lambda: job.download(dest, progress=False),
        lambda: client.live(),
        lambda: feed.subscribe(curve, "*"),
        lambda: feed.unsubscribe(curve, "*"),
    ]
    awaitable = [
        client.catalogue_async,
        lambda: client.last_settlement_async(curve),
        lambda: client.last_assessments_async(curve),
        lambda: client.intraday_async(curve, "Jul 25"),
        lambda: client.settlements_async(curve, "2025-05-01", "2025-05-02"),
        lambda: client.intraday_history_async(curve, "2025-05-01", "2025-05-02"),
        lambda: feed.subscribe_async(curve, "*"),
    ]
    for call in blocking:
        with pytest.raises(mc.ClientClosed, match="client was closed"):
            call()
    for make in awaitable:
        with pytest.raises(mc.ClientClosed, match="client was closed"):
            asyncio.run(make())
    assert not dest.exists(), "a refused bulk download created its folder"
    assert feed.closed
    # The injected failure is still waiting for the first request actually sent.
    with mc.Client(base_url=fresh_em.base_url, token=fresh_em.token(), max_retries=0) as other:
        with pytest.raises(mc.ServiceError, match="500"):
            other.last_settlement(curve, "Jul 25")
