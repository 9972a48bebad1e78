"""``mc.plot.forward_curve`` and ``mc.plot.curve_history`` against the
emulator's tables: tenors in calendar order along x, the prices drawn are
the table's, units and dates in the labels."""

from __future__ import annotations

import datetime as dt

import matplotlib.pyplot as plt
from plot_helpers import calendar, curve_on, day_of, days, same, tick_labels

import marketcurves as mc


def months(names):
    """The monthly tenors of ``names``, in calendar order: what is drawn by default."""
    return [t for t in calendar(names) if mc.Tenor.parse(t, strict=False).kind == "month"]


def test_forward_curve_of_the_last_day(settlements, curve):
    ax = mc.plot.forward_curve(settlements)
    last = days(settlements)[-1]
    prices = curve_on(settlements, last)
    tenors = months(prices)
    assert len(tenors) < len(prices), "the table has other kinds, left out by default"
    assert tick_labels(ax.get_xticklabels()) == tenors
    assert tenors != sorted(tenors), "calendar order is not the names' order"
    [line] = ax.get_lines()
    assert list(line.get_xdata()) == list(range(len(tenors)))
    assert list(line.get_ydata()) == [prices[t] for t in tenors]
    assert line.get_label() == str(last)
    assert ax.get_ylabel() == f"price ({curve.units})"
    assert "tenor" in ax.get_xlabel()
    # The table names its curve (marketcurves.curves): its name, not its id.
    assert str(last) in ax.get_title() and curve.name in ax.get_title()


def test_forward_curve_on_a_day_onto_given_axes(settlements):
    _, ax = plt.subplots()
    day = days(settlements)[3]
    assert mc.plot.forward_curve(settlements, on=str(day), ax=ax, color="red") is ax
    prices = curve_on(settlements, day)
    [line] = ax.get_lines()
    assert list(line.get_ydata()) == [prices[t] for t in months(prices)]
    assert line.get_color() == "red"


def test_forward_curve_of_intraday_values_takes_each_tenors_last(intraday):
    day = days(intraday)[-2]
    ax = mc.plot.forward_curve(intraday, on=day)
    prices = curve_on(intraday, day)
    assert tick_labels(ax.get_xticklabels()) == months(prices)
    assert list(ax.get_lines()[0].get_ydata()) == [prices[t] for t in months(prices)]
    # Many values a day: the one drawn is the day's last.
    first = months(prices)[0]
    assert sum(1 for r in intraday.to_pylist() if r["tenor"] == first and day_of(r) == day) > 1


def test_curve_history_draws_a_line_per_day(settlements, curve):
    chosen = [dt.date(2025, 5, 2), dt.date(2025, 5, 30), dt.date(2025, 6, 12)]
    # Given in any order, and as dates, datetimes or text.
    ax = mc.plot.curve_history(settlements, ["2025-06-12", chosen[0], dt.datetime(2025, 5, 30, 9)])
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == [str(d) for d in chosen]
    curves = [curve_on(settlements, d) for d in chosen]
    tenors = months(t for c in curves for t in c)
    assert tick_labels(ax.get_xticklabels()) == tenors
    # A tenor not priced on a day (listed later) is a gap in that day's line.
    assert any(len(months(c)) < len(tenors) for c in curves)
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


def test_kinds_are_series_of_their_own_never_one_line(settlements, curve):
    last = days(settlements)[-1]
    prices = curve_on(settlements, last)
    ax = mc.plot.forward_curve(settlements, kinds="all", curve=curve)
    tenors = calendar(prices)
    assert tick_labels(ax.get_xticklabels()) == tenors
    kind = {t: mc.Tenor.parse(t, strict=False).kind for t in tenors}
    lines = ax.get_lines()
    assert len(lines) == len(set(kind.values())) > 1
    styles = set()
    for line in lines:
        drawn = [tenors[int(x)] for x in line.get_xdata()]
        # One kind per line, its prices in calendar order.
        assert len({kind[t] for t in drawn}) == 1, drawn
        assert list(line.get_ydata()) == [prices[t] for t in drawn]
        assert line.get_label().startswith(f"{last}, ")
        styles.add(str(line.get_linestyle()))
    assert len(styles) == len(lines), "each kind has its own line style"
    # Named by the curve, not its id.
    assert curve.name in ax.get_title() and curve.id not in ax.get_title()
    plt.close("all")
    quarters = mc.plot.forward_curve(settlements, kinds="quarter")
    assert all(t.startswith("Q") for t in tick_labels(quarters.get_xticklabels()))


def test_curve_history_keeps_kinds_apart_and_names_the_curve(settlements, curve):
    chosen = ["2025-05-02", "2025-06-12"]
    ax = mc.plot.curve_history(settlements, chosen, kinds=["month", "quarter"], curve=curve)
    lines = ax.get_lines()
    # A line per day and kind; the legend names each day once.
    assert len(lines) == 4
    assert [t.get_text() for t in ax.get_legend().get_texts()] == chosen
    assert "quarters dashed" in ax.get_title() and curve.name in ax.get_title()


def test_bad_kinds_are_refused_before_drawing(settlements):
    figures = plt.get_fignums()
    for kinds, message in [
        ("months", "kinds must name tenor kinds"),
        ([], "kinds must name tenor kinds"),
        (3, "kinds must be"),
        ("window", "no tenor of kind window"),
    ]:
        try:
            mc.plot.forward_curve(settlements, kinds=kinds)
        except mc.InvalidRequest as refused:
            assert message in str(refused), refused
        else:
            raise AssertionError(f"kinds={kinds!r} was taken")
    assert plt.get_fignums() == figures


def test_a_colormap_matplotlib_lacks_is_refused_before_drawing(settlements):
    figures = plt.get_fignums()
    draw = [
        lambda cmap: mc.plot.curve_history(settlements, cmap=cmap),
        lambda cmap: mc.plot.heatmap(settlements, cmap=cmap),
    ]
    for plot in draw:
        for cmap, message in [
            ("viridiss", "cmap='viridiss' is not a matplotlib colormap; did you mean 'viridis'"),
            ("no such map", "cmap='no such map' is not a matplotlib colormap"),
            (3, "cmap must be the name of a matplotlib colormap, not int"),
        ]:
            try:
                plot(cmap)
            except mc.InvalidRequest as refused:
                assert message in str(refused), refused
            else:
                raise AssertionError(f"cmap={cmap!r} was taken")
    assert plt.get_fignums() == figures
    # A colormap it has still draws.
    ax = mc.plot.heatmap(settlements, cmap="magma")
    assert ax.images[0].get_cmap().name == "magma"
