"""Every table the client returns names its curves in its schema metadata
(``marketcurves.curves``): id, name, units and quotation as the catalogue
lists them, whatever the call; to_pandas keeps them in ``attrs``."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pyarrow as pa

import marketcurves as mc

KEY = b"marketcurves.curves"


def catalogue_row(curve: dict[str, Any]) -> dict[str, Any]:
    """The key's entry for a curve, from the service's own catalogue row."""
    return {k: curve.get(k) for k in ("id", "name", "units", "quotation")}


def named(table: pa.Table) -> list[dict[str, Any]]:
    return json.loads(table.schema.metadata[KEY])


def test_settlements_name_their_curve(client, fob):
    table = client.settlements(fob["id"], "2025-06-10", "2025-06-13")
    assert table.num_rows > 0
    assert named(table) == [catalogue_row(fob)]


def test_intraday_history_names_its_curve(client, fob):
    table = client.intraday_history(fob["id"], "2025-06-13", "2025-06-13", fob["contracts"][0])
    assert named(table) == [catalogue_row(fob)]


def test_intraday_names_its_curve(client, fob):
    table = client.intraday(fob["id"], fob["contracts"][0])
    assert named(table) == [catalogue_row(fob)]


def test_last_settlement_and_assessments_name_their_curve(client, fob):
    assert named(client.last_settlement(fob["id"])) == [catalogue_row(fob)]
    assert named(client.last_assessments(fob["id"])) == [catalogue_row(fob)]


def test_the_awaitable_forms_name_their_curve(client, fob):
    table = asyncio.run(client.settlements_async(fob["id"], "2025-06-12", "2025-06-13"))
    assert named(table) == [catalogue_row(fob)]
    assert named(asyncio.run(client.last_settlement_async(fob["id"]))) == [catalogue_row(fob)]


def test_a_table_with_no_row_names_the_curve_asked_for(client, fob):
    table = client.settlements(fob["id"], "2000-01-03", "2000-01-04")
    assert table.num_rows == 0
    assert named(table) == [catalogue_row(fob)]


def test_to_pandas_keeps_the_curves_in_attrs(client, fob):
    table = client.settlements(fob["id"], "2025-06-12", "2025-06-13")
    frame = mc.to_pandas(table)
    assert frame.attrs["marketcurves.curves"] == [catalogue_row(fob)]
    assert mc.to_pandas(table, nested="drop").attrs["marketcurves.curves"] == [catalogue_row(fob)]


def test_name_curves_names_a_table_read_without_a_client(client, fob):
    table = client.settlements(fob["id"], "2025-06-12", "2025-06-13")
    bare = table.replace_schema_metadata({})
    assert named(client.name_curves(bare)) == [catalogue_row(fob)]
    batch = bare.to_batches()[0]
    assert named(asyncio.run(client.name_curves_async(batch))) == [catalogue_row(fob)]


def test_curve_functions_carry_the_names_on(client, fob):
    table = client.settlements(fob["id"], "2025-06-02", "2025-06-13")
    for derived in (
        mc.curves.matrix(table),
        mc.curves.rolling(table, kind="month", nearby=[1, 2]),
        mc.curves.spread(table, "M1", "M2"),
        mc.curves.build(table),
    ):
        assert named(derived) == [catalogue_row(fob)]
