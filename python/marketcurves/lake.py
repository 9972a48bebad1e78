"""A tick lake's check: what a destination of the recorder and the backfill
holds, per curve and tenor, and what is wrong with it.

>>> report = mc.check_lake("ticks/")  # doctest: +SKIP
>>> report.ok, report.tenors[0]["missing_days"]  # doctest: +SKIP
(True, [])
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import os
from typing import TYPE_CHECKING, Any, TypedDict

from marketcurves import _args, _core

if TYPE_CHECKING:
    from obstore.store import ObjectStore

__all__ = [
    "HeldTwice",
    "LakeReport",
    "RecorderCoverage",
    "TenorCoverage",
    "Unreadable",
    "check_lake",
]


class TenorCoverage(TypedDict):
    """What the lake holds of one curve's tenor."""

    curve_id: str
    tenor: str
    first_day: _dt.date
    last_day: _dt.date
    #: Days with a value in the recorder's files...
    days_recorded: int
    #: ...and in the backfill's.
    days_backfilled: int
    #: Business days (Monday to Friday) from the first day to the last
    #: without any value: holidays among them, which the lake cannot tell.
    missing_days: list[_dt.date]


class HeldTwice(TypedDict):
    """A tenor's values that one side (the recorder, or the backfill) holds
    more than once on a day: a file copied, say."""

    curve_id: str
    tenor: str
    day: _dt.date
    values: int


class Unreadable(TypedDict):
    """A file that is not whole Parquet of the lake's columns."""

    file: str
    reason: str


class RecorderCoverage(TypedDict):
    """The recorder's state, from its ``_status.json`` and checkpoint."""

    state: str
    updated_at: str | None
    #: Its status says it runs, and was written in the last few minutes.
    running: bool
    #: When it does not run: ``(curve_id, tenor, last value recorded)``,
    #: from which on nothing is recorded until it is started again.
    not_recorded_since: list[tuple[str, str, _dt.datetime]]


@dataclasses.dataclass(frozen=True)
class LakeReport:
    """What :func:`check_lake` found."""

    tenors: list[TenorCoverage]
    held_twice: list[HeldTwice]
    #: Files that a newer file replaces, still present (a compaction or a
    #: backfill cut short): :func:`~marketcurves.read_ticks` skips them, a
    #: plain Parquet reader counts their values twice.
    counted_twice: list[str]
    unreadable: list[Unreadable]
    #: None when no recorder ever wrote there.
    recorder: RecorderCoverage | None

    @property
    def ok(self) -> bool:
        """Nothing wrong: no business day missing inside a tenor's range, no
        value held twice, no file counted twice, no unreadable file. (A
        recorder that does not run is not wrong; ``recorder`` says so.)"""
        return not (
            any(t["missing_days"] for t in self.tenors)
            or self.held_twice
            or self.counted_twice
            or self.unreadable
        )

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data, with ``ok``, for JSON."""
        return {"ok": self.ok, **dataclasses.asdict(self)}


def check_lake(
    dest: str | os.PathLike[str] | ObjectStore,
    *,
    start: _dt.date | str | None = None,
    end: _dt.date | str | None = None,
    storage_options: dict[str, str] | None = None,
) -> LakeReport:
    """Reads every file of ``dest`` (a folder, an object store URL or an
    obstore store, as for :meth:`marketcurves.Client.record`) of the days
    from ``start`` to ``end`` (UTC days, both included; default all) and
    reports per curve and tenor the days held, by side (recorded,
    backfilled), and the business days missing between the first and the
    last; values one side holds twice; files a plain reader would count
    twice; unreadable files; and whether the recorder runs. It changes
    nothing. A value both the recorder and the backfill hold is where the
    sides meet, not a fault: :func:`~marketcurves.read_ticks` keeps one.

    A folder or a bucket that does not exist, or a malformed argument,
    raise :class:`~marketcurves.InvalidRequest`."""
    first = None if start is None else _args.date(start, "start")
    last = None if end is None else _args.date(end, "end")
    found = _core.check_lake(
        _args.place(dest, "dest"), first, last, _args.storage_options(storage_options)
    )
    return LakeReport(**found)
