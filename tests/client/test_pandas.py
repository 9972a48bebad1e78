"""pandas views: ``mc.to_pandas`` and ``mc.forward_curve``."""

from __future__ import annotations

import datetime as dt

import pytest

import marketcurves as mc

pd = pytest.importorskip("pandas")

RANGE = ("2025-06-02", "2025-06-13")


@pytest.fixture(scope="module")
def settled(client, mixed):
    return client.settlements(mixed["id"], *RANGE)


def test_to_pandas_types_the_columns(client, mixed, coarse, settled, h):
    frame = mc.to_pandas(settled)
    assert len(frame) == settled.num_rows > 0
    assert list(frame.columns) == settled.column_names

    stamps = frame["generated_on"]
    assert isinstance(stamps.dtype, pd.DatetimeTZDtype) and str(stamps.dt.tz) == "UTC"
    assert [t.to_pydatetime() for t in stamps] == settled["generated_on"].to_pylist()

    tenors = frame["tenor"]
    assert isinstance(tenors.dtype, pd.CategoricalDtype) and tenors.cat.ordered
    assert list(tenors.cat.categories) == h.calendar_order(mixed["contracts"])
    assert list(tenors.astype(str)) == settled["tenor"].to_pylist()

    for column in ("tenor_start", "tenor_end", "date"):
        values = frame[column].tolist()
        assert values == settled[column].to_pylist()
        assert all(v is None or type(v) is dt.date for v in values), column
    assert any(v is None for v in frame["tenor_start"]), "continuous tenors have no dates"

    tenors = ["Aug 25", "Q3 25", "Jul 25"]
    intraday = client.intraday_history(coarse["id"], "2025-06-12", "2025-06-13", tenors)
    frame = mc.to_pandas(intraday)
    assert str(frame["generated_on"].dt.tz) == "UTC"
    order = h.calendar_order(tenors)
    assert list(frame["tenor"].cat.categories) == order == ["Jul 25", "Q3 25", "Aug 25"]
    # Ordered: comparisons and sorting follow the calendar, not the alphabet.
    assert frame["tenor"].min() == "Jul 25" and frame["tenor"].max() == "Aug 25"
    assert list(frame.sort_values("tenor")["tenor"].unique()) == order


def test_forward_curve_on_a_day_is_that_days_settlements(settled, wire, mixed, h):
    day = dt.date(2025, 6, 10)
    curve = mc.forward_curve(settled, on=day)
    expected = {
        row["tenor"]: row["price"]
        for t in mixed["contracts"]
        for row in wire.settlements(mixed["id"], t, day.isoformat(), day.isoformat())
    }
    assert expected
    assert isinstance(curve, pd.Series)
    assert [str(t) for t in curve.index] == h.calendar_order(expected)
    assert curve.to_dict() == expected
    for same_day in ("2025-06-10", dt.datetime(2025, 6, 10, 18, tzinfo=dt.timezone.utc)):
        assert mc.forward_curve(settled, on=same_day).equals(curve)


def test_forward_curve_defaults_to_the_latest_day(settled):
    latest = max(settled["date"].to_pylist())
    assert latest == dt.date.fromisoformat(RANGE[1])
    assert mc.forward_curve(settled).equals(mc.forward_curve(settled, on=latest))
    assert not mc.forward_curve(settled).equals(mc.forward_curve(settled, on="2025-06-12"))


def test_forward_curve_of_intraday_values_is_the_last_price_of_the_day(client, wire, coarse, h):
    tenors = ["Q3 25", "Jul 25", "Aug 25"]
    table = client.intraday_history(coarse["id"], "2025-06-11", "2025-06-12", tenors)
    curve = mc.forward_curve(table, on="2025-06-11")
    expected = {
        t: wire.intraday_history(coarse["id"], t, "2025-06-11", "2025-06-11")[-1]["price"]
        for t in tenors
    }
    assert [str(t) for t in curve.index] == h.calendar_order(tenors)
    assert curve.to_dict() == expected
