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
from cluster_helpers import (
    GraphSpy,
    assert_secret_free,
    local_cluster,
    s3_store,
    spying,
    two_tenors,
)
from storage_helpers import ACCESS_KEY_ID, SECRET_ACCESS_KEY, list_keys

import marketcurves as mc
from marketcurves.testing import Emulator

sys.path.insert(0, str(Path(__file__).parent.parent / "backfill"))
from backfill_helpers import intraday_requests

#: Final days on the emulator's stopped clock (2025-06-13 17:00 UTC).
FIRST, LAST = "2025-05-26", "2025-06-06"
PREFIX = "desk/history"


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """A stopped clock: what is final stays final through the module."""
    return {}


@pytest.fixture(scope="module")
def cluster(em: Emulator, moto_server: str) -> Iterator[Any]:
    with local_cluster(em, moto_server, workers=2) as client:
        yield client


@pytest.fixture
def spy(cluster: Any) -> Iterator[GraphSpy]:
    with spying(cluster) as spy:
        yield spy


def test_a_clusters_workers_fill_the_drivers_bucket_cache_and_the_next_run_is_served_from_it(
    em, cluster, spy, bucket, s3, s3_options, tmp_path
):
    url = f"s3://{bucket}/{PREFIX}"
    # The driver is given the store's keys; the workers have them in their
    # environment only.
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        pairs = two_tenors(client)
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
    assert_secret_free(spy.pickles, em.token(), SECRET_ACCESS_KEY, ACCESS_KEY_ID)

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
        pairs = two_tenors(client)
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
    store = s3_store(
        bucket,
        moto_server,
        access_key_id=ACCESS_KEY_ID,
        secret_access_key=SECRET_ACCESS_KEY,
    )
    with em.client(cache_dir=store) as client:
        pairs = two_tenors(client)
        client.backfill(tmp_path / "lake", pairs, FIRST, LAST, cluster=cluster)
    assert spy.pickles
    assert_secret_free(spy.pickles, em.token(), SECRET_ACCESS_KEY, ACCESS_KEY_ID)
    intraday = [k for k in list_keys(bucket, "", s3=s3) if "/intraday/" in k]
    assert len(intraday) >= len(pairs), intraday


def test_a_users_own_dask_tasks_share_the_drivers_bucket_cache_and_no_secret(
    em, cluster, spy, bucket, s3_options
):
    url = f"s3://{bucket}/own-tasks"

    def pull(settings: mc.WorkerSettings, curve_id: str, tenor: str) -> dict:
        # On a worker: its client from the driver's settings, the service's
        # token and the store's keys from the worker's environment.
        with mc.Client.from_worker_settings(settings) as worker_client:
            table = worker_client.settlements(curve_id, FIRST, LAST, tenor)
            return {"rows": table.num_rows, **(worker_client.last_call_stats or {})}

    with em.client(cache_dir=url, storage_options=s3_options) as client:
        settings = client.worker_settings()
        assert settings.cache_dir == url and settings.base_url == client.base_url
        pairs = two_tenors(client)
        futures = cluster.map(pull, [settings] * len(pairs), *zip(*pairs, strict=True))
        pulled = cluster.gather(futures, errors="raise")
        assert all(p["rows"] > 0 and p["days_from_service"] > 0 for p in pulled), pulled
        assert len(spy.pickles) >= len(pairs)

        # What the workers kept, the driver reads: nothing sent.
        (curve_id, _), tenors = pairs[0], [t for _, t in pairs]
        before = em.request_count("/historical/settlements")
        table = client.settlements(curve_id, FIRST, LAST, tenors)
        assert em.request_count("/historical/settlements") == before
        assert table.num_rows == sum(p["rows"] for p in pulled)
        assert client.last_call_stats == {
            "days_from_cache": sum(p["days_from_service"] for p in pulled),
            "days_from_service": 0,
        }
    assert_secret_free(spy.pickles, em.token(), SECRET_ACCESS_KEY, ACCESS_KEY_ID)


def test_worker_settings_are_refused_for_anything_else_and_need_credentials(
    em, monkeypatch, tmp_path
):
    with pytest.raises(mc.InvalidType, match="worker_settings"):
        mc.Client.from_worker_settings({"base_url": em.base_url})  # type: ignore[arg-type]
    with em.client(cache_dir=tmp_path / "cache") as client:
        settings = client.worker_settings()
    # A folder cache stays the driver's machine's.
    assert settings.cache_dir is None
    for name in ("MARKETCURVES_TOKEN", "MARKETCURVES_EMAIL", "MARKETCURVES_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(mc.MissingWorkerCredentials, match="MARKETCURVES_TOKEN"):
        mc.Client.from_worker_settings(settings)
    monkeypatch.setenv("MARKETCURVES_TOKEN", em.token())
    with mc.Client.from_worker_settings(settings) as worker_client:
        assert worker_client.catalogue()
