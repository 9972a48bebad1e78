"""Ctrl-C during a blocking call, blocking calls inside a running event loop,
and awaitable twins run concurrently."""

from __future__ import annotations

import _thread
import asyncio
import threading
import time

import pytest

RANGE = ("2025-05-01", "2025-06-13")
TENORS = ["Jul 25", "Aug 25", "Q3 25"]


def test_ctrl_c_ends_a_blocking_call(fresh_em, fob):
    client = fresh_em.client(token=fresh_em.token())
    expected = client.settlements(fob["id"], *RANGE, TENORS)
    fresh_em.set_latency(5.0)
    interrupted_at: list[float] = []

    def interrupt() -> None:
        interrupted_at.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(0.3, interrupt)
    began = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            client.settlements(fob["id"], *RANGE, TENORS)
        ended = time.monotonic()
    finally:
        timer.cancel()
        timer.join()
    assert interrupted_at, "the call ended before the interrupt"
    assert ended - interrupted_at[0] < 2.0
    assert ended - began < 4.0, "the call did not wait for the slow responses"

    fresh_em.clear_faults()
    assert client.settlements(fob["id"], *RANGE, TENORS).equals(expected)


def test_a_blocking_call_works_inside_a_running_event_loop(client, fob, coarse):
    expected = client.settlements(fob["id"], *RANGE, TENORS)
    history = client.intraday_history(coarse["id"], "2025-06-02", "2025-06-13", "Aug 25")

    async def notebook_cell():
        assert asyncio.get_running_loop().is_running()
        settled = client.settlements(fob["id"], *RANGE, TENORS)
        return settled, client.intraday_history(coarse["id"], "2025-06-02", "2025-06-13", "Aug 25")

    settled, intraday = asyncio.run(notebook_cell())
    assert settled.equals(expected) and intraday.equals(history)


def test_awaitable_twins_run_concurrently_and_match_the_blocking_forms(client, fob, coarse):
    f, c = fob["id"], coarse["id"]
    expected_catalogue = client.catalogue(vertical="ULSD")
    blocking = [
        client.last_settlement(f),
        client.last_assessments(f, "Jul 25"),
        client.intraday(f, "Jul 25"),
        client.settlements(f, *RANGE, TENORS),
        client.intraday_history(c, "2025-05-05", "2025-06-13", TENORS),
    ]

    async def together():
        return await asyncio.gather(
            client.last_settlement_async(f),
            client.last_assessments_async(f, "Jul 25"),
            client.intraday_async(f, "Jul 25"),
            client.settlements_async(f, *RANGE, TENORS),
            client.intraday_history_async(c, "2025-05-05", "2025-06-13", TENORS),
            client.catalogue_async(vertical="ULSD"),
        )

    *tables, catalogue = asyncio.run(together())
    for awaited, table in zip(tables, blocking, strict=False):
        assert table.num_rows > 0 and awaited.equals(table)
    assert list(catalogue) == list(expected_catalogue)


def test_awaitable_calls_overlap_in_time(fresh_em, fob):
    """Four calls delayed 0.5 s each by the emulator take far less than 2 s together."""
    client = fresh_em.client(token=fresh_em.token())
    expected = client.last_settlement(fob["id"], "Jul 25")
    fresh_em.set_latency(0.5)

    async def four():
        return await asyncio.gather(
            *(client.last_settlement_async(fob["id"], "Jul 25") for _ in range(4))
        )

    began = time.monotonic()
    tables = asyncio.run(four())
    assert time.monotonic() - began < 1.8
    assert all(t.equals(expected) for t in tables)
