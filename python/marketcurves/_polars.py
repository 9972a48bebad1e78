"""polars views of the package's Arrow tables: :func:`to_polars`.

The module is private so that its name does not shadow polars; the function
is public as ``marketcurves.to_polars``. polars is optional and imported
only when called."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from marketcurves._core import Tenor
from marketcurves.exceptions import InvalidRequest

if TYPE_CHECKING:
    import polars


def to_polars(table: Any) -> polars.DataFrame:
    """A polars DataFrame of a table of the package (no copy of the Arrow
    buffers where polars can share them). Needs polars
    (``pip install 'marketcurves[polars]'``).

    DuckDB reads the ``tenor`` column's ``Enum`` as text: order by
    ``tenor_start`` and ``tenor_end`` there.

    polars keeps no metadata on a DataFrame, neither the schema's nor a
    column's: the curves the table names under ``marketcurves.curves``
    (their names, units and quotations) are not in the DataFrame; read them
    from the Arrow table, or from :func:`~marketcurves.to_pandas`'s
    ``attrs``.

    Args:
        table: a ``pyarrow.Table`` or ``RecordBatch`` (a live batch).

    Returns:
        The table's columns: ``tenor`` an ``Enum`` whose categories are the
        table's tenors in calendar order, so that sorting by it, or
        grouping, follows the calendar (``Q1 26`` after ``Dec 25``);
        ``tenor_kind`` a ``Categorical``; ``generated_on``
        ``Datetime("us", "UTC")``; ``date``, ``tenor_start`` and
        ``tenor_end`` ``Date``; ``dependencies`` a list of structs and
        ``metadata`` as polars reads an Arrow map.

    Raises:
        ImportError: polars is not installed.
        InvalidRequest: ``table`` is neither a table nor a record batch.

    Examples:
        >>> table = client.settlements(curve, "2026-01-13", "2026-01-14", tenors=["Feb 26", "Jan 26"])
        >>> mc.to_polars(table).select("tenor", "date", "price").sort("tenor", "date")
        shape: (4, 3)
        ┌────────┬────────────┬─────────┐
        │ tenor  ┆ date       ┆ price   │
        │ ---    ┆ ---        ┆ ---     │
        │ enum   ┆ date       ┆ f64     │
        ╞════════╪════════════╪═════════╡
        │ Jan 26 ┆ 2026-01-13 ┆ 773.765 │
        │ Jan 26 ┆ 2026-01-14 ┆ 775.062 │
        │ Feb 26 ┆ 2026-01-13 ┆ 773.672 │
        │ Feb 26 ┆ 2026-01-14 ┆ 775.019 │
        └────────┴────────────┴─────────┘
    """
    try:
        import polars as pl
    except ImportError as error:
        raise ImportError(
            "marketcurves.to_polars needs polars, which is not installed: "
            "pip install 'marketcurves[polars]' (or pip install polars)",
            name="polars",
        ) from error
    import pyarrow as pa

    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    if not isinstance(table, pa.Table):
        raise InvalidRequest(
            f"table must be a pyarrow.Table or RecordBatch, not {type(table).__name__}"
        )
    # A table gives a DataFrame (only an array gives a Series).
    frame = cast("polars.DataFrame", pl.from_arrow(table, rechunk=False))
    if "tenor" in frame.columns:
        names = frame["tenor"].drop_nulls().unique().to_list()
        order = [t.name for t in sorted({Tenor.parse(n, strict=False) for n in names})]
        frame = frame.with_columns(pl.col("tenor").cast(pl.Enum(order)))
    return frame
