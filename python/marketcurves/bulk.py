"""Bulk download of historical snapshots as Parquet: :class:`BulkJob`,
:class:`BulkResult` and :func:`read_bulk` (and :func:`read_bulk_async`)."""

from __future__ import annotations

import datetime as _dt
import functools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from marketcurves import _args, _core, _deprecation, _html, _progress, _warn

# Re-exported (the ``as``): this module is BulkResult's home in the API.
from marketcurves._core import BulkResult as BulkResult
from marketcurves._options import BulkDownloadOptions

if TYPE_CHECKING:
    import pyarrow
    from obstore.store import ObjectStore

    MonthLike = _dt.date | _dt.datetime | str

_PHASES = ("submitting", "running", "downloading", "done")


class _Bars:
    """Two tqdm bars, the job's phase and bytes downloaded, drawn from the
    first progress report: a call refused before it starts shows none."""

    def __init__(self, tqdm: Any) -> None:
        self._tqdm = tqdm
        self._job: Any = None
        self._bytes: Any = None

    def __call__(self, phase: int, done: int, total: int) -> None:
        if self._job is None:
            self._job = self._tqdm(total=None, desc="bulk job", bar_format="{desc} [{elapsed}]")
            self._bytes = self._tqdm(total=0, desc="download", unit="B", unit_scale=True)
        self._job.set_description(f"bulk job: {_PHASES[min(phase, 3)]}", refresh=False)
        self._job.refresh()
        if self._bytes.total != total:
            self._bytes.total = total
        self._bytes.update(done - self._bytes.n)

    def close(self) -> None:
        if self._job is not None:
            self._job.close()
            self._bytes.close()


def _bars(enabled: bool) -> _Bars | None:
    if not enabled:
        return None
    tqdm = _progress.tqdm()
    return None if tqdm is None else _Bars(tqdm)


def _with_bars(start: Callable[[], _core.Call[BulkResult]], progress: object) -> BulkResult:
    """Runs the download ``start`` makes to its end, blocking, with its bars
    if asked for. ``progress`` is checked before the call is made: a call
    made and never run would hold its client, whose ``close`` would wait on it."""
    bars = _bars(_args.flag(progress, "progress"))
    try:
        return start().wait(bars)
    finally:
        if bars is not None:
            bars.close()


def _warn_if_narrowed(requested: tuple[str, str], effective: tuple[str, str]) -> None:
    if requested != effective:
        _warn.user(
            f"the service narrowed the bulk range from {requested[0]}..{requested[1]} "
            f"to {effective[0]}..{effective[1]} (the account's permissions)"
        )


def _warn_if_months_without_files(result: BulkResult) -> BulkResult:
    missing = result.months_without_files
    if missing:
        listed = "no file at all" if not (result.files or result.objects) else "no file"
        _warn.user(
            f"bulk job {result.job_id} succeeded with {listed} for {', '.join(missing)}: the "
            "service holds nothing there for this account"
        )
    return result


class BulkJob:
    """A submitted bulk job, made by :meth:`marketcurves.Client.bulk_submit`. Its pre-signed URLs stay inside:
    they are credentials.

    Examples:
        >>> job = client.bulk_submit("Jet", "2025-01", "2025-02")
        >>> job.status()
        'RUNNING'
        >>> result = job.download("bulk")
        >>> job.status(), [path.name for path in result.files]
        ('SUCCEEDED', ['jet-2025-01.parquet', 'jet-2025-02.parquet'])
    """

    def __init__(self, core: Any, submitted: _core.SubmittedJob) -> None:
        self._core = core
        self._submitted = submitted
        _warn_if_narrowed(submitted.requested, submitted.effective)

    @property
    def job_id(self) -> str:
        """The service's id of the job."""
        return self._submitted.job_id

    @property
    def requested(self) -> tuple[str, str]:
        """The months asked for, ``("YYYY-MM", "YYYY-MM")``."""
        return self._submitted.requested

    @property
    def effective(self) -> tuple[str, str]:
        """The months the service granted, ``("YYYY-MM", "YYYY-MM")``: the
        request narrowed to the account's permissions."""
        return self._submitted.effective

    @property
    def narrowed(self) -> bool:
        """Whether the service narrowed the requested range."""
        return self._submitted.narrowed

    def __repr__(self) -> str:
        return f"BulkJob({self.job_id!r}, effective={self.effective[0]}..{self.effective[1]})"

    def _repr_html_(self) -> str:
        # The job's state needs a request: a view sends none (job.status() does).
        return _html.facts(
            f"Bulk job {self.job_id}",
            [
                ("months requested", _html.span(self.requested)),
                ("months granted", _html.span(self.effective)),
                ("narrowed", "yes: the account's permissions" if self.narrowed else "no"),
            ],
        )

    def status(self) -> str:
        """Asks the service for the job's status, once.

        Returns:
            ``"RUNNING"``, ``"SUCCEEDED"`` or ``"FAILED"``.

        Raises:
            NotFound: the service no longer knows the job.
            ClientClosed: the client is closed.
        """
        return _core.bulk_status(self._core, self.job_id).wait()

    async def status_async(self) -> str:
        """The awaitable form of :meth:`status`."""
        return await _core.bulk_status(self._core, self.job_id)

    @_deprecation.positional_options("poll_interval", "timeout")
    def wait(
        self,
        *,
        poll_interval: float = _core.BULK_POLL_INTERVAL,
        timeout: float | None = _core.BULK_TIMEOUT,
    ) -> BulkJob:
        """Polls the job's status until it ends.

        Args:
            poll_interval: seconds between the first polls (backing off to
                ten times that).
            timeout: seconds to wait at most; None waits as long as it takes.

        Returns:
            The job itself, succeeded.

        Raises:
            BulkJobFailed: the job ended ``FAILED``, or still runs after
                ``timeout`` seconds.
            InvalidRequest: a malformed argument.

        Examples:
            >>> job = client.bulk_submit("Jet", "2025-01", "2025-01").wait(poll_interval=0.2)
            >>> job.status()
            'SUCCEEDED'
        """
        self._wait(poll_interval, timeout).wait()
        return self

    async def wait_async(
        self,
        *,
        poll_interval: float = _core.BULK_POLL_INTERVAL,
        timeout: float | None = _core.BULK_TIMEOUT,
    ) -> BulkJob:
        """The awaitable form of :meth:`wait`."""
        await self._wait(poll_interval, timeout)
        return self

    def _wait(self, poll_interval: Any, timeout: Any) -> _core.Call[None]:
        interval = _args.number(poll_interval, "poll_interval")
        limit = None if timeout is None else _args.number(timeout, "timeout")
        return _core.bulk_wait(self._core, self.job_id, interval, limit)

    @_deprecation.positional_options("progress")
    def download(
        self,
        dest: str | os.PathLike[str] | ObjectStore,
        *,
        progress: bool = False,
        storage_options: dict[str, str] | None = None,
    ) -> BulkResult:
        """Waits for the job, then downloads and verifies its files into
        ``dest/vertical=…/year=…/month=…/``, skipping files already there
        with the right size. :meth:`marketcurves.Client.bulk_download` does it all, and runs the job
        again where this raises.

        Args:
            dest: a folder, an object store URL or an obstore store, as for
                :meth:`marketcurves.Client.bulk_download`.
            progress: show the job's phase and the bytes downloaded (with
                tqdm installed).
            storage_options: for an object store URL, as for
                :func:`read_bulk`.

        Returns:
            The files, the bytes this run transferred and the rows they hold.

        Raises:
            BulkJobFailed: the job failed, or its URLs expired.
            InvalidRequest: a malformed argument, or a ``dest`` that cannot
                be written.

        Warns:
            UserWarning: the job listed no file for some months.
        """
        start = functools.partial(self._download, dest, storage_options)
        return _warn_if_months_without_files(_with_bars(start, progress))

    async def download_async(
        self,
        dest: str | os.PathLike[str] | ObjectStore,
        *,
        storage_options: dict[str, str] | None = None,
    ) -> BulkResult:
        """The awaitable form of :meth:`download`."""
        return _warn_if_months_without_files(await self._download(dest, storage_options))

    def _download(self, dest: Any, storage_options: Any) -> _core.Call[BulkResult]:
        place = _args.place(dest, "dest")
        options = _args.storage_options(storage_options)
        return _core.bulk_download_job(self._core, self._submitted, place, options)


# The preparing steps of Client.bulk_submit and Client.bulk_download, which
# their blocking forms wait for and their twins await.


def submit(core: Any, vertical: Any, start: Any, end: Any) -> _core.Call[_core.SubmittedJob]:
    return _core.bulk_submit(
        core, _args.vertical(vertical), _args.month(start, "start"), _args.month(end, "end")
    )


def download(
    core: Any,
    vertical: Any,
    start: Any,
    end: Any,
    dest: Any,
    poll_interval: Any,
    timeout: Any,
    storage_options: Any,
) -> _core.Call[BulkResult]:
    options: BulkDownloadOptions = {
        "vertical": _args.vertical(vertical),
        "start": _args.month(start, "start"),
        "end": _args.month(end, "end"),
        "dest": _args.place(dest, "dest"),
        "poll_interval": _args.number(poll_interval, "poll_interval"),
        "timeout": _args.number(timeout, "timeout"),
        "storage_options": _args.storage_options(storage_options),
    }
    return _core.bulk_download(core, options)


def wait_for_download(start: Callable[[], _core.Call[BulkResult]], progress: object) -> BulkResult:
    """The download ``start`` makes, run to its end, blocking (with bars if
    asked for), and its warnings."""
    return downloaded(_with_bars(start, progress))


def downloaded(result: BulkResult) -> BulkResult:
    """A download's result, with its warnings."""
    _warn_if_narrowed(result.requested, result.effective)
    return _warn_if_months_without_files(result)


def read_bulk(
    dest: str | os.PathLike[str] | ObjectStore,
    vertical: str | None = None,
    start: MonthLike | None = None,
    end: MonthLike | None = None,
    *,
    parse_json: bool = False,
    storage_options: dict[str, str] | None = None,
) -> pyarrow.Table:
    """Reads a downloaded bulk dataset (``dest/vertical=…/year=…/month=…/*.parquet``)
    into one table.

    The layout is plain Hive partitioning, so ``pyarrow.dataset``, DuckDB,
    polars, Spark and Dask read ``dest`` directly too. Only the partitions
    asked for are fetched, several at once.

    Args:
        dest: a folder; an object store URL (``s3://bucket/prefix``,
            ``gs://…``, ``az://…`` or ``abfs://…``, and ``file://…``), with
            credentials and endpoints from each cloud's environment
            variables (for S3 ``AWS_ACCESS_KEY_ID``,
            ``AWS_SECRET_ACCESS_KEY``, ``AWS_SESSION_TOKEN``, ``AWS_REGION``,
            ``AWS_ENDPOINT_URL``, ``AWS_ALLOW_HTTP``) or ``storage_options``;
            or an obstore store (``S3Store``, ``GCSStore``, ``AzureStore`` or
            ``LocalStore``, with the ``obstore`` extra), configured and
            prefixed as obstore made it.
        vertical: only this vertical (any spelling); None for every one.
        start: only from this month (``"YYYY-MM"``, or a date or datetime in it).
        end: only up to this month, included.
        parse_json: turn the JSON text columns ``meta_data`` and
            ``dependencies`` into a ``map<string, string>`` and a
            ``list<struct<id, name, value, units, tenor_name>>``, as in the
            REST tables.
        storage_options: for an object store URL, object_store's keys (as
            in polars and deltalake: ``aws_endpoint``, ``aws_region``,
            ``aws_allow_http``, …); refused with a store or a folder.

    Returns:
        Every row of the files, with the partition columns ``vertical``,
        ``year`` and ``month`` added.

    Raises:
        InvalidRequest: an unknown vertical, a malformed month, ``start``
            after ``end``, an unknown scheme or storage option, or a bucket
            that does not exist (never showing an option's value).
        AuthError: the store refuses the credentials.

    Examples:
        >>> _ = client.bulk_download("Jet", "2025-01", "2025-02", "bulk", progress=False, poll_interval=0.2)
        >>> table = mc.read_bulk("bulk", start="2025-02")
        >>> table.num_rows, sorted(set(table["month"].to_pylist()))
        (..., [2])
    """
    return _read_bulk(dest, vertical, start, end, parse_json, storage_options).wait()


async def read_bulk_async(
    dest: str | os.PathLike[str] | ObjectStore,
    vertical: str | None = None,
    start: MonthLike | None = None,
    end: MonthLike | None = None,
    *,
    parse_json: bool = False,
    storage_options: dict[str, str] | None = None,
) -> pyarrow.Table:
    """The awaitable form of :func:`read_bulk`."""
    return await _read_bulk(dest, vertical, start, end, parse_json, storage_options)


def _read_bulk(
    dest: Any, vertical: Any, start: Any, end: Any, parse_json: Any, storage_options: Any
) -> _core.Call[pyarrow.Table]:
    return _core.read_bulk(
        _args.place(dest, "dest"),
        None if vertical is None else _args.vertical(vertical),
        None if start is None else _args.month(start, "start"),
        None if end is None else _args.month(end, "end"),
        _args.flag(parse_json, "parse_json"),
        _args.storage_options(storage_options),
    )
