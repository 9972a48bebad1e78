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
``MARKETCURVES_EMAIL`` and ``MARKETCURVES_PASSWORD``); a worker with
neither raises :class:`~marketcurves.MissingWorkerCredentials`. A fixed
token or a login given to the driver's client is never sent. Likewise a destination
that would carry a secret is refused with a cluster, before anything is
submitted: ``storage_options`` or an obstore store's configuration naming a
credential by any of object_store's aliases, a store's
``credential_provider``, an option that is a URL with a login. Give the
workers the store's credentials in their environment (``AWS_ACCESS_KEY_ID``
and ``AWS_SECRET_ACCESS_KEY``, say). A folder's path is made absolute
against the driver's working directory, and a worker that does not see the
driver's folder (on a machine of its own) writes nothing and raises
:class:`~marketcurves.InvalidRequest`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import hashlib
import os
import secrets
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from marketcurves import _args, _core, _html, _progress
from marketcurves._backfill_worker import MARK_NAME, folder, run_task
from marketcurves._options import BackfillOptions
from marketcurves.exceptions import InvalidRequest

if TYPE_CHECKING:
    from obstore.store import ObjectStore

    from marketcurves._core import Tenor
    from marketcurves.catalogue import Curve

__all__ = ["BackfillSummary"]


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
        return _html.facts(
            "Backfill summary",
            [
                ("tasks", _html.number(self.tasks)),
                ("requests", _html.number(self.requests)),
                ("values written", _html.number(self.values)),
                ("days complete", _html.number(self.days_complete)),
                ("days already complete", _html.number(self.days_skipped)),
                ("files written", _html.number(self.files_written)),
                ("files set aside", _html.names(self.set_aside) or "none"),
                ("tenors with days complete but empty", _html.number(len(self.empty))),
            ],
        )


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
            f"lake's, their days fetched again: {names}"
            + (f" and {more} more" if more > 0 else ""),
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
    max_requests: int | None,
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
        "max_requests": _args.budget(max_requests),
    }


def backfill(
    core: _core.CoreClient,
    settings: dict[str, Any],
    dest: str | os.PathLike[str] | ObjectStore,
    subscriptions: Sequence[tuple[str | Curve, str | Tenor]],
    start: _dt.date | _dt.datetime | str,
    end: _dt.date | _dt.datetime | str,
    *,
    tenors: str = "listed",
    storage_options: dict[str, str] | None = None,
    cluster: Any = None,
    progress: bool = False,
    max_requests: int | None = None,
) -> BackfillSummary:
    checked = _checked(dest, subscriptions, start, end, tenors, storage_options, max_requests)
    show = _args.flag(progress, "progress")
    if cluster is None:
        bar = _progress.progress_bar(show, "backfill")
        try:
            return _warn(_summary(_core.backfill(core, checked).wait(bar)))
        finally:
            _progress.close(bar)
    _check_cluster(cluster)
    _check_no_secret(checked["dest"], checked["storage_options"])
    checked["dest"] = _absolute(checked["dest"])
    tasks, skipped = _core.backfill_plan(core, checked)
    summary = BackfillSummary(days_skipped=skipped)
    # One backfill per destination at a time: held here while the workers write.
    lock = _core.backfill_lock(checked["dest"], checked["storage_options"])
    with contextlib.ExitStack() as after:
        after.callback(lock.release)
        mark = _leave_mark(checked["dest"], after)
        bar = _progress.progress_bar(show, "backfill", unit="task")
        after.callback(_progress.close, bar)
        return _warn(summary + _on_cluster(cluster, settings, checked, tasks, bar, mark))


async def backfill_async(
    core: _core.CoreClient,
    settings: dict[str, Any],
    dest: str | os.PathLike[str] | ObjectStore,
    subscriptions: Sequence[tuple[str | Curve, str | Tenor]],
    start: _dt.date | _dt.datetime | str,
    end: _dt.date | _dt.datetime | str,
    *,
    tenors: str = "listed",
    storage_options: dict[str, str] | None = None,
    cluster: Any = None,
    max_requests: int | None = None,
) -> BackfillSummary:
    if cluster is not None:
        # Imported here, not with the package (tests/test_import.py).
        import asyncio

        # The driver only waits on Dask: in a thread, off the event loop.
        return await asyncio.to_thread(
            backfill,
            core,
            settings,
            dest,
            subscriptions,
            start,
            end,
            tenors=tenors,
            storage_options=storage_options,
            cluster=cluster,
            max_requests=max_requests,
        )
    checked = _checked(dest, subscriptions, start, end, tenors, storage_options, max_requests)
    return _warn(_summary(await _core.backfill(core, checked)))


def _check_cluster(cluster: Any) -> None:
    if not callable(getattr(cluster, "submit", None)):
        raise InvalidRequest(
            f"cluster must be a dask.distributed.Client, not {type(cluster).__name__} "
            "(for a LocalCluster, pass distributed.Client(cluster))"
        )


def _check_no_secret(dest: str | tuple[Any, str], storage_options: dict[str, str] | None) -> None:
    """Refuses, before anything is submitted, a destination whose task
    arguments would carry a secret into Dask's task graph (pickled, sent to
    the scheduler, kept in its memory and logs, handed to every worker): a
    storage option, an obstore store's config or client option naming a
    credential by any alias object_store takes, a URL with a login in an
    option, or a store's credential provider (pickled with whatever it
    holds). The workers take the store's credentials from their environment."""
    if isinstance(dest, str):
        scheme = dest.partition("://")[0] if "://" in dest else ""
        found = [
            f"storage option {key!r}"
            for key in _core.secret_storage_options(scheme, storage_options or {})
        ]
    else:
        store, _ = dest
        kind = type(store).__name__
        scheme = _args.STORE_SCHEMES.get(kind) or ""
        settings = {
            str(key): str(value)
            for part in (getattr(store, "config", None), getattr(store, "client_options", None))
            for key, value in (part or {}).items()
        }
        found = [f"the {kind}'s {key!r}" for key in _core.secret_storage_options(scheme, settings)]
        if getattr(store, "credential_provider", None) is not None:
            found.append(f"the {kind}'s credential_provider")
    if found:
        raise InvalidRequest(
            f"{', '.join(found)} would travel in Dask's task graph, and a secret never does: "
            "with a cluster, the workers take the store's credentials from their environment "
            "(AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AZURE_STORAGE_ACCOUNT_KEY, "
            "GOOGLE_SERVICE_ACCOUNT, …) or their instance role: give dest without them"
        )


def _absolute(dest: str | tuple[Any, str]) -> str | tuple[Any, str]:
    """A folder's path made absolute against the driver's working directory,
    as the driver reads and locks it: a worker would resolve a relative one
    against its own. A LocalStore is rebuilt with its folder absolute."""
    if isinstance(dest, str):
        # An empty path is the core's to refuse, not the working directory.
        return dest if "://" in dest or not dest.strip() else os.path.abspath(dest)
    store = dest[0]
    if type(store).__name__ != "LocalStore":
        return dest
    args, kwargs = store.__getnewargs_ex__()
    path = os.path.abspath(os.fspath(store.prefix))
    return type(store)(path, *args[1:], **kwargs), path


#: A file created new, never through a link.
_CREATE_NEW = os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def _leave_mark(dest: str | tuple[Any, str], after: contextlib.ExitStack) -> str | None:
    """This run's mark, left in a folder destination (made by the lock) and
    removed by ``after``; None for an object store, which every worker sees."""
    where = folder(dest)
    if where is None:
        return None
    mark = secrets.token_hex(16)
    path = os.path.join(where, MARK_NAME)
    # One a killed run left is the lock holder's to replace; a link planted
    # at the name is removed, never written through; the mark is the user's.
    _remove(path)
    created = os.open(path, _CREATE_NEW | os.O_WRONLY, 0o600)
    with os.fdopen(created, "w", encoding="utf-8") as file:
        file.write(mark)
    after.callback(_remove, path)
    return mark


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)


def _on_cluster(
    cluster: Any,
    settings: dict[str, Any],
    checked: BackfillOptions,
    tasks: list[_core._BackfillTask],
    bar: Callable[[int, int], None] | None,
    mark: str | None,
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
            mark,
            key=_task_key(task),
            pure=False,
        )
        for task in tasks
    ]
    summary = BackfillSummary()
    finished = as_completed(futures)
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
