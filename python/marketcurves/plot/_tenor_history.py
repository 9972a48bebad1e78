"""A tenor's settlements drawn with its intraday values."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from marketcurves import _args, _deprecation
from marketcurves.exceptions import InvalidRequest
from marketcurves.plot import _figure, _input

if TYPE_CHECKING:
    import numpy
    import pyarrow
    from matplotlib.axes import Axes

    from marketcurves._core import Tenor
    from marketcurves.catalogue import Catalogue, Curve


@_deprecation.positional_options("ax")
def settlements_and_intraday(
    settlements: Any,
    intraday: Any,
    tenor: str | Tenor,
    *,
    ax: Axes | None = None,
    curve: Curve | Catalogue | None = None,
) -> Axes:
    """One tenor over time: its intraday values as a line and its
    settlements (end-of-day snapshots) as dots at the time they were taken,
    against UTC time, with the price in the tables' units.

    The intraday line breaks where the values stop for much longer than
    they usually come (a night, a weekend), rather than drawing a straight
    line across.

    Args:
        settlements: a table of
            :meth:`~marketcurves.Client.settlements`, with rows of
            ``tenor``.
        intraday: a table of :meth:`~marketcurves.Client.intraday` or
            :meth:`~marketcurves.Client.intraday_history` (or a recording
            of the live feed), of the same curve and unit, with rows of
            ``tenor``.
        tenor: the tenor drawn, by name or as a
            :class:`~marketcurves.Tenor`.
        ax: the matplotlib ``Axes`` to draw on; None for a new figure's.
        curve: the catalogue's :class:`~marketcurves.Curve` (or the
            :class:`~marketcurves.Catalogue`, to look the tables' curve up
            in), to name the curve in the title.

    Returns:
        The Axes drawn on: ``ax`` if given, else a new figure's. Its lines
        are the intraday values, then the settlements.

    Raises:
        InvalidRequest: an empty table, a tenor missing from either, an
            ``intraday`` without ``generated_on``, two curves or two units
            (naming the table), or a ``curve`` of another id; before
            anything is drawn.
        ImportError: matplotlib is not installed (the ``plot`` extra).

    Examples:
        >>> settled = client.settlements(curve, "2026-01-12", "2026-01-14", tenors="Feb 26")
        >>> ticks = client.intraday_history(curve, "2026-01-12", "2026-01-14", tenors="Feb 26")
        >>> ax = mc.plot.settlements_and_intraday(settled, ticks, "Feb 26", curve=curve)
        >>> print(ax.get_title())
        Feb 26: settlements and intraday values
        Jet Fob AG
        >>> [line.get_label() for line in ax.lines], len(ax.lines[1].get_xdata())
        (['intraday', 'settlement'], 3)
    """
    name = _args.tenor(tenor)
    settlements = _input.table(settlements, "settlements")
    intraday = _input.table(intraday, "intraday")
    if "generated_on" not in intraday.column_names:
        raise InvalidRequest("intraday lacks the column generated_on: give intraday values")
    plot = "settlements_and_intraday"
    ids = {
        _input.curve_id(settlements, "settlements", plot),
        _input.curve_id(intraday, "intraday", plot),
    }
    curves = sorted(i for i in ids if i is not None)
    if len(curves) > 1:
        raise InvalidRequest(
            f"settlements and intraday are of different curves ({', '.join(curves)}): "
            f"give one curve's"
        )
    settled = _input.tenor_rows(settlements, name, "settlements")
    values = _input.tenor_rows(intraday, name, "intraday")
    unit = _input.units([("settlements", settled), ("intraday", values)])
    name_shown = _input.curve_name(curve, curves[0] if curves else None, settlements, intraday)
    ax = _figure.axes(ax)
    times, prices = _broken_at_gaps(_times(values), values["price"].to_numpy())
    ax.plot(times, prices, linewidth=1, label="intraday")
    ax.plot(
        _settlement_times(settled),
        settled["price"].to_numpy(),
        marker="o",
        linestyle="none",
        label="settlement",
    )
    _figure.date_axis(ax, "time (UTC)")
    ax.set_ylabel(_input.price_label(unit))
    shown = name_shown or (curves[0] if curves else None)
    _figure.title(ax, shown, f"{name}: settlements and intraday values")
    ax.legend()
    return ax


#: A pause this many times the values' usual step apart breaks the line.
GAP_STEPS = 10


def _broken_at_gaps(
    times: numpy.ndarray, prices: numpy.ndarray
) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The values with a NaN between two that are more than ``GAP_STEPS``
    usual steps (the median) apart, which matplotlib draws as a break."""
    import numpy as np

    if len(times) < 3:
        return times, prices
    steps = np.diff(times)
    usual = np.median(steps)
    gaps = np.nonzero(steps > usual * GAP_STEPS)[0] + 1
    if len(gaps) == 0 or usual == np.timedelta64(0):
        return times, prices
    # A NaN price at the first time after each gap: the line stops there.
    broken_times = np.insert(times, gaps, times[gaps])
    broken_prices = np.insert(prices.astype(float), gaps, np.nan)
    return broken_times, broken_prices


def _times(table: pyarrow.Table) -> numpy.ndarray:
    """``generated_on`` as UTC datetime64, which matplotlib draws as dates."""
    import pyarrow as pa

    times: numpy.ndarray = table["generated_on"].cast(pa.timestamp("us", tz="UTC")).to_numpy()
    return times


def _settlement_times(table: pyarrow.Table) -> numpy.ndarray:
    """When each settlement was taken; its day where the time is missing."""
    columns = table.column_names
    timed = "generated_on" in columns and table["generated_on"].null_count == 0
    if timed or "date" not in columns:
        return _times(table)
    import numpy as np

    return np.array(table["date"].to_pylist(), dtype="datetime64[D]")
