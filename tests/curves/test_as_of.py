"""The curve as of given times: worked out by hand, against pandas'
merge_asof on random ticks, and on the emulator's intraday history, a
recording's columns and a live feed's batches."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from curves_helpers import column, settlements
from support import LIVE_START

import marketcurves as mc

UTC = dt.UTC
NINE = dt.datetime(2025, 6, 11, 9, tzinfo=UTC)


def _at(minutes: float) -> dt.datetime:
    return NINE + dt.timedelta(minutes=minutes)


def _ticks(rows: list[tuple[str, str, dt.datetime, float]]) -> pa.Table:
    return pa.table(
        {
            "curve_id": [r[0] for r in rows],
            "tenor": [r[1] for r in rows],
            "generated_on": pa.array([r[2] for r in rows], pa.timestamp("us", tz="UTC")),
            "price": [float(r[3]) for r in rows],
        }
    )


def _hand() -> pa.Table:
    """Curve a: Jul 25 at 9:00 (70), 9:30 (71) and 10:30 (72), Aug 25 at
    9:45 (80); curve b: Jul 25 at 10:00 (50). Not in table order."""
    return _ticks(
        [
            ("b", "Jul 25", _at(60), 50),
            ("a", "Aug 25", _at(45), 80),
            ("a", "Jul 25", _at(90), 72),
            ("a", "Jul 25", _at(0), 70),
            ("a", "Jul 25", _at(30), 71),
        ]
    )


def test_each_tenor_takes_its_last_value_at_or_before_each_time() -> None:
    # 9:15, 10:00 and 11:00, out of order, one twice, as ISO text and datetimes.
    at = [_at(120), "2025-06-11T09:15:00Z", _at(60), _at(15)]
    out = mc.curves.as_of(_hand(), at)
    assert out.column_names == [
        "curve_id",
        "as_of",
        "tenor",
        "tenor_kind",
        "tenor_start",
        "tenor_end",
        "generated_on",
        "price",
    ]
    rows = [
        (r["curve_id"], r["as_of"], r["tenor"], r["generated_on"], r["price"])
        for r in out.to_pylist()
    ]
    assert rows == [
        ("a", _at(15), "Jul 25", _at(0), 70),  # no Aug yet
        ("a", _at(60), "Jul 25", _at(30), 71),
        ("a", _at(60), "Aug 25", _at(45), 80),
        ("a", _at(120), "Jul 25", _at(90), 72),
        ("a", _at(120), "Aug 25", _at(45), 80),  # however old, its last value
        ("b", _at(60), "Jul 25", _at(60), 50),  # a value at the time counts
        ("b", _at(120), "Jul 25", _at(60), 50),
    ]
    first = out.to_pylist()[2]
    assert (first["tenor_kind"], first["tenor_start"], first["tenor_end"]) == (
        "month",
        dt.date(2025, 8, 1),
        dt.date(2025, 8, 31),
    )
    assert out.schema.field("as_of").type == pa.timestamp("us", tz="UTC")
    # Naive datetimes are UTC.
    naive = mc.curves.as_of(_hand(), [_at(60).replace(tzinfo=None)])
    assert column(naive, "price") == [71, 80, 50]


def test_a_frequency_steps_from_midnight_across_the_table() -> None:
    # From 9:00 to 10:30, each half hour on the half hour.
    out = mc.curves.as_of(_hand(), "30min")
    assert sorted(set(column(out, "as_of"))) == [_at(0), _at(30), _at(60), _at(90)]
    hourly = mc.curves.as_of(_hand(), "1h")
    assert [(r["curve_id"], r["as_of"], r["price"]) for r in hourly.to_pylist()] == [
        ("a", _at(0), 70),
        ("a", _at(60), 71),
        ("a", _at(60), 80),
        ("b", _at(60), 50),
    ]
    assert mc.curves.as_of(_hand(), "h").equals(hourly)


@pytest.mark.parametrize(
    ("at", "message"),
    [
        ("1m", "minutes are 'min'"),
        ("1D", r'at="1D" gives no time from the table\'s first time, 2025-06-11T09:00:00Z'),
        ("0h", "a step of zero"),
        ("2025-06-11T10:00Z", r"one time goes in a list: at=\['2025-06-11T10:00Z'\]"),
        (NINE, "one time goes in a list"),
        ([], "at least one time"),
        (["10:00"], "ISO 8601 date-time"),
        ([dt.date(2025, 6, 11)], "datetime or ISO string, not date"),
        (3600, "not int"),
    ],
)
def test_bad_times_are_refused(at: Any, message: str) -> None:
    with pytest.raises(mc.InvalidRequest, match=message):
        mc.curves.as_of(_hand(), at)


def test_a_table_without_times_is_refused() -> None:
    table = settlements([("a", "Jul 25", "2025-06-11", 1.0)])
    with pytest.raises(mc.InvalidRequest, match='no column "generated_on"'):
        mc.curves.as_of(table, "1h")
    with pytest.raises(mc.InvalidRequest, match="must be an Arrow table"):
        mc.curves.as_of(table.to_pylist(), "1h")


def _reference(table: pa.Table, times: list[dt.datetime]) -> list[tuple[Any, ...]]:
    """The same answer from pandas: merge_asof, backward, of every curve and
    tenor's values (in time order, the table's later row last at a tie)."""
    values = table.select(["curve_id", "tenor", "generated_on", "price"]).to_pandas()
    values["row"] = np.arange(len(values))
    values = values.sort_values(["generated_on", "row"], kind="stable")
    at = pd.DataFrame({"as_of": pd.to_datetime(sorted(set(times)), utc=True)})
    at["as_of"] = at["as_of"].astype(values["generated_on"].dtype)
    keys = values[["curve_id", "tenor"]].drop_duplicates()
    left = keys.merge(at, how="cross").sort_values("as_of", kind="stable")
    merged = pd.merge_asof(
        left,
        values,
        left_on="as_of",
        right_on="generated_on",
        by=["curve_id", "tenor"],
        direction="backward",
        allow_exact_matches=True,
    ).dropna(subset=["price"])
    rows = [
        (r.curve_id, r.as_of.to_pydatetime(), r.tenor, r.generated_on.to_pydatetime(), r.price)
        for r in merged.itertuples()
    ]
    return sorted(rows, key=lambda r: (r[0], r[1], mc.Tenor.parse(r[2])))


def _answer(out: pa.Table) -> list[tuple[Any, ...]]:
    return [
        (r["curve_id"], r["as_of"], r["tenor"], r["generated_on"], r["price"])
        for r in out.to_pylist()
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_ticks_agree_with_merge_asof(seed: int) -> None:
    rng = np.random.default_rng(seed)
    tenors = ["C 00", "1-5 Jul 25", "Jul 25", "Aug 25", "Q3 25", "Cal 26"]
    n = 500
    # Whole minutes of one morning: many values of a tenor share a time.
    minutes = rng.integers(0, 240, n)
    rows = [
        (f"c{rng.integers(0, 3)}", str(rng.choice(tenors)), _at(int(m)), float(rng.normal(70, 5)))
        for m in minutes
    ]
    table = _ticks(rows)
    times = [_at(float(m)) for m in rng.uniform(-30, 270, 25)] + [_at(int(m)) for m in minutes[:5]]
    out = mc.curves.as_of(table, times)
    assert _answer(out) == _reference(table, times)
    assert out.num_rows > 0
    # A frequency is the list of its times.
    first, last = min(column(table, "generated_on")), max(column(table, "generated_on"))
    midnight = dt.datetime.combine(first.date(), dt.time(), UTC)
    grid = [midnight + dt.timedelta(minutes=15 * k) for k in range(24 * 4)]
    grid = [t for t in grid if first <= t <= last]
    assert _answer(mc.curves.as_of(table, "15min")) == _reference(table, grid)


def test_intraday_history_and_a_recordings_columns(client, crude) -> None:
    history = client.intraday_history(
        crude, "2025-06-10", "2025-06-11", tenors=["Jul 25", "Aug 25"]
    )
    hourly = mc.curves.as_of(history, "1h")
    times = sorted(set(column(hourly, "as_of")))
    assert times[0].minute == 0 and len(times) > 24
    assert _answer(hourly) == _reference(history, times)
    # A recording has no tenor columns, only curve, tenor, time, price and
    # source: the answer is the same.
    recorded = history.select(["curve_id", "tenor", "generated_on", "price"])
    assert mc.curves.as_of(recorded, "1h").equals(hourly)


def test_a_live_feeds_batches(make_emulator, crude) -> None:
    # The world of the suite's emulator (seed 7), its clock running 600
    # times real speed: crude's tenors tick about every 0.3 s.
    em = make_emulator(seed=7, time_scale=600, start=LIVE_START)
    with em.client() as client, client.live(backfill=False) as feed:
        feed.subscribe(crude, "*")
        batches = []
        deadline = time.monotonic() + 3
        for batch in feed.batches(max_rows=500, timeout=0.3):
            batches.append(batch)
            if time.monotonic() > deadline or sum(b.num_rows for b in batches) >= 400:
                break
    ticks = pa.Table.from_batches(batches)
    assert set(column(ticks, "source")) >= {"snapshot", "update"}
    times = sorted(set(column(ticks, "generated_on")))
    at = [*times[:: max(1, len(times) // 10)], times[-1]]
    out = mc.curves.as_of(ticks, at)
    assert out.num_rows > len(crude.contracts)
    assert _answer(out) == _reference(ticks, at)
