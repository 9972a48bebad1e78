"""The tick recorder: the live feed captured into Parquet, each published
value exactly once across disconnections, restarts and crashes. The
recorder is :meth:`marketcurves.Client.record`; this module reads and
compacts what it wrote (see [The tick recorder](../recorder.md)).

>>> client.record("ticks/", [(curve, "*")])  # until Ctrl-C  # doctest: +SKIP
>>> mc.read_ticks("ticks/", curve_id=curve.id)  # doctest: +SKIP

A recording is Hive-partitioned by UTC day (``date=YYYY-MM-DD/``), so
``pyarrow.dataset.dataset(dest, partitioning="hive")``, DuckDB, polars and
Spark read it as well; its columns are ``curve_id``, ``tenor``,
``generated_on`` (timestamp[us, UTC]), ``price``, ``source`` (snapshot,
update or backfill) and ``recorded_at``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import os
import signal
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypedDict

from marketcurves import _args, _core, _deprecation, _html
from marketcurves._options import RecordOptions

if TYPE_CHECKING:
    import pyarrow
    from obstore.store import ObjectStore

__all__ = [
    "CompactedDay",
    "RecordSummary",
    "compact",
    "compact_async",
    "read_ticks",
    "read_ticks_async",
]


@dataclasses.dataclass(frozen=True)
class RecordSummary:
    """What a recorder did, returned by :meth:`marketcurves.Client.record`
    when it stops; Jupyter shows it as a table.

    ``summary["ticks_written"]`` reads a field too, as when the summary was
    a dict: kept for compatibility, for code written then (read the
    attributes). ``dataclasses.asdict(summary)`` gives the dict.

    Examples:
        >>> summary = client.record("recording", [(curve, "Feb 26")], duration=0.5)
        >>> summary.ticks_written > 0, summary.unwritten
        (True, 0)
        >>> summary["ticks_written"] == summary.ticks_written
        True
    """

    #: Ticks written to files, each value once.
    ticks_written: int
    #: Files written (a compacted day's included).
    files_written: int
    #: Of the ticks written, those fetched from the intraday endpoints (after
    #: a start or a reconnect) rather than pushed by the feed.
    backfilled: int
    #: Times the feed's connection was made again.
    reconnects: int
    #: Times it dropped what it held unwritten and resumed from its files,
    #: because the feed could have missed a value (a failed backfill).
    restarts: int
    #: Writes the destination refused (their ticks held and written later).
    write_failures: int
    #: Days merged into one file (``compact=True``).
    compacted_days: int
    #: Ticks received and not written when it stopped (0 unless the
    #: destination refused them; a restarted recorder fetches them again).
    unwritten: int

    # Without it, ``__getitem__`` alone would make ``for`` and ``in`` try
    # the keys 0, 1, ... and fail with KeyError: 0.
    __iter__ = None

    def __getitem__(self, name: str) -> int:
        if name not in _SUMMARY_FIELDS:
            raise KeyError(name)
        value: int = getattr(self, name)
        return value

    def _repr_html_(self) -> str:
        return _html.facts(
            "Recorder summary",
            [
                ("ticks written", _html.number(self.ticks_written)),
                ("files written", _html.number(self.files_written)),
                ("backfilled", _html.number(self.backfilled)),
                ("reconnects", _html.number(self.reconnects)),
                ("restarts", _html.number(self.restarts)),
                ("write failures", _html.number(self.write_failures)),
                ("days compacted", _html.number(self.compacted_days)),
                ("unwritten", _html.number(self.unwritten)),
            ],
        )


_SUMMARY_FIELDS = frozenset(f.name for f in dataclasses.fields(RecordSummary))


class CompactedDay(TypedDict):
    """A day of a recording merged into one file."""

    #: The UTC day.
    day: _dt.date
    #: The files merged.
    files: int
    #: The ticks of the day.
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
        counts = recorder.run()
    return RecordSummary(**counts)


async def record_async(core: Any, live_url: str, **arguments: Any) -> RecordSummary:
    counts = await _recorder(core, live_url, arguments).run_async()
    return RecordSummary(**counts)


@_deprecation.positional_options("storage_options")
def read_ticks(
    dest: str | os.PathLike[str] | ObjectStore,
    curve_id: str | None = None,
    tenor: str | None = None,
    start: _dt.datetime | str | None = None,
    end: _dt.datetime | str | None = None,
    *,
    storage_options: dict[str, str] | None = None,
) -> pyarrow.Table:
    """The ticks a recorder and a backfill wrote into ``dest``, each value
    once. Only the days asked for are read. Parts that a compaction cut
    short left beside their compacted day are recognised and not read twice.

    Args:
        dest: a folder, an object store URL or an obstore store, as for
            :meth:`marketcurves.Client.record`.
        curve_id: only this curve; None for every one.
        tenor: only this tenor; None for every one.
        start: only from this time (a datetime or ISO text; naive times
            are UTC).
        end: only up to this time, included.
        storage_options: for an object store URL, as for
            :func:`marketcurves.read_bulk`.

    Returns:
        One table, sorted by curve, tenor (in calendar order) and
        ``generated_on``, of the columns ``curve_id``, ``tenor``,
        ``generated_on``, ``price``, ``source`` and ``recorded_at``.

    Raises:
        InvalidRequest: a folder or a bucket that does not exist, or a
            malformed argument.
        DestinationError: ``dest`` refused a read.

    Examples:
        >>> _ = client.backfill("ticks", [(curve, "Feb 26")], "2026-01-13", "2026-01-13")
        >>> ticks = mc.read_ticks("ticks", tenor="Feb 26", start="2026-01-13T10:00", end="2026-01-13T10:05")
        >>> mc.to_pandas(ticks)[["tenor", "generated_on", "price", "source"]]
            tenor                     generated_on    price    source
        0  Feb 26 2026-01-13 10:00:16.249600+00:00  773.675  backfill
        1  Feb 26 2026-01-13 10:02:24.639413+00:00  773.401  backfill
        2  Feb 26 2026-01-13 10:04:33.000000+00:00  773.568  backfill
    """
    return _read_ticks(dest, curve_id, tenor, start, end, storage_options).wait()


async def read_ticks_async(
    dest: str | os.PathLike[str] | ObjectStore,
    curve_id: str | None = None,
    tenor: str | None = None,
    start: _dt.datetime | str | None = None,
    end: _dt.datetime | str | None = None,
    *,
    storage_options: dict[str, str] | None = None,
) -> pyarrow.Table:
    """The awaitable form of :func:`read_ticks`."""
    return await _read_ticks(dest, curve_id, tenor, start, end, storage_options)


def _read_ticks(
    dest: Any, curve_id: Any, tenor: Any, start: Any, end: Any, storage_options: Any
) -> _core.Call[pyarrow.Table]:
    return _core.read_ticks(
        _args.place(dest, "dest"),
        None if curve_id is None else _args.curve_id(curve_id),
        _args.optional_tenor(tenor),
        _args.optional_instant(start, "start"),
        _args.optional_instant(end, "end"),
        _args.storage_options(storage_options),
    )


@_deprecation.positional_options("storage_options")
def compact(
    dest: str | os.PathLike[str] | ObjectStore,
    before: _dt.date | str | None = None,
    *,
    storage_options: dict[str, str] | None = None,
) -> list[CompactedDay]:
    """Merges each day of a recording that has several files into one,
    ``date=…/day-YYYY-MM-DD.parquet``, sorted by curve, tenor and time. The
    merged file is written whole before the parts it replaces are deleted.
    A recorder compacts its own days once they are over; run this on days
    it has not compacted, or while none runs.

    Args:
        dest: a folder, an object store URL or an obstore store, as for
            :meth:`marketcurves.Client.record`.
        before: compact the days before this one; None for the days before
            today (UTC).
        storage_options: for an object store URL, as for
            :func:`marketcurves.read_bulk`.

    Returns:
        The days merged, oldest first; empty if none had several files.

    Raises:
        InvalidRequest: a folder or a bucket that does not exist, or a
            malformed argument.
        DestinationError: ``dest`` refused a read, a write or a deletion.

    Examples:
        >>> from marketcurves.record import compact
        >>> subscriptions = [(curve, "Feb 26"), (curve, "Mar 26")]
        >>> client.record("ticks", subscriptions, duration=0.5, rotate_rows=1).files_written
        2
        >>> compact("ticks", before="2026-01-16")
        [{'day': datetime.date(2026, 1, 15), 'files': 2, 'rows': 2}]
    """
    return _compact(dest, before, storage_options).wait()


async def compact_async(
    dest: str | os.PathLike[str] | ObjectStore,
    before: _dt.date | str | None = None,
    *,
    storage_options: dict[str, str] | None = None,
) -> list[CompactedDay]:
    """The awaitable form of :func:`compact`."""
    return await _compact(dest, before, storage_options)


def _compact(dest: Any, before: Any, storage_options: Any) -> _core.Call[list[CompactedDay]]:
    when = _dt.datetime.now(_dt.UTC).date() if before is None else before
    return _core.compact_recording(
        _args.place(dest, "dest"),
        _args.date(when, "before"),
        _args.storage_options(storage_options),
    )
