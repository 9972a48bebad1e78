"""``Client.backfill(cluster=...)`` on a Dask ``LocalCluster`` of two worker
processes: the same lake as on one machine, with a worker killed mid-run,
and no secret in what the driver sends."""

from __future__ import annotations

import datetime as dt
import functools
import os
import pickle
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from backfill_helpers import LAST, curve_and_tenors, lake_rows, values

import marketcurves as mc
from marketcurves import _backfill_worker, _core
from marketcurves.testing import Emulator

distributed = pytest.importorskip("distributed")

FIRST = "2025-01-01"


@pytest.fixture(scope="module")
def cluster(em: Emulator) -> Iterator[Any]:
    """Two worker processes, one thread each, authenticating from their
    environment (the driver's client holds a fixed token, which is not sent)."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=":0",  # a free port: suites run side by side
            env={"MARKETCURVES_TOKEN": em.token()},
        ) as local,
        distributed.Client(local) as client,
    ):
        yield client


@pytest.mark.slow
def test_two_workers_one_killed_write_the_lake_one_machine_writes(em, cluster, tmp_path):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 4)
        pairs = [(curve_id, t) for t in tenors]
        alone = client.backfill(tmp_path / "alone", pairs, FIRST, LAST)
        assert alone.tasks == 6
        workers = cluster.run(os.getpid)
        victim = sorted(workers.values())[0]
        em.set_latency(0.1)
        killer = threading.Timer(1.5, os.kill, (victim, signal.SIGKILL))
        killer.start()
        try:
            spread = client.backfill(tmp_path / "dask", pairs, FIRST, LAST, cluster=cluster)
        finally:
            killer.cancel()
            em.set_latency(0)
    assert victim not in cluster.run(os.getpid).values(), "the worker was killed mid-run"
    assert spread.tasks == alone.tasks and spread.values == alone.values
    assert spread.days_complete == alone.days_complete
    lake = values(mc.read_ticks(tmp_path / "dask"))
    assert lake == values(mc.read_ticks(tmp_path / "alone"))
    assert lake_rows(tmp_path / "dask") == len(lake)
    again = client_again(em, tmp_path / "dask", pairs, cluster)
    assert (again.tasks, again.requests) == (0, 0)


def client_again(em: Emulator, dest: Any, pairs: list[Any], cluster: Any) -> mc.BackfillSummary:
    with em.client() as client:
        return client.backfill(dest, pairs, FIRST, LAST, cluster=cluster)


def test_no_secret_travels_to_the_workers(em):
    with em.client() as client:
        assert em.token() not in repr(client._worker_settings())
        assert em.token().encode() not in pickle.dumps(client._worker_settings())
    with mc.Client(base_url=em.base_url, email="a@b.c", password="hunter2") as login:
        assert b"hunter2" not in pickle.dumps(login._worker_settings())


def test_a_worker_keeps_one_client_for_each_drivers_settings(em):
    import pickle as plain

    provider = functools.partial(str, "a token")
    with mc.Client(base_url=em.base_url, token_provider=provider) as client:
        settings = client._worker_settings()
    # Each task brings its own copy of the settings, token provider included.
    copies = [plain.loads(plain.dumps(settings)) for _ in range(3)]
    made = {id(_backfill_worker.core_client(copy)) for copy in copies}
    assert len(made) == 1
    other = {**settings, "max_concurrency": 3}
    assert id(_backfill_worker.core_client(other)) not in made


def test_a_worker_without_credentials_says_how_to_give_them(em, monkeypatch):
    for name in ("MARKETCURVES_TOKEN", "MARKETCURVES_EMAIL", "MARKETCURVES_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    with em.client() as client:
        settings = client._worker_settings()
    with pytest.raises(mc.AuthError, match=r"token_provider.*environment") as caught:
        _backfill_worker.core_client(settings)
    assert type(caught.value) is mc.MissingWorkerCredentials


def test_the_task_dask_runs_is_the_worker_modules():
    """Dask pickles the task by its name: a module of the worker's own."""
    assert _backfill_worker.run_task.__module__ == "marketcurves._backfill_worker"


def test_secret_storage_options_are_refused_with_a_cluster(em, cluster, tmp_path):
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        with pytest.raises(mc.InvalidRequest, match="aws_secret_access_key"):
            client.backfill(
                "s3://bucket/lake",
                [(curve_id, tenors[0])],
                FIRST,
                LAST,
                storage_options={"aws_secret_access_key": "x"},
                cluster=cluster,
            )


@pytest.fixture
def workers_elsewhere(cluster, tmp_path):
    """The workers' working directory moved to a folder of its own for the
    test, as on machines of their own, and put back after."""
    elsewhere = tmp_path / "workers"
    elsewhere.mkdir()
    before = cluster.run(os.getcwd)
    cluster.run(os.chdir, str(elsewhere))
    try:
        yield elsewhere
    finally:
        for worker, folder in before.items():
            cluster.run(os.chdir, folder, workers=[worker])


def _parquet(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.parquet"))


@pytest.mark.parametrize("kind", ["path", "LocalStore"])
def test_a_relative_dest_is_the_drivers_folder(em, cluster, workers_elsewhere, tmp_path, kind):
    driver = tmp_path / "driver"
    driver.mkdir()
    with em.client() as client, pytest.MonkeyPatch.context() as patch:
        curve_id, tenors = curve_and_tenors(client, 1)
        patch.chdir(driver)
        dest: Any = "lake"
        if kind == "LocalStore":
            obstore = pytest.importorskip("obstore.store")
            dest = obstore.LocalStore("lake", mkdir=True)
        summary = client.backfill(
            dest, [(curve_id, tenors[0])], "2025-06-01", LAST, cluster=cluster
        )
    assert summary.files_written == len(_parquet(driver / "lake")) > 0
    assert _parquet(workers_elsewhere) == []
    assert values(mc.read_ticks(driver / "lake")) != []
    assert not (driver / "lake" / "_backfill_driver").exists(), "the mark is removed"


def test_a_link_planted_at_the_drivers_mark_is_refused_never_written_through(em, cluster, tmp_path):
    lake, elsewhere = tmp_path / "lake", tmp_path / "elsewhere.txt"
    lake.mkdir()
    elsewhere.write_text("the user's")
    (lake / "_backfill_driver").symlink_to(elsewhere)
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        with pytest.raises(mc.InvalidRequest, match="symbolic link, _backfill_driver"):
            client.backfill(lake, [(curve_id, tenors[0])], "2025-06-01", LAST, cluster=cluster)
    assert elsewhere.read_text() == "the user's"
    assert _parquet(lake) == []


def test_a_worker_that_does_not_see_the_drivers_folder_writes_nothing(em, cluster, tmp_path):
    # The same path on a worker's machine of its own: there, but without
    # the mark the driver left in its folder for this run.
    theirs = tmp_path / "lake"
    theirs.mkdir()
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        options = {
            "dest": str(theirs),
            "storage_options": None,
            "subscriptions": [(curve_id, tenors[0])],
            "start": dt.date(2025, 6, 1),
            "end": dt.date(2025, 6, 3),
            "tenors": "listed",
        }
        tasks, _ = _core.backfill_plan(client._core, options)
        settings = client._worker_settings()
    future = cluster.submit(
        _backfill_worker.run_task, settings, str(theirs), None, tasks[0], "the driver's mark"
    )
    with pytest.raises(mc.InvalidRequest, match=r"does not see.*object store URL"):
        future.result(timeout=60)
    assert list(theirs.iterdir()) == []


def test_without_dask_the_error_names_the_extra(em, monkeypatch, tmp_path):
    # As if Dask were not installed: its import fails.
    monkeypatch.setitem(sys.modules, "distributed", None)
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)

        class Cluster:
            def submit(self, *args: Any, **kwargs: Any) -> None:
                raise AssertionError("nothing is submitted")

        with pytest.raises(ImportError, match=r"marketcurves\[dask\]"):
            client.backfill(tmp_path, [(curve_id, tenors[0])], FIRST, LAST, cluster=Cluster())


def test_the_async_twin_drives_a_cluster_too(em, cluster, tmp_path):
    import asyncio

    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 1)
        pairs = [(curve_id, tenors[0])]

        async def run() -> mc.BackfillSummary:
            return await client.backfill_async(tmp_path, pairs, "2025-05-01", LAST, cluster=cluster)

        summary = asyncio.run(run())
        assert summary.tasks == 2 and summary.values > 0
        assert summary.values == mc.read_ticks(tmp_path).num_rows
