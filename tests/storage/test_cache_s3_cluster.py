"""A backfill on a Dask ``LocalCluster`` (worker processes) shares the
driver's history cache in a bucket (moto on loopback): the workers fill
it, with the store's credentials from their own environment, and a second
backfill or pull is served from it. No secret of the driver's (its token,
the store's keys it was given) travels in a task."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from storage_helpers import ACCESS_KEY_ID, SECRET_ACCESS_KEY, environment, list_keys
from test_backfill_s3_cluster import GraphSpy, _assert_secret_free, _s3_store

import marketcurves as mc
from marketcurves.testing import Emulator

sys.path.insert(0, str(Path(__file__).parent.parent / "backfill"))
from backfill_helpers import intraday_requests

distributed = pytest.importorskip("distributed")

#: Final days on the emulator's stopped clock (2025-06-13 17:00 UTC).
FIRST, LAST = "2025-05-26", "2025-06-06"
PREFIX = "desk/history"


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """A stopped clock: what is final stays final through the module."""
    return {}


@pytest.fixture(scope="module")
def cluster(em: Emulator, moto_server: str) -> Iterator[Any]:
    """Two worker processes with the service's token and the store's
    credentials in their environment."""
    env = {"MARKETCURVES_TOKEN": em.token(), **environment(moto_server)}
    with (
        distributed.LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=":0",
            env=env,
        ) as local,
        distributed.Client(local) as client,
    ):
        yield client


@pytest.fixture
def spy(cluster: Any) -> Iterator[GraphSpy]:
    cluster.register_plugin(GraphSpy(), name=GraphSpy.name)
    try:
        yield cluster.cluster.scheduler.plugins[GraphSpy.name]
    finally:
        cluster.unregister_scheduler_plugin(GraphSpy.name)


def _pairs(client: mc.Client) -> list[tuple[str, str]]:
    curve = next(c for c in client.catalogue() if len(c.contracts or []) >= 6)
    return [(curve.id, t) for t in curve.contracts[3:5]]


def test_a_clusters_workers_fill_the_drivers_bucket_cache_and_the_next_run_is_served_from_it(
    em, cluster, spy, bucket, s3, s3_options, tmp_path
):
    url = f"s3://{bucket}/{PREFIX}"
    # The driver is given the store's keys; the workers have them in their
    # environment only.
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        pairs = _pairs(client)
        before = intraday_requests(em)
        first = client.backfill(tmp_path / "one", pairs, FIRST, LAST, cluster=cluster)
        sent_first = intraday_requests(em) - before
        assert first.tasks == len(spy.pickles) > 0
        assert first.values > 0 and sent_first > 0
        intraday = [k for k in list_keys(bucket, PREFIX, s3=s3) if "/intraday/" in k]
        assert len(intraday) >= len(pairs), intraday

        # Another lake from the same days: every one from the bucket.
        before = intraday_requests(em)
        second = client.backfill(tmp_path / "two", pairs, FIRST, LAST, cluster=cluster)
        assert intraday_requests(em) == before
        assert (second.values, second.days_complete) == (first.values, first.days_complete)
    _assert_secret_free(spy.pickles, em.token(), SECRET_ACCESS_KEY, ACCESS_KEY_ID)

    # A client of another machine (a new one here) pulls them from the bucket.
    (curve_id, _), tenors = pairs[0], [t for _, t in pairs]
    with em.client(cache_dir=url, storage_options=s3_options) as other:
        before = intraday_requests(em)
        table = other.intraday_history(curve_id, FIRST, LAST, tenors)
        assert intraday_requests(em) == before
        stats = other.last_call_stats
        assert stats is not None and stats["days_from_service"] == 0
        assert stats["days_from_cache"] > 0
        assert table.num_rows == first.values


def test_a_folder_cache_stays_the_drivers_and_the_workers_keep_none(em, cluster, spy, tmp_path):
    with em.client(cache_dir=tmp_path / "cache") as client:
        pairs = _pairs(client)
        client.backfill(tmp_path / "lake", pairs, FIRST, LAST, cluster=cluster)
        # The workers wrote nothing into the driver's folder...
        assert client.cache_info()["curves"] == []
        # ...and were not told of it.
    assert spy.pickles
    for pickled in spy.pickles:
        assert str(tmp_path / "cache").encode() not in pickled


def test_an_obstore_cache_built_with_keys_travels_as_its_url_without_them(
    em, cluster, spy, bucket, s3, moto_server, tmp_path
):
    store = _s3_store(
        bucket,
        moto_server,
        access_key_id=ACCESS_KEY_ID,
        secret_access_key=SECRET_ACCESS_KEY,
    )
    with em.client(cache_dir=store) as client:
        pairs = _pairs(client)
        client.backfill(tmp_path / "lake", pairs, FIRST, LAST, cluster=cluster)
    assert spy.pickles
    _assert_secret_free(spy.pickles, em.token(), SECRET_ACCESS_KEY, ACCESS_KEY_ID)
    intraday = [k for k in list_keys(bucket, "", s3=s3) if "/intraday/" in k]
    assert len(intraday) >= len(pairs), intraday
