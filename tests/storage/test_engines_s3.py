"""Other engines read the bulk export that ``bulk_download`` writes into
object storage: Dask (on a cluster of worker processes, through s3fs),
``pyarrow.dataset`` and polars each read the Hive-partitioned prefix on moto's
S3 and find the rows, partitions and prices that ``read_bulk`` finds.

DuckDB is not tested here: its S3 support is the ``httpfs`` extension, which
it downloads from the internet at first use.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pandas as pd
import pytest
from storage_helpers import ACCESS_KEY_ID, REGION, SECRET_ACCESS_KEY, storage_options
from support import BULK_TIME_SCALE, start_emulator

import marketcurves as mc

#: Two verticals, so that the vertical is a partition column with more than one value.
EXPORTS = [("JET", "2024-03", "2024-05"), ("NAPHTHA", "2024-03", "2024-04")]
KEYS = ["vertical", "year", "month"]
#: What the workers' environment has of AWS: its files, pointed at nothing.
NO_AWS_FILES = {"AWS_CONFIG_FILE": os.devnull, "AWS_SHARED_CREDENTIALS_FILE": os.devnull}


@pytest.fixture(scope="module")
def exported(s3: Any, moto_server: str) -> str:
    """The export downloaded once into a bucket of the module's own by
    ``bulk_download``; its URL, ``s3://bucket/exports``."""
    bucket = f"engines-{uuid.uuid4().hex[:16]}"
    s3.create_bucket(Bucket=bucket)
    options = storage_options(moto_server)
    url = f"s3://{bucket}/exports"
    with start_emulator(time_scale=BULK_TIME_SCALE) as em, em.client() as client:
        for vertical, start, end in EXPORTS:
            client.bulk_download(
                vertical,
                start,
                end,
                url,
                progress=False,
                poll_interval=0.05,
                storage_options=options,
            )
    return url


@pytest.fixture(scope="module")
def reference(exported: str, moto_server: str) -> pd.DataFrame:
    """The partition columns and prices of the export, as ``read_bulk`` reads them."""
    table = mc.read_bulk(exported, storage_options=storage_options(moto_server))
    return table.select([*KEYS, "price"]).to_pandas()


@pytest.fixture(scope="module")
def expected(reference: pd.DataFrame) -> pd.DataFrame:
    """Rows and mean price by partition, from ``read_bulk``."""
    return _summary(reference)


def _keys_made_plain(frame: pd.DataFrame) -> pd.DataFrame:
    """The partition columns as plain ``str`` and ``int`` whatever type the
    engine gave them (a category, the path's text ``"04"``…)."""
    return frame.assign(
        vertical=frame["vertical"].astype(str),
        year=frame["year"].astype(str).astype(int),
        month=frame["month"].astype(str).astype(int),
    )


def _summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows and mean price by (vertical, year, month)."""
    summary = _keys_made_plain(frame).groupby(KEYS)["price"].agg(rows="size", mean="mean")
    return summary.sort_index()


def _assert_same(got: pd.DataFrame, expected: pd.DataFrame) -> None:
    assert list(got.index) == list(expected.index)
    assert got["rows"].tolist() == expected["rows"].tolist()
    assert got["mean"].tolist() == pytest.approx(expected["mean"].tolist(), rel=1e-9)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """Two worker processes and a client of theirs, for the module. The
    workers inherit the session's environment, from which the machine's AWS
    settings are gone; AWS's files are pointed at nothing for them too."""
    import distributed

    with (
        distributed.LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=":0",  # a free port: suites run side by side
            env=NO_AWS_FILES,
        ) as local,
        distributed.Client(local) as client,
    ):
        yield client


def test_dask_reads_the_export_on_worker_processes(cluster, exported, expected, moto_server):
    import dask.dataframe as dd

    options = {
        "key": ACCESS_KEY_ID,
        "secret": SECRET_ACCESS_KEY,
        "client_kwargs": {"endpoint_url": moto_server, "region_name": REGION},
    }
    frame = dd.read_parquet(f"{exported}/", storage_options=options, columns=[*KEYS, "price"])
    assert set(KEYS) <= set(frame.columns)
    # Computed on the workers: the grouping is reduced there, only the
    # summary comes back to this process.
    got = frame.groupby(KEYS, observed=True)["price"].agg(["size", "mean"]).compute()
    got = got.rename(columns={"size": "rows"}).reset_index()
    assert len(cluster.scheduler_info()["workers"]) == 2
    # No AWS setting of the machine reached the workers, which read with the
    # options given and nothing else.
    settings = cluster.run(_aws_variables)
    assert list(settings.values()) == [sorted(NO_AWS_FILES)] * 2
    _assert_same(_keys_made_plain(got).set_index(KEYS).sort_index(), expected)


def _aws_variables() -> list[str]:
    return sorted(name for name in os.environ if name.upper().startswith("AWS_"))


def test_pyarrow_dataset_reads_the_export(exported, reference, expected, moto_server):
    import pyarrow.compute as pc
    import pyarrow.dataset as ds
    from pyarrow.fs import S3FileSystem

    endpoint = urlsplit(moto_server)
    filesystem = S3FileSystem(
        access_key=ACCESS_KEY_ID,
        secret_key=SECRET_ACCESS_KEY,
        endpoint_override=endpoint.netloc,
        scheme=endpoint.scheme,
        region=REGION,
    )
    path = exported.removeprefix("s3://")
    table = ds.dataset(path, filesystem=filesystem, format="parquet", partitioning="hive").to_table(
        columns=[*KEYS, "price"]
    )
    assert table.num_rows == len(reference)
    assert pc.sum(table["price"]).as_py() == pytest.approx(reference["price"].sum(), rel=1e-9)
    _assert_same(_summary(table.to_pandas()), expected)


def test_polars_reads_the_export(exported, reference, expected, moto_server):
    import polars as pl

    options = {
        "aws_endpoint_url": moto_server,
        "aws_access_key_id": ACCESS_KEY_ID,
        "aws_secret_access_key": SECRET_ACCESS_KEY,
        "aws_region": REGION,
        "aws_allow_http": "true",
    }
    frame = pl.scan_parquet(
        f"{exported}/**/*.parquet", hive_partitioning=True, storage_options=options
    )
    table = frame.select([*KEYS, "price"]).collect()
    assert table.height == len(reference)
    assert table["price"].sum() == pytest.approx(reference["price"].sum(), rel=1e-9)
    _assert_same(_summary(table.to_pandas()), expected)
