"""What the backfill suite's tests share: the curve and range they backfill,
and the lake read back as plain values to compare with what the service
serves."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.dataset as ds

import marketcurves as mc
from marketcurves.testing import Emulator

#: Two windows of 30 days and 12, every day final on the emulator's clock
#: (START, 2025-06-13 17:00 UTC) and, without a value, more than a week old.
FIRST, LAST = "2025-04-25", "2025-06-05"
DAYS = 42

INTRADAY = "/historical/intraday"


def curve_and_tenors(client: mc.Client, count: int = 3) -> tuple[str, list[str]]:
    """A curve of the seed-0 world with calendar contracts, and its first ``count``."""
    curve = next(c for c in client.catalogue() if len(c.contracts or []) >= count + 3)
    calendar = [t for t in curve.contracts if not t.startswith("C ")]
    return curve.id, calendar[:count]


def values(table: pa.Table) -> list[tuple[str, str, int, float]]:
    """``(curve_id, tenor, generated_on in µs, price)`` of each row, sorted."""
    micros = table.column("generated_on").cast(pa.int64()).to_pylist()
    rows = zip(
        table.column("curve_id").to_pylist(),
        table.column("tenor").to_pylist(),
        micros,
        table.column("price").to_pylist(),
        strict=True,
    )
    return sorted(rows)


def served(
    client: mc.Client, curve_id: str, tenors: list[str], first: str = FIRST, last: str = LAST
) -> list[tuple[str, str, int, float]]:
    """What ``intraday_history`` returns for the same curve, tenors and days."""
    return values(client.intraday_history(curve_id, first, last, tenors, cache="off"))


def lake_rows(dest: Any, **dataset_args: Any) -> int:
    """The rows a plain Parquet reader counts in the lake (pyarrow's dataset)."""
    return ds.dataset(dest, format="parquet", partitioning="hive", **dataset_args).count_rows()


def intraday_requests(em: Emulator) -> int:
    return em.request_count(INTRADAY)
