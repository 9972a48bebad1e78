"""Bulk download of historical snapshots as Parquet: :class:`BulkJob`,
:class:`BulkResult` and :func:`read_bulk`."""

from __future__ import annotations

import datetime as _dt
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from marketcurves import _args, _core
from marketcurves.exceptions import InvalidRequest

if TYPE_CHECKING:
    import pyarrow

    MonthLike = _dt.date | _dt.datetime | str

_PHASES = ("submitting", "running", "downloading", "done")


def month(value: Any, name: str) -> str:
    """``YYYY-MM`` from a ``date``, a ``datetime`` or a ``YYYY-MM`` string."""
    if isinstance(value, (_dt.date, _dt.datetime)):
        return f"{value.year:04d}-{value.month:02d}"
    if isinstance(value, str):
        return value.strip()
    raise InvalidRequest(
        f"{name} must be a month as YYYY-MM, a date or a datetime, not {type(value).__name__}"
    )


def destination(value: Any) -> Path:
    """A folder to write into, checked but not created: the core creates it
    once the job has succeeded, so a call refused before leaves nothing.
    Refused if it is a file, or if it (or, missing, the folder it would be
    made in) cannot be written."""
    path = _args.path(value, "dest")
    if path.exists() and not path.is_dir():
        raise InvalidRequest(f"dest {str(path)!r} is a file, not a folder")
    existing = path.absolute()
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise InvalidRequest(f"dest {str(path)!r} cannot be created: {str(existing)!r} is a file")
    if not os.access(existing, os.W_OK | os.X_OK):
        where = "" if existing == path.absolute() else f" (in {str(existing)!r})"
        raise InvalidRequest(f"dest {str(path)!r} is not writable{where}")
    return path


class _Bars:
    """Two tqdm bars: the job's phase, and bytes downloaded."""

    def __init__(self) -> None:
        from tqdm.auto import tqdm

        self._job: Any = tqdm(
            total=None, desc="bulk job: submitting", bar_format="{desc} [{elapsed}]"
        )
        self._bytes: Any = tqdm(total=0, desc="download", unit="B", unit_scale=True)

    def __call__(self, phase: int, done: int, total: int) -> None:
        self._job.set_description(f"bulk job: {_PHASES[min(phase, 3)]}", refresh=False)
        self._job.refresh()
        if self._bytes.total != total:
            self._bytes.total = total
        self._bytes.update(done - self._bytes.n)

    def close(self) -> None:
        self._job.close()
        self._bytes.close()


def _bars(enabled: bool) -> _Bars | None:
    if not enabled:
        return None
    try:
        return _Bars()
    except ImportError:
        return None


def _warn_if_narrowed(requested: tuple[str, str], effective: tuple[str, str]) -> None:
    if requested != effective:
        warnings.warn(
            f"the service narrowed the bulk range from {requested[0]}..{requested[1]} "
            f"to {effective[0]}..{effective[1]} (the account's permissions)",
            UserWarning,
            stacklevel=3,
        )


@dataclass(frozen=True)
class BulkResult:
    """What a bulk download produced."""

    job_id: str
    files: tuple[Path, ...]
    #: Bytes transferred by this run; files already complete are not fetched again.
    bytes: int
    #: Rows in all the files, from their Parquet footers.
    rows: int
    requested: tuple[str, str]
    effective: tuple[str, str]
    #: Seconds from submission to the last byte.
    elapsed: float
    #: Jobs submitted, counting resubmissions after FAILED or expired URLs.
    jobs: int = 1

    @property
    def narrowed(self) -> bool:
        return self.requested != self.effective


class BulkJob:
    """A submitted bulk job. Its pre-signed URLs stay inside: they are credentials."""

    def __init__(
        self, core: Any, job_id: str, requested: tuple[str, str], effective: tuple[str, str]
    ) -> None:
        self._core = core
        self.job_id = job_id
        self.requested = requested
        self.effective = effective
        _warn_if_narrowed(requested, effective)

    @property
    def narrowed(self) -> bool:
        """Whether the service narrowed the requested range."""
        return self.requested != self.effective

    def __repr__(self) -> str:
        return f"BulkJob({self.job_id!r}, effective={self.effective[0]}..{self.effective[1]})"

    def status(self) -> str:
        """``RUNNING``, ``SUCCEEDED`` or ``FAILED``."""
        return _core.bulk_status(self._core, self.job_id)

    def wait(self, poll_interval: float = 2.0, timeout: float | None = 3600.0) -> BulkJob:
        """Polls (backing off to ten times ``poll_interval``) until the job ends.
        FAILED, or still running after ``timeout`` seconds (None: no limit),
        raises :class:`BulkJobFailed`."""
        interval = _args.seconds(poll_interval, "poll_interval")
        limit = None if timeout is None else _args.seconds(timeout, "timeout")
        _core.bulk_wait(self._core, self.job_id, interval, limit)
        return self

    def download(self, dest: str | os.PathLike[str], progress: bool = True) -> BulkResult:
        """Waits for the job, then downloads its files into ``dest``, skipping
        files already there with the right size. Expired URLs raise
        :class:`BulkJobFailed`: :meth:`Client.bulk_download` runs the job again instead."""
        folder = destination(dest)
        bars_wanted = _args.flag(progress, "progress")
        started = _dt.datetime.now()
        self.wait()
        bars = _bars(bars_wanted)
        try:
            files, transferred, rows = _core.bulk_download_job(
                self._core, self.job_id, folder, bars
            )
        finally:
            if bars is not None:
                bars.close()
        return BulkResult(
            job_id=self.job_id,
            files=tuple(Path(f) for f in files),
            bytes=transferred,
            rows=rows,
            requested=self.requested,
            effective=self.effective,
            elapsed=(_dt.datetime.now() - started).total_seconds(),
        )


def submit(core: Any, vertical: Any, start: Any, end: Any) -> BulkJob:
    if not isinstance(vertical, str):
        raise InvalidRequest(
            f"vertical must be a str such as 'Jet' or 'JET', not {type(vertical).__name__}"
        )
    job_id, requested, effective = _core.bulk_submit(
        core, vertical, month(start, "start"), month(end, "end")
    )
    return BulkJob(core, job_id, tuple(requested), tuple(effective))


def download(
    core: Any,
    vertical: Any,
    start: Any,
    end: Any,
    dest: Any,
    progress: bool,
    poll_interval: float = 2.0,
    timeout: float = 3600.0,
) -> BulkResult:
    if not isinstance(vertical, str):
        raise InvalidRequest(
            f"vertical must be a str such as 'Jet' or 'JET', not {type(vertical).__name__}"
        )
    first, last = month(start, "start"), month(end, "end")
    folder = destination(dest)
    interval = _args.seconds(poll_interval, "poll_interval")
    limit = _args.seconds(timeout, "timeout")
    bars = _bars(_args.flag(progress, "progress"))
    try:
        job_id, requested, effective, files, transferred, rows, elapsed, jobs = _core.bulk_download(
            core, vertical, first, last, folder, interval, limit, bars
        )
    finally:
        if bars is not None:
            bars.close()
    _warn_if_narrowed(tuple(requested), tuple(effective))
    return BulkResult(
        job_id=job_id,
        files=tuple(Path(f) for f in files),
        bytes=transferred,
        rows=rows,
        requested=tuple(requested),
        effective=tuple(effective),
        elapsed=elapsed,
        jobs=jobs,
    )


def read_bulk(
    dest: str | os.PathLike[str],
    vertical: str | None = None,
    start: MonthLike | None = None,
    end: MonthLike | None = None,
    *,
    parse_json: bool = False,
) -> pyarrow.Table:
    """Reads a downloaded bulk dataset (``dest/vertical=…/year=…/month=…/*.parquet``)
    into one table with the partition columns ``vertical``, ``year`` and
    ``month`` added, optionally only one vertical (any spelling) and a range
    of months. The layout is plain Hive partitioning, so ``pyarrow.dataset``,
    DuckDB, polars, Spark and Dask read ``dest`` directly too.

    With ``parse_json=True`` the JSON text columns ``meta_data`` and
    ``dependencies`` become a ``map<string, string>`` and a
    ``list<struct<id, name, value, units, tenor_name>>``, as in the REST tables.

    An unknown vertical, a malformed month or ``start`` after ``end`` raise
    :class:`~marketcurves.InvalidRequest`."""
    folder = _args.path(dest, "dest")
    vertical = _args.optional_text(vertical, "vertical")
    first = None if start is None else month(start, "start")
    last = None if end is None else month(end, "end")
    return _core.read_bulk(folder, vertical, first, last, _args.flag(parse_json, "parse_json"))
