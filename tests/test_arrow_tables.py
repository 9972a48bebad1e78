import datetime as dt
import json

import pyarrow as pa
import pytest

import marketcurves as mc
from marketcurves.testing import decode_table, table_schema

CURVE = "0b9f6c2e-7d1a-4c55-9e3b-2a4f8d6c1e07"
UTC = dt.UTC

DEPENDENCY = pa.struct(
    [
        ("id", pa.string()),
        ("name", pa.string()),
        ("value", pa.float64()),
        ("units", pa.string()),
        ("tenor_name", pa.string()),
    ]
)
HEAD = [
    pa.field("curve_id", pa.string(), nullable=False),
    pa.field("tenor", pa.string(), nullable=False),
    pa.field("tenor_kind", pa.dictionary(pa.int8(), pa.string()), nullable=False),
    pa.field("tenor_start", pa.date32()),
    pa.field("tenor_end", pa.date32()),
]
TAIL = [
    pa.field("generated_on", pa.timestamp("us", tz="UTC")),
    pa.field("price", pa.float64(), nullable=False),
    pa.field("units", pa.string()),
    pa.field("dependencies", pa.list_(DEPENDENCY)),
    pa.field("metadata", pa.map_(pa.string(), pa.string())),
]
SCHEMAS = {
    "prices": pa.schema(HEAD + TAIL),
    "settlements": pa.schema([*HEAD, pa.field("date", pa.date32()), *TAIL]),
    "assessments": pa.schema([*HEAD, pa.field("snapshot", pa.string(), nullable=False), *TAIL]),
}

SETTLEMENTS = [
    {
        "date": "2024-02-28",
        "value": {
            "generatedOn": "2024-02-28T16:30:00.123456",
            "price": 612.25,
            "units": "$/mt",
            "tenor": "26-EOM Feb 24",
            "dependencies": [
                {
                    "id": "d-1",
                    "name": "Freight",
                    "value": 21.5,
                    "units": "$/mt",
                    "tenorName": "Mar 24",
                }
            ],
            "metadata": [
                {"name": "loadDate", "value": "2024-02-26T00:00:00.000Z"},
                {"name": "monthNumber", "value": "2"},
            ],
        },
    },
    {
        "value": {"price": 610.0, "tenor": "26-EOM Feb 24", "generatedOn": "2024-02-27T16:30:00"},
        "date": "2024-02-27",
    },
]


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_schemas_are_the_designs_column_by_column(kind):
    schema = table_schema(kind)
    expected = SCHEMAS[kind]
    assert schema.names == expected.names
    for got, want in zip(schema, expected, strict=False):
        assert got.type == want.type, got.name
        assert got.nullable == want.nullable, got.name


def test_settlements_from_json_check_every_column():
    body = json.dumps(SETTLEMENTS).encode()
    table = decode_table("settlements", body, CURVE, "26-EOM Feb 24")
    assert isinstance(table, pa.Table)
    assert table.schema.equals(SCHEMAS["settlements"])
    rows = table.to_pylist()
    # Oldest first: rows are sorted by curve, tenor, then time.
    assert [r["date"] for r in rows] == [dt.date(2024, 2, 27), dt.date(2024, 2, 28)]
    newest = rows[1]
    assert newest["curve_id"] == CURVE
    assert newest["tenor"] == "26-EOM Feb 24"
    assert newest["tenor_kind"] == "window"
    assert (newest["tenor_start"], newest["tenor_end"]) == (
        dt.date(2024, 2, 26),
        dt.date(2024, 2, 29),
    )
    assert newest["generated_on"] == dt.datetime(2024, 2, 28, 16, 30, 0, 123456, tzinfo=UTC)
    assert newest["price"] == 612.25
    assert newest["units"] == "$/mt"
    assert newest["dependencies"] == [
        {"id": "d-1", "name": "Freight", "value": 21.5, "units": "$/mt", "tenor_name": "Mar 24"}
    ]
    assert newest["metadata"] == [("loadDate", "2024-02-26T00:00:00.000Z"), ("monthNumber", "2")]
    oldest = rows[0]
    assert oldest["dependencies"] is None and oldest["metadata"] is None and oldest["units"] is None


def test_assessments_long_form_one_row_per_snapshot():
    body = json.dumps(
        {
            "items": [
                {
                    "tenor": "Feb 26",
                    "newYorkSnapshot": {
                        "price": 3.0,
                        "tenor": "Feb 26",
                        "generatedOn": "2025-06-13T18:30:00",
                    },
                },
                {
                    "tenor": "Jan 26",
                    "londonSnapshot": {
                        "price": 2.0,
                        "tenor": "Jan 26",
                        "generatedOn": "2025-06-13T15:30:00",
                    },
                    "singaporeSnapshot": {"price": 1.0, "generatedOn": "2025-06-13T08:30:00.5"},
                    "newYorkSnapshot": None,
                },
            ]
        }
    ).encode()
    table = decode_table("last_assessments_all", body, CURVE)
    assert table.schema.equals(SCHEMAS["assessments"])
    got = list(
        zip(*(table.column(c).to_pylist() for c in ["tenor", "snapshot", "price"]), strict=False)
    )
    assert got == [
        ("Jan 26", "singapore", 1.0),
        ("Jan 26", "london", 2.0),
        ("Feb 26", "new_york", 3.0),
    ]


def test_an_empty_result_is_an_empty_table_with_the_full_schema():
    for endpoint, kind in [("settlements", "settlements"), ("intraday", "prices")]:
        body = b"[]" if endpoint == "settlements" else b'{"items": [], "next": null}'
        table = decode_table(endpoint, body, CURVE, "Jan 26")
        assert table.num_rows == 0
        assert table.schema.equals(SCHEMAS[kind])


def test_tables_convert_to_pandas():
    pd = pytest.importorskip("pandas")
    body = json.dumps(SETTLEMENTS).encode()
    frame = decode_table("settlements", body, CURVE, "26-EOM Feb 24").to_pandas()
    assert list(frame.columns) == SCHEMAS["settlements"].names
    assert str(frame["generated_on"].dt.tz) == "UTC"
    assert frame["price"].tolist() == [610.0, 612.25]
    assert isinstance(frame["tenor_kind"].dtype, pd.CategoricalDtype)


def test_unknown_endpoint_or_kind_is_an_invalid_request():
    with pytest.raises(mc.InvalidRequest, match="endpoint"):
        decode_table("nope", b"{}", CURVE)
    with pytest.raises(mc.InvalidRequest, match="kind"):
        table_schema("nope")
