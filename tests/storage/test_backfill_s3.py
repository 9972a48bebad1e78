"""The backfill writing into S3 (moto on loopback): the same lake as in a
folder, read back by ``read_ticks`` and by pyarrow as a Hive-partitioned
dataset; a rerun sends nothing."""

from __future__ import annotations

import pyarrow.dataset as ds
import pyarrow.fs

import marketcurves as mc

FIRST, LAST = "2025-05-20", "2025-06-05"


def _rows(table):
    return sorted(
        zip(
            table.column("tenor").to_pylist(),
            table.column("generated_on").to_pylist(),
            table.column("price").to_pylist(),
            strict=True,
        )
    )


def test_a_backfill_into_s3_is_the_backfill_into_a_folder(em, bucket, s3, s3_options, tmp_path):
    with em.client() as client:
        curve = next(c for c in client.catalogue() if len(c.contracts or []) >= 6)
        pairs = [(curve.id, t) for t in curve.contracts[3:5]]
        dest = f"s3://{bucket}/desk/ticks"
        in_s3 = client.backfill(dest, pairs, FIRST, LAST, storage_options=s3_options)
        in_folder = client.backfill(tmp_path, pairs, FIRST, LAST)
        assert in_s3 == in_folder and in_s3.values > 0
        lake = mc.read_ticks(dest, storage_options=s3_options)
        assert _rows(lake) == _rows(mc.read_ticks(tmp_path))
        before = em.request_count("/historical/intraday")
        again = client.backfill(dest, pairs, FIRST, LAST, storage_options=s3_options)
        assert (again.requests, em.request_count("/historical/intraday")) == (0, before)
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]]
    assert any(k.startswith("desk/ticks/date=2025-05-20/backfill-") for k in keys)
    filesystem = pyarrow.fs.S3FileSystem(
        access_key=s3_options["aws_access_key_id"],
        secret_key=s3_options["aws_secret_access_key"],
        endpoint_override=s3_options["aws_endpoint"],
        region=s3_options["aws_region"],
        scheme="http",
    )
    dataset = ds.dataset(
        f"{bucket}/desk/ticks", filesystem=filesystem, format="parquet", partitioning="hive"
    )
    assert dataset.count_rows() == lake.num_rows == in_s3.values
