"""What a process the driver hands work to (a Dask task of the user's, a
worker of a backfill) makes its client from: the driver's client settings
with no secret in them, so that they may travel in a task graph.

They hold the service's addresses, the client's limits, and its history
cache when every worker can reach it (an object store's URL and the
storage options that are no credentials: ``_worker_cache``); a token
provider travels, as it is called where the token is needed. The token, a
login and a store's keys do not: a worker takes them from its own
environment (``MARKETCURVES_TOKEN``, or ``MARKETCURVES_EMAIL`` and
``MARKETCURVES_PASSWORD``; the cloud's variables for the store)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from marketcurves import _environment
from marketcurves.exceptions import MissingWorkerCredentials

if TYPE_CHECKING:
    from marketcurves._options import Credentials

__all__ = ["WorkerSettings", "worker_credentials"]


class WorkerSettings:
    """A client's settings without its secrets, to make clients of the same
    service and cache in other processes: from
    :meth:`Client.worker_settings <marketcurves.Client.worker_settings>`, to
    :meth:`Client.from_worker_settings <marketcurves.Client.from_worker_settings>`.
    Picklable, and safe in a Dask task graph: it holds no token, password
    or store credential.

    Examples:
        >>> settings = client.worker_settings()
        >>> def pull(settings, curve_id):  # a Dask task, on a worker
        ...     with mc.Client.from_worker_settings(settings) as worker_client:
        ...         return worker_client.settlements(curve_id, "2025-01-02", "2025-01-31")
        >>> futures = dask_client.map(pull, [settings] * 2, curve_ids)  # doctest: +SKIP
    """

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = dict(values)

    @property
    def base_url(self) -> str:
        """The service's REST base address."""
        return str(self._values["base_url"])

    @property
    def cache_dir(self) -> str | None:
        """The shared history cache's URL the workers read and fill, or None
        (no cache, or a folder of the driver's machine, which stays its own)."""
        cache_dir = self._values.get("cache_dir")
        if isinstance(cache_dir, tuple):
            return str(cache_dir[1])
        return None if cache_dir is None else str(cache_dir)

    def values(self) -> dict[str, Any]:
        """The settings by name.

        Returns:
            A copy: what a worker's client is made of.
        """
        return dict(self._values)

    def __getstate__(self) -> dict[str, Any]:
        return self._values

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._values = dict(state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WorkerSettings) and other._values == self._values

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"WorkerSettings(base_url={self.base_url!r}, cache_dir={self.cache_dir!r})"


def worker_credentials(values: dict[str, Any]) -> Credentials:
    """The driver's token provider, else this worker's environment's."""
    provider = values.get("token_provider")
    if provider is not None:
        return {"token_provider": provider}
    found = _environment.credentials()
    if found is None:
        raise MissingWorkerCredentials(
            "a worker has no credentials: give the driver's client a token_provider "
            "(it is called on the workers), or set MARKETCURVES_TOKEN (or "
            "MARKETCURVES_EMAIL and MARKETCURVES_PASSWORD) in the workers' environment"
        )
    return found
