"""The tick recorder: the live feed captured into Parquet, each published
value exactly once across disconnections, restarts and crashes.

>>> client.record("ticks/", [(curve_id, "*")])  # until Ctrl-C  # doctest: +SKIP
>>> mc.read_ticks("ticks/", curve_id=curve_id)  # doctest: +SKIP

A recording is Hive-partitioned by UTC day (``date=YYYY-MM-DD/``), so
``pyarrow.dataset.dataset(dest, partitioning="hive")``, DuckDB, polars and
Spark read it as well; its columns are ``curve_id``, ``tenor``,
``generated_on`` (timestamp[us, UTC]), ``price``, ``source`` (snapshot,
update or backfill) and ``recorded_at``.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import signal
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypedDict

from marketcurves import _args, _core
from marketcurves._options import RecordOptions

if TYPE_CHECKING:
    import pyarrow
    from obstore.store import ObjectStore

__all__ = ["CompactedDay", "RecordSummary", "compact", "read_ticks"]


class RecordSummary(TypedDict):
    """What a recorder did, returned when it stops."""

    ticks_written: int
    files_written: int
    #: Of the ticks written, those fetched from the intraday endpoints (after
    #: a start or a reconnect) rather than pushed by the feed.
    backfilled: int
    reconnects: int
    #: Times it dropped what it held unwritten and resumed from its files,
    #: because the feed could have missed a value (a failed backfill).
    restarts: int
    write_failures: int
    compacted_days: int
    #: Ticks received and not written when it stopped (0 unless the
    #: destination refused them; a restarted recorder fetches them again).
    unwritten: int


class CompactedDay(TypedDict):
    """A day of a recording merged into one file."""

    day: _dt.date
    files: int
    rows: int


def _options(
    dest: Any,
    subscriptions: Any,
    rotate: Any,
    storage_options: Any,
    backfill: Any,
    rotate_rows: Any,
    hold_limit: Any,
    compact: Any,
    duration: Any,
    ping_interval: Any,
    pong_timeout: Any,
    reconnect_max: Any,
) -> RecordOptions:
    """The arguments' types checked, in the binding's form; the core checks values."""
    return {
        "dest": _args.place(dest, "dest"),
        "subscriptions": _args.subscriptions(subscriptions),
        "rotate": _args.period(rotate, "rotate"),
        "storage_options": _args.storage_options(storage_options),
        "backfill": _args.flag(backfill, "backfill"),
        "rotate_rows": _args.count(rotate_rows, "rotate_rows"),
        "hold_limit": _args.count(hold_limit, "hold_limit"),
        "compact": _args.flag(compact, "compact"),
        "duration": None if duration is None else _args.duration(duration, "duration"),
        "ping_interval": _args.duration(ping_interval, "ping_interval"),
        "pong_timeout": _args.duration(pong_timeout, "pong_timeout"),
        "reconnect_max": _args.duration(reconnect_max, "reconnect_max"),
    }


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """SIGTERM stops the recorder as Ctrl-C does (it writes what it holds),
    while it runs on the main thread."""
    if threading.current_thread() is not threading.main_thread() or os.name == "nt":
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _recorder(core: Any, live_url: str, arguments: dict[str, Any]) -> _core.Recorder:
    """The one preparing step of :func:`record` and :func:`record_async`."""
    return _core.Recorder(core, live_url, _options(**arguments))


def record(core: Any, live_url: str, **arguments: Any) -> RecordSummary:
    recorder = _recorder(core, live_url, arguments)
    with _sigterm_stops():
        return recorder.run()


async def record_async(core: Any, live_url: str, **arguments: Any) -> RecordSummary:
    return await _recorder(core, live_url, arguments).run_async()


def read_ticks(
    dest: str | os.PathLike[str] | ObjectStore,
    curve_id: str | None = None,
    tenor: str | None = None,
    start: _dt.datetime | str | None = None,
    end: _dt.datetime | str | None = None,
    storage_options: dict[str, str] | None = None,
) -> pyarrow.Table:
    """The ticks a recorder wrote into ``dest`` (a folder, an object store
    URL or an obstore store, as for :meth:`marketcurves.Client.record`) as one table sorted by
    curve, tenor (in calendar order) and ``generated_on``, optionally only
    one curve, one tenor, and ``generated_on`` from ``start`` to ``end``
    (both included; naive times are UTC). Only the days asked for are read.

    Parts that a compaction cut short left beside their compacted day are
    recognised and not read twice. A folder that does not exist, a bucket
    that does not exist or a malformed argument raise
    :class:`~marketcurves.InvalidRequest`."""
    return _core.read_ticks(
        _args.place(dest, "dest"),
        None if curve_id is None else _args.curve_id(curve_id),
        _args.optional_tenor(tenor),
        _args.optional_instant(start, "start"),
        _args.optional_instant(end, "end"),
        _args.storage_options(storage_options),
    )


def compact(
    dest: str | os.PathLike[str] | ObjectStore,
    before: _dt.date | str | None = None,
    storage_options: dict[str, str] | None = None,
) -> list[CompactedDay]:
    """Merges each day of a recording before ``before`` (default: today,
    UTC) that has several files into one, ``date=…/day-YYYY-MM-DD.parquet``,
    sorted by curve, tenor and time. The merged file is written whole before
    the parts it replaces are deleted. A recorder compacts its own days once
    they are over; run this on days it has not compacted, or while none runs."""
    when = _dt.datetime.now(_dt.UTC).date() if before is None else before
    return _core.compact_recording(
        _args.place(dest, "dest"),
        _args.date(when, "before"),
        _args.storage_options(storage_options),
    )
