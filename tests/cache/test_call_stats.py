"""What a call through the cache cost: its table says how many tenor-days
came from the cache and how many from the service
(``mc.cache.call_stats``), and ``cache_info`` counts the tenor-days held."""

from __future__ import annotations

from cache_helpers import SUMMER, TWO, count_requests

import marketcurves as mc

#: Final days on the suite's stopped clock: settlements of three tenors
#: over a week, then that week and the next.
WEEK = ("2025-05-05", "2025-05-11")
TWO_WEEKS = ("2025-05-05", "2025-05-18")


def test_each_call_says_how_many_days_came_from_the_cache_and_from_the_service(client, curve, em):
    first = client.settlements(curve, *WEEK, SUMMER)
    assert mc.cache.call_stats(first) == {"days_from_cache": 0, "days_from_service": 3 * 7}
    wider, sent = count_requests(em, lambda: client.settlements(curve, *TWO_WEEKS, SUMMER))
    assert sent.settlements == len(SUMMER)
    assert mc.cache.call_stats(wider) == {"days_from_cache": 3 * 7, "days_from_service": 3 * 7}
    refreshed = client.intraday_history(curve, *WEEK, TWO, cache="refresh")
    assert mc.cache.call_stats(refreshed) == {"days_from_cache": 0, "days_from_service": 2 * 7}
    again = client.intraday_history(curve, *WEEK, TWO, cache="offline")
    assert mc.cache.call_stats(again) == {"days_from_cache": 2 * 7, "days_from_service": 0}


def test_a_call_without_the_cache_has_no_stats(client, curve):
    assert mc.cache.call_stats(client.settlements(curve, *WEEK, SUMMER, cache="off")) is None


def test_cache_info_counts_the_tenor_days_held(client, curve):
    client.settlements(curve, *TWO_WEEKS, SUMMER)
    client.intraday_history(curve, *WEEK, TWO)
    kinds = {c["history"]: c for c in client.cache_info()["curves"]}
    assert kinds["settlements"]["days"] == 3 * 14
    assert kinds["intraday"]["days"] == 2 * 7
    assert (str(kinds["intraday"]["first"]), str(kinds["intraday"]["last"])) == WEEK
