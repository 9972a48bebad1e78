"""Rolling contracts: ``marketcurves.curves.rolling`` against the same
computation written plainly in pandas.

The table is built synthetically: ten years of daily settlements (weekdays,
2015 to 2024) of one curve listing 60 monthly contracts each day, from the
current month on (about 157,000 rows), in the order ``settlements(...,
tenors="all")`` returns its rows: by curve, tenor, then date. Both compute M1
to M12 with no roll days: on each date, the nth contract whose delivery has
not started. The pandas version starts from a DataFrame already built (its
``to_pandas`` is not timed); the core's starts from the Arrow table. Each is
timed as the best of several runs, and the script exits with 1 if the two
disagree. Target: at least 20x.

The same rows sorted by date instead (a table assembled by hand, say) are
timed too: every row then names another tenor than the row before, so each
is looked up, where a table in the package's order repeats one tenor for
years of rows.

Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/curves.py
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

import marketcurves as mc

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
NEARBY = list(range(1, 13))


def synthetic(years: int, contracts: int, order: str = "tenor") -> pa.Table:
    """Weekday settlements of `contracts` months from each day's month on,
    by tenor then date (the package's order) or by date then tenor."""
    days = pd.bdate_range("2015-01-01", periods=years * 261).date
    first = np.array([d.year * 12 + d.month - 1 for d in days])
    month = (first[:, None] + np.arange(contracts)[None, :]).ravel()
    names = np.array([f"{MONTHS[m % 12]} {m // 12 % 100:02d}" for m in range(2000 * 12, 2100 * 12)])
    rng = np.random.default_rng(0)
    table = pa.table(
        {
            "curve_id": pa.array(["c"] * month.size),
            "tenor": pa.array(names[month - 2000 * 12]),
            "date": pa.array(np.repeat(days, contracts), pa.date32()),
            "price": pa.array(70 + rng.standard_normal(month.size).cumsum() * 0.01),
            "units": pa.array(["$/bbl"] * month.size),
            "month": pa.array(month),
        }
    )
    keys = [("month", "ascending"), ("date", "ascending")]
    if order == "date":
        keys.reverse()
    return table.sort_by(keys).drop_columns(["month"])


def plain_pandas(frame: pd.DataFrame) -> pd.DataFrame:
    """The nth contract not yet in delivery, per curve and date, in pandas."""
    start = pd.to_datetime(frame["tenor"], format="%b %y")
    date = pd.to_datetime(frame["date"])
    live = frame.assign(start=start)[start > date]
    live = live.sort_values(["curve_id", "date", "start"])
    live["n"] = live.groupby(["curve_id", "date"]).cumcount() + 1
    live = live[live["n"] <= NEARBY[-1]]
    wide = live.pivot_table(index=["curve_id", "date"], columns="n", values="price")
    wide.columns = [f"M{n}" for n in wide.columns]
    return wide.reset_index()


def best(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--contracts", type=int, default=60)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    agree = True
    for order, label in (("tenor", "by curve, tenor, date"), ("date", "by date, tenor")):
        table = synthetic(args.years, args.contracts, order)
        frame = table.to_pandas()
        dates = len(set(frame["date"]))
        print(f"rows {label}: {table.num_rows:,} rows, {dates:,} dates, M1..M{NEARBY[-1]}")
        core_s, core = best(lambda t=table: mc.curves.rolling(t, nearby=NEARBY), args.runs)
        pandas_s, expected = best(lambda f=frame: plain_pandas(f), max(1, args.runs // 2))
        got = core.to_pandas()
        same = np.allclose(got[expected.columns[2:]].to_numpy(), expected.iloc[:, 2:].to_numpy())
        agree = agree and same
        print(f"  marketcurves.curves.rolling: {core_s * 1000:8.1f} ms")
        print(f"  plain pandas:                {pandas_s * 1000:8.1f} ms")
        print(f"  ratio ({order} order): {pandas_s / core_s:.1f}x faster; same answer: {same}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
