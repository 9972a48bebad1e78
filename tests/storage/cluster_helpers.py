"""Helpers of the suites that run a backfill on a Dask ``LocalCluster``
with worker processes: the cluster, a spy on the tasks its scheduler
receives, the check that no secret travelled in one, and an obstore S3
store of moto's. A module that imports this one is skipped where Dask's
``distributed`` or obstore is not installed."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from storage_helpers import environment

import marketcurves as mc
from marketcurves.testing import Emulator

distributed = pytest.importorskip("distributed")
obstore_store = pytest.importorskip("obstore.store")


class GraphSpy(distributed.diagnostics.plugin.SchedulerPlugin):  # type: ignore[misc]
    """Each task the scheduler receives, pickled as the scheduler holds it
    (function and arguments), at the moment it arrives."""

    name = "marketcurves-graph-spy"

    def __init__(self) -> None:
        self.pickles: list[bytes] = []

    def update_graph(self, scheduler: Any, *, tasks: list[Any], **kwargs: Any) -> None:
        import cloudpickle

        for key in tasks:
            state = scheduler.tasks.get(key)
            if state is not None and state.run_spec is not None:
                self.pickles.append(cloudpickle.dumps(state.run_spec))


@contextlib.contextmanager
def local_cluster(em: Emulator, moto_server: str, workers: int) -> Iterator[Any]:
    """A client of ``workers`` worker processes with the service's token
    and the store's credentials in their environment, never in a task."""
    env = {"MARKETCURVES_TOKEN": em.token(), **environment(moto_server)}
    with (
        distributed.LocalCluster(
            n_workers=workers,
            processes=True,
            threads_per_worker=1,
            dashboard_address=":0",
            env=env,
        ) as local,
        distributed.Client(local) as client,
    ):
        yield client


@contextlib.contextmanager
def spying(cluster: Any) -> Iterator[GraphSpy]:
    """The spy as the scheduler (in this process) runs it, for one test."""
    cluster.register_plugin(GraphSpy(), name=GraphSpy.name)
    try:
        yield cluster.cluster.scheduler.plugins[GraphSpy.name]
    finally:
        cluster.unregister_scheduler_plugin(GraphSpy.name)


def assert_secret_free(pickles: list[bytes], *secrets: str) -> None:
    for pickled in pickles:
        for secret in secrets:
            assert secret.encode() not in pickled, f"{secret[:4]}… travelled in a task"


def two_tenors(client: mc.Client) -> list[tuple[str, str]]:
    """Two (curve, tenor) pairs of a curve with six contracts or more."""
    curve = next(c for c in client.catalogue() if len(c.contracts or []) >= 6)
    return [(curve.id, t) for t in curve.contracts[3:5]]


def s3_store(bucket: str, endpoint: str, proxy: str | None = None, **credentials: Any) -> Any:
    """An obstore S3 store of moto's, built with ``credentials``."""
    client_options: dict[str, Any] = {"allow_http": True}
    if proxy is not None:
        client_options["proxy_url"] = proxy
    return obstore_store.S3Store(
        bucket,
        endpoint=endpoint,
        region="us-east-1",
        client_options=client_options,
        **credentials,
    )
