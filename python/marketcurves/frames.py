"""pandas views of the package's Arrow tables.

Nested, string and date columns stay in Arrow by default (pandas 2.0 and
later): pandas would make each of their values a Python object, which for
the reference pull (475,843 rows, 187 MB of Arrow) takes about 2 s and 475
MB more memory at the peak, while Arrow-backed columns share the table's
buffers (0.02 s, a few MB). What users rely on
holds in both forms: ``generated_on`` is pandas' own tz-aware datetime64
(``.dt``, resampling and time axes as ever), ``tenor`` an ordered
categorical, and grouping, filtering by ``datetime.date`` and plotting work
on the Arrow-backed columns too.
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any, Literal

from marketcurves import _deprecation, _named
from marketcurves._args import choice as _choice
from marketcurves._args import date as _date
from marketcurves._core import Tenor
from marketcurves.exceptions import InvalidRequest, InvalidType

if TYPE_CHECKING:
    import pandas
    import pyarrow

#: How :func:`to_pandas` gives nested columns (``dependencies``,
#: ``metadata``): as Arrow-backed columns, as Python objects, or not at all.
NestedMode = Literal["arrow", "python", "drop"]

_NESTED_MODES = ("arrow", "python", "drop")


@_deprecation.positional_options("nested")
def to_pandas(table: Any, *, nested: NestedMode | None = None) -> pandas.DataFrame:
    """A pandas DataFrame of a price table (needs pandas).

    Args:
        table: a ``pyarrow.Table`` or anything with the Arrow PyCapsule
            interface (a polars DataFrame, a ``RecordBatch`` of the live feed).
        nested: what becomes of the nested columns (``dependencies``,
            ``metadata``) and of the others that pandas would hold as
            Python objects:

            - ``"arrow"`` (the default on pandas 2.0 and later): they are
              columns of ``pd.ArrowDtype``, backed by the table's own
              buffers, so the DataFrame costs no copy of them. A date reads
              as a ``datetime.date`` and has ``.dt``; a missing value is
              ``pd.NA``.
            - ``"python"`` (the default before pandas 2.0, which has no
              ``pd.ArrowDtype``): nested values as Python lists of dicts and
              lists of ``(key, value)`` pairs, dates as ``datetime.date``
              objects (None where missing), strings as pandas makes them.
            - ``"drop"``: as the default, without the nested columns.

    Returns:
        The table's columns, ``generated_on`` tz-aware in UTC, ``tenor`` an
        ordered categorical in calendar order, ``tenor_kind`` categorical,
        ``price`` float64. The curves the table names
        (``marketcurves.curves`` in its schema metadata) are in
        ``frame.attrs["marketcurves.curves"]``, a list of dicts of ``id``,
        ``name``, ``units`` and ``quotation``.

    Raises:
        InvalidRequest: ``table`` is not a table, or an unknown ``nested``
            (``"arrow"`` before pandas 2.0).

    Examples:
        >>> table = client.settlements(curve, "2026-01-13", "2026-01-14", tenors=["Feb 26", "Q1 26", "Jan 26"])
        >>> frame = mc.to_pandas(table)
        >>> frame["tenor"].cat.categories.tolist()
        ['Jan 26', 'Q1 26', 'Feb 26']
        >>> frame[["tenor", "date", "price"]]
            tenor        date    price
        0  Jan 26  2026-01-13  773.765
        1  Jan 26  2026-01-14  775.062
        2   Q1 26  2026-01-13  773.414
        3   Q1 26  2026-01-14  774.912
        4  Feb 26  2026-01-13  773.672
        5  Feb 26  2026-01-14  775.019
    """
    mode = None if nested is None else _choice(nested, "nested", _NESTED_MODES)
    table = _arrow_table(table)
    import pandas as pd
    import pyarrow as pa

    arrow_backed = _arrow_backed(pd.__version__, mode)
    if mode == "drop":
        table = table.drop_columns([f.name for f in table.schema if pa.types.is_nested(f.type)])
    table = _tenor_encoded(table)
    if arrow_backed:
        frame = table.to_pandas(types_mapper=_arrow_dtype)
    else:
        frame = table.to_pandas(date_as_object=True)
    if "tenor" in frame and isinstance(frame["tenor"].dtype, pd.CategoricalDtype):
        tenors = frame["tenor"].cat
        order = _calendar_order(tenors.categories)
        frame["tenor"] = tenors.reorder_categories(order, ordered=True)
    curves = _named.curves_of(table)
    if curves:
        frame.attrs[_named.CURVES_KEY] = curves
    return frame


def forward_curve(table: Any, on: _dt.date | _dt.datetime | str | None = None) -> pandas.Series:
    """The forward curve on one day: the last price of each tenor that day,
    ready to ``.plot()`` (needs pandas).

    Args:
        table: a price table (settlements, intraday values, a live batch...),
            or anything with the Arrow PyCapsule interface. The day of a
            row is its ``date`` (settlements) or the UTC day of
            ``generated_on``.
        on: the day (a date, a datetime's UTC day, or ``"YYYY-MM-DD"``);
            None for the latest day in the table.

    Returns:
        The prices indexed by tenor, in calendar order, named after the
        day; empty if the table has no row that day.

    Raises:
        InvalidRequest: ``table`` is not a table, or ``on`` is malformed.

    Examples:
        >>> table = client.settlements(curve, "2026-01-13", "2026-01-14", tenors=["Feb 26", "Q1 26", "Jan 26", "C 00"])
        >>> mc.forward_curve(table)
        tenor
        C 00      774.660
        Jan 26    775.062
        Q1 26     774.912
        Feb 26    775.019
        Name: 2026-01-14, dtype: float64
    """
    wanted = None if on is None else _date(on, "on")
    table = _arrow_table(table)
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc

    if "date" in table.column_names:
        days = table["date"]
    else:
        # Through a naive timestamp: a zoned one casts to its local day, not UTC's.
        days = table["generated_on"].cast(pa.timestamp("us")).cast(pa.date32())
    day = pc.max(days).as_py() if wanted is None else wanted
    if day is None:
        return pd.Series(dtype="float64", name="price")
    # Only that day's rows, and only the columns the curve needs, become pandas.
    rows = table.filter(pc.equal(days, day)).select(["tenor", "generated_on", "price"])
    frame = to_pandas(rows).sort_values("generated_on", kind="stable")
    latest = frame.groupby("tenor", observed=True)["price"].last()
    order = _calendar_order(latest.index.astype(str))
    curve = latest.reindex(order)
    # A plain index in calendar order: it survives filtering and plots as it reads.
    curve.index = pd.Index(order, name="tenor")
    curve.name = f"{day}"
    return curve


def _arrow_table(table: Any) -> pyarrow.Table:
    import pyarrow as pa

    if isinstance(table, pa.Table):
        return table
    if hasattr(table, "__arrow_c_stream__"):
        return pa.table(table)
    raise InvalidType(
        "table must be a pyarrow.Table or have the Arrow PyCapsule interface,"
        f" not {type(table).__name__}"
    )


def _arrow_backed(pandas_version: str, mode: str | None) -> bool:
    """Whether the columns pandas would copy into objects stay in Arrow."""
    if mode == "python":
        return False
    if int(pandas_version.split(".")[0]) >= 2:
        return True
    if mode == "arrow":
        raise InvalidRequest(
            f"nested='arrow' needs pandas 2.0 or later (pd.ArrowDtype), not {pandas_version};"
            " pass nested='python' or upgrade pandas"
        )
    return False


def _arrow_dtype(arrow_type: pyarrow.DataType) -> Any:
    """``pd.ArrowDtype`` for the types pandas would turn into Python objects;
    None (pandas' own conversion) for timestamps, numbers and dictionaries."""
    import pandas as pd
    import pyarrow as pa

    types = pa.types
    if (
        types.is_nested(arrow_type)
        or types.is_string(arrow_type)
        or types.is_large_string(arrow_type)
        or types.is_date(arrow_type)
    ):
        return pd.ArrowDtype(arrow_type)
    return None


def _tenor_encoded(table: pyarrow.Table) -> pyarrow.Table:
    """The table with a string ``tenor`` dictionary-encoded, so that pandas
    makes it a categorical from Arrow's codes, not by hashing every row's
    string again."""
    import pyarrow as pa

    index = table.schema.get_field_index("tenor")
    if index < 0:
        return table
    column = table.column(index)
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        return table
    return table.set_column(index, "tenor", column.dictionary_encode())


def _calendar_order(names: Any) -> list[str]:
    return [t.name for t in sorted({Tenor.parse(n, strict=False) for n in names})]
