"""A curve's history as a date x tenor heat map."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from marketcurves import _deprecation
from marketcurves.plot import _figure, _input

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from marketcurves.catalogue import Catalogue, Curve

#: Date labels on the y axis at most; rows between them go unlabelled.
DATE_LABELS = 12


@_deprecation.positional_options("values", "ax")
def heatmap(
    table: Any,
    *,
    values: str = "price",
    ax: Axes | None = None,
    cmap: str = "viridis",
    curve: Curve | Catalogue | None = None,
) -> Axes:
    """One curve's history as a heat map: a row per day (settlements) or
    per time (other prices), oldest at the top, a column per tenor in
    calendar order, each cell coloured by the ``values`` column (a blank
    where a tenor has no price), with a colour bar in the table's units.

    Built on :func:`marketcurves.curves.matrix`.

    Args:
        table: one curve's prices in one unit, as for
            :func:`~marketcurves.plot.forward_curve`.
        values: the column the cells are coloured by.
        ax: the matplotlib ``Axes`` to draw on; None for a new figure's.
        cmap: the name of a matplotlib colormap.
        curve: the catalogue's :class:`~marketcurves.Curve` (or the
            :class:`~marketcurves.Catalogue`, to look the table's curve up
            in), to name the curve in the title.

    Returns:
        The Axes drawn on: ``ax`` if given, else a new figure's. The image
        is ``ax.images[0]``.

    Raises:
        InvalidRequest: an empty table, several curves or units, a
            ``values`` column the table lacks, a ``curve`` of another id,
            or a ``cmap`` matplotlib does not have; before anything is
            drawn.
        ImportError: matplotlib is not installed (the ``plot`` extra).

    Examples:
        >>> history = client.settlements(curve, "2026-01-12", "2026-01-14")
        >>> ax = mc.plot.heatmap(history, curve=curve)
        >>> ax.images[0].get_array().shape  # 3 days by 29 tenors
        (3, 29)
        >>> [label.get_text() for label in ax.get_yticklabels()]
        ['2026-01-12', '2026-01-13', '2026-01-14']
    """
    import numpy as np

    from marketcurves.curves import matrix

    table = _input.table(table, "table")
    curve_id = _input.curve_id(table, "table", "heatmap")
    name = _input.curve_name(curve, curve_id, table)
    unit = _input.units([("table", table)]) if values == "price" else None
    grid = matrix(table, values=values)
    time_column = "date" if "date" in grid.column_names else "generated_on"
    tenors = [c for c in grid.column_names if c not in ("curve_id", time_column)]
    cells = np.column_stack([grid[t].to_numpy().astype(float) for t in tenors])
    colours = _figure.colormap(cmap)
    ax = _figure.axes(ax)
    image = ax.imshow(
        np.ma.masked_invalid(cells), aspect="auto", interpolation="nearest", cmap=colours
    )
    _figure.tenor_axis(ax, tenors)
    rows = grid[time_column].to_pylist()
    shown = sorted(
        {round(i * (len(rows) - 1) / max(1, DATE_LABELS - 1)) for i in range(DATE_LABELS)}
    )
    if time_column == "date":
        labels = [f"{rows[i]}" for i in shown]
        ax.set_ylabel("date")
    else:
        labels = [f"{rows[i]:%Y-%m-%d %H:%M}" for i in shown]
        ax.set_ylabel("time (UTC)")
    ax.set_yticks(shown, labels)
    label = _input.price_label(unit) if values == "price" else values
    ax.figure.colorbar(image, ax=ax, label=label)
    _figure.title(
        ax, name or curve_id, f"{values} by tenor, {rows[0]:%Y-%m-%d} to {rows[-1]:%Y-%m-%d}"
    )
    return ax
