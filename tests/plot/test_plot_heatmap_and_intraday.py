"""``mc.plot.heatmap`` and ``mc.plot.settlements_and_intraday``: the cells
and points drawn are the tables' values, in calendar order, with dates and
units on the axes."""

from __future__ import annotations

import datetime as dt

import matplotlib.dates as mdates
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from plot_helpers import calendar, days, tick_labels

import marketcurves as mc


def test_heatmap_has_a_cell_per_day_and_tenor(settlements, curve):
    ax = mc.plot.heatmap(settlements)
    every_day = days(settlements)
    tenors = calendar(settlements["tenor"].to_pylist())
    cells = ax.images[0].get_array()
    assert cells.shape == (len(every_day), len(tenors))
    assert tick_labels(ax.get_xticklabels()) == tenors
    prices = {(r["date"], r["tenor"]): r["price"] for r in settlements.to_pylist()}
    for i, day in enumerate(every_day):
        for j, tenor in enumerate(tenors):
            if (day, tenor) in prices:
                assert cells[i, j] == prices[day, tenor]
            else:
                assert cells.mask[i, j], (day, tenor)
    assert cells.mask.any(), "a contract listed later has blank days"
    # Dates down the y axis, oldest first, first and last labelled.
    labels = tick_labels(ax.get_yticklabels())
    assert labels[0] == str(every_day[0]) and labels[-1] == str(every_day[-1])
    assert labels == sorted(labels) and set(labels) <= {str(d) for d in every_day}
    assert [every_day[int(t)] for t in ax.get_yticks()] == [
        dt.date.fromisoformat(s) for s in labels
    ]
    assert ax.get_ylabel() == "date"
    [colour_bar] = [a for a in ax.figure.axes if a is not ax]
    assert colour_bar.get_ylabel() == f"price ({curve.units})"


def test_settlements_and_intraday_of_a_tenor(settlements, intraday, tenor, curve):
    ax = mc.plot.settlements_and_intraday(settlements, intraday, mc.Tenor.parse(tenor))
    values, settled = ax.get_lines()
    rows = sorted(
        (r for r in intraday.to_pylist() if r["tenor"] == tenor), key=lambda r: r["generated_on"]
    )
    assert values.get_label() == "intraday" and settled.get_label() == "settlement"
    drawn = values.get_ydata()
    assert not np.isnan(drawn).any(), "values at their usual pace: one unbroken line"
    assert list(drawn) == [r["price"] for r in rows]
    times = mdates.num2date(mdates.date2num(values.get_xdata()))
    assert [t.replace(microsecond=0) for t in times] == [
        r["generated_on"].replace(microsecond=0) for r in rows
    ]
    closes = [r for r in settlements.to_pylist() if r["tenor"] == tenor]
    assert len(settled.get_xdata()) == len(closes) == len(days(settlements))
    assert list(settled.get_ydata()) == [r["price"] for r in closes]
    assert np.all(np.diff(mdates.date2num(settled.get_xdata())) > 0)
    assert ax.get_ylabel() == f"price ({curve.units})"
    assert ax.get_xlabel() == "time (UTC)"
    assert isinstance(ax.xaxis.get_major_formatter(), mdates.ConciseDateFormatter)
    # The tables name their curve (marketcurves.curves): its name, not its id.
    assert tenor in ax.get_title() and curve.name in ax.get_title()
    ax.figure.canvas.draw()
    assert any(label.get_text() for label in ax.get_xticklabels()), "dates are labelled"


def test_the_intraday_line_breaks_over_a_long_pause(settlements, intraday, tenor, curve):
    rows = intraday.filter(pc.equal(intraday["tenor"], tenor)).sort_by("generated_on")
    # A pause of a third of the values, far longer than their usual step.
    third = rows.num_rows // 3
    paused = pa.concat_tables([rows.slice(0, third), rows.slice(2 * third)])
    ax = mc.plot.settlements_and_intraday(settlements, paused, tenor, curve=curve)
    values = ax.get_lines()[0]
    drawn = np.asarray(values.get_ydata(), dtype=float)
    breaks = np.nonzero(np.isnan(drawn))[0]
    assert list(breaks) == [third], "one break, where the pause is"
    assert list(drawn[~np.isnan(drawn)]) == paused["price"].to_pylist()
    assert curve.name in ax.get_title() and curve.id not in ax.get_title()


def test_the_heatmap_names_the_curve_given(client, settlements, curve):
    # The catalogue, in which the table's curve is looked up.
    ax = mc.plot.heatmap(settlements, curve=client.catalogue(vertical="Jet"))
    assert curve.name in ax.get_title() and curve.id not in ax.get_title()
