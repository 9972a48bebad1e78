"""Shared helpers of the curve analytics suite."""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
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


def delivery_days(first: dt.date, last: dt.date) -> list[dt.date]:
    return [first + dt.timedelta(days=i) for i in range((last - first).days + 1)]


def kept(contracts: list[tuple[dt.date, dt.date, float]]) -> list[bool]:
    """Whether each (first, last, price) is built from: not when shorter
    contracts cover every one of its days."""
    out = []
    for first, last, _ in contracts:
        length = (last - first).days
        finer: set[dt.date] = set()
        for f, lst, _ in contracts:
            if (lst - f).days < length:
                finer.update(delivery_days(f, lst))
        out.append(not set(delivery_days(first, last)) <= finer)
    return out


def dense_smooth(
    contracts: list[tuple[dt.date, dt.date, float]], business: set[dt.date] | None = None
) -> tuple[list[dt.date], np.ndarray]:
    """The maximum-smoothness curve through the kept ``contracts``, by a
    dense solve of its whole system of optimality conditions: H f + C'l = 0,
    C f = b, with H the squared second differences and C the contracts'
    weighted means (over the days of ``business`` if given) and the far
    end's flatness."""
    keep = [c for c, k in zip(contracts, kept(contracts), strict=True) if k]
    first = min(c[0] for c in keep)
    days = delivery_days(first, max(c[1] for c in keep))
    n = len(days)
    weight = np.array([1.0 if business is None or d in business else 0.0 for d in days])
    second = np.zeros((max(n - 2, 0), n))
    for r in range(n - 2):
        second[r, r : r + 3] = [1.0, -2.0, 1.0]
    rows, prices = [], []
    for start, end, price in keep:
        row = np.zeros(n)
        a, b = (start - first).days, (end - first).days + 1
        row[a:b] = weight[a:b] / weight[a:b].sum()
        rows.append(row)
        prices.append(price)
    if n >= 2:
        flat_end = np.zeros(n)
        flat_end[-2:] = [-1.0, 1.0]
        rows.append(flat_end)
        prices.append(0.0)
    c = np.array(rows)
    m = len(c)
    kkt = np.block([[second.T @ second, c.T], [c, np.zeros((m, m))]])
    rhs = np.concatenate([np.zeros(n), prices])
    solution = np.linalg.solve(kkt, rhs)
    # Days no contract covers make the system ill-conditioned (a month's gap
    # costs the plain solve about 1e-8): two steps of refinement, the
    # residual in extended precision, make the reference exact to rounding.
    wide = kkt.astype(np.longdouble)
    for _ in range(2):
        residual = rhs.astype(np.longdouble) - wide @ solution.astype(np.longdouble)
        solution = solution + np.linalg.solve(kkt, residual.astype(np.float64))
    return days, solution[:n]


def business_days(first: dt.date, last: dt.date, holidays: list[dt.date]) -> set[dt.date]:
    return {d for d in delivery_days(first, last) if d.weekday() < 5 and d not in holidays}
