"""Unit conversion, spreads, cracks and the matrix, on the emulator's data
and on small tables worked out by hand."""

from __future__ import annotations

import pytest
from curves_helpers import TODAY, column, settlements

import marketcurves as mc

WEEK = ("2025-06-02", TODAY)


def test_cents_per_gallon_to_dollars_per_barrel(client, gasoline_cents) -> None:
    table = client.settlements(gasoline_cents, *WEEK)
    out = mc.curves.convert(table, to="$/bbl")
    assert out.schema == table.schema
    assert set(column(out, "units")) == {"$/bbl"}
    for before, after in zip(column(table, "price"), column(out, "price"), strict=False):
        assert after == pytest.approx(before / 100 * 42)
    back = mc.curves.convert(out, to="c/gal")
    assert column(back, "price") == pytest.approx(column(table, "price"))


def test_tonnes_need_a_factor_and_the_products_is_standard(client, jet_tonnes, catalogue) -> None:
    table = client.settlements(jet_tonnes, *WEEK, tenors="Jul 25")
    with pytest.raises(mc.InvalidRequest, match=f"curve {jet_tonnes.id}.*factor="):
        mc.curves.convert(table, to="$/bbl")
    expected = [p / 7.88 for p in column(table, "price")]
    for factor in ("Jet", jet_tonnes, catalogue, {jet_tonnes.id: 7.88}):
        out = mc.curves.convert(table, to="$/bbl", factor=factor)
        assert column(out, "price") == pytest.approx(expected)


def test_a_catalogue_factor_passes_over_a_curve_listed_without_an_id(
    client, jet_tonnes, catalogue
) -> None:
    # The service may leave a curve's id out (Curve.id is then None): such a
    # curve names no table's curve, and the others still give their factor.
    table = client.settlements(jet_tonnes, *WEEK, tenors="Jul 25")
    no_id = mc.Curve(
        id=None, name="Jet Fob", quotation="Fob", units="$/mt", filters={"vertical": "Jet"}
    )
    out = mc.curves.convert(table, to="$/bbl", factor=mc.Catalogue([no_id, *catalogue]))
    assert column(out, "price") == pytest.approx([p / 7.88 for p in column(table, "price")])


def test_mixed_units_are_refused() -> None:
    import pyarrow as pa

    table = pa.concat_tables(
        [
            settlements([("a", "Jul 25", "2025-06-02", 1)], "$/bbl"),
            settlements([("b", "Jul 25", "2025-06-02", 1)], "c/gal"),
        ]
    )
    with pytest.raises(mc.InvalidRequest, match="mixed units"):
        mc.curves.convert(table, to="$/bbl")


def test_crack_of_gasoline_against_crude(client, gasoline_cents, crude) -> None:
    product = client.settlements(gasoline_cents, *WEEK, tenors=["Jul 25", "Aug 25"])
    base = client.settlements(crude, *WEEK, tenors=["Jul 25", "Aug 25"])
    out = mc.curves.crack(product, base)
    assert out.column_names == ["tenor", "date", "product", "crude", "crack", "units"]
    assert set(column(out, "tenor")) == {"Jul 25", "Aug 25"}
    p = {(r["tenor"], r["date"]): r["price"] for r in product.to_pylist()}
    c = {(r["tenor"], r["date"]): r["price"] for r in base.to_pylist()}
    for row in out.to_pylist():
        key = (row["tenor"], row["date"])
        assert row["crack"] == pytest.approx(p[key] * 0.42 - c[key])


def test_spread_by_name_and_by_position() -> None:
    table = settlements(
        [
            ("a", "Jan 25", "2024-12-31", 70.0),
            ("a", "Feb 25", "2024-12-31", 71.5),
            ("a", "Feb 25", "2025-01-02", 71.0),
            ("a", "Mar 25", "2025-01-02", 73.0),
        ]
    )
    named = mc.curves.spread(table, "Feb 25", mc.Tenor("Mar 25"))
    assert column(named, "spread") == [-2.0]
    rolled = mc.curves.spread(table, "M1", "M2")
    assert column(rolled, "near") == ["Jan 25", "Feb 25"]
    assert column(rolled, "spread") == [-1.5, -2.0]
    assert column(mc.curves.spread(table, "Feb 25", "Feb 25"), "spread") == [0.0, 0.0]


def test_matrix_is_in_calendar_order_and_reads_in_pandas(client, crude) -> None:
    table = client.settlements(crude, *WEEK)
    out = mc.curves.matrix(table)
    tenors = out.column_names[2:]
    assert tenors == [t.name for t in sorted(mc.Tenor.parse(n) for n in tenors)]
    assert out.num_rows == len(set(column(table, "date")))
    frame = mc.to_pandas(out)
    assert list(frame.columns[:2]) == ["curve_id", "date"]
