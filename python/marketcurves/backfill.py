"""The backfill: a tick lake's history, fetched from the historical intraday
endpoint into the recorder's layout, on this machine or a Dask cluster, by
:meth:`marketcurves.Client.backfill` (see [The tick lake](../lake.md)).

>>> client.backfill("ticks", [(curve, "Feb 26")], "2026-01-12", "2026-01-13")
BackfillSummary(tasks=1, requests=15, values=1440, days_complete=2, days_skipped=0, files_written=2, set_aside=[], empty=[])
>>> client.backfill("ticks", [(curve, "Feb 26")], "2026-01-12", "2026-01-14")  # only the 14th is fetched now
BackfillSummary(tasks=1, requests=8, values=720, days_complete=1, days_skipped=2, files_written=1, set_aside=[], empty=[])

Each curve's values of a day go to one file, ``date=YYYY-MM-DD/backfill-….parquet``,
with the recorder's columns and ``source = "backfill"``;
:func:`marketcurves.read_ticks` reads recorded and backfilled values as one
lake, each value once. A file's footer says which of its tenors' days are
complete (final on the service's clock), so a run killed at any point and
run again fetches only what is missing, and a run over a complete range
sends no request.

On a cluster (``cluster=`` a ``dask.distributed.Client``), each task (one
curve over at most 30 days) runs on a worker with a client of its own,
made from the driver's client's settings. **No secret travels in the task
graph**: the workers authenticate with the client's ``token_provider``
(pickled with the task, so it must fetch the token where it runs, not hold
it), or else from their own environment (``MARKETCURVES_TOKEN``, or
``MARKETCURVES_EMAIL`` and ``MARKETCURVES_PASSWORD``). A fixed token or a
login given to the driver's client is never sent. Likewise
``storage_options`` naming a secret are refused with a cluster: give the
workers the store's credentials in their environment (``AWS_ACCESS_KEY_ID``
and ``AWS_SECRET_ACCESS_KEY``, say).
"""

from __future__ import annotations

import collections
import dataclasses
import datetime as _dt
import hashlib
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from marketcurves import _args, _core, _html, _progress
from marketcurves._options import BackfillOptions
from marketcurves.exceptions import AuthError, InvalidRequest

if TYPE_CHECKING:
    from obstore.store import ObjectStore

    from marketcurves._core import Tenor
    from marketcurves.catalogue import Curve
    from marketcurves.client import Client

__all__ = ["BackfillSummary"]

#: Words in a storage option's key that say its value is a secret.
_SECRET_WORDS = ("secret", "token", "password", "sas", "account_key", "credential", "private")


@dataclasses.dataclass(frozen=True)
class BackfillSummary:
    """What :meth:`marketcurves.Client.backfill` did; Jupyter shows it as a
    table. Summaries add up (``a + b``), field by field."""

    #: Tasks run: one curve over at most 30 days each.
    tasks: int = 0
    #: Historical intraday requests sent, pages included.
    requests: int = 0
    #: Values fetched and written.
    values: int = 0
    #: Days of a curve's tenor written complete (never fetched again).
    days_complete: int = 0
    #: Days of a curve's tenor the lake already held complete, not fetched.
    days_skipped: int = 0
    #: Files written, one per curve and day.
    files_written: int = 0
    #: Files that could not be read as the lake's (not Parquet of its
    #: columns, or without its note), renamed ``<name>.corrupt`` and their
    #: days fetched again; a warning names them.
    set_aside: list[str] = dataclasses.field(default_factory=list)
    #: Days marked complete without any value, ``(curve_id, tenor, first,
    #: last)``: before the curve's history, or a tenor the service has no
    #: values of (a spelling it does not list, say); a warning names them.
    empty: list[tuple[str, str, _dt.date, _dt.date]] = dataclasses.field(default_factory=list)

    def __add__(self, other: BackfillSummary) -> BackfillSummary:
        fields = (f.name for f in dataclasses.fields(self))
        return BackfillSummary(**{n: getattr(self, n) + getattr(other, n) for n in fields})

    def _repr_html_(self) -> str:
        return _html.backfill_summary(self)


def _summary(counts: Any) -> BackfillSummary:
    """A summary from the core's counts (lists as they came)."""
    counts = dict(counts)
    counts["empty"] = [tuple(run) for run in counts.get("empty", [])]
    return BackfillSummary(**counts)


def _warn(summary: BackfillSummary) -> BackfillSummary:
    """Says what a summary's counts alone would hide: files set aside, and
    days marked complete that hold no value."""
    if summary.set_aside:
        names = ", ".join(summary.set_aside[:5])
        more = len(summary.set_aside) - 5
        warnings.warn(
            f"backfill set aside {len(summary.set_aside)} file(s) it could not read as the "
            f"lake's, their days fetched again: {names}" + (f" and {more} more" if more > 0 else ""),
            UserWarning,
            stacklevel=3,
        )
    if summary.empty:
        runs = "; ".join(f"{c} {t} from {a} to {b}" for c, t, a, b in summary.empty[:5])
        more = len(summary.empty) - 5
        warnings.warn(
            "backfill marked days complete that hold no value, so a rerun will not fetch them "
            "(before the curve's history, or a tenor the service has no values of): "
            + runs
            + (f" and {more} more" if more > 0 else ""),
            UserWarning,
            stacklevel=3,
        )
    return summary


def _checked(
    dest: Any,
    subscriptions: Any,
    start: Any,
    end: Any,
    tenors: Any,
    storage_options: Any,
) -> BackfillOptions:
    """The arguments' types checked, in the binding's form; the core checks values."""
    first, last = _args.date_range(start, end)
    return {
        "dest": _args.place(dest, "dest"),
        "storage_options": _args.storage_options(storage_options),
        "subscriptions": _args.subscriptions(subscriptions),
        "start": first,
        "end": last,
        "tenors": _args.choice(tenors, "tenors", ("listed", "expired", "all")),
    }


def backfill(
    client: Client,
    dest: str | os.PathLike[str] | ObjectStore,
    subscriptions: Sequence[tuple[str | Curve, str | Tenor]],
    start: _dt.date | _dt.datetime | str,
    end: _dt.date | _dt.datetime | str,
    *,
    tenors: str = "listed",
    storage_options: dict[str, str] | None = None,
    cluster: Any = None,
    progress: bool = False,
) -> BackfillSummary:
    checked = _checked(dest, subscriptions, start, end, tenors, storage_options)
    show = _args.flag(progress, "progress")
    if cluster is None:
        bar = _progress.progress_bar(show, "backfill")
        try:
            return _warn(_summary(_core.backfill(client._core, checked, bar)))
        finally:
            _progress.close(bar)
    _check_cluster(cluster, checked["storage_options"])
    settings = client._worker_settings()
    tasks, skipped = _core.backfill_plan(client._core, checked)
    summary = BackfillSummary(days_skipped=skipped)
    # One backfill per destination at a time: held here while the workers write.
    lock = _core.backfill_lock(checked["dest"], checked["storage_options"])
    bar = _progress.progress_bar(show, "backfill", unit="task")
    try:
        return _warn(summary + _on_cluster(cluster, settings, checked, tasks, bar))
    finally:
        _progress.close(bar)
        lock.release()


async def backfill_async(
    client: Client,
    dest: str | os.PathLike[str] | ObjectStore,
    subscriptions: Sequence[tuple[str | Curve, str | Tenor]],
    start: _dt.date | _dt.datetime | str,
    end: _dt.date | _dt.datetime | str,
    *,
    tenors: str = "listed",
    storage_options: dict[str, str] | None = None,
    cluster: Any = None,
) -> BackfillSummary:
    if cluster is not None:
        # Imported here, not with the package (tests/test_import.py).
        import asyncio

        # The driver only waits on Dask: in a thread, off the event loop.
        return await asyncio.to_thread(
            backfill,
            client,
            dest,
            subscriptions,
            start,
            end,
            tenors=tenors,
            storage_options=storage_options,
            cluster=cluster,
        )
    checked = _checked(dest, subscriptions, start, end, tenors, storage_options)
    return _warn(_summary(await _core.backfill_async(client._core, checked)))


def _check_cluster(cluster: Any, storage_options: dict[str, str] | None) -> None:
    if not callable(getattr(cluster, "submit", None)):
        raise InvalidRequest(
            f"cluster must be a dask.distributed.Client, not {type(cluster).__name__} "
            "(for a LocalCluster, pass distributed.Client(cluster))"
        )
    for key in storage_options or {}:
        if any(word in key.lower() for word in _SECRET_WORDS):
            raise InvalidRequest(
                f"storage option {key!r} is a secret, and with a cluster the options travel "
                "in Dask's task graph: give the workers the store's credentials in their "
                "environment instead"
            )


def _on_cluster(
    cluster: Any,
    settings: dict[str, Any],
    checked: BackfillOptions,
    tasks: list[_core._BackfillTask],
    bar: Callable[[int, int], None] | None,
) -> BackfillSummary:
    try:
        from distributed import as_completed
    except ImportError:
        raise ImportError(
            "backfill(cluster=...) needs Dask: pip install 'marketcurves[dask]'"
        ) from None

    dest, storage_options = checked["dest"], checked["storage_options"]
    futures = [
        cluster.submit(
            run_task,
            settings,
            dest,
            storage_options,
            task,
            key=_task_key(task),
            pure=False,
        )
        for task in tasks
    ]
    summary = BackfillSummary()
    finished = as_completed(futures)  # type: ignore[no-untyped-call]
    try:
        for done, future in enumerate(finished, start=1):
            summary = summary + _summary(future.result())
            if bar is not None:
                bar(done, len(tasks))
    except BaseException:
        cluster.cancel(futures)
        raise
    return summary


def _task_key(task: _core._BackfillTask) -> str:
    """A task's name in Dask's dashboard and logs: what it does, no more."""
    what = f"{task['curve_id']}|{'|'.join(task['tenors'])}|{task['start']}|{task['end']}"
    return f"marketcurves-backfill-{hashlib.sha256(what.encode()).hexdigest()[:16]}"


# A worker's clients, one per driver's settings, kept for the tasks that
# follow (each task brings its own copy of the settings); the fewest kept.
_clients: collections.OrderedDict[bytes, Client] = collections.OrderedDict()
_clients_lock = threading.Lock()
_CLIENTS_KEPT = 4


def _settings_key(settings: dict[str, Any]) -> bytes:
    """The same bytes for equal settings, a token provider by its pickle
    (each task's copy is a new object)."""
    import cloudpickle

    return hashlib.sha256(cloudpickle.dumps(sorted(settings.items()))).digest()


def _worker_client(settings: dict[str, Any]) -> Client:
    from marketcurves.client import Client

    key = _settings_key(settings)
    with _clients_lock:
        client = _clients.get(key)
        if client is None or client.closed:
            try:
                client = Client(**settings)
            except InvalidRequest as e:
                if "credentials" not in str(e):
                    raise
                raise AuthError(
                    "a backfill worker has no credentials: give the client a token_provider "
                    "(it is called on the workers), or set MARKETCURVES_TOKEN (or "
                    "MARKETCURVES_EMAIL and MARKETCURVES_PASSWORD) in the workers' environment"
                ) from None
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
) -> _core._BackfillCounts:
    """One task of a backfill, on a worker: a client of the worker's own
    (kept for the worker's next tasks) fetches it and writes its files."""
    client = _worker_client(settings)
    return _core.backfill_task(client._core, dest, task, storage_options)
