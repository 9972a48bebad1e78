"""What build refuses and what it warns of: two prices of one contract on
one date, null and NaN prices, tenors it cannot place, a price column of
text, rows keyed by a date they lack."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from curves_helpers import TODAY, column, settlements

import marketcurves as mc

ON = "2024-12-02"


def _history(client: mc.Client, curve: mc.Curve) -> pa.Table:
    return client.settlements(curve, "2025-06-11", TODAY)


def test_two_prices_of_one_contract_on_one_date_are_refused_naming_both(client, crude) -> None:
    history = _history(client, crude)
    first = history.slice(0, 1).to_pylist()[0]
    price = history.schema.get_field_index("price")
    moved = history.slice(0, 1).set_column(
        price, history.schema.field(price), pa.array([first["price"] + 1.5])
    )
    with pytest.raises(mc.InvalidRequest) as refused:
        mc.curves.build(pa.concat_tables([history, moved]))
    message = str(refused.value)
    day = first["date"].isoformat()
    assert f'tenor "{first["tenor"]}" of curve {crude.id} at {day} has two prices' in message
    assert f"{first['price']} and {first['price'] + 1.5}" in message
    # A settlements table has generated_on too: the message says which keys.
    assert "keyed by date" in message
    # The same rows twice (two pulls put together) are one price each.
    twice = mc.curves.build(pa.concat_tables([history, history]))
    assert twice.equals(mc.curves.build(history))


def test_intraday_prices_given_a_date_are_refused_pointing_to_generated_on() -> None:
    times = [dt.datetime(2024, 12, 2, h, tzinfo=dt.UTC) for h in (9, 16)]
    ticks = pa.table(
        {
            "curve_id": ["a", "a"],
            "tenor": ["Jan 25", "Jan 25"],
            "date": [t.date() for t in times],
            "generated_on": times,
            "price": [60.0, 60.5],
        }
    )
    with pytest.raises(mc.InvalidRequest, match=r"60 and 60\.5.*drop the date column"):
        mc.curves.build(ticks)
    per_time = mc.curves.build(ticks.drop_columns(["date"]))
    assert sorted(set(column(per_time, "generated_on"))) == times


def test_a_nan_price_is_no_price_as_a_null_one_is() -> None:
    rows = [("a", "Jan 25", ON, 60.0), ("a", "Feb 25", ON, 61.0), ("a", "Mar 25", ON, 0.0)]
    table = settlements(rows)
    without = mc.curves.build(table.slice(0, 2))
    mask = pa.array([False, False, True])
    null = table.set_column(
        3, "price", pc.if_else(mask, pa.scalar(None, pa.float64()), table["price"])
    )
    nan = table.set_column(3, "price", pc.if_else(mask, float("nan"), table["price"]))
    for missing in (null, nan):
        assert mc.curves.build(missing).equals(without)
        # residuals leave the row out alike.
        assert column(mc.curves.residuals(missing, without), "tenor") == ["Jan 25", "Feb 25"]
    # Beside a price of the same contract and date, NaN is no second price.
    both = pa.concat_tables([table.slice(0, 2), nan.slice(1, 2)])
    assert mc.curves.build(both).equals(without)


def test_tenors_without_delivery_days_are_warned_of_by_curve() -> None:
    rows = [
        ("a", "Jan 25", ON, 60.0),
        ("a", "Cal 26", ON, 62.0),
        ("a", "C 00", ON, 59.0),
        ("b", "Jan 25", ON, 60.0),
        ("b", "Balmo Dec 24", ON, 58.0),
    ]
    with pytest.warns(UserWarning, match="curve a: Cal 26; curve b: Balmo Dec 24") as caught:
        built = mc.curves.build(settlements(rows))
    assert len(caught) == 1
    assert set(column(built, "curve_id")) == {"a", "b"}
    # Continuous tenors have no delivery days by design: no warning (the
    # suite turns warnings into errors).
    mc.curves.build(settlements([rows[0], rows[2]]))


def test_a_price_column_of_text_is_warned_of() -> None:
    table = settlements([("a", "Jan 25", ON, 60.0), ("a", "Feb 25", ON, 61.0)])
    text = table.set_column(3, "price", pa.array(["60", "n/a"]))
    with pytest.warns(UserWarning, match=r"'price' is text \(Utf8\).*1 value\(s\) that are not"):
        built = mc.curves.build(text)
    assert built.equals(mc.curves.build(table.slice(0, 1)))


def test_rows_with_a_generated_on_but_no_date_are_warned_of() -> None:
    when = dt.datetime(2024, 12, 2, 15, 30, tzinfo=dt.UTC)
    table = pa.table(
        {
            "curve_id": ["a", "a"],
            "tenor": ["Jan 25", "Feb 25"],
            "date": [when.date(), None],
            "generated_on": [when, when],
            "price": [60.0, 61.0],
        }
    )
    with pytest.warns(UserWarning, match="both 'date' and 'generated_on'.*1 row"):
        built = mc.curves.build(table)
    assert built.num_rows == 31


def test_settlements_of_the_service_build_without_a_warning(client, crude) -> None:
    # Both date and generated_on, every row dated: nothing to warn of.
    history = client.settlements(crude, "2025-06-11", TODAY, tenors="all")
    assert {"date", "generated_on"} <= set(history.column_names)
    assert mc.curves.build(history).num_rows > 0
