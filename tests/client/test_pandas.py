"""pandas views: ``mc.to_pandas`` in each of its modes, and ``mc.forward_curve``."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest

import marketcurves as mc

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

RANGE = ("2025-06-02", "2025-06-13")
NESTED = ["dependencies", "metadata"]
ARROW_BACKED = int(pd.__version__.split(".")[0]) >= 2
needs_arrow_dtype = pytest.mark.skipif(not ARROW_BACKED, reason="pd.ArrowDtype needs pandas 2")
#: The modes this pandas has ("arrow" needs pd.ArrowDtype), and the same as
#: test parameters.
MODES = ["arrow", "python", "drop"] if ARROW_BACKED else ["python", "drop"]
EACH_MODE = [pytest.param("arrow", marks=needs_arrow_dtype), "python", "drop"]


@pytest.fixture(scope="module")
def settled(client, mixed):
    return client.settlements(mixed["id"], *RANGE)


@pytest.fixture(scope="module")
def composite(wire, curves):
    """Settlements of a licensed curve with continuous tenors (no dates) whose
    records name the curves they are made of (``dependencies``)."""
    for curve in curves:
        continuous = [t for t in curve["contracts"] if t.startswith("C ")]
        if curve["quotation"] == "Sales" or not continuous:
            continue
        if any(row["dependencies"] for row in wire.settlements(curve["id"], continuous[0], *RANGE)):
            return curve
    pytest.fail("no curve with continuous tenors has dependencies")


@pytest.fixture(scope="module")
def composite_settled(client, composite):
    table = client.settlements(composite["id"], *RANGE)
    assert any(table["dependencies"].to_pylist()) and any(table["metadata"].to_pylist())
    assert table["tenor_start"].null_count > 0, "continuous tenors have no dates"
    return table


def plain(value: Any) -> Any:
    """A value as ``to_pylist`` gives it: lists (not arrays) and None for
    every form of missing (``pd.NA``, NaN, None)."""
    if hasattr(value, "tolist") and not isinstance(value, (str, pd.Timestamp)):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    return value


def addresses(column: Any) -> list[int]:
    """Where each buffer of each chunk of a column is in memory."""
    return [b.address for chunk in column.chunks for b in chunk.buffers() if b is not None]


@pytest.mark.parametrize("nested", EACH_MODE)
def test_every_mode_holds_the_tables_values(composite_settled, nested):
    table = composite_settled
    frame = mc.to_pandas(table, nested=nested)
    kept = [c for c in table.column_names if not (nested == "drop" and c in NESTED)]
    assert list(frame.columns) == kept
    assert len(frame) == table.num_rows
    for column in kept:
        expected = [plain(v) for v in table[column].to_pylist()]
        assert [plain(v) for v in frame[column]] == expected, column


def test_drop_leaves_out_exactly_the_nested_columns(composite_settled):
    nested = [f.name for f in composite_settled.schema if pa.types.is_nested(f.type)]
    assert nested == NESTED
    dropped = mc.to_pandas(composite_settled, nested="drop")
    assert list(dropped.columns) == [c for c in composite_settled.column_names if c not in NESTED]
    whole = mc.to_pandas(composite_settled)
    pd.testing.assert_frame_equal(dropped, whole.drop(columns=NESTED))


@needs_arrow_dtype
def test_arrow_mode_keeps_nested_strings_and_dates_in_arrow(composite_settled):
    table = composite_settled
    frame = mc.to_pandas(table)
    assert frame.dtypes.equals(mc.to_pandas(table, nested="arrow").dtypes), "the default"
    for column in ["curve_id", "tenor_start", "tenor_end", "date", "units", *NESTED]:
        assert frame[column].dtype == pd.ArrowDtype(table.schema.field(column).type), column
    # Backed by the table's own buffers: the DataFrame made no copy of them.
    for column in ["curve_id", "date", "units", *NESTED]:
        assert addresses(pa.array(frame[column].array)) == addresses(table[column]), column
    # Dates still read as dates, and now have .dt; a missing one is pd.NA.
    starts = frame["tenor_start"]
    assert type(starts.dropna().iloc[0]) is dt.date
    assert starts.isna().sum() == table["tenor_start"].null_count > 0
    assert (starts.dt.month.dropna() == [d.month for d in starts.dropna()]).all()
    on_day = frame[frame["date"] == dt.date(2025, 6, 10)]
    assert len(on_day) == sum(d == dt.date(2025, 6, 10) for d in table["date"].to_pylist()) > 0
    # Nested values read as pyarrow's to_pylist gives them.
    assert frame["dependencies"].list.len().tolist() == [
        len(v) for v in table["dependencies"].to_pylist()
    ]


def test_python_mode_gives_python_objects(composite_settled):
    frame = mc.to_pandas(composite_settled, nested="python")
    for column in ("tenor_start", "tenor_end", "date", *NESTED):
        assert frame[column].dtype == object, column
    assert all(v is None or type(v) is dt.date for v in frame["tenor_start"])
    assert any(v is None for v in frame["tenor_start"])
    first = next(v for v in frame["dependencies"] if len(v))
    assert set(first[0]) == {"id", "name", "value", "units", "tenor_name"}
    assert all(isinstance(pair, tuple) for pair in frame["metadata"].iloc[0])


@pytest.mark.parametrize("nested", EACH_MODE)
def test_every_mode_types_time_and_tenor(client, mixed, coarse, settled, h, nested):
    frame = mc.to_pandas(settled, nested=nested)
    stamps = frame["generated_on"]
    assert isinstance(stamps.dtype, pd.DatetimeTZDtype) and str(stamps.dt.tz) == "UTC"
    assert [t.to_pydatetime() for t in stamps] == settled["generated_on"].to_pylist()
    assert frame["price"].dtype == "float64"
    assert isinstance(frame["tenor_kind"].dtype, pd.CategoricalDtype)

    tenors = frame["tenor"]
    assert isinstance(tenors.dtype, pd.CategoricalDtype) and tenors.cat.ordered
    assert list(tenors.cat.categories) == h.calendar_order(mixed["contracts"])
    assert list(tenors.astype(str)) == settled["tenor"].to_pylist()

    names = ["Aug 25", "Q3 25", "Jul 25"]
    intraday = client.intraday_history(coarse["id"], "2025-06-12", "2025-06-13", names)
    frame = mc.to_pandas(intraday, nested=nested)
    assert str(frame["generated_on"].dt.tz) == "UTC"
    order = h.calendar_order(names)
    assert list(frame["tenor"].cat.categories) == order == ["Jul 25", "Q3 25", "Aug 25"]
    # Ordered: comparisons and sorting follow the calendar, not the alphabet.
    assert frame["tenor"].min() == "Jul 25" and frame["tenor"].max() == "Aug 25"
    assert list(frame.sort_values("tenor")["tenor"].unique()) == order


@pytest.mark.parametrize("nested", EACH_MODE)
def test_groupby_tenor_is_in_calendar_order(settled, mixed, h, nested):
    frame = mc.to_pandas(settled, nested=nested)
    last = frame.groupby("tenor", observed=True)["price"].last()
    assert [str(t) for t in last.index] == h.calendar_order(settled["tenor"].to_pylist())
    expected = {}
    for tenor, price in zip(
        settled["tenor"].to_pylist(), settled["price"].to_pylist(), strict=False
    ):
        expected[tenor] = price  # rows are by tenor then date: the last one wins
    assert {str(t): p for t, p in last.items()} == expected
    by_day = frame.groupby("date")["price"].count()
    assert by_day.sum() == settled.num_rows and len(by_day) == 10  # two weeks of weekdays


@pytest.mark.parametrize("nested", EACH_MODE)
def test_frames_plot(settled, nested):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = mc.to_pandas(settled, nested=nested)
    try:
        wide = frame.pivot_table(index="date", columns="tenor", values="price", observed=True)
        axes = wide.plot()
        assert len(axes.get_lines()) == frame["tenor"].nunique()
        assert all(len(line.get_xdata()) == 10 for line in axes.get_lines())
        ticks = frame[frame["tenor"] == "Jul 25"].plot(x="generated_on", y="price")
        assert list(ticks.get_lines()[0].get_ydata()) == list(
            frame.loc[frame["tenor"] == "Jul 25", "price"]
        )
        _, axes = plt.subplots()
        mc.forward_curve(settled).plot(ax=axes)
        assert len(axes.get_lines()[0].get_ydata()) == frame["tenor"].nunique()
    finally:
        plt.close("all")


def test_catalogue_to_pandas_takes_the_same_modes(client):
    catalogue = client.catalogue(vertical="Naphtha")
    table = catalogue.to_arrow()
    nested = ["filters", "properties", "contracts"]
    for mode in MODES:
        frame = catalogue.to_pandas(nested=mode)
        kept = [c for c in table.column_names if not (mode == "drop" and c in nested)]
        assert list(frame.columns) == kept
        for column in kept:
            expected = [plain(v) for v in table[column].to_pylist()]
            assert [plain(v) for v in frame[column]] == expected, (mode, column)
    with pytest.raises(mc.InvalidRequest, match="nested"):
        catalogue.to_pandas(nested="none")


def test_a_bad_nested_is_refused_before_anything_else(settled):
    for bad in ("objects", "ARROW", "", True, 1):
        with pytest.raises(mc.InvalidRequest) as error:
            # Not a table either: the argument is checked first.
            mc.to_pandas("not a table", nested=bad)  # type: ignore[arg-type]
        message = str(error.value)
        assert message.startswith("nested must be one of 'arrow', 'python', 'drop'"), message
        assert repr(bad) in message
    with pytest.raises(mc.InvalidRequest, match=r"table must be a pyarrow\.Table"):
        mc.to_pandas("not a table")


def test_tables_of_the_arrow_interface_are_taken(settled):
    batch = settled.to_batches()[0]
    assert mc.to_pandas(batch, nested="drop").equals(mc.to_pandas(pa.table(batch), nested="drop"))


@pytest.mark.skipif(ARROW_BACKED, reason="pandas 2 and later have pd.ArrowDtype")
def test_before_pandas_2_python_is_the_default_and_arrow_is_refused(settled):
    assert mc.to_pandas(settled)["dependencies"].dtype == object
    with pytest.raises(mc.InvalidRequest, match=r"pandas 2\.0"):
        mc.to_pandas(settled, nested="arrow")


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
    for same_day in ("2025-06-10", dt.datetime(2025, 6, 10, 18, tzinfo=dt.UTC)):
        assert mc.forward_curve(settled, on=same_day).equals(curve)


def test_forward_curve_defaults_to_the_latest_day(settled):
    latest = max(settled["date"].to_pylist())
    assert latest == dt.date.fromisoformat(RANGE[1])
    assert mc.forward_curve(settled).equals(mc.forward_curve(settled, on=latest))
    assert not mc.forward_curve(settled).equals(mc.forward_curve(settled, on="2025-06-12"))


def test_forward_curve_of_no_rows_is_empty(settled):
    assert mc.forward_curve(settled.slice(0, 0)).empty
    assert mc.forward_curve(settled, on="2025-06-14").empty  # a Saturday
    with pytest.raises(mc.InvalidRequest, match="on"):
        mc.forward_curve(settled, on="June")


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
