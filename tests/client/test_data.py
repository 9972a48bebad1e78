"""Every price method, blocking and awaitable: the design's schema, and the
emulator's data as plain requests see it, row for row."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import pytest

import marketcurves as mc
from marketcurves.testing import table_schema

SUMMER = ["Q3 25", "Jul 25", "Aug 25"]


def _calls(fob: dict[str, Any], coarse: dict[str, Any]) -> dict[str, tuple]:
    """name -> (method, arguments, expected rows from the wire, table kind)."""
    f, c = fob["id"], coarse["id"]
    return {
        "last_settlement-all": (
            "last_settlement",
            (f,),
            lambda w: w.last_settlement(f),
            "prices",
        ),
        "last_settlement-one": (
            "last_settlement",
            (f, "Jul 25"),
            lambda w: w.last_settlement(f, "Jul 25"),
            "prices",
        ),
        "last_assessments-all": (
            "last_assessments",
            (f,),
            lambda w: w.last_assessments(f),
            "assessments",
        ),
        "last_assessments-one": (
            "last_assessments",
            (f, "Q3 25"),
            lambda w: w.last_assessments(f, "Q3 25"),
            "assessments",
        ),
        "intraday": (
            "intraday",
            (f, "Jul 25"),
            lambda w: w.intraday(f, "Jul 25"),
            "prices",
        ),
        "settlements": (
            "settlements",
            (f, "2025-04-14", "2025-06-13", SUMMER),
            lambda w: [
                row for t in SUMMER for row in w.settlements(f, t, "2025-04-14", "2025-06-13")
            ],
            "settlements",
        ),
        "intraday_history": (
            "intraday_history",
            (c, "2025-06-09", "2025-06-13", ["Aug 25", "Jul 25"]),
            lambda w: [
                row
                for t in ("Aug 25", "Jul 25")
                for row in w.intraday_history(c, t, "2025-06-09", "2025-06-13")
            ],
            "prices",
        ),
    }


CALLS = [
    "last_settlement-all",
    "last_settlement-one",
    "last_assessments-all",
    "last_assessments-one",
    "intraday",
    "settlements",
    "intraday_history",
]


@pytest.mark.parametrize("name", CALLS)
def test_blocking_and_awaitable_forms_give_the_wire_data(name, client, wire, fob, coarse, h):
    method, args, expect, kind = _calls(fob, coarse)[name]
    expected = expect(wire)
    assert expected, "the emulator has data for this call"

    table = getattr(client, method)(*args)
    awaited = asyncio.run(getattr(client, f"{method}_async")(*args))

    schema = table_schema(kind)
    assert table.schema.equals(schema), table.schema
    assert awaited.schema.equals(schema)
    h.assert_same_rows(table, expected)
    h.assert_sorted(table)
    assert awaited.equals(table)


def test_settlements_are_one_row_per_tenor_and_day_in_calendar_order(client, wire, fob, h):
    table = client.settlements(fob["id"], "2025-04-14", "2025-06-13", SUMMER)
    expected = {
        (row["tenor"], row["date"], row["price"])
        for t in SUMMER
        for row in wire.settlements(fob["id"], t, "2025-04-14", "2025-06-13")
    }
    got = list(zip(*(table[c].to_pylist() for c in ("tenor", "date", "price")), strict=False))
    assert len(got) == len(set(got)) and set(got) == expected
    # Jul 25 and Q3 25 both start on 1 July: the shorter first, then Aug 25.
    tenors = list(dict.fromkeys(table["tenor"].to_pylist()))
    assert tenors == h.calendar_order(SUMMER) == ["Jul 25", "Q3 25", "Aug 25"]
    for tenor in SUMMER:
        days = [d for t, d, _ in got if t == tenor]
        assert days == sorted(days)
        assert days[0] >= dt.date(2025, 4, 14) and days[-1] <= dt.date(2025, 6, 13)


def test_tenor_columns_are_the_calendar_periods(client, mixed, h):
    contracts = mixed["contracts"]
    table = client.last_settlement(mixed["id"])
    rows = table.to_pylist()
    assert {r["tenor"] for r in rows} <= set(contracts) and rows
    assert {r["tenor_kind"] for r in rows} == {"continuous", "window", "month", "quarter"}
    for row in rows:
        kind, start, end = h.tenor_facts(row["tenor"])
        assert (row["tenor_kind"], row["tenor_start"], row["tenor_end"]) == (kind, start, end)
    assert [r["tenor"] for r in rows] == h.calendar_order(r["tenor"] for r in rows)


def test_generated_on_keeps_every_fractional_digit(client, wire, coarse, h):
    records = wire.intraday_records(coarse["id"], "Aug 25", "2025-06-10", "2025-06-11")
    digits = {h.fraction_digits(r["generatedOn"]) for r in records}
    assert len(digits) >= 4, f"the emulator should vary the precision: {digits}"
    table = client.intraday_history(coarse["id"], "2025-06-10", "2025-06-11", "Aug 25")
    assert table["generated_on"].type.unit == "us" and table["generated_on"].type.tz == "UTC"
    got = table["generated_on"].to_pylist()
    assert got == [h.parse_generated_on(r["generatedOn"]) for r in records]
    assert any(g.microsecond % 1000 for g in got), "some values carry microseconds"


def test_a_curve_object_and_any_date_form_are_accepted(client, wire, fob):
    curve = client.catalogue(vertical=fob["filters"]["vertical"]).by_id(fob["id"])
    assert isinstance(curve, mc.Curve)
    by_id = client.settlements(fob["id"], "2025-05-02", "2025-05-09", ["Jul 25"])
    assert by_id.num_rows == len(wire.settlements(fob["id"], "Jul 25", "2025-05-02", "2025-05-09"))
    assert by_id.num_rows > 0
    minus_3 = dt.timezone(dt.timedelta(hours=-3))
    forms = [
        (dt.date(2025, 5, 2), dt.date(2025, 5, 9)),
        (dt.datetime(2025, 5, 2, 12), dt.datetime(2025, 5, 9, 23, 59)),
        ("2025-05-02T00:00:00Z", "2025-05-09T08:00:00+00:00"),
        # 23:00 at UTC-3 is already the next UTC day.
        (dt.datetime(2025, 5, 1, 23, tzinfo=minus_3), dt.datetime(2025, 5, 8, 22, tzinfo=minus_3)),
    ]
    for start, end in forms:
        assert client.settlements(curve, start, end, ["Jul 25"]).equals(by_id), (start, end)
    assert client.settlements(fob["id"], "2025-05-02", "2025-05-09", "Jul 25").equals(by_id)
    assert client.settlements(curve, "2025-05-02", "2025-05-09", [mc.Tenor("Jul 25")]).equals(by_id)
    awaited = asyncio.run(client.settlements_async(curve, forms[1][0], forms[2][1], "Jul 25"))
    assert awaited.equals(by_id)
    assert client.last_settlement(curve, "Jul 25").equals(
        client.last_settlement(fob["id"], "Jul 25")
    )


def test_tenors_none_pulls_every_contract_of_the_curve(client, wire, mixed, h):
    contracts = mixed["contracts"]
    table = client.settlements(mixed["id"], "2025-06-12", "2025-06-13")
    expected = [
        row
        for t in contracts
        for row in wire.settlements(mixed["id"], t, "2025-06-12", "2025-06-13")
    ]
    assert {r["tenor"] for r in expected} == set(contracts)
    h.assert_same_rows(table, expected)
    h.assert_sorted(table)
    assert list(dict.fromkeys(table["tenor"].to_pylist())) == h.calendar_order(contracts)


def test_tenors_none_pulls_every_contract_in_intraday_history(client, wire, coarse, h):
    contracts = coarse["contracts"]
    table = client.intraday_history(coarse["id"], "2025-06-12", "2025-06-12")
    expected = [
        row
        for t in contracts
        for row in wire.intraday_history(coarse["id"], t, "2025-06-12", "2025-06-12")
    ]
    assert {r["tenor"] for r in expected} == set(contracts)
    h.assert_same_rows(table, expected)
    h.assert_sorted(table)


def test_no_data_is_an_empty_table_with_the_full_schema(client, wire, fob):
    # 7 and 8 June 2025 are a weekend: no end-of-day snapshot.
    assert wire.settlements(fob["id"], "Jul 25", "2025-06-07", "2025-06-08") == []
    table = client.settlements(fob["id"], "2025-06-07", "2025-06-08", SUMMER)
    assert table.num_rows == 0
    assert table.schema.equals(table_schema("settlements"))
    history = client.intraday_history(fob["id"], "2025-06-07", "2025-06-08", "Jul 25")
    assert history.num_rows == len(
        wire.intraday_history(fob["id"], "Jul 25", "2025-06-07", "2025-06-08")
    )
    assert history.schema.equals(table_schema("prices"))


def test_concurrency_one_and_thirty_two_give_identical_tables(em, fob, coarse):
    one, many = em.client(max_concurrency=1), em.client(max_concurrency=32)
    history = (coarse["id"], "2025-05-01", "2025-06-13", ["Aug 25", "Q3 25", "Jul 25"])
    a, b = one.intraday_history(*history), many.intraday_history(*history)
    assert a.num_rows > 3 * 100 and a.equals(b)
    settled = (fob["id"], "2025-05-01", "2025-06-13")
    a, b = one.settlements(*settled), many.settlements(*settled)
    assert a.num_rows > 0 and a.equals(b)
    a, b = one.intraday(fob["id"], "Jul 25"), many.intraday(fob["id"], "Jul 25")
    assert a.num_rows > 100 and a.equals(b)


def test_an_open_ended_intraday_range_costs_what_one_ending_today_does(fresh_em, coarse):
    """The service publishes nothing after its today: an end far past it is
    taken as today, not as thousands of windows of nothing."""
    client = fresh_em.client()
    client.catalogue()  # the service's clock is read from its answers
    before = fresh_em.request_count("/historical/intraday")
    until_today = client.intraday_history(coarse["id"], "2025-06-01", "2025-06-13", "Aug 25")
    cost = fresh_em.request_count("/historical/intraday") - before
    before = fresh_em.request_count("/historical/intraday")
    open_ended = client.intraday_history(coarse["id"], "2025-06-01", "9999-12-31", "Aug 25")
    assert fresh_em.request_count("/historical/intraday") - before == cost
    assert open_ended.equals(until_today) and open_ended.num_rows > 0
    # Wholly after today: nothing to ask for.
    before = fresh_em.request_count()
    later = client.intraday_history(coarse["id"], "2030-01-01", "2030-12-31", "Aug 25")
    assert later.num_rows == 0 and fresh_em.request_count() == before
    client.close()


def test_an_intraday_range_of_more_than_about_ten_years_is_refused_before_any_request(
    fresh_em, coarse
):
    client = fresh_em.client()
    before = fresh_em.request_count()
    with pytest.raises(mc.InvalidRequest, match=r"at most 3660 days.*0025-01-01"):
        client.intraday_history(coarse["id"], "0025-01-01", "2025-06-13", "Aug 25")
    assert fresh_em.request_count() == before
    client.close()
