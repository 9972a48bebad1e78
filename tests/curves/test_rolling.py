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


def _rolled(drop: tuple[str, str] | None = None) -> pa.Table:
    """Jan held on the first two days, Feb on the next two, Mar on the last;
    prices move from day to day, so a gap measured on the wrong day shows.
    ``drop`` leaves out one (tenor, date)."""
    prices = {
        "2024-12-30": {"Jan 25": 9, "Feb 25": 11, "Mar 25": 14},
        "2024-12-31": {"Jan 25": 10, "Feb 25": 12, "Mar 25": 15},
        "2025-01-02": {"Feb 25": 13, "Mar 25": 16},
        "2025-01-31": {"Feb 25": 16, "Mar 25": 20},
        "2025-02-03": {"Mar 25": 21},
    }
    rows = [("a", t, d, p) for d, row in prices.items() for t, p in row.items()]
    return settlements([r for r in rows if (r[1], r[2]) != drop])


def test_difference_adjustment_worked_by_hand() -> None:
    # M1 rolls Jan -> Feb on 2 Jan, its gap taken on 31 Dec: 12 - 10 = 2;
    # Feb -> Mar on 3 Feb, taken on 31 Jan: 20 - 16 = 4. Each price is
    # shifted by the gaps after it; Mar's 21 stays.
    out = mc.curves.rolling(_rolled(), nearby=[1, 2], adjust="difference")
    assert column(mc.curves.rolling(_rolled(), nearby=[1]), "M1") == [9, 10, 13, 16, 21]
    assert column(out, "M1") == [9 + 6, 10 + 6, 13 + 4, 16 + 4, 21]
    # M2 rolls Feb -> Mar on 2 Jan (15 - 12 = 3); past Mar it holds nothing.
    assert column(out, "M2") == [11 + 3, 12 + 3, 16, 20, None]
    log = mc.curves.roll_log(_rolled(), nearby=[1], adjust="difference")
    assert log.column_names == ["curve_id", "date", "M1", "M1_gap", "M1_gap_on"]
    assert column(log, "M1") == ["Jan 25", "Jan 25", "Feb 25", "Feb 25", "Mar 25"]
    assert column(log, "M1_gap") == [None, None, 2, None, 4]
    assert iso([d for d in column(log, "M1_gap_on") if d]) == ["2024-12-31", "2025-01-31"]


def test_ratio_adjustment_worked_by_hand() -> None:
    # M1's ratios: 12 / 10 = 1.2, 20 / 16 = 1.25; each price is scaled by
    # the product of the ratios after it.
    out = mc.curves.rolling(_rolled(), nearby=[1, 2], adjust="ratio")
    expected = [9 * 1.2 * 1.25, 10 * 1.2 * 1.25, 13 * 1.25, 16 * 1.25, 21]
    assert column(out, "M1") == pytest.approx(expected, rel=1e-12)
    assert column(out, "M1")[-1] == 21
    assert column(out, "M2") == [11 * 1.25, 12 * 1.25, 16, 20, None]
    log = mc.curves.roll_log(_rolled(), nearby=[1], adjust="ratio")
    assert column(log, "M1_gap") == [None, None, 1.2, None, 1.25]


def test_a_missing_price_on_the_roll_day_is_taken_on_the_day_before() -> None:
    # No Feb on 31 Dec: the Jan -> Feb gap is taken on 30 Dec, 11 - 9 = 2,
    # and the log says so.
    table = _rolled(drop=("Feb 25", "2024-12-31"))
    log = mc.curves.roll_log(table, nearby=[1], adjust="difference")
    assert iso([column(log, "M1_gap_on")[2]]) == ["2024-12-30"]
    assert column(log, "M1_gap")[2] == 2
    assert column(mc.curves.rolling(table, nearby=[1], adjust="difference"), "M1")[:2] == [15, 16]
    # Jan and Feb never priced on one day while Jan is held: refused.
    lone = settlements([("a", "Jan 25", "2024-12-31", 10.0), ("a", "Feb 25", "2025-01-02", 13.0)])
    with pytest.raises(mc.InvalidRequest, match="roll of M1 from Jan 25 to Feb 25 cannot be"):
        mc.curves.rolling(lone, nearby=[1], adjust="difference")


def test_a_ratio_needs_prices_above_zero() -> None:
    table = settlements(
        [
            ("a", "Jan 25", "2024-12-31", -1.0),
            ("a", "Feb 25", "2024-12-31", 2.0),
            ("a", "Feb 25", "2025-01-02", 2.0),
        ]
    )
    with pytest.raises(mc.InvalidRequest, match="curve a: Jan 25 is priced -1 on 2024-12-31"):
        mc.curves.rolling(table, nearby=[1], adjust="ratio")
    assert column(mc.curves.rolling(table, nearby=[1], adjust="difference"), "M1") == [2, 2]


def _negated(only: tuple[str, str] | None = None) -> pa.Table:
    """``_rolled()`` with the price of ``only`` (tenor, date), or of every
    row, made negative."""
    rows = [
        (r["curve_id"], r["tenor"], r["date"].isoformat(), r["price"])
        for r in _rolled().to_pylist()
    ]
    return settlements([(c, t, d, -p if only in (None, (t, d)) else p) for c, t, d, p in rows])


@pytest.mark.parametrize(
    ("negative", "message"),
    [
        # Jan at -9 on 30 Dec, a day without a roll: the series would scale it.
        (("Jan 25", "2024-12-30"), "Jan 25 is priced -9 on 2024-12-30.*M1 holds it"),
        # Feb's 12 on 31 Dec is only the numerator of M1's roll to Feb.
        (("Feb 25", "2024-12-31"), "Feb 25 is priced -12 on 2024-12-31.*roll of M1"),
    ],
)
def test_a_ratio_refuses_any_price_at_or_below_zero_it_would_use(negative, message) -> None:
    table = _negated(negative)
    for call in (mc.curves.rolling, mc.curves.roll_log):
        with pytest.raises(mc.InvalidRequest, match=f"curve a: {message}.*adjust='difference'"):
            call(table, nearby=[1], adjust="ratio")
    assert mc.curves.rolling(table, nearby=[1], adjust="difference").num_rows == 5


def test_a_curve_below_zero_throughout_is_refused_by_ratio() -> None:
    # Every ratio of two prices below zero is above zero: -12 / -10 = 1.2.
    with pytest.raises(mc.InvalidRequest, match="curve a: Jan 25 is priced -9 on 2024-12-30"):
        mc.curves.rolling(_negated(), nearby=[1], adjust="ratio")
    # difference is the adjustment of a curve that goes negative: the gaps
    # are -2 and -4 (see test_difference_adjustment_worked_by_hand).
    shifted = mc.curves.rolling(_negated(), nearby=[1], adjust="difference")
    assert column(shifted, "M1") == [-9 - 6, -10 - 6, -13 - 4, -16 - 4, -21]


@pytest.mark.parametrize("adjust", ["panama", "", 1])
def test_an_unknown_adjustment_is_refused(adjust) -> None:
    with pytest.raises(mc.InvalidRequest, match="adjust"):
        mc.curves.rolling(_rolled(), adjust=adjust)


def test_an_adjusted_series_of_the_emulator_moves_as_its_contracts(client, crude) -> None:
    history = client.settlements(crude, "2025-01-01", TODAY, tenors="all")
    raw = mc.curves.rolling(history, nearby=[1], roll_days=2)
    log = mc.curves.roll_log(history, nearby=[1], roll_days=2, adjust="difference")
    m1 = column(raw, "M1")
    held = column(log, "M1")
    price_of = {(r["tenor"], r["date"]): r["price"] for r in history.to_pylist()}
    for kind in ("difference", "ratio"):
        out = column(mc.curves.rolling(history, nearby=[1], roll_days=2, adjust=kind), "M1")
        last = held[-1]
        # The latest contract's prices are the table's.
        for i, name in enumerate(held):
            if name == last:
                assert out[i] == m1[i]
        # From one day to the next the series moves as the contract held
        # that day did: no jump at a roll.
        days = column(raw, "date")
        for i in range(1, len(days)):
            before = price_of.get((held[i], days[i - 1]))
            if before is None or out[i - 1] is None:
                continue
            if kind == "difference":
                assert out[i] - out[i - 1] == pytest.approx(m1[i] - before, abs=1e-9)
            else:
                assert out[i] / out[i - 1] == pytest.approx(m1[i] / before, rel=1e-12)
    assert sum(g is not None for g in column(log, "M1_gap")) == 5
