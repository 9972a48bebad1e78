"""Forward curves drawn: one day's, and several days' overlaid."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from marketcurves import _deprecation
from marketcurves.exceptions import InvalidRequest
from marketcurves.plot import _daily, _figure, _input, _kinds

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from marketcurves.catalogue import Catalogue, Curve

    DayLike = _dt.date | _dt.datetime | str

#: Days ``curve_history`` draws when it is not told which.
HISTORY_DAYS = 6

#: Each kind's line, where several kinds are drawn.
LINE_STYLES = {
    "month": "-",
    "quarter": "--",
    "window": ":",
    "continuous": "-.",
    "other": (0, (1, 3)),
}
PLURALS = {
    "month": "months",
    "quarter": "quarters",
    "window": "windows",
    "continuous": "continuous",
    "other": "other tenors",
}


@_deprecation.positional_options("ax")
def forward_curve(
    table: Any,
    on: DayLike | None = None,
    *,
    ax: Axes | None = None,
    built: Any = None,
    curve: Curve | Catalogue | None = None,
    kinds: str | Iterable[str] | None = None,
    **style: Any,
) -> Axes:
    """The forward curve on one day: each tenor's last price that day, the
    tenors in calendar order along the x axis and the price, in the table's
    units, up the y axis; the day is in the title and the legend.

    Each tenor kind is its own series, with its own line style when there
    are several: a line never joins a month to a quarter or to ``C 00``.

    A daily curve built by :func:`marketcurves.curves.build` is drawn along
    delivery dates instead: given as ``table``, alone, or as ``built`` with
    the contracts it was built from as ``table``, drawn under it as flat
    steps across their delivery days, months, quarters and windows as
    separate, labelled series (contracts without delivery days, such as
    ``C 00``, have no step). See [Plots](../plots.md#a-built-daily-curve).

    Args:
        table: one curve's prices in one unit: settlements (the day of a
            row is its ``date``) or intraday, assessment or live prices
            (the UTC day of ``generated_on``); or a built daily curve. A
            ``pyarrow.Table`` or anything with the Arrow PyCapsule
            interface.
        on: the day drawn (a date, a datetime's UTC day, or
            ``"YYYY-MM-DD"``); None for the table's last. For a built
            curve keyed by time, the last time of that day.
        ax: the matplotlib ``Axes`` to draw on; None for a new figure's.
        built: a daily curve built from ``table`` by
            :func:`marketcurves.curves.build`, drawn over its contracts.
        curve: the catalogue's :class:`~marketcurves.Curve` (or the
            :class:`~marketcurves.Catalogue`, to look the table's curve up
            in), to name the curve in the title by its name rather than its
            id.
        kinds: the tenor kinds drawn: None for months (or, in a table
            without months, its most frequent kind), ``"all"``, a kind
            (``"month"``, ``"quarter"``, ``"window"``, ``"continuous"``,
            ``"other"``) or a list of kinds. Not for a built curve.
        **style: passed to ``Axes.plot`` (``color=``, ``marker=``, ...);
            for a built curve, to the curve's line.

    Returns:
        The Axes drawn on: ``ax`` if given, else a new figure's.

    Raises:
        InvalidRequest: an empty table, several curves or units, a day
            without prices, kinds the table does not have, a ``curve`` of
            another id, a ``built`` table that is not a built curve or is
            of another curve; before anything is drawn.
        ImportError: matplotlib is not installed (the ``plot`` extra).

    Examples:
        >>> history = client.settlements(curve, "2026-01-12", "2026-01-14")
        >>> ax = mc.plot.forward_curve(history, curve=curve)
        >>> print(ax.get_title())
        forward curve on 2026-01-14
        Jet Fob AG
        >>> [label.get_text() for label in ax.get_xticklabels()][:4], ax.get_ylabel()
        (['Jan 26', 'Feb 26', 'Mar 26', 'Apr 26'], 'price ($/mt)')
        >>> ax.figure.savefig("forward-curve.png")

        A daily curve over the contracts it was built from:

        >>> last_day = client.settlements(curve, "2026-01-14", "2026-01-14")
        >>> ax = mc.plot.forward_curve(last_day, built=mc.curves.build(last_day), curve=curve)
        >>> [line.get_label() for line in ax.lines]
        ['months', 'quarters', 'daily forward curve']
    """
    if built is not None:
        contracts = _input.table(table, "table")
        built_table = _daily.built(built, "built")
        built_id = _input.curve_id(built_table, "built", "forward_curve")
        name = _input.curve_name(curve, built_id, contracts, built_table)
        return _daily.draw(built_table, contracts, on, ax, name, style)
    if _daily.is_built(_input.as_arrow(table, "table")):
        built_table = _daily.built(table, "table")
        built_id = _input.curve_id(built_table, "table", "forward_curve")
        name = _input.curve_name(curve, built_id, built_table)
        return _daily.draw(built_table, None, on, ax, name, style)
    table = _input.table(table, "table")
    curve_id = _input.curve_id(table, "table", "forward_curve")
    name = _input.curve_name(curve, curve_id, table)
    unit = _input.units([("table", table)])
    curves = _input.Curves(table, "table")
    day = curves.days[-1] if on is None else _input.day_arg(on, "on")
    prices = curves.on(day, "table")
    chosen, series = _series(curves.tenors([day]), kinds)
    ax = _figure.axes(ax)
    for kind, (positions, names) in series.items():
        label = str(day) if len(series) == 1 else f"{day}, {PLURALS[kind]}"
        look: dict[str, Any] = {"marker": "o", "label": label}
        if len(series) > 1:
            look["linestyle"] = LINE_STYLES[kind]
        ax.plot(positions, curves.line(prices, names), **{**look, **style})
    _figure.tenor_axis(ax, chosen)
    ax.set_ylabel(_input.price_label(unit))
    _figure.title(ax, name or curve_id, f"forward curve on {day}")
    ax.legend(title="date")
    return ax


def _series(
    tenors: list[str], kinds: Any
) -> tuple[list[str], dict[str, tuple[list[int], list[str]]]]:
    """The tenors of the kinds chosen (the x axis, in calendar order) and,
    by kind, each series' positions on that axis and tenors."""
    wanted = _kinds.chosen(kinds, tenors)
    chosen = [t for t in tenors if _kinds.kind_of(t) in wanted]
    position = {t: i for i, t in enumerate(chosen)}
    series = {
        kind: ([position[t] for t in names], names)
        for kind, names in _kinds.split(chosen, wanted).items()
    }
    return chosen, series


@_deprecation.positional_options("ax")
def curve_history(
    table: Any,
    dates: Iterable[DayLike] | DayLike | None = None,
    *,
    ax: Axes | None = None,
    cmap: str = "viridis",
    curve: Curve | Catalogue | None = None,
    kinds: str | Iterable[str] | None = None,
) -> Axes:
    """Several days' forward curves of one curve overlaid, to show how it
    moved: one line per day, coloured along ``cmap`` from the oldest to the
    newest, the tenors of all of them in calendar order along the x axis,
    a tenor missing on a day left as a gap in its line.

    Args:
        table: one curve's prices in one unit, as for :func:`forward_curve`.
        dates: the days to draw (dates, datetimes or ISO strings; one, or
            several); None for six days spread evenly from the table's
            first day to its last (every day if it has fewer).
        ax: the matplotlib ``Axes`` to draw on; None for a new figure's.
        cmap: the name of a matplotlib colormap.
        curve: the catalogue's :class:`~marketcurves.Curve` (or the
            :class:`~marketcurves.Catalogue`, to look the table's curve up
            in), to name the curve in the title by its name rather than its
            id.
        kinds: the tenor kinds drawn, as for :func:`forward_curve`: each
            kind its own line style, each day its own colour.

    Returns:
        The Axes drawn on: ``ax`` if given, else a new figure's.

    Raises:
        InvalidRequest: an empty table, several curves or units, an empty
            ``dates``, a day without prices (naming it and the table's
            span), kinds the table does not have, a ``curve`` of another
            id, or a ``cmap`` matplotlib does not have; before anything is
            drawn.
        ImportError: matplotlib is not installed (the ``plot`` extra).

    Examples:
        >>> history = client.settlements(curve, "2026-01-12", "2026-01-14")
        >>> ax = mc.plot.curve_history(history, ["2026-01-12", "2026-01-14"], curve=curve)
        >>> print(ax.get_title())
        forward curves on 2 days, 2026-01-12 to 2026-01-14
        Jet Fob AG
        >>> ax.get_legend_handles_labels()[1]
        ['2026-01-12', '2026-01-14']
    """
    table = _input.table(table, "table")
    curve_id = _input.curve_id(table, "table", "curve_history")
    name = _input.curve_name(curve, curve_id, table)
    unit = _input.units([("table", table)])
    curves = _input.Curves(table, "table")
    if dates is None:
        chosen = _input.spread_days(curves.days, HISTORY_DAYS)
    else:
        if isinstance(dates, (str, _dt.date)):
            dates = [dates]
        chosen = sorted({_input.day_arg(d, "dates") for d in dates})
        if not chosen:
            raise InvalidRequest("dates is empty: give at least one day, or None for six")
    prices = [curves.on(day, "table") for day in chosen]
    tenors, series = _series(curves.tenors(chosen), kinds)
    colours = _figure.colormap(cmap)
    ax = _figure.axes(ax)
    for i, (day, by_tenor) in enumerate(zip(chosen, prices, strict=True)):
        # From a third of the way along the map: its lightest end is hard to see.
        shade = 1.0 if len(chosen) == 1 else 0.3 + 0.7 * i / (len(chosen) - 1)
        for n, (kind, (positions, names)) in enumerate(series.items()):
            # The day in the legend once; the kinds by their line styles.
            label = str(day) if n == 0 else "_nolegend_"
            style = LINE_STYLES[kind] if len(series) > 1 else "-"
            line = curves.line(by_tenor, names)
            ax.plot(positions, line, marker=".", color=colours(shade), linestyle=style, label=label)
    _figure.tenor_axis(ax, tenors)
    ax.set_ylabel(_input.price_label(unit))
    if len(chosen) == 1:
        what = f"forward curve on {chosen[0]}"
    else:
        what = f"forward curves on {len(chosen)} days, {chosen[0]} to {chosen[-1]}"
    if len(series) > 1:
        what += "; " + ", ".join(
            f"{PLURALS[k]} {'solid' if LINE_STYLES[k] == '-' else _dash_name(k)}" for k in series
        )
    _figure.title(ax, name or curve_id, what)
    ax.legend(title="date")
    return ax


def _dash_name(kind: str) -> str:
    return {"quarter": "dashed", "window": "dotted", "continuous": "dash-dot"}.get(kind, "sparse")
