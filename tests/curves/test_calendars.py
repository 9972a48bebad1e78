"""Business days of a calendar for rolls, spreads and forward curves:
dates given, a financial calendar of the holidays package by name, or the
days of the table itself; worked out by hand."""

from __future__ import annotations

import datetime as dt
import re
import sys

import pyarrow as pa
import pytest
from curves_helpers import column, iso, settlements

import marketcurves as mc

#: Around Christmas 2024. Five business days before Jan 25's first day
#: (Wed 1 Jan 2025), counting Monday to Friday: 31, 30, 27, 26 and 25 Dec.
#: ICE Futures Europe closes on 25 Dec (not 26): 31, 30, 27, 26 and 24 Dec.
#: Closed on both: 31, 30, 27, 24 and 23 Dec. (The calendars named are
#: those of the lowest holidays version declared, 0.50.)
DAYS = ["2024-12-23", "2024-12-24", "2024-12-27", "2024-12-30", "2024-12-31"]


def _months() -> pa.Table:
    """Jan 25 to Mar 25 on each of DAYS, each priced its month's number."""
    tenors = [("Jan 25", 1), ("Feb 25", 2), ("Mar 25", 3)]
    return settlements([("a", t, d, p) for d in DAYS for t, p in tenors])


def _m1(holidays: object) -> list[float]:
    return column(mc.curves.rolling(_months(), nearby=[1], roll_days=5, holidays=holidays), "M1")


def test_roll_days_skip_the_holidays_of_each_calendar() -> None:
    # Monday to Friday: Jan rolled on 25 Dec, so held on 23 and 24 Dec.
    assert _m1(None) == [1, 1, 2, 2, 2]
    assert _m1([]) == [1, 1, 2, 2, 2]
    # A list of dates (dates, datetimes or ISO strings): rolled on 24 Dec.
    assert _m1([dt.date(2024, 12, 25)]) == [1, 2, 2, 2, 2]
    assert _m1(["2024-12-25", dt.datetime(2024, 12, 25, 12, tzinfo=dt.UTC)]) == [1, 2, 2, 2, 2]
    # ICE Futures Europe, by code or name, as the holidays package has it.
    assert _m1("IFEU") == [1, 2, 2, 2, 2]
    assert _m1("ICE Futures Europe") == [1, 2, 2, 2, 2]
    assert _m1("ice futures europe") == [1, 2, 2, 2, 2]
    # Closed on 26 Dec too: rolled on 23 Dec.
    assert _m1(["2024-12-25", "2024-12-26"]) == [2, 2, 2, 2, 2]
    # New York closes on 25 Dec, and not on 26 Dec.
    assert _m1("NYSE") == _m1("New York Stock Exchange") == [1, 2, 2, 2, 2]


def test_data_counts_the_days_the_table_has() -> None:
    # The table has no 25 or 26 Dec: 31, 30, 27, 24 and 23 Dec are the
    # five business days before 1 Jan, so Jan is rolled on 23 Dec.
    assert _m1("data") == [2, 2, 2, 2, 2]
    # With 26 Dec in the table (another curve's row will do), 26 Dec counts.
    extra = settlements([("b", "Jan 25", "2024-12-26", 9.0)])
    both = pa.concat_tables([_months(), extra])
    out = mc.curves.rolling(both, nearby=[1], roll_days=5, holidays="data")
    assert column(out, "curve_id") == ["a"] * 5 + ["b"]
    assert column(out, "M1")[:5] == [1, 2, 2, 2, 2]


def test_the_roll_log_and_spreads_follow_the_calendar() -> None:
    log = mc.curves.roll_log(_months(), nearby=[1], roll_days=5, holidays="IFEU")
    assert column(log, "M1") == ["Jan 25", "Feb 25", "Feb 25", "Feb 25", "Feb 25"]
    spread = mc.curves.spread(_months(), "M1", "M2", roll_days=5, holidays="IFEU")
    assert column(spread, "near") == ["Jan 25", "Feb 25", "Feb 25", "Feb 25", "Feb 25"]
    assert column(spread, "spread") == [-1, -1, -1, -1, -1]
    plain = mc.curves.spread(_months(), "M1", "M2", roll_days=5)
    assert column(plain, "near")[:2] == ["Jan 25", "Jan 25"]
    # With no roll days (the default) a leg rolls on the first day of
    # delivery, whatever the calendar.
    first = mc.curves.spread(_months(), "M1", "M2", holidays="data")
    assert column(first, "near") == ["Jan 25"] * 5


def test_an_unknown_calendar_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(mc.InvalidRequest, match=r"unknown calendar 'LME'") as error:
        mc.curves.rolling(_months(), holidays="LME")
    assert re.search(r"IFEU \(ICE ?Futures Europe\)", str(error.value), re.IGNORECASE)
    assert "New York Stock Exchange" in str(error.value)
    with pytest.raises(mc.InvalidRequest, match="holidays must be a list of dates"):
        mc.curves.spread(_months(), "M1", "M2", holidays=5)
    with pytest.raises(mc.InvalidRequest, match="holidays must be an ISO date"):
        mc.curves.roll_log(_months(), holidays=["Christmas"])
    with pytest.raises(mc.InvalidRequest, match="roll_days must be"):
        mc.curves.spread(_months(), "M1", "M2", roll_days=-1)


def test_a_calendar_name_without_the_package_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "holidays", None)
    with pytest.raises(ImportError, match=r"pip install 'marketcurves\[calendars\]'"):
        mc.curves.rolling(_months(), holidays="IFEU")
    # Dates and "data" need no package.
    assert _m1("data") == [2, 2, 2, 2, 2]
    assert _m1(["2024-12-25"]) == [1, 2, 2, 2, 2]


def _april() -> pa.Table:
    """Apr 26 and May 26 priced on 2 and 6 January 2026 (a Friday and a
    Tuesday: the table has no Monday 5 January)."""
    rows = []
    for day in ("2026-01-02", "2026-01-06"):
        rows += [("a", "Apr 26", day, 70.0), ("a", "May 26", day, 72.0)]
    return settlements(rows)


def test_business_weights_of_a_named_calendar_are_its_dates() -> None:
    # Good Friday, 3 April 2026, is ICE Futures Europe's one holiday in April.
    table = _april()
    smooth = mc.curves.build(table, weights="business", holidays="ICE Futures Europe")
    assert smooth.equals(mc.curves.build(table, weights="business", holidays=["2026-04-03"]))
    assert not smooth.equals(mc.curves.build(table, weights="business"))
    # Good Friday weighs nothing, so the mean over April's other days is 70.
    april = [
        f
        for d, f in zip(column(smooth, "delivery"), column(smooth, "forward"), strict=True)
        if d.month == 4 and d.weekday() < 5 and d != dt.date(2026, 4, 3)
    ]
    assert sum(april) / len(april) == pytest.approx(70, abs=1e-9)
    residual = mc.curves.residuals(table, smooth, weights="business", holidays="IFEU")
    assert column(residual, "residual") == pytest.approx([0] * 4, abs=1e-9)


def test_business_weights_of_the_data_are_its_days() -> None:
    # Between its first and last day (2 and 6 January) the table lacks
    # Monday 5 January, so "data" makes that one day a holiday; the other
    # delivery days, outside those, are Monday to Friday.
    table = settlements(
        [
            ("a", "1-5 Jan 26", "2026-01-02", 70.0),
            ("a", "6-10 Jan 26", "2026-01-02", 71.0),
            ("a", "1-5 Jan 26", "2026-01-06", 70.5),
            ("a", "6-10 Jan 26", "2026-01-06", 71.5),
        ]
    )
    data = mc.curves.build(table, weights="business", holidays="data")
    assert data.num_rows == 2 * 10
    dated = mc.curves.build(table, weights="business", holidays=["2026-01-05"])
    assert data.equals(dated)
    assert not data.equals(mc.curves.build(table, weights="business"))
    residual = mc.curves.residuals(table, data, weights="business", holidays="data")
    assert column(residual, "residual") == pytest.approx([0] * 4, abs=1e-9)
    assert iso(column(residual, "date")) == ["2026-01-02"] * 2 + ["2026-01-06"] * 2
