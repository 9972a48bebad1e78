"""One client shared by many threads and asyncio tasks at once gives the same
results as the same calls made one at a time, and leaves no thread behind."""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from concurrency_helpers import HANG_GUARD, Call, mixed_calls, same, thread_idents

import marketcurves as mc

THREADS = 16
TASKS = 50


@pytest.fixture(scope="module")
def calls(curves: list[mc.Curve]) -> list[Call]:
    return mixed_calls(curves)


@pytest.fixture(scope="module")
def expected(em, calls: list[Call]) -> dict[Call, Any]:
    """Each call made alone, one after the other, by a client of its own."""
    with em.client(token=em.token()) as client:
        return {call: call.run(client) for call in calls}


def assert_all_same(results: list[tuple[Call, Any]], expected: dict[Call, Any]) -> None:
    different = [call for call, result in results if not same(result, expected[call])]
    assert not different, f"{len(different)} results differ from one-at-a-time: {different[:3]}"


def shuffled(calls: list[Call], seed: int) -> list[Call]:
    order = list(calls)
    random.Random(seed).shuffle(order)
    return order


def test_threads_sharing_a_client_get_the_results_of_calls_made_one_at_a_time(em, calls, expected):
    before = thread_idents()
    client = em.client(token=em.token())
    start = threading.Barrier(THREADS)

    def worker(seed: int) -> list[tuple[Call, Any]]:
        start.wait(HANG_GUARD)
        return [(call, call.run(client)) for call in shuffled(calls, seed)]

    with ThreadPoolExecutor(THREADS) as pool:
        futures = [pool.submit(worker, seed) for seed in range(THREADS)]
        results = [pair for f in futures for pair in f.result(timeout=HANG_GUARD)]
    client.close()
    assert len(results) == THREADS * len(calls)
    assert_all_same(results, expected)
    assert thread_idents() == before


def test_asyncio_tasks_sharing_a_client_get_the_results_of_calls_made_one_at_a_time(
    em, calls, expected
):
    before = thread_idents()

    async def main() -> list[tuple[Call, Any]]:
        async with em.client(token=em.token()) as client:

            async def task(seed: int) -> list[tuple[Call, Any]]:
                # Each task makes a few calls, the whole set spread over the tasks.
                mine = shuffled(calls, seed)[: max(1, 4 * len(calls) // TASKS + 1)]
                return [(call, await call.run_async(client)) for call in mine]

            gathered = asyncio.gather(*(task(seed) for seed in range(TASKS)))
            done = await asyncio.wait_for(gathered, HANG_GUARD)
        return [pair for pairs in done for pair in pairs]

    results = asyncio.run(main())
    assert len(results) >= TASKS
    assert {call for call, _ in results} == set(calls)
    assert_all_same(results, expected)
    assert thread_idents() == before


def test_threads_and_asyncio_tasks_at_the_same_time(em, calls, expected):
    before = thread_idents()
    client = em.client(token=em.token())
    threads, tasks = 8, 25
    start = threading.Barrier(threads + 1)

    def blocking(seed: int) -> list[tuple[Call, Any]]:
        start.wait(HANG_GUARD)
        return [(call, call.run(client)) for call in shuffled(calls, seed)]

    def event_loop() -> list[tuple[Call, Any]]:
        async def task(seed: int) -> list[tuple[Call, Any]]:
            return [(call, await call.run_async(client)) for call in shuffled(calls, seed)[:5]]

        async def main() -> list[tuple[Call, Any]]:
            start.wait(HANG_GUARD)
            done = await asyncio.gather(*(task(1000 + seed) for seed in range(tasks)))
            return [pair for pairs in done for pair in pairs]

        return asyncio.run(main())

    with ThreadPoolExecutor(threads + 1) as pool:
        futures = [pool.submit(blocking, seed) for seed in range(threads)]
        futures.append(pool.submit(event_loop))
        results = [pair for f in futures for pair in f.result(timeout=HANG_GUARD)]
    client.close()
    assert len(results) == threads * len(calls) + tasks * 5
    assert_all_same(results, expected)
    assert thread_idents() == before
