"""What the cache holds is not fetched again: a repeated pull sends nothing,
an extended one only what it adds, and every table is the very table an
uncached pull returns, however the ranges overlap."""

from __future__ import annotations

import datetime as dt
import logging
import os
import random
import re

import pytest
from cache_helpers import (
    SUMMER,
    TODAY,
    TWO,
    YESTERDAY,
    assert_same_table,
    count_requests,
    day,
    segment_files,
)

HISTORIES = ["settlements", "intraday_history"]
#: A range ending yesterday: every day of it is final at 17:00 today.
STARTS = {"settlements": day("2025-05-01"), "intraday_history": day("2025-06-09")}


def requests_of(method: str, sent) -> int:
    return sent.settlements if method == "settlements" else sent.intraday


@pytest.mark.parametrize("method", HISTORIES)
def test_a_second_identical_pull_sends_nothing_and_gives_the_same_table(em, client, curve, method):
    pull = getattr(client, method)
    args = (curve, STARTS[method], YESTERDAY, TWO)
    first, sent = count_requests(em, lambda: pull(*args))
    assert requests_of(method, sent) >= len(TWO), sent
    assert first.num_rows > 0

    second, sent = count_requests(em, lambda: pull(*args))
    assert sent.total == 0, sent

    uncached, sent = count_requests(em, lambda: pull(*args, cache="off"))
    assert requests_of(method, sent) >= len(TWO), "cache='off' must fetch"
    assert_same_table(first, uncached, "the pull that filled the cache")
    assert_same_table(second, uncached, "the pull served by the cache")


@pytest.mark.parametrize("method", HISTORIES)
def test_a_new_client_on_the_same_folder_sends_nothing_even_for_the_catalogue(
    em, cache_dir, curve, method
):
    # A notebook run twice: every contract of the curve (tenors=None), so
    # the catalogue is needed too, and comes from the cache the second time.
    start = YESTERDAY - dt.timedelta(days=1)
    with em.client(cache_dir=cache_dir) as first_run:
        first, sent = count_requests(
            em, lambda: getattr(first_run, method)(curve, start, YESTERDAY)
        )
    assert sent.catalogue >= 1 and requests_of(method, sent) > 0, sent
    assert len(set(first["tenor"].to_pylist())) > 3

    with em.client(cache_dir=cache_dir) as second_run:
        second, sent = count_requests(
            em, lambda: getattr(second_run, method)(curve, start, YESTERDAY)
        )
        assert sent.total == 0, f"a re-run sent {sent} (login included)"
        uncached = getattr(second_run, method)(curve, start, YESTERDAY, cache="off")
    assert_same_table(second, uncached, "a re-run")
    assert_same_table(first, uncached, "the first run")


def test_a_range_extended_by_a_month_fetches_one_request_per_tenor_for_settlements(
    em, client, curve
):
    client.settlements(curve, "2025-04-01", "2025-04-30", SUMMER)

    extended, sent = count_requests(
        em, lambda: client.settlements(curve, "2025-04-01", "2025-05-31", SUMMER)
    )
    assert sent.settlements == len(SUMMER), sent
    assert sent.total == len(SUMMER), sent
    assert_same_table(
        extended,
        client.settlements(curve, "2025-04-01", "2025-05-31", SUMMER, cache="off"),
        "extended by May",
    )

    # Extended at both ends: two runs of missing days, two requests a tenor.
    both, sent = count_requests(
        em, lambda: client.settlements(curve, "2025-03-01", "2025-06-12", SUMMER)
    )
    assert sent.settlements == 2 * len(SUMMER), sent
    assert_same_table(
        both,
        client.settlements(curve, "2025-03-01", "2025-06-12", SUMMER, cache="off"),
        "extended both ways",
    )


def test_a_range_extended_by_a_month_fetches_only_the_new_windows_for_intraday(em, client, curve):
    client.intraday_history(curve, "2025-04-14", "2025-05-13", TWO)

    extended, sent = count_requests(
        em, lambda: client.intraday_history(curve, "2025-04-14", "2025-06-12", TWO)
    )
    # What an uncached pull of just the new days costs: every page of one
    # 30-day window a tenor.
    only_new, cost = count_requests(
        em, lambda: client.intraday_history(curve, "2025-05-14", "2025-06-12", TWO, cache="off")
    )
    assert cost.intraday >= 2 * len(TWO), "the new month is paged"
    assert sent.intraday == cost.intraday, (sent, cost)
    assert sent.total == cost.intraday, sent
    assert only_new.num_rows > 0
    assert_same_table(
        extended,
        client.intraday_history(curve, "2025-04-14", "2025-06-12", TWO, cache="off"),
        "extended by a month",
    )

    # Extended back by more than a window: the missing run is split into
    # windows as an uncached pull of it would be.
    back, sent = count_requests(
        em, lambda: client.intraday_history(curve, "2025-02-26", "2025-06-12", ["Aug 25"])
    )
    _, cost = count_requests(
        em,
        lambda: client.intraday_history(curve, "2025-02-26", "2025-04-13", ["Aug 25"], cache="off"),
    )
    assert sent.intraday == cost.intraday, (sent, cost)
    assert_same_table(
        back,
        client.intraday_history(curve, "2025-02-26", "2025-06-12", ["Aug 25"], cache="off"),
        "extended back by 47 days",
    )


def _random_ranges(rng: random.Random, first: dt.date, last: dt.date, count: int, longest: int):
    span = (last - first).days
    for _ in range(count):
        length = rng.randint(1, longest)
        start = first + dt.timedelta(days=rng.randint(0, span))
        end = min(last, start + dt.timedelta(days=length - 1))
        yield start, end


@pytest.mark.parametrize(
    ("method", "first", "count", "longest", "tenors"),
    [
        ("settlements", day("2024-06-13"), 25, 120, SUMMER),
        ("intraday_history", day("2025-04-14"), 10, 40, TWO),
    ],
    ids=["settlements", "intraday"],
)
def test_overlapping_random_ranges_through_one_cache_equal_uncached_pulls(
    em, client, cache_dir, curve, method, first, count, longest, tenors
):
    pull = getattr(client, method)
    rng = random.Random(f"{method}-14")
    ranges = list(_random_ranges(rng, first, TODAY, count, longest))
    # One pull in four refreshes its range: its file then overlaps older
    # ones, which must still give each day once.
    modes = ["refresh" if i % 4 == 2 else "use" for i in range(len(ranges))]
    served = 0
    for (start, end), mode in zip(ranges, modes, strict=False):
        cached, sent = count_requests(
            em, lambda s=start, e=end, m=mode: pull(curve, s, e, tenors, cache=m)
        )
        served += sent.total == 0
        uncached = pull(curve, start, end, tenors, cache="off")
        assert_same_table(cached, uncached, f"{start}..{end} ({mode})")
    assert segment_files(cache_dir)
    # Later ranges overlap earlier ones: some are served without a request.
    assert served >= 1, "no range was served from the cache alone"


@pytest.mark.parametrize("method", HISTORIES)
def test_refresh_fetches_everything_again_and_overwrites(em, client, curve, cache_dir, method):
    pull = getattr(client, method)
    args = (curve, STARTS[method], YESTERDAY, TWO)
    pull(*args)
    inodes = {p: os.stat(p).st_ino for p in segment_files(cache_dir)}
    assert inodes

    _, uncached_cost = count_requests(em, lambda: pull(*args, cache="off"))
    refreshed, sent = count_requests(em, lambda: pull(*args, cache="refresh"))
    assert requests_of(method, sent) == requests_of(method, uncached_cost), (sent, uncached_cost)
    assert_same_table(refreshed, pull(*args, cache="off"), "refreshed")
    # Written anew: the same names, new files.
    assert {p: os.stat(p).st_ino for p in segment_files(cache_dir)}.keys() == inodes.keys()
    assert all(os.stat(p).st_ino != inode for p, inode in inodes.items())

    again, sent = count_requests(em, lambda: pull(*args))
    assert sent.total == 0, sent
    assert_same_table(again, refreshed, "after a refresh")


def test_each_call_logs_how_many_tenor_days_came_from_the_cache(client, curve, caplog):
    caplog.set_level(logging.DEBUG, logger="marketcurves.cache")

    def logged() -> list[str]:
        lines = [
            r.getMessage()
            for r in caplog.records
            if r.name == "marketcurves.cache" and r.levelno == logging.DEBUG
        ]
        caplog.clear()
        return lines

    client.settlements(curve, "2025-05-01", "2025-05-31", SUMMER)
    (line,) = logged()
    assert curve in line and "3 tenors" in line
    assert "0 tenor-days from the cache, 93 fetched" in line, line

    client.settlements(curve, "2025-05-01", "2025-06-12", SUMMER)
    (line,) = logged()
    assert "93 tenor-days from the cache, 36 fetched" in line, line

    client.intraday_history(curve, "2025-06-10", "2025-06-12", TWO)
    (line,) = logged()
    assert "intraday" in line and "0 tenor-days from the cache, 6 fetched" in line, line


def test_a_progress_bar_reaches_its_end_when_the_cache_serves_some_or_all(
    em, client, curve, capsys
):
    pytest.importorskip("tqdm")

    def last_count(bar: str) -> tuple[int, int]:
        counts = re.findall(r"(\d+)/(\d+)", bar)
        assert counts, bar
        done, total = counts[-1]
        return int(done), int(total)

    client.settlements(curve, "2025-05-01", "2025-05-31", SUMMER)
    capsys.readouterr()
    uncached = client.settlements(curve, "2025-05-01", "2025-06-12", SUMMER, cache="off")
    capsys.readouterr()
    # May from the cache and June fetched, then all of it from the cache.
    for served in ("partly", "wholly"):
        got = client.settlements(curve, "2025-05-01", "2025-06-12", SUMMER, progress=True)
        done, total = last_count(capsys.readouterr().err)
        assert done == total >= len(SUMMER), (served, done, total)
        assert_same_table(got, uncached, f"{served} from the cache")


def test_the_clients_mode_serves_calls_that_do_not_choose_one(em, cache_dir, curve):
    args = (curve, "2025-06-02", YESTERDAY, TWO)
    with em.client(cache_dir=cache_dir, cache="off") as off:
        for _ in range(2):
            _, sent = count_requests(em, lambda: off.settlements(*args))
            assert sent.settlements == len(TWO), sent
        assert not segment_files(cache_dir)
        # A call may choose the cache all the same.
        off.settlements(*args, cache="use")
        _, sent = count_requests(em, lambda: off.settlements(*args, cache="use"))
        assert sent.total == 0, sent
    with em.client(cache_dir=cache_dir, cache="offline") as offline:
        _, sent = count_requests(em, lambda: offline.settlements(*args))
        assert sent.total == 0, sent
        _, sent = count_requests(em, lambda: offline.settlements(*args, cache="refresh"))
        assert sent.settlements == len(TWO), sent
