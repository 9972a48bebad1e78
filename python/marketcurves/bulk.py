"""Bulk download of historical snapshots as Parquet: :class:`BulkJob`,
:class:`BulkResult` and :func:`read_bulk`."""

from __future__ import annotations

import datetime as _dt
import os
import warnings
from typing import TYPE_CHECKING, Any

from marketcurves import _args, _core, _html, _progress
from marketcurves._core import BulkResult
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


def _warn_if_narrowed(requested: tuple[str, str], effective: tuple[str, str]) -> None:
    if requested != effective:
        warnings.warn(
            f"the service narrowed the bulk range from {requested[0]}..{requested[1]} "
            f"to {effective[0]}..{effective[1]} (the account's permissions)",
            UserWarning,
            stacklevel=3,
        )


def _warn_if_months_without_files(result: BulkResult) -> BulkResult:
    missing = result.months_without_files
    if missing:
        listed = "no file at all" if not (result.files or result.objects) else "no file"
        warnings.warn(
            f"bulk job {result.job_id} succeeded with {listed} for {', '.join(missing)}: the "
            "service holds nothing there for this account",
            UserWarning,
            stacklevel=3,
        )
    return result


class BulkJob:
    """A submitted bulk job. Its pre-signed URLs stay inside: they are credentials."""

    def __init__(self, core: Any, submitted: _core.SubmittedJob) -> None:
        self._core = core
        self._submitted = submitted
        _warn_if_narrowed(submitted.requested, submitted.effective)

    @property
    def job_id(self) -> str:
        return self._submitted.job_id

    @property
    def requested(self) -> tuple[str, str]:
        return self._submitted.requested

    @property
    def effective(self) -> tuple[str, str]:
        """The range the service granted (the account's permissions)."""
        return self._submitted.effective

    @property
    def narrowed(self) -> bool:
        """Whether the service narrowed the requested range."""
        return self._submitted.narrowed

    def __repr__(self) -> str:
        return f"BulkJob({self.job_id!r}, effective={self.effective[0]}..{self.effective[1]})"

    def _repr_html_(self) -> str:
        return _html.bulk_job(self)

    def status(self) -> str:
        """``RUNNING``, ``SUCCEEDED`` or ``FAILED``."""
        return _core.bulk_status(self._core, self.job_id)

    def wait(
        self,
        poll_interval: float = _core.BULK_POLL_INTERVAL,
        timeout: float | None = _core.BULK_TIMEOUT,
    ) -> BulkJob:
        """Polls (backing off to ten times ``poll_interval``) until the job ends.
        FAILED, or still running after ``timeout`` seconds (None: no limit),
        raises :class:`BulkJobFailed`."""
        interval = _args.number(poll_interval, "poll_interval")
        limit = None if timeout is None else _args.number(timeout, "timeout")
        _core.bulk_wait(self._core, self.job_id, interval, limit)
        return self

    def download(
        self,
        dest: str | os.PathLike[str] | ObjectStore,
        progress: bool = True,
        *,
        storage_options: dict[str, str] | None = None,
    ) -> BulkResult:
        """Waits for the job, then downloads its files into ``dest`` (a folder,
        an object store URL with ``storage_options``, or an obstore store, as
        for :meth:`Client.bulk_download`), skipping files already there with the
        right size. Expired URLs raise :class:`BulkJobFailed`:
        :meth:`Client.bulk_download` runs the job again instead."""
        place = _args.place(dest, "dest")
        options = _args.storage_options(storage_options)
        bars = _bars(_args.flag(progress, "progress"))
        try:
            result = _core.bulk_download_job(self._core, self._submitted, place, bars, options)
        finally:
            if bars is not None:
                bars.close()
        return _warn_if_months_without_files(result)


def submit(core: Any, vertical: Any, start: Any, end: Any) -> BulkJob:
    submitted = _core.bulk_submit(
        core, _args.vertical(vertical), _args.month(start, "start"), _args.month(end, "end")
    )
    return BulkJob(core, submitted)


def download(
    core: Any,
    vertical: Any,
    start: Any,
    end: Any,
    dest: Any,
    progress: bool,
    poll_interval: float,
    timeout: float,
    storage_options: Any = None,
) -> BulkResult:
    options: BulkDownloadOptions = {
        "vertical": _args.vertical(vertical),
        "start": _args.month(start, "start"),
        "end": _args.month(end, "end"),
        "dest": _args.place(dest, "dest"),
        "poll_interval": _args.number(poll_interval, "poll_interval"),
        "timeout": _args.number(timeout, "timeout"),
        "storage_options": _args.storage_options(storage_options),
    }
    bars = _bars(_args.flag(progress, "progress"))
    try:
        result = _core.bulk_download(core, options, bars)
    finally:
        if bars is not None:
            bars.close()
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
    into one table with the partition columns ``vertical``, ``year`` and
    ``month`` added, optionally only one vertical (any spelling) and a range
    of months. The layout is plain Hive partitioning, so ``pyarrow.dataset``,
    DuckDB, polars, Spark and Dask read ``dest`` directly too.

    With ``parse_json=True`` the JSON text columns ``meta_data`` and
    ``dependencies`` become a ``map<string, string>`` and a
    ``list<struct<id, name, value, units, tenor_name>>``, as in the REST tables.

    ``dest`` may also be an object store URL: ``s3://bucket/prefix``,
    ``gs://…``, ``az://…`` or ``abfs://…`` (and ``file://…``). Credentials
    and endpoints come from each cloud's environment variables (for S3
    ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_SESSION_TOKEN``,
    ``AWS_REGION``, ``AWS_ENDPOINT_URL``, ``AWS_ALLOW_HTTP``), or from
    ``storage_options``, whose keys are object_store's (as in polars and
    deltalake: ``aws_endpoint``, ``aws_region``, ``aws_allow_http``, …).
    ``dest`` may be an obstore store (``S3Store``, ``GCSStore``, ``AzureStore`` or
    ``LocalStore``, with the ``obstore`` extra), configured and prefixed as
    obstore made it (``storage_options`` then is refused).
    Only the partitions asked for are fetched, several at once.

    An unknown vertical, a malformed month, ``start`` after ``end``, an
    unknown scheme or storage option, or a bucket that does not exist raise
    :class:`~marketcurves.InvalidRequest` (never showing an option's value);
    credentials the store refuses raise :class:`~marketcurves.AuthError`."""
    return _core.read_bulk(
        _args.place(dest, "dest"),
        None if vertical is None else _args.vertical(vertical),
        None if start is None else _args.month(start, "start"),
        None if end is None else _args.month(end, "end"),
        _args.flag(parse_json, "parse_json"),
        _args.storage_options(storage_options),
    )
