"""``mc.plot.forward_curve`` and ``mc.plot.curve_history`` against the
emulator's tables: tenors in calendar order along x, the prices drawn are
the table's, units and dates in the labels."""

from __future__ import annotations

import datetime as dt

import matplotlib.pyplot as plt
from plot_helpers import calendar, curve_on, day_of, days, same, tick_labels

import marketcurves as mc


def test_forward_curve_of_the_last_day(settlements, curve):
    ax = mc.plot.forward_curve(settlements)
    last = days(settlements)[-1]
    prices = curve_on(settlements, last)
    tenors = calendar(prices)
    assert tick_labels(ax.get_xticklabels()) == tenors
    assert tenors != sorted(tenors), "calendar order is not the names' order"
    [line] = ax.get_lines()
    assert list(line.get_xdata()) == list(range(len(tenors)))
    assert list(line.get_ydata()) == [prices[t] for t in tenors]
    assert line.get_label() == str(last)
    assert ax.get_ylabel() == f"price ({curve.units})"
    assert "tenor" in ax.get_xlabel()
    assert str(last) in ax.get_title() and curve.id in ax.get_title()


def test_forward_curve_on_a_day_onto_given_axes(settlements):
    _, ax = plt.subplots()
    day = days(settlements)[3]
    assert mc.plot.forward_curve(settlements, on=str(day), ax=ax, color="red") is ax
    prices = curve_on(settlements, day)
    [line] = ax.get_lines()
    assert list(line.get_ydata()) == [prices[t] for t in calendar(prices)]
    assert line.get_color() == "red"


def test_forward_curve_of_intraday_values_takes_each_tenors_last(intraday):
    day = days(intraday)[-2]
    ax = mc.plot.forward_curve(intraday, on=day)
    prices = curve_on(intraday, day)
    assert tick_labels(ax.get_xticklabels()) == calendar(prices)
    assert list(ax.get_lines()[0].get_ydata()) == [prices[t] for t in calendar(prices)]
    # Many values a day: the one drawn is the day's last.
    first = calendar(prices)[0]
    assert sum(1 for r in intraday.to_pylist() if r["tenor"] == first and day_of(r) == day) > 1


def test_curve_history_draws_a_line_per_day(settlements, curve):
    chosen = [dt.date(2025, 5, 2), dt.date(2025, 5, 30), dt.date(2025, 6, 12)]
    # Given in any order, and as dates, datetimes or text.
    ax = mc.plot.curve_history(settlements, ["2025-06-12", chosen[0], dt.datetime(2025, 5, 30, 9)])
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == [str(d) for d in chosen]
    curves = [curve_on(settlements, d) for d in chosen]
    tenors = calendar(t for c in curves for t in c)
    assert tick_labels(ax.get_xticklabels()) == tenors
    # A tenor not priced on a day (listed later) is a gap in that day's line.
    assert any(len(c) < len(tenors) for c in curves)
    for line, prices in zip(lines, curves, strict=False):
        assert same(line.get_ydata(), [prices.get(t, float("nan")) for t in tenors])
    assert ax.get_ylabel() == f"price ({curve.units})"
    assert "2025-05-02" in ax.get_title() and "2025-06-12" in ax.get_title()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [str(d) for d in chosen]


def test_curve_history_spreads_six_days_by_default(settlements):
    ax = mc.plot.curve_history(settlements)
    labels = [line.get_label() for line in ax.get_lines()]
    every = [str(d) for d in days(settlements)]
    assert len(labels) == 6
    assert labels[0] == every[0] and labels[-1] == every[-1]
    assert labels == sorted(labels) and set(labels) <= set(every)
