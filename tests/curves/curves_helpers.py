"""Shared helpers of the curve analytics suite."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pyarrow as pa

#: The day of the emulators' START (support.py), on a stopped clock.
TODAY = dt.date(2025, 6, 13)


def settlements(rows: list[tuple[str, str, str, float]], units: str = "$/bbl") -> pa.Table:
    """A table with the columns the analytics read, from (curve, tenor, date, price)."""
    return pa.table(
        {
            "curve_id": [r[0] for r in rows],
            "tenor": [r[1] for r in rows],
            "date": [dt.date.fromisoformat(r[2]) for r in rows],
            "price": [float(r[3]) for r in rows],
            "units": [units] * len(rows),
        }
    )


def column(table: pa.Table, name: str) -> list[Any]:
    return table.column(name).to_pylist()


def iso(days: list[dt.date]) -> list[str]:
    return [d.isoformat() for d in days]
