"""A backfill's task on a Dask worker (``Client.backfill(cluster=...)``,
driven by :mod:`marketcurves.backfill`): :func:`run_task`, which Dask calls
by this module's name, and what it needs, the worker's own core client and
the folder mark the driver leaves.

The worker gets the driver's settings as a value (no secret but a token
provider's) and makes its core client from them, with the credentials of
the token provider or else of its own environment, and the driver's
history cache when it is an object store (its URL travels, never its
credentials): nothing here reaches back into :class:`marketcurves.Client`.
"""

from __future__ import annotations

import collections
import hashlib
import os
import socket
import threading
import urllib.parse
import urllib.request
from typing import Any

from marketcurves import _core
from marketcurves._options import ClientOptions
from marketcurves._worker_settings import worker_credentials
from marketcurves.exceptions import InvalidRequest

__all__ = ["MARK_NAME", "check_mark", "core_client", "folder", "run_task"]

#: The file the driver leaves in a folder destination while its workers
#: write: a worker that does not find it (with this run's mark) sees
#: another folder than the driver's, on a machine of its own.
MARK_NAME = "_backfill_driver"

# A worker's core clients, one per driver's settings, kept for the tasks
# that follow (each task brings its own copy of the settings); the fewest kept.
_clients: collections.OrderedDict[bytes, _core.CoreClient] = collections.OrderedDict()
_clients_lock = threading.Lock()
_CLIENTS_KEPT = 4


def folder(dest: str | tuple[Any, str]) -> str | None:
    """The local folder a destination is, None for an object store."""
    if isinstance(dest, tuple):
        return dest[1] if type(dest[0]).__name__ == "LocalStore" else None
    scheme, found, _ = dest.partition("://")
    if not found:
        return dest
    if scheme.lower() == "file":
        return urllib.request.url2pathname(urllib.parse.urlsplit(dest).path)
    return None


def check_mark(dest: str | tuple[Any, str], mark: str) -> None:
    """On a worker: that the folder it would write into is the driver's."""
    where = folder(dest) or ""
    try:
        with open(os.path.join(where, MARK_NAME), encoding="utf-8") as file:
            found = file.read()
    except OSError:
        found = None
    if found != mark:
        raise InvalidRequest(
            f"dest {where!r} is a folder of the driver's machine that a worker "
            f"({socket.gethostname()}) does not see: with a cluster, give dest as an object "
            "store URL, or a folder every worker shares at the same path"
        )


def _settings_key(settings: dict[str, Any]) -> bytes:
    """The same bytes for equal settings, a token provider by its pickle
    (each task's copy is a new object)."""
    import cloudpickle

    return hashlib.sha256(cloudpickle.dumps(sorted(settings.items()))).digest()


def _new_core_client(settings: dict[str, Any]) -> _core.CoreClient:
    """A core client of the driver's settings (checked there), with the
    driver's cache if it is shared (an object store, ``_worker_cache``:
    the store's credentials are the worker's environment's), else none."""
    options: ClientOptions = {
        "token": None,
        "token_provider": None,
        "email": None,
        "password": None,
        **worker_credentials(settings),
        "max_concurrency": settings["max_concurrency"],
        "timeout": settings["timeout"],
        "max_retries": settings["max_retries"],
        "ca_bundle": settings["ca_bundle"],
        "cache_dir": settings.get("cache_dir"),
        "cache_storage_options": settings.get("cache_storage_options"),
        "cache": settings.get("cache", "off"),
        "max_response_bytes": settings["max_response_bytes"],
    }
    return _core.CoreClient(settings["base_url"], options)


def core_client(settings: dict[str, Any]) -> _core.CoreClient:
    """The worker's core client for the driver's ``settings``: the one made
    for an earlier task of equal settings, or a new one.

    Raises:
        MissingWorkerCredentials: no token provider among the settings, and
            none of the credentials' variables in the worker's environment.
    """
    key = _settings_key(settings)
    with _clients_lock:
        client = _clients.get(key)
        if client is None or client.closed:
            client = _new_core_client(settings)
            _clients[key] = client
            while len(_clients) > _CLIENTS_KEPT:
                _, oldest = _clients.popitem(last=False)
                oldest.close()
        _clients.move_to_end(key)
        return client


def run_task(
    settings: dict[str, Any],
    dest: str | tuple[Any, str],
    storage_options: dict[str, str] | None,
    task: _core._BackfillTask,
    mark: str | None = None,
) -> _core._BackfillCounts:
    """One task of a backfill, on a worker: a client of the worker's own
    (kept for the worker's next tasks) fetches it and writes its files.
    ``mark`` is the one the driver left in a folder destination: a worker
    that does not see it writes nothing."""
    if mark is not None:
        check_mark(dest, mark)
    return _core.backfill_task(core_client(settings), dest, task, storage_options)
