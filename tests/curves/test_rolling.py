"""Rolling contracts and their roll log: answers worked out by hand, and
half a year of the emulator's settlements pulled with every contract."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest
from curves_helpers import TODAY, column, iso, settlements

import marketcurves as mc

DAYS = ["2024-12-30", "2024-12-31", "2025-01-02", "2025-01-31", "2025-02-03"]


def _months() -> pa.Table:
    """Each contract's price is its month number, so a price says which it is."""
    tenors = [("Jan 25", 1), ("Feb 25", 2), ("Mar 25", 3), ("Apr 25", 4)]
    return settlements([("a", t, d, p) for d in DAYS for t, p in tenors])


def test_positions_roll_on_the_first_day_of_delivery() -> None:
    out = mc.curves.rolling(_months(), nearby=[1, 2])
    assert out.column_names == ["curve_id", "date", "M1", "M2"]
    assert iso(column(out, "date")) == DAYS
    assert column(out, "M1") == [1, 1, 2, 2, 3]
    assert column(out, "M2") == [2, 2, 3, 3, 4]


def test_roll_days_are_business_days_before_delivery() -> None:
    # Jan 25 starts Wed 1 Jan (rolled Tue 31 Dec); Feb 25 starts Sat 1 Feb
    # (rolled Fri 31 Jan).
    out = mc.curves.rolling(_months(), nearby=[1], roll_days=1)
    assert column(out, "M1") == [1, 2, 2, 3, 3]
    log = mc.curves.roll_log(_months(), nearby=[1], roll_days=1)
    assert column(log, "M1") == ["Jan 25", "Feb 25", "Feb 25", "Mar 25", "Mar 25"]


def test_half_a_year_of_settlements_rolls_through_every_contract(client, crude) -> None:
    history = client.settlements(crude, "2025-01-01", TODAY, tenors="all")
    prices = mc.curves.rolling(history, nearby=[1, 2])
    log = mc.curves.roll_log(history, nearby=[1, 2])
    days = column(prices, "date")
    assert days == sorted(set(column(history, "date")))
    m1 = column(log, "M1")
    assert m1[0] == "Feb 25" and m1[-1] == "Jul 25"
    # Each day's M1 is the first month whose delivery starts after that day.
    for day, name in zip(days, m1, strict=False):
        start = mc.Tenor.parse(name).start
        assert start > day >= start - dt.timedelta(days=31)
    # The prices are those of the contracts the log names.
    price_of = {(r["tenor"], r["date"]): r["price"] for r in history.to_pylist()}
    for day, name, price in zip(days, m1, column(prices, "M1"), strict=False):
        assert price == price_of[(name, day)]
    # Contracts follow one another: none skipped, none repeated.
    order = [mc.Tenor.parse(n) for n in dict.fromkeys(m1)]
    assert order == sorted(order) and len(order) == 6


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: mc.curves.rolling(t, kind="year"), "unknown kind"),
        (lambda t: mc.curves.rolling(t, nearby=[5]), "M5 is past the contracts of curve a"),
        (lambda t: mc.curves.rolling(t, kind="quarter", nearby=[1]), "Q1 is past"),
        (lambda t: mc.curves.rolling(t.drop_columns(["tenor"])), 'no column "tenor"'),
        (lambda t: mc.curves.rolling(t, nearby=[0]), "nearby"),
        (lambda t: mc.curves.rolling(t.to_pylist()), "must be an Arrow table"),
    ],
)
def test_bad_input_is_an_invalid_request_naming_it(call, message) -> None:
    with pytest.raises(mc.InvalidRequest, match=message):
        call(_months())
