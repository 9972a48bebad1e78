"""What a call through the cache cost: ``Client.last_call_stats`` says how
many tenor-days came from the cache and how many from the service (the
table itself is the very table an uncached call returns), and
``cache_info`` counts the tenor-days held."""

from __future__ import annotations

import asyncio
import threading

from cache_helpers import HANG_GUARD, SUMMER, TWO, count_requests

#: Final days on the suite's stopped clock: settlements of three tenors
#: over a week, then that week and the next.
WEEK = ("2025-05-05", "2025-05-11")
TWO_WEEKS = ("2025-05-05", "2025-05-18")


def test_each_call_says_how_many_days_came_from_the_cache_and_from_the_service(client, curve, em):
    assert client.last_call_stats is None
    first = client.settlements(curve, *WEEK, SUMMER)
    assert first.schema.equals(
        client.settlements(curve, *WEEK, SUMMER, cache="off").schema, check_metadata=True
    )
    client.settlements(curve, *WEEK, SUMMER, cache="refresh")
    assert client.last_call_stats == {"days_from_cache": 0, "days_from_service": 3 * 7}
    wider, sent = count_requests(em, lambda: client.settlements(curve, *TWO_WEEKS, SUMMER))
    assert sent.settlements == len(SUMMER)
    assert wider.num_rows > first.num_rows
    assert client.last_call_stats == {"days_from_cache": 3 * 7, "days_from_service": 3 * 7}
    client.intraday_history(curve, *WEEK, TWO, cache="refresh")
    assert client.last_call_stats == {"days_from_cache": 0, "days_from_service": 2 * 7}
    client.intraday_history(curve, *WEEK, TWO, cache="offline")
    assert client.last_call_stats == {"days_from_cache": 2 * 7, "days_from_service": 0}


def test_a_call_without_the_cache_has_no_stats_and_each_thread_has_its_own(client, curve):
    client.settlements(curve, *WEEK, SUMMER)
    client.settlements(curve, *WEEK, SUMMER, cache="off")
    assert client.last_call_stats is None
    seen = []
    thread = threading.Thread(
        target=lambda: seen.append(
            (client.settlements(curve, *WEEK, SUMMER), client.last_call_stats)
        )
    )
    thread.start()
    thread.join(timeout=HANG_GUARD)
    assert seen and seen[0][1] == {"days_from_cache": 3 * 7, "days_from_service": 0}
    assert client.last_call_stats is None


def test_an_awaited_call_keeps_its_stats_in_its_task(client, curve):
    async def pull() -> object:
        await client.intraday_history_async(curve, *WEEK, TWO)
        return client.last_call_stats

    assert asyncio.run(pull()) == {"days_from_cache": 0, "days_from_service": 2 * 7}


def test_cache_info_counts_the_tenor_days_held(client, curve):
    client.settlements(curve, *TWO_WEEKS, SUMMER)
    client.intraday_history(curve, *WEEK, TWO)
    kinds = {c["history"]: c for c in client.cache_info()["curves"]}
    assert kinds["settlements"]["days"] == 3 * 14
    assert kinds["intraday"]["days"] == 2 * 7
    assert (str(kinds["intraday"]["first"]), str(kinds["intraday"]["last"])) == WEEK
