"""A tick lake's check: what a destination of the recorder and the backfill
holds, per curve and tenor, and what is wrong with it (see
[Checking the lake](../lake.md#checking-the-lake)).

>>> _ = client.backfill("ticks", [(curve, "Feb 26")], "2026-01-12", "2026-01-14")
>>> report = mc.check_lake("ticks")
>>> report.ok, report.tenors[0]["missing_days"]
(True, [])
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import os
from typing import TYPE_CHECKING, Any, TypedDict

from marketcurves import _args, _core, _html

if TYPE_CHECKING:
    from obstore.store import ObjectStore

__all__ = [
    "HeldTwice",
    "LakeReport",
    "NanPrices",
    "RecorderCoverage",
    "TenorCoverage",
    "Unreadable",
    "check_lake",
    "check_lake_async",
]

#: Tenors of a report's view drawn; the rest are counted.
_VIEW_TENORS = 50


class TenorCoverage(TypedDict):
    """What the lake holds of one curve's tenor."""

    #: The curve's id.
    curve_id: str
    #: The tenor's name.
    tenor: str
    #: The first UTC day with a value.
    first_day: _dt.date
    #: The last UTC day with a value.
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

    #: The curve's id.
    curve_id: str
    #: The tenor's name.
    tenor: str
    #: The UTC day.
    day: _dt.date
    #: The values held more than once.
    values: int


class Unreadable(TypedDict):
    """A file (or folder) and what is wrong with it: not whole Parquet of
    the lake's columns, rows filed under another day's folder, a note its
    rows contradict, a name the lake's layout does not give."""

    #: The file, relative to the lake (a folder ends with ``/``).
    file: str
    #: What is wrong with it.
    reason: str


class NanPrices(TypedDict):
    """A tenor's values of a day whose price is not a number."""

    #: The curve's id.
    curve_id: str
    #: The tenor's name.
    tenor: str
    #: The UTC day.
    day: _dt.date
    #: The values whose price is NaN.
    values: int


class RecorderCoverage(TypedDict):
    """The recorder's state, from its ``_status.json`` and checkpoint."""

    #: What its status says: ``running``, ``stopped`` (or ``unknown``).
    state: str
    #: When it last wrote its status (ISO 8601, UTC).
    updated_at: str | None
    #: Its status says it runs, and was written in the last few minutes.
    running: bool
    #: When it does not run: ``(curve_id, tenor, last value recorded)``,
    #: from which on nothing is recorded until it is started again.
    not_recorded_since: list[tuple[str, str, _dt.datetime]]


@dataclasses.dataclass(frozen=True)
class LakeReport:
    """What :func:`check_lake` found; Jupyter shows it as a table."""

    #: What the lake holds of each curve's tenor.
    tenors: list[TenorCoverage]
    #: Values one side (the recorder, or the backfill) holds twice.
    held_twice: list[HeldTwice]
    #: Files that a newer file replaces, still present (a compaction or a
    #: backfill cut short): :func:`~marketcurves.read_ticks` skips them, a
    #: plain Parquet reader counts their values twice.
    counted_twice: list[str]
    #: Files and folders that cannot be read: not whole Parquet of the
    #: lake's columns, or refused by the system; the reason names the path.
    unreadable: list[Unreadable]
    #: None when no recorder ever wrote there.
    recorder: RecorderCoverage | None
    #: Files holding rows of another day than their folder's: a day's file
    #: copied into another's folder (its rows count for their own day).
    misfiled: list[Unreadable] = dataclasses.field(default_factory=list)
    #: Files whose footer note their rows contradict (row count, day,
    #: curve, tenors, digest): cut short or changed by another tool. A
    #: backfill fetches such a file's days again.
    untrue_notes: list[Unreadable] = dataclasses.field(default_factory=list)
    #: Names the lake's layout does not give: a folder that is no
    #: ``date=YYYY-MM-DD``, a foreign ``*.parquet``, a ``*.corrupt`` file a
    #: backfill set aside. Readers skip them.
    foreign: list[Unreadable] = dataclasses.field(default_factory=list)
    #: Links (to a day folder or a file): never read, written or deleted
    #: through; a backfill refuses a lake with one in its range.
    links: list[str] = dataclasses.field(default_factory=list)
    #: Prices that are not a number, per tenor and day.
    nan_prices: list[NanPrices] = dataclasses.field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Nothing wrong: no business day missing inside a tenor's range, no
        value held twice, no file counted twice, nothing unreadable,
        misfiled, untrue, foreign or linked, no NaN price. (A recorder that
        does not run is not wrong; ``recorder`` says so.)"""
        return not (
            any(t["missing_days"] for t in self.tenors)
            or self.held_twice
            or self.counted_twice
            or self.unreadable
            or self.misfiled
            or self.untrue_notes
            or self.foreign
            or self.links
            or self.nan_prices
        )

    def _repr_html_(self) -> str:
        number, names = _html.number, _html.names
        missing = sum(len(t["missing_days"]) for t in self.tenors)
        recorder = self.recorder
        rows: list[tuple[str, Any]] = [
            ("tenors", number(len(self.tenors))),
            ("business days missing", number(missing)),
            ("values held twice", number(sum(h["values"] for h in self.held_twice))),
            ("files counted twice", names(self.counted_twice) or "none"),
            ("unreadable files", names([u["file"] for u in self.unreadable]) or "none"),
            ("misfiled files", names([u["file"] for u in self.misfiled]) or "none"),
            ("untrue notes", names([u["file"] for u in self.untrue_notes]) or "none"),
            ("foreign names", names([u["file"] for u in self.foreign]) or "none"),
            ("links", names(self.links) or "none"),
            ("NaN prices", number(sum(n["values"] for n in self.nan_prices))),
        ]
        if recorder is None:
            rows.append(("recorder", "none wrote here"))
        else:
            runs = "running" if recorder["running"] else "not running"
            rows.append(
                ("recorder", f"{runs} (status {recorder['state']}, {recorder['updated_at']})")
            )
        columns = ("curve", "tenor", "first day", "last day", "recorded", "backfilled", "missing")
        tenors = [
            (
                t["curve_id"],
                t["tenor"],
                t["first_day"],
                t["last_day"],
                number(t["days_recorded"]),
                number(t["days_backfilled"]),
                number(len(t["missing_days"])),
            )
            for t in self.tenors[:_VIEW_TENORS]
        ]
        title = "Lake check: whole" if self.ok else "Lake check: not whole"
        summary = _html.facts(title, rows)
        table = _html.grid("Days held, per tenor", columns, tenors, len(self.tenors) - _VIEW_TENORS)
        return f"<div>{summary}{table}</div>"

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data, for JSON.

        Returns:
            ``ok`` and every field, as dicts and lists (dates and datetimes
            as they are: ``json.dumps(..., default=str)`` writes them).

        Examples:
            >>> _ = client.backfill("ticks", [(curve, "Feb 26")], "2026-01-12", "2026-01-14")
            >>> list(mc.check_lake("ticks").to_dict())
            ['ok', 'tenors', 'held_twice', 'counted_twice', 'unreadable', 'recorder', 'misfiled', 'untrue_notes', 'foreign', 'links', 'nan_prices']
        """
        return {"ok": self.ok, **dataclasses.asdict(self)}


def check_lake(
    dest: str | os.PathLike[str] | ObjectStore,
    *,
    start: _dt.date | str | None = None,
    end: _dt.date | str | None = None,
    storage_options: dict[str, str] | None = None,
) -> LakeReport:
    """Reads every file of a tick lake (what the recorder and the backfill
    wrote) and reports what it holds and what is wrong with it. It changes
    nothing. A value both the recorder and the backfill hold is where the
    sides meet, not a fault: :func:`~marketcurves.read_ticks` keeps one.

    Args:
        dest: a folder, an object store URL or an obstore store, as for
            :meth:`marketcurves.Client.record`.
        start: only the days from this one (UTC); None from the first.
        end: only the days up to this one, included; None to the last.
        storage_options: for an object store URL, as for
            :func:`marketcurves.read_bulk`.

    Returns:
        Per curve and tenor the days held, by side (recorded, backfilled),
        and the business days missing between the first and the last (a
        value counts for its own day, whichever folder holds it); values
        one side holds twice, in one day's files or two; files a plain
        reader would count twice; unreadable files and folders; misfiled
        rows; notes their files contradict; foreign names; links; NaN
        prices; and whether the recorder runs. A lake that cannot be read
        in part is reported, never raised.

    Raises:
        InvalidRequest: a folder or a bucket that does not exist, or a
            malformed argument.
        DestinationError: ``dest`` refused a read or a listing.

    Examples:
        >>> _ = client.backfill("ticks", [(curve, "Feb 26")], "2026-01-12", "2026-01-14")
        >>> report = mc.check_lake("ticks")
        >>> report.ok, report.recorder
        (True, None)
        >>> coverage = report.tenors[0]
        >>> coverage["tenor"], coverage["first_day"], coverage["days_backfilled"], coverage["missing_days"]
        ('Feb 26', datetime.date(2026, 1, 12), 3, [])
    """
    return LakeReport(**_check_lake(dest, start, end, storage_options).wait())


async def check_lake_async(
    dest: str | os.PathLike[str] | ObjectStore,
    *,
    start: _dt.date | str | None = None,
    end: _dt.date | str | None = None,
    storage_options: dict[str, str] | None = None,
) -> LakeReport:
    """The awaitable form of :func:`check_lake`."""
    return LakeReport(**await _check_lake(dest, start, end, storage_options))


def _check_lake(
    dest: Any, start: Any, end: Any, storage_options: Any
) -> _core.Call[dict[str, Any]]:
    first = None if start is None else _args.date(start, "start")
    last = None if end is None else _args.date(end, "end")
    return _core.check_lake(
        _args.place(dest, "dest"), first, last, _args.storage_options(storage_options)
    )
