"""``mc.plot.forward_curve`` of a daily curve built by ``mc.curves.build``:
the curve along delivery dates, over its contracts' steps by tenor kind,
and the curve named by the catalogue's name."""

from __future__ import annotations

import datetime as dt
import math

import matplotlib.pyplot as plt
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from plot_helpers import days, same

import marketcurves as mc

ON = dt.date(2025, 12, 15)
#: Months, a window inside January, the first quarter (left out of the
#: build: its months cover it) and the second quarter.
CONTRACTS = [
    ("1-5 Jan 26", 72.5),
    ("Jan 26", 72.0),
    ("Feb 26", 70.5),
    ("Mar 26", 69.8),
    ("Q1 26", 71.0),
    ("Q2 26", 68.0),
    ("C 00", 73.0),
]


def _contracts(curve_id: str = "brent") -> pa.Table:
    rows = [(t, p) for t, p in CONTRACTS]
    return pa.table(
        {
            "curve_id": [curve_id] * len(rows) * 2,
            "tenor": [t for t, _ in rows] * 2,
            "date": [ON - dt.timedelta(days=1)] * len(rows) + [ON] * len(rows),
            "price": [p - 1 for _, p in rows] + [p for _, p in rows],
            "units": ["$/bbl"] * len(rows) * 2,
        }
    )


def _steps(*names: str) -> tuple[list[dt.date], list[float]]:
    """The x and y data of a kind's steps: each contract from its first day
    to the day after its last, at its price, NaN between."""
    prices = dict(CONTRACTS)
    xs: list[dt.date] = []
    ys: list[float] = []
    for name in names:
        tenor = mc.Tenor.parse(name)
        after = tenor.end + dt.timedelta(days=1)
        xs += [tenor.start, after, after]
        ys += [prices[name], prices[name], math.nan]
    return xs, ys


def test_the_built_curve_over_its_contracts_steps_by_kind() -> None:
    contracts = _contracts()
    built = mc.curves.build(contracts)
    ax = mc.plot.forward_curve(contracts, built=built)
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == [
        "months",
        "quarters",
        "windows",
        "daily forward curve",
    ]
    months, quarters, windows, curve = lines
    for line, names in [
        (months, ["Jan 26", "Feb 26", "Mar 26"]),
        (quarters, ["Q1 26", "Q2 26"]),
        (windows, ["1-5 Jan 26"]),
    ]:
        xs, ys = _steps(*names)
        assert list(line.get_xdata()) == xs
        assert same(line.get_ydata(), ys)
    # The curve of the last date, day by day: C 00 has no step.
    last = built.filter(pc.equal(built["date"], ON))
    assert list(curve.get_xdata()) == last["delivery"].to_pylist()
    assert list(curve.get_ydata()) == last["forward"].to_pylist()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "months",
        "quarters",
        "windows",
        "daily forward curve",
    ]
    assert ax.get_xlabel() == "delivery"
    assert ax.get_ylabel() == "price ($/bbl)"
    assert "daily forward curve as of 2025-12-15" in ax.get_title()
    assert "brent" in ax.get_title()


def test_build_output_plots_directly_on_any_of_its_dates() -> None:
    built = mc.curves.build(_contracts(), method="flat")
    _, given = plt.subplots()
    ax = mc.plot.forward_curve(built, on="2025-12-14", ax=given, color="red")
    assert ax is given
    [line] = ax.get_lines()
    day = built.filter(pc.equal(built["date"], dt.date(2025, 12, 14)))
    assert list(line.get_ydata()) == day["forward"].to_pylist()
    assert line.get_color() == "red"
    assert ax.get_ylabel() == "price"
    assert "as of 2025-12-14" in ax.get_title()
    with pytest.raises(mc.InvalidRequest, match="built has no curve on 2025-12-01"):
        mc.plot.forward_curve(built, on="2025-12-01")


def test_a_curve_built_from_times_is_drawn_as_of_the_days_last() -> None:
    times = [dt.datetime(2025, 12, 15, h, tzinfo=dt.UTC) for h in (9, 16)]
    table = pa.table(
        {
            "curve_id": ["brent"] * 4,
            "tenor": ["Jan 26", "Feb 26"] * 2,
            "generated_on": pa.array([times[0]] * 2 + [times[1]] * 2, pa.timestamp("us", tz="UTC")),
            "price": [70.0, 71.0, 72.0, 73.0],
        }
    )
    built = mc.curves.build(table, method="flat")
    ax = mc.plot.forward_curve(table, on=ON, built=built)
    assert "as of 2025-12-15 16:00:00 UTC" in ax.get_title()
    months = ax.get_lines()[0]
    assert same(months.get_ydata(), [72.0, 72.0, math.nan, 73.0, 73.0, math.nan])


def test_the_title_names_the_curve_of_the_catalogue(settlements, curve, jet) -> None:
    built = mc.curves.build(settlements)
    ax = mc.plot.forward_curve(settlements, built=built, curve=curve)
    assert curve.name and curve.name in ax.get_title()
    assert curve.id not in ax.get_title()
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels[-1] == "daily forward curve"
    assert set(labels[:-1]) <= {"months", "quarters", "windows", "other"}
    assert "months" in labels
    assert ax.get_ylabel() == f"price ({curve.units})"
    # A catalogue finds the curve by the table's id; the tenor plot takes it too.
    catalogue = mc.Catalogue(jet)
    by_catalogue = mc.plot.forward_curve(settlements, curve=catalogue)
    assert curve.name in by_catalogue.get_title()
    assert str(days(settlements)[-1]) in by_catalogue.get_title()
    other = next(c for c in jet if c.id != curve.id)
    with pytest.raises(mc.InvalidRequest, match=f"table holds curve {curve.id}"):
        mc.plot.forward_curve(settlements, curve=other)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda t, b: mc.plot.forward_curve(_contracts("wti"), built=b),
            "table holds curve wti and built curve brent",
        ),
        (lambda t, b: mc.plot.forward_curve(t, built=t), "built is not a built curve"),
        (lambda t, b: mc.plot.forward_curve(t, built=b.slice(0, 0)), "built is empty"),
        (lambda t, b: mc.plot.forward_curve(t, curve="brent"), "curve must be a Curve"),
        (
            lambda t, b: mc.plot.forward_curve(t, built=b, on="2026-01-01"),
            "built has no curve on 2026-01-01",
        ),
        (
            lambda t, b: mc.plot.forward_curve(t.drop_columns(["date"]), built=b),
            "lacks the column",
        ),
    ],
)
def test_bad_input_is_refused_before_drawing(call, message) -> None:
    table = _contracts()
    with pytest.raises(mc.InvalidRequest, match=message):
        call(table, mc.curves.build(table))
    assert not plt.get_fignums()


def test_a_built_curve_without_contracts_at_its_date_is_refused() -> None:
    built = mc.curves.build(_contracts())
    earlier = _contracts().filter(pc.equal(pc.field("date"), ON))
    moved = earlier.set_column(2, "date", pa.array([ON - dt.timedelta(days=1)] * earlier.num_rows))
    with pytest.raises(mc.InvalidRequest, match="table has no contract at 2025-12-15"):
        mc.plot.forward_curve(moved, built=built)
    assert not plt.get_fignums()
