"""``Client.backfill`` on one machine, end to end against the emulator: the
lake holds exactly what the historical endpoint serves, a rerun over a
complete range sends nothing, and bad input is refused before anything is
sent."""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
import time

import pyarrow.parquet as pq
import pytest
from backfill_helpers import (
    DAYS,
    FIRST,
    LAST,
    curve_and_tenors,
    intraday_requests,
    lake_rows,
    served,
    values,
)

import marketcurves as mc

YEAR_AGO = "2024-06-01"


def test_the_lake_holds_what_the_service_serves_and_a_rerun_sends_nothing(em, tmp_path):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client)
        expected = served(client, curve_id, tenors)
        before = intraday_requests(em)
        summary = client.backfill(tmp_path, [(curve_id, t) for t in tenors], FIRST, LAST)
        sent = intraday_requests(em) - before
        assert isinstance(summary, mc.BackfillSummary)
        assert summary.requests == sent > 0
        assert summary.values == len(expected)
        assert summary.days_complete == len(tenors) * DAYS
        assert (summary.tasks, summary.days_skipped) == (2, 0)
        assert summary.files_written == DAYS

        lake = mc.read_ticks(tmp_path)
        assert values(lake) == expected
        assert set(lake.column("source").to_pylist()) == {"backfill"}
        assert lake_rows(tmp_path) == len(expected)
        day = tmp_path / "date=2025-05-02"
        (one,) = day.iterdir()
        assert one.name.startswith("backfill-") and one.suffix == ".parquet"
        assert pq.read_schema(one).names == mc.read_ticks(tmp_path).schema.names

        before = intraday_requests(em)
        again = client.backfill(tmp_path, [(curve_id, t) for t in tenors], FIRST, LAST)
        assert intraday_requests(em) == before
        assert again == mc.BackfillSummary(days_skipped=len(tenors) * DAYS)
        assert values(mc.read_ticks(tmp_path)) == expected


def test_a_backfill_through_a_history_cache_leaves_every_field_cached(em, tmp_path):
    # The backfill reads only times and prices of each page; what the cache
    # keeps of the same pages is whole.
    with em.client(cache_dir=tmp_path / "cache") as client:
        curve_id, tenors = curve_and_tenors(client)
        client.backfill(tmp_path / "lake", [(curve_id, t) for t in tenors], FIRST, LAST)
        before = intraday_requests(em)
        cached = client.intraday_history(curve_id, FIRST, LAST, tenors, cache="offline")
        assert intraday_requests(em) == before
        uncached = client.intraday_history(curve_id, FIRST, LAST, tenors, cache="off")
    assert cached.num_rows > 0 and cached.column("dependencies").null_count == 0
    assert cached.equals(uncached)


def test_a_wider_rerun_fetches_only_the_tenors_and_days_missing(em, tmp_path):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client)
        client.backfill(tmp_path, [(curve_id, tenors[0])], FIRST, "2025-05-10")
        summary = client.backfill(tmp_path, [(curve_id, t) for t in tenors[:2]], FIRST, LAST)
        assert summary.days_skipped == 16
        assert summary.days_complete == 2 * DAYS - 16
        # The first window's two tenors lack different days: two tasks.
        assert summary.tasks == 3
        assert values(mc.read_ticks(tmp_path)) == served(client, curve_id, tenors[:2])
        assert lake_rows(tmp_path) == len(served(client, curve_id, tenors[:2]))


def test_star_takes_the_calendar_contracts_as_the_recorder_does(em, tmp_path):
    with em.client() as client:
        curve = next(c for c in client.catalogue() if c.id == curve_and_tenors(client)[0])
        summary = client.backfill(tmp_path, [(curve, "*")], "2025-06-02", "2025-06-03")
        calendar = [t for t in curve.contracts if not t.startswith("C ")]
        lake = mc.read_ticks(tmp_path)
        assert set(lake.column("tenor").to_pylist()) <= set(calendar)
        assert summary.days_complete == 2 * len(calendar)
        assert values(lake) == served(client, curve.id, calendar, "2025-06-02", "2025-06-03")


def test_days_that_can_still_change_are_fetched_again_and_never_doubled(em, tmp_path):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 2)
        today = em.now().date()
        first = today - dt.timedelta(days=3)
        pairs = [(curve_id, t) for t in tenors]
        summary = client.backfill(tmp_path, pairs, first, today + dt.timedelta(days=30))
        # Today is not final, and neither is a day without a value less
        # than a week old; the days before with values are.
        assert summary.days_complete < 4 * len(tenors)
        again = client.backfill(tmp_path, pairs, first, today)
        assert again.requests > 0 and again.tasks == 1
        assert again.days_skipped == summary.days_complete
        expected = served(client, curve_id, tenors, str(first), str(today))
        assert values(mc.read_ticks(tmp_path)) == expected
        assert lake_rows(tmp_path) == len(expected)


@pytest.mark.slow
def test_a_second_backfill_into_one_place_is_refused_while_the_first_runs(fresh_em, tmp_path):
    em = fresh_em
    # Twelve windows: once a first file is there, most of the run is still to come.
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 3)
        pairs = [(curve_id, t) for t in tenors]
        em.set_latency(0.05)
        failures = []

        def first() -> None:
            try:
                client.backfill(tmp_path, pairs, YEAR_AGO, LAST)
            except Exception as failure:  # reported below
                failures.append(failure)

        running = threading.Thread(target=first)
        running.start()
        deadline = time.monotonic() + 30
        while not list(tmp_path.rglob("backfill-*.parquet")) and time.monotonic() < deadline:
            time.sleep(0.01)
        try:
            with pytest.raises(mc.DestinationError, match="another backfill"):
                client.backfill(tmp_path, pairs, YEAR_AGO, LAST)
        finally:
            running.join()
            em.set_latency(0)
        assert failures == []
        again = client.backfill(tmp_path, pairs, YEAR_AGO, LAST)
        assert again.requests == 0


def test_the_async_twin_writes_the_same_lake(em, tmp_path):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)

        async def run() -> mc.BackfillSummary:
            return await client.backfill_async(tmp_path, [(curve_id, tenors[0])], FIRST, LAST)

        summary = asyncio.run(run())
        assert summary.days_complete == DAYS
        assert values(mc.read_ticks(tmp_path)) == served(client, curve_id, tenors)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"start": LAST, "end": FIRST}, "after end"),
        ({"start": "2035-01-01", "end": "2035-01-02"}, "after the service's today"),
        ({"start": "0025-01-01"}, "at most"),
        ({"subscriptions": []}, "at least one"),
        ({"subscriptions": [("no-such-curve", "*")]}, "no-such-curve"),
        ({"subscriptions": "abc"}, "must be a list"),
        ({"tenor": "Q5 26"}, "Q5 26"),
        ({"tenors": "expired"}, "widen"),
        ({"tenors": "some"}, "tenors"),
        ({"storage_options": {"region": "x"}}, "storage_options"),
        ({"cluster": object()}, "dask.distributed.Client"),
    ],
)
def test_bad_input_is_refused_before_any_intraday_request(em, tmp_path, arguments, message):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        call = {
            "dest": tmp_path / "lake",
            "subscriptions": [(curve_id, arguments.pop("tenor", tenors[0]))],
            "start": FIRST,
            "end": LAST,
            **arguments,
        }
        before = intraday_requests(em)
        with pytest.raises(mc.InvalidRequest, match=message):
            client.backfill(**call)
        assert intraday_requests(em) == before
    assert not (tmp_path / "lake").exists(), "a refused backfill makes nothing"
