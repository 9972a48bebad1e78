"""Curve analytics against plain pandas and numpy: ``rolling`` (``--part
rolling``) and ``build`` (``--part build``); both by default.

Rolling contracts: ``marketcurves.curves.rolling`` against the same
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

Daily forward curves: ``marketcurves.curves.build`` (smooth, calendar
weights) on every date of ten years of one curve's weekday settlements,
each date listing the 24 months from the next one on (about 2,600 dates
and 62,000 rows; each curve about 730 delivery days), against the same
curves solved one date at a time in numpy: the dense system of optimality
conditions (H f + C'l = 0, C f = b) of each date, by ``numpy.linalg.solve``
(the smoothness matrix H made once per number of days). The numpy baseline
takes 11 to 13 ms a date, so by default it is timed on every 10th date
(``--baseline-every``) and its time per date scaled to all of them; its
curves are compared with the core's on those dates (to 1e-8). Targets: at
least 50x, and under 1 s in all.

Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/curves.py
"""

# numpy's threads are set before numpy is imported, below: imports after code.
# ruff: noqa: E402

from __future__ import annotations

import os

# numpy's BLAS on one thread (unless the environment says otherwise): on two
# cores shared with other work, OpenBLAS's two threads made each dense solve
# of the baseline 2 to 10 times slower than one thread, which would flatter
# the ratio.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

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


def forward_contracts(years: int, months: int) -> pa.Table:
    """Weekday settlements of `months` months from each date's next month
    on, one curve, by tenor then date; prices a seasonal shape plus noise."""
    days = pd.bdate_range("2015-01-01", periods=years * 261).date
    first = np.array([d.year * 12 + d.month for d in days])  # the next month
    month = (first[:, None] + np.arange(months)[None, :]).ravel()
    names = np.array([f"{MONTHS[m % 12]} {m // 12 % 100:02d}" for m in range(2000 * 12, 2100 * 12)])
    rng = np.random.default_rng(1)
    price = 70 + 6 * np.cos(2 * np.pi * (month % 12) / 12) + rng.standard_normal(month.size)
    table = pa.table(
        {
            "curve_id": pa.array(["c"] * month.size),
            "tenor": pa.array(names[month - 2000 * 12]),
            "date": pa.array(np.repeat(days, months), pa.date32()),
            "price": pa.array(price),
            "units": pa.array(["$/bbl"] * month.size),
            "month": pa.array(month),
        }
    )
    return table.sort_by([("month", "ascending"), ("date", "ascending")]).drop_columns(["month"])


class DenseSmooth:
    """The maximum-smoothness curve of one date's months, solved densely in numpy."""

    def __init__(self) -> None:
        self._smoothness: dict[int, np.ndarray] = {}

    def smoothness(self, n: int) -> np.ndarray:
        if n not in self._smoothness:
            second = np.zeros((n - 2, n))
            rows = np.arange(n - 2)
            second[rows, rows] = 1.0
            second[rows, rows + 1] = -2.0
            second[rows, rows + 2] = 1.0
            self._smoothness[n] = second.T @ second
        return self._smoothness[n]

    def __call__(self, starts: np.ndarray, ends: np.ndarray, prices: np.ndarray) -> np.ndarray:
        """Days as integers; each contract's mean over ``starts[i]..=ends[i]``."""
        first = starts.min()
        n = int(ends.max() - first + 1)
        k = len(prices)
        c = np.zeros((k + 1, n))
        for i, (a, b) in enumerate(zip(starts - first, ends - first + 1, strict=True)):
            c[i, a:b] = 1.0 / (b - a)
        c[k, n - 2 :] = [-1.0, 1.0]
        kkt = np.zeros((n + k + 1, n + k + 1))
        kkt[:n, :n] = self.smoothness(n)
        kkt[:n, n:] = c.T
        kkt[n:, :n] = c
        rhs = np.concatenate([np.zeros(n), prices, [0.0]])
        return np.linalg.solve(kkt, rhs)[:n]


def bench_build(args: argparse.Namespace) -> bool:
    table = forward_contracts(args.years, 24)
    frame = table.to_pandas()
    tenors = {t: mc.Tenor.parse(t) for t in frame["tenor"].unique()}
    epoch = pd.Timestamp("1970-01-01").date()
    frame["start"] = [(tenors[t].start - epoch).days for t in frame["tenor"]]
    frame["end"] = [(tenors[t].end - epoch).days for t in frame["tenor"]]
    by_date = {d: g for d, g in frame.groupby("date")}
    dates = sorted(by_date)
    print(
        f"daily forward curves: {table.num_rows:,} rows, {len(dates):,} dates, "
        f"24 months each, smooth, calendar weights"
    )
    core_s, built = best(lambda: mc.curves.build(table), args.runs)
    print(
        f"  marketcurves.curves.build: {core_s * 1000:8.1f} ms for {built.num_rows:,} daily values"
    )
    sample = dates[:: args.baseline_every]
    dense = DenseSmooth()
    start = time.perf_counter()
    expected = {}
    for d in sample:
        g = by_date[d]
        expected[d] = dense(g["start"].to_numpy(), g["end"].to_numpy(), g["price"].to_numpy())
    numpy_s = (time.perf_counter() - start) / len(sample) * len(dates)
    # The core's curve of each date timed: the same days, the same values.
    forward = built.column("forward").to_numpy()
    date_of = built.column("date").to_numpy()
    first_day = built.column("delivery").cast(pa.int32()).to_numpy()
    worst = 0.0
    for d, want in expected.items():
        mine = date_of == np.datetime64(d)
        got = forward[mine]
        if got.shape != want.shape or first_day[mine][0] != by_date[d]["start"].min():
            worst = np.inf
        else:
            worst = max(worst, float(np.abs(got - want).max()))
    same = bool(worst <= 1e-8)
    print(
        f"  numpy, dense per date:       {numpy_s * 1000:8.1f} ms "
        f"({len(sample)} of {len(dates)} dates timed, scaled to all)"
    )
    print(
        f"  ratio: {numpy_s / core_s:.1f}x faster (target 50x); in all {core_s:.3f} s "
        f"(target < 1 s); same answer: {same} (largest difference {worst:.1e})"
    )
    return same


def bench_rolling(args: argparse.Namespace) -> bool:
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
    return agree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["rolling", "build", "all"], default="all")
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--contracts", type=int, default=60, help="months a date lists (rolling)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--baseline-every", type=int, default=10, help="time numpy on every nth date (build)"
    )
    args = parser.parse_args()
    agree = True
    if args.part in ("rolling", "all"):
        agree = bench_rolling(args) and agree
    if args.part in ("build", "all"):
        agree = bench_build(args) and agree
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
