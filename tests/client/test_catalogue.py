"""The catalogue: filters, every page, and its Arrow, pandas and notebook views."""

from __future__ import annotations

import asyncio

import pytest

import marketcurves as mc


def _ids(curves) -> list[str]:
    return [c.id if isinstance(c, mc.Curve) else c["id"] for c in curves]


def test_every_page_is_fetched(client, curves):
    catalogue = client.catalogue()
    assert isinstance(catalogue, mc.Catalogue)
    assert len(curves) > 100, "more curves than one page of the service holds"
    assert len(catalogue) == len(curves)
    assert _ids(catalogue) == _ids(curves)
    assert len(set(_ids(catalogue))) == len(catalogue)
    assert _ids(asyncio.run(client.catalogue_async())) == _ids(curves)


def test_curves_carry_every_field(client, curves):
    catalogue = client.catalogue()
    for curve, item in zip(catalogue, curves, strict=False):
        assert (curve.id, curve.name, curve.quotation, curve.units) == (
            item["id"],
            item["name"],
            item["quotation"],
            item["units"],
        )
        assert dict(curve.filters) == item["filters"]
        assert dict(curve.properties) == item["properties"]
        assert list(curve.contracts) == item["contracts"]
        assert curve.vertical == item["filters"]["vertical"]
        assert curve.region == item["filters"]["region"]
    some = catalogue[0]
    assert [t.name for t in some.tenors] == sorted(
        some.contracts, key=lambda n: mc.Tenor.parse(n, strict=False)
    )
    assert catalogue.by_id(some.id) is some
    with pytest.raises(KeyError):
        catalogue.by_id("no-such-curve")
    assert isinstance(catalogue[:5], mc.Catalogue) and len(catalogue[:5]) == 5


@pytest.mark.parametrize(
    ("kwargs", "test"),
    [
        ({"vertical": "Jet"}, lambda c: c["filters"]["vertical"] == "Jet"),
        ({"vertical": "jet"}, lambda c: c["filters"]["vertical"] == "Jet"),
        ({"vertical": "ULSD"}, lambda c: c["filters"]["vertical"] == "ULSD"),
        ({"vertical": "ulsd"}, lambda c: c["filters"]["vertical"] == "ULSD"),
        ({"vertical": "FUEL_OIL"}, lambda c: c["filters"]["vertical"] == "Fuel Oil"),
        ({"vertical": "fuel oil"}, lambda c: c["filters"]["vertical"] == "Fuel Oil"),
        ({"vertical": "Fuel Oil"}, lambda c: c["filters"]["vertical"] == "Fuel Oil"),
        ({"quotation": "Fob"}, lambda c: c["quotation"] == "Fob"),
        ({"quotation": "blend"}, lambda c: c["quotation"] == "Blend"),
        ({"region": "ARA"}, lambda c: c["filters"]["region"] == "ARA"),
        ({"region": "far east"}, lambda c: c["filters"]["region"] == "FAR EAST"),
        (
            {"vertical": "Gasoline", "quotation": "Price", "region": "ARA"},
            lambda c: (
                c["filters"]["vertical"] == "Gasoline"
                and c["quotation"] == "Price"
                and c["filters"]["region"] == "ARA"
            ),
        ),
        ({"grade": "Maya"}, lambda c: c["filters"].get("grade") == "Maya"),
        (
            {"vertical": "Gasoline", "loadPort": "Houston"},
            lambda c: (
                c["filters"]["vertical"] == "Gasoline" and c["filters"].get("loadPort") == "Houston"
            ),
        ),
        (
            {"loadPort": "Houston"},
            lambda c: c["filters"].get("loadPort") == "Houston",
        ),
    ],
    # The filters name each case; a function's repr would carry its address,
    # which differs from one process to the next.
    ids=lambda value: repr(value) if isinstance(value, dict) else "matches",
)
def test_filters_select_the_matching_curves(client, curves, kwargs, test):
    expected = [c["id"] for c in curves if test(c)]
    assert expected, "the filter matches some curves"
    assert len(expected) < len(curves)
    assert _ids(client.catalogue(**kwargs)) == expected
    assert _ids(asyncio.run(client.catalogue_async(**kwargs))) == expected


def test_a_filter_nothing_matches_is_an_empty_catalogue(client):
    catalogue = client.catalogue(vertical="Jet", grade="no such grade")
    assert len(catalogue) == 0 and list(catalogue) == []
    assert catalogue.to_arrow().num_rows == 0


def test_to_arrow_and_to_pandas(client, curves):
    catalogue = client.catalogue(vertical="Naphtha")
    expected = [c for c in curves if c["filters"]["vertical"] == "Naphtha"]
    table = catalogue.to_arrow()
    assert table.column_names == [
        "id",
        "name",
        "vertical",
        "quotation",
        "region",
        "units",
        "filters",
        "properties",
        "contracts",
    ]
    rows = table.to_pylist()
    assert len(rows) == len(expected)
    for row, item in zip(rows, expected, strict=False):
        assert row["id"] == item["id"] and row["name"] == item["name"]
        assert row["vertical"] == "Naphtha" and row["region"] == item["filters"]["region"]
        assert (row["quotation"], row["units"]) == (item["quotation"], item["units"])
        assert dict(row["filters"]) == item["filters"]
        assert dict(row["properties"]) == item["properties"]
        assert row["contracts"] == item["contracts"]
    pytest.importorskip("pandas")
    frame = catalogue.to_pandas()
    assert list(frame.columns) == table.column_names
    assert list(frame["id"]) == [c["id"] for c in expected]


def test_repr_and_html(client, curves):
    catalogue = client.catalogue()
    text = repr(catalogue)
    assert str(len(curves)) in text.splitlines()[0]
    assert curves[0]["name"] in text and curves[0]["id"] in text
    assert curves[-1]["id"] not in text, "a long catalogue is cut short"
    assert f"{len(curves) - 10} more" in text
    html = catalogue._repr_html_()
    assert html.count("<tr>") == 1 + min(50, len(curves))
    assert "<table" in html and curves[0]["id"] in html
    assert f"{len(curves) - 50} more" in html
    small = client.catalogue(grade="Maya")
    assert all(c.id in repr(small) for c in small)
    assert repr(small[0]).startswith("Curve(") and small[0].id in repr(small[0])
    # One curve is one, not "1 curves".
    one = catalogue[:1]
    assert repr(one).splitlines()[0] == "Catalogue of 1 curve"
    assert "<strong>Catalogue of 1 curve</strong>" in one._repr_html_()
    assert repr(catalogue[:0]) == "Catalogue of 0 curves"
