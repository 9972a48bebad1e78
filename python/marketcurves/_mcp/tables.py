"""A tool's table as the model gets it: rows inline (times ISO 8601 UTC)
up to ``--max-rows``; above, a summary (the count, the first and last
rows, each value column's min and max, the last value of each series) and
the whole table saved as Parquet, a resource the client can read."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import Any

import pyarrow
import pyarrow.compute as pc

from marketcurves._mcp.results import MIME, Results


def iso(value: Any) -> Any:
    """A cell as JSON: dates ``YYYY-MM-DD``, times ISO 8601 UTC with ``Z``,
    NaN as null."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC).replace(tzinfo=None)
        return value.isoformat() + "Z"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def rows(table: pyarrow.Table) -> list[dict[str, Any]]:
    # Times and dates become text, and NaN null, in Arrow, column by column:
    # much quicker than a look at each cell in Python. Only a column of
    # another type (a list, a struct) is looked at a cell at a time.
    columns = []
    cellwise = []
    for field, column in zip(table.schema, table.columns, strict=True):
        if pyarrow.types.is_timestamp(field.type):
            # As text through a zoneless time of the same instant: strftime,
            # or a cast of a zoned time, looks the zone up for every value,
            # ten times slower.
            utc = column.cast(pyarrow.timestamp("us", tz="UTC")).cast(pyarrow.timestamp("us"))
            text = pc.replace_substring(utc.cast(pyarrow.string()), " ", "T", max_replacements=1)
            column = pc.binary_join_element_wise(text, "Z", "")
        elif pyarrow.types.is_date(field.type):
            column = column.cast(pyarrow.string())
        elif pyarrow.types.is_floating(field.type):
            column = pc.if_else(pc.is_nan(column), pyarrow.scalar(None, field.type), column)
        elif not (
            pyarrow.types.is_integer(field.type)
            or pyarrow.types.is_string(field.type)
            or pyarrow.types.is_large_string(field.type)
            or pyarrow.types.is_boolean(field.type)
            or pyarrow.types.is_dictionary(field.type)
        ):
            cellwise.append(field.name)
        columns.append(column)
    listed: list[dict[str, Any]] = pyarrow.table(columns, names=table.column_names).to_pylist()
    if cellwise:
        for row in listed:
            for name in cellwise:
                row[name] = _cell(row[name])
    return listed


def _cell(value: Any) -> Any:
    """A nested cell as JSON, each of its values by :func:`iso`."""
    if isinstance(value, dict):
        return {key: _cell(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_cell(item) for item in value]
    return iso(value)


def shaped(
    table: pyarrow.Table,
    *,
    values: Sequence[str],
    series: str | None,
    max_rows: int,
    results: Results,
    description: str,
) -> dict[str, Any]:
    """``{"row_count", "columns", "rows"}`` up to ``max_rows``; above,
    ``{"row_count", "columns", "summary", "resource"}``. ``values`` are
    the columns of numbers; ``series``, the column that names a series (a
    tenor), None where each value column is one."""
    shown: dict[str, Any] = {"row_count": table.num_rows, "columns": table.column_names}
    if table.num_rows <= max_rows:
        shown["rows"] = rows(table)
        return shown
    saved = results.save(table, description)
    shown["summary"] = summary(table, values, series)
    shown["resource"] = {
        "uri": saved.uri,
        "mime_type": MIME,
        "rows": saved.rows,
        "bytes": saved.size,
        "note": f"more than max_rows={max_rows} rows: the whole table is this Parquet resource",
    }
    return shown


def summary(table: pyarrow.Table, values: Sequence[str], series: str | None) -> dict[str, Any]:
    first, last = rows(table.slice(0, 1))[0], rows(table.slice(table.num_rows - 1, 1))[0]
    lows, highs = {}, {}
    for name in values:
        bounds = pc.min_max(table[name])
        lows[name], highs[name] = iso(bounds["min"].as_py()), iso(bounds["max"].as_py())
    latest: dict[str, Any] = {}
    if series is not None:
        for row in rows(table):
            latest[str(row[series])] = {k: v for k, v in row.items() if k != series}
    else:
        for name in values:
            valid = table.filter(pc.is_valid(table[name]))
            if valid.num_rows:
                latest[name] = rows(valid.slice(valid.num_rows - 1, 1))[0]
    return {"first": first, "last": last, "min": lows, "max": highs, "last_by_series": latest}


def number(value: Any) -> str:
    return "n/a" if value is None else f"{value:,.4f}".rstrip("0").rstrip(".")
