"""What the replay suite's tests share: the recording's clock and the
values of a recording after a time."""

from __future__ import annotations

import datetime as dt
from typing import Any

#: Emulated seconds per real second while the lake is recorded.
SCALE = 60


def updates_after(rows: list[dict[str, Any]], start: dt.datetime) -> list[tuple[Any, ...]]:
    """``(tenor, generated_on, price)`` of the calendar tenors' values after ``start``, sorted."""
    return sorted(
        (r["tenor"], r["generated_on"], r["price"])
        for r in rows
        if r["generated_on"] > start and not r["tenor"].startswith("C ")
    )
