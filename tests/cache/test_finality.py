"""Only final days are kept, judged on the service's clock: today never
(its values grow), yesterday's intraday values from 01:00 UTC, a day's
settlement from 06:00 UTC the next day, and trailing days with no value at
all only once a week old. Each rule is checked on both sides of its time."""

from __future__ import annotations

import pytest
from cache_helpers import (
    TODAY,
    TWO,
    YESTERDAY,
    assert_same_table,
    count_requests,
    day,
    rows_on,
    set_clock,
)

import marketcurves as mc


def test_todays_intraday_values_are_fetched_again_as_they_grow(fresh_em, cache_dir, curve):
    fresh_em.set_time("2025-06-13T10:00:00Z")
    client = fresh_em.client(cache_dir=cache_dir)
    morning = client.intraday_history(curve, "2025-06-11", TODAY, TWO)
    assert rows_on(morning, TODAY) > 0

    fresh_em.advance(3 * 3600)
    afternoon, sent = count_requests(
        fresh_em, lambda: client.intraday_history(curve, "2025-06-11", TODAY, TWO)
    )
    _, today_alone = count_requests(
        fresh_em, lambda: client.intraday_history(curve, TODAY, TODAY, TWO, cache="off")
    )
    # Only today is fetched again, and its new values are there.
    assert sent.intraday == today_alone.intraday >= len(TWO), (sent, today_alone)
    # Three hours of values every 15 minutes, for each tenor.
    assert rows_on(afternoon, TODAY) == rows_on(morning, TODAY) + 12 * len(TWO)
    assert rows_on(afternoon, YESTERDAY) == rows_on(morning, YESTERDAY) > 0
    assert_same_table(
        afternoon,
        client.intraday_history(curve, "2025-06-11", TODAY, TWO, cache="off"),
        "today, three hours later",
    )
    client.close()


def test_todays_settlement_appears_once_published_and_is_kept_from_six_the_next_day(
    fresh_em, cache_dir, curve
):
    fresh_em.set_time("2025-06-13T10:00:00Z")
    client = fresh_em.client(cache_dir=cache_dir)

    def pull():
        return count_requests(fresh_em, lambda: client.settlements(curve, "2025-06-10", TODAY, TWO))

    morning, _ = pull()
    assert rows_on(morning, TODAY) == 0, "no settlement before 16:30 London"
    assert rows_on(morning, YESTERDAY) == len(TWO)

    # 16:30 London is 15:30 UTC; published within a quarter of an hour.
    set_clock(fresh_em, "2025-06-13T16:00:00Z", client, curve)
    evening, sent = pull()
    assert sent.settlements == len(TWO), f"only today is fetched: {sent}"
    assert rows_on(evening, TODAY) == len(TWO)
    assert_same_table(
        evening,
        client.settlements(curve, "2025-06-10", TODAY, TWO, cache="off"),
        "today's settlement",
    )

    # A settlement may change until midnight New York: kept from 06:00 UTC.
    set_clock(fresh_em, "2025-06-14T05:30:00Z", client, curve)
    for _ in range(2):
        _, sent = pull()
        assert sent.settlements == len(TWO), f"05:30: the 13th is not final yet: {sent}"
    set_clock(fresh_em, "2025-06-14T06:30:00Z", client, curve)
    _, sent = pull()
    assert sent.settlements == len(TWO), sent
    kept, sent = pull()
    assert sent.total == 0, f"06:30: the 13th is final and kept: {sent}"
    assert_same_table(kept, evening, "the 13th, kept")
    client.close()


def test_yesterdays_intraday_values_are_kept_from_one_oclock(fresh_em, cache_dir, curve):
    fresh_em.set_time("2025-06-13T00:30:00Z")
    client = fresh_em.client(cache_dir=cache_dir)

    def pull():
        return count_requests(
            fresh_em, lambda: client.intraday_history(curve, "2025-06-11", YESTERDAY, TWO)
        )

    first, _ = pull()
    _, yesterday_alone = count_requests(
        fresh_em, lambda: client.intraday_history(curve, YESTERDAY, YESTERDAY, TWO, cache="off")
    )
    assert yesterday_alone.intraday >= len(TWO)
    # 00:30: yesterday's values are not final; the day before is kept.
    second, sent = pull()
    assert sent.intraday == yesterday_alone.intraday, (sent, yesterday_alone)
    assert_same_table(second, first, "at 00:30")

    set_clock(fresh_em, "2025-06-13T01:30:00Z", client, curve)
    _, sent = pull()
    assert sent.intraday == yesterday_alone.intraday, (sent, yesterday_alone)
    fourth, sent = pull()
    assert sent.total == 0, f"01:30: yesterday is final and kept: {sent}"
    assert_same_table(fourth, first, "yesterday, kept")
    assert_same_table(
        fourth,
        client.intraday_history(curve, "2025-06-11", YESTERDAY, TWO, cache="off"),
        "yesterday, kept",
    )
    client.close()


def test_trailing_days_without_values_are_kept_once_a_week_old(fresh_em, cache_dir, curve):
    # Monday: the range ends on Sunday, and the weekend has no settlement.
    fresh_em.set_time("2025-06-16T17:00:00Z")
    client = fresh_em.client(cache_dir=cache_dir)
    saturday, sunday = day("2025-06-14"), day("2025-06-15")

    def pull():
        return count_requests(
            fresh_em, lambda: client.settlements(curve, "2025-06-09", sunday, TWO)
        )

    first, _ = pull()
    assert rows_on(first, saturday) == rows_on(first, sunday) == 0
    assert rows_on(first, day("2025-06-13")) == len(TWO)
    # A late publication could still fill the weekend: fetched again.
    _, sent = pull()
    assert sent.settlements == len(TWO), sent

    # Saturday is a week old, Sunday not yet: Saturday is kept.
    set_clock(fresh_em, "2025-06-21T17:00:00Z", client, curve)
    got, sent = pull()
    assert sent.settlements == len(TWO), sent
    assert_same_table(got, first, "a week later")
    with pytest.raises(mc.CacheMiss) as caught:
        client.settlements(curve, "2025-06-09", sunday, TWO, cache="offline")
    assert caught.value.missing == {t: [(sunday, sunday)] for t in TWO}

    set_clock(fresh_em, "2025-06-22T17:00:00Z", client, curve)
    _, sent = pull()
    assert sent.settlements == len(TWO), sent
    got, sent = pull()
    assert sent.total == 0, f"Sunday is a week old and kept: {sent}"
    assert_same_table(got, first, "eight days later")
    assert client.settlements(curve, "2025-06-09", sunday, TWO, cache="off").equals(first)
    client.close()
