"""``mc.to_polars`` and the round trip of the package's tables through
polars, DuckDB and pandas: tenors in calendar order, times in UTC, dates as
dates, nested columns whole."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import marketcurves as mc
from marketcurves.testing import Emulator


def calendar(names):
    return [t.name for t in sorted({mc.Tenor.parse(n, strict=False) for n in names})]


@pytest.fixture(scope="module")
def client(em: Emulator) -> Iterator[mc.Client]:
    with em.client() as c:
        yield c


@pytest.fixture(scope="module")
def curve(client):
    return next(c for c in client.catalogue(vertical="Jet") if c.quotation != "Sales")


@pytest.fixture(scope="module")
def settlements(client, curve) -> pa.Table:
    return client.settlements(curve, "2025-06-10", "2025-06-12")


def test_types_and_the_tenors_order(settlements):
    frame = mc.to_polars(settlements)
    order = calendar(settlements["tenor"].to_pylist())
    assert order != sorted(order)
    assert frame.schema["tenor"] == pl.Enum(order)
    assert (
        frame.sort("tenor", maintain_order=True)["tenor"].unique(maintain_order=True).to_list()
        == order
    )
    assert frame.schema["generated_on"] == pl.Datetime("us", "UTC")
    assert frame.schema["date"] == pl.Date and frame.schema["tenor_start"] == pl.Date
    assert frame.schema["tenor_kind"] == pl.Categorical
    assert isinstance(frame.schema["dependencies"], pl.List)
    assert frame.height == settlements.num_rows


def test_values_survive_the_round_trip(settlements):
    back = mc.to_polars(settlements).to_arrow()
    assert back.column_names == settlements.column_names
    for name in settlements.column_names:
        if name != "metadata":
            assert back[name].to_pylist() == settlements[name].to_pylist(), name
    # Maps come back as polars keeps them: the same pairs either way.
    as_pairs = [
        None if m is None else [tuple(p.values()) if isinstance(p, dict) else p for p in m]
        for m in back["metadata"].to_pylist()
    ]
    assert as_pairs == settlements["metadata"].to_pylist()
    first = back["generated_on"].to_pylist()[0]
    assert first.utcoffset() == dt.timedelta(0)


def test_duckdb_reads_the_frame(settlements):
    connection = duckdb.connect()
    connection.register("frame", mc.to_polars(settlements))
    # DuckDB reads the Enum as text: calendar order there is by delivery
    # period, which the date columns keep.
    result = connection.sql(
        "select tenor, date, generated_on, price, dependencies from frame "
        "order by tenor_start nulls first, tenor_end, tenor, date"
    ).arrow()
    if isinstance(result, pa.RecordBatchReader):
        result = result.read_all()
    # An instant in UTC, however the session names it.
    times = result["generated_on"].type
    assert pa.types.is_timestamp(times) and times.tz in ("UTC", "Etc/UTC")
    assert result["date"].type == pa.date32()
    order = calendar(settlements["tenor"].to_pylist())
    tenors = result["tenor"].to_pylist()
    assert list(dict.fromkeys(tenors)) == order
    expected = sorted(settlements.to_pylist(), key=lambda r: (order.index(r["tenor"]), r["date"]))
    for got, want in zip(result.to_pylist(), expected, strict=False):
        assert (got["tenor"], got["date"], got["generated_on"], got["price"]) == (
            want["tenor"],
            want["date"],
            want["generated_on"],
            want["price"],
        )
        assert got["dependencies"] == want["dependencies"]


def test_pandas_from_polars_keeps_the_calendar_order(settlements):
    frame = mc.to_polars(settlements).to_pandas()
    order = calendar(settlements["tenor"].to_pylist())
    assert list(frame["tenor"].cat.categories) == order and frame["tenor"].cat.ordered
    assert str(frame["generated_on"].dt.tz) == "UTC"
    direct = mc.to_pandas(settlements)
    assert list(frame["tenor"].astype(str)) == list(direct["tenor"].astype(str))
    assert (frame["generated_on"] == direct["generated_on"]).all()
    assert [d.date() for d in pd.to_datetime(frame["date"])] == list(direct["date"])
    assert (
        frame.sort_values("tenor", kind="stable")["tenor"].astype(str).drop_duplicates().tolist()
        == order
    )


def test_other_tables_and_empty_ones(client, settlements):
    catalogue = mc.to_polars(client.catalogue(vertical="Jet").to_arrow())
    assert "tenor" not in catalogue.columns and catalogue.height > 0
    empty = mc.to_polars(settlements.slice(0, 0))
    assert empty.height == 0 and empty.schema["tenor"] == pl.Enum([])
    batch = mc.to_polars(settlements.to_batches()[0])
    assert batch.height == settlements.to_batches()[0].num_rows


def test_bad_input_and_polars_missing(settlements, monkeypatch):
    with pytest.raises(mc.InvalidRequest, match=r"pyarrow\.Table"):
        mc.to_polars(settlements.to_pylist())
    monkeypatch.setitem(sys.modules, "polars", None)
    with pytest.raises(ImportError, match="pip install polars") as caught:
        mc.to_polars(settlements)
    assert caught.value.name == "polars"
