"""Helpers of the plots' suite: the expected values, computed from the
tables directly, and what an Axes shows."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pyarrow as pa

import marketcurves as mc

FIRST, LAST = "2025-05-02", "2025-06-12"
INTRADAY_FIRST = "2025-06-09"


def calendar(names: Any) -> list[str]:
    return sorted(set(names), key=lambda n: mc.Tenor.parse(n, strict=False).sort_key)


def day_of(row: dict[str, Any]) -> dt.date:
    return row["date"] if "date" in row else row["generated_on"].astimezone(dt.UTC).date()


def curve_on(table: pa.Table, day: dt.date) -> dict[str, float]:
    """Each tenor's price of the latest row of ``day``."""
    rows = sorted(
        (r for r in table.to_pylist() if day_of(r) == day), key=lambda r: r["generated_on"]
    )
    return {r["tenor"]: r["price"] for r in rows}


def days(table: pa.Table) -> list[dt.date]:
    return sorted({day_of(r) for r in table.to_pylist()})


def tick_labels(labels: Any) -> list[str]:
    return [label.get_text() for label in labels]


def same(got: Any, want: list[float]) -> bool:
    """Equal values, NaN matching NaN."""
    got = list(got)
    return len(got) == len(want) and all(
        (math.isnan(g) and math.isnan(w)) or g == w for g, w in zip(got, want, strict=False)
    )
