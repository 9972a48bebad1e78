"""The cache's files are plain Parquet: other engines read them as they are."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
from cache_helpers import TWO, segment_files

import marketcurves as mc


def test_pyarrow_and_duckdb_read_the_cached_days_as_the_table(client, cache_dir, curve):
    table = client.settlements(curve, "2025-04-01", "2025-05-30", TWO)
    files = sorted(segment_files(cache_dir, "settlements"), key=lambda p: (p.parent.name, p.name))
    assert len(files) == len(TWO)

    by_pyarrow = pa.concat_tables(pq.read_table(path) for path in files)
    ordered = mc.to_pandas(table).sort_values(["tenor_start", "date"])
    theirs = by_pyarrow.to_pandas().sort_values(["tenor_start", "date"])
    assert list(theirs["price"]) == list(ordered["price"])
    assert list(theirs["tenor"]) == [str(t) for t in ordered["tenor"]]
    assert by_pyarrow.schema.field("generated_on").type == pa.timestamp("us", tz="UTC")

    service = client.cache_info()["dir"]
    pattern = f"{service}/settlements/**/*.parquet"
    count, total = duckdb.sql(
        f"select count(*), sum(price) from read_parquet('{pattern}')"
    ).fetchall()[0]
    assert count == table.num_rows
    assert abs(total - pa.compute.sum(table["price"]).as_py()) < 1e-6
