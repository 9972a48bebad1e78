"""Ranges at the edges: reaching into the future, before any history,
files that overlap, and tenors whose names need encoding on disk."""

from __future__ import annotations

import pytest
from cache_helpers import (
    TODAY,
    assert_same_table,
    count_requests,
    day,
    segment_days,
    segment_files,
)


def test_a_range_reaching_into_the_future_keeps_only_final_days(em, client, cache_dir, curve):
    first = client.settlements(curve, "2025-06-01", "2025-06-30", ["Jul 25"])
    (kept,) = segment_files(cache_dir, "settlements", "Jul 25")
    assert segment_days(kept) == (day("2025-06-01"), day("2025-06-12"))
    again, sent = count_requests(
        em, lambda: client.settlements(curve, "2025-06-01", "2025-06-30", ["Jul 25"])
    )
    assert sent.settlements == 1, f"today and later, in one request: {sent}"
    assert_same_table(again, first, "into the future")
    assert_same_table(
        again, client.settlements(curve, "2025-06-01", "2025-06-30", ["Jul 25"], cache="off"), ""
    )
    assert max(again["date"].to_pylist()) == TODAY


@pytest.mark.parametrize("method", ["settlements", "intraday_history"])
def test_a_range_before_any_history_is_kept_empty(em, client, cache_dir, curve, method):
    pull = getattr(client, method)
    empty = pull(curve, "1999-12-01", "1999-12-31", ["Jul 25"])
    assert empty.num_rows == 0
    # A month without any value, long past: nothing to wait for.
    assert len(segment_files(cache_dir, tenor="Jul 25")) == 1
    again, sent = count_requests(em, lambda: pull(curve, "1999-12-01", "1999-12-31", ["Jul 25"]))
    assert sent.total == 0, sent
    assert_same_table(
        again, pull(curve, "1999-12-01", "1999-12-31", ["Jul 25"], cache="off"), "empty"
    )


@pytest.mark.parametrize("method", ["settlements", "intraday_history"])
def test_overlapping_files_give_each_day_once(em, client, cache_dir, curve, method):
    pull = getattr(client, method)
    pull(curve, "2025-05-26", "2025-06-06", ["Jul 25"])
    # A refresh of days inside and after: a file overlapping the first.
    pull(curve, "2025-06-02", "2025-06-12", ["Jul 25"], cache="refresh")
    days = [segment_days(p) for p in segment_files(cache_dir, tenor="Jul 25")]
    assert days == [(day("2025-05-26"), day("2025-06-06")), (day("2025-06-02"), day("2025-06-12"))]

    whole, sent = count_requests(em, lambda: pull(curve, "2025-05-26", "2025-06-12", ["Jul 25"]))
    assert sent.total == 0, sent
    assert_same_table(
        whole, pull(curve, "2025-05-26", "2025-06-12", ["Jul 25"], cache="off"), "overlapping"
    )


def test_tenor_names_of_every_shape_are_kept_apart(em, client, cache_dir):
    curve = next(
        c
        for c in client.catalogue()
        if c.quotation != "Sales" and {"C 00", "1-5 Jul 25", "Q3 25", "Jul 25"} <= set(c.contracts)
    )
    tenors = ["C 00", "1-5 Jul 25", "Jul 25", "Q3 25"]
    first = client.settlements(curve, "2025-05-01", "2025-06-12", tenors)
    folders = {p.parent.name for p in segment_files(cache_dir, "settlements")}
    assert folders == {"C%2000", "1-5%20Jul%2025", "Jul%2025", "Q3%2025"}
    again, sent = count_requests(
        em, lambda: client.settlements(curve, "2025-05-01", "2025-06-12", tenors)
    )
    assert sent.total == 0, sent
    uncached = client.settlements(curve, "2025-05-01", "2025-06-12", tenors, cache="off")
    assert_same_table(again, uncached, "every shape")
    assert_same_table(first, uncached, "every shape")
    (entry,) = client.cache_info()["curves"]
    assert entry["tenors"] == len(tenors)
