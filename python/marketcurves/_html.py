"""Jupyter's views of the package's objects (``_repr_html_``): one writer of
HTML for every class, the core's ``Tenor`` and ``BulkResult`` included
(``src/python/html.rs`` calls it).

Every value goes through :func:`html.escape`: names, ids and paths come from
the service or the user and may hold markup. Nothing here reads a secret:
the objects drawn keep their tokens and pre-signed URLs out of reach.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from marketcurves._core import BulkResult, Tenor
    from marketcurves.backfill import BackfillSummary
    from marketcurves.bulk import BulkJob
    from marketcurves.catalogue import Catalogue, Curve
    from marketcurves.lake import LakeReport
    from marketcurves.live import LiveFeed
    from marketcurves.record import RecordSummary

#: Rows of a catalogue drawn; the rest are counted.
CATALOGUE_ROWS = 50
#: Tenors of a lake's report drawn; the rest are counted.
TENOR_ROWS = 50
#: Contracts and subscriptions listed by name; the rest are counted.
NAMES_LISTED = 12


def _text(value: Any) -> str:
    import html  # only notebooks ask for views, and html.entities is slow to load

    return "—" if value is None else html.escape(str(value))


def _number(value: int) -> str:
    return f"{value:,}"


def _names(names: Sequence[Any]) -> str:
    shown = ", ".join(str(n) for n in names[:NAMES_LISTED])
    more = f" … and {len(names) - NAMES_LISTED} more" if len(names) > NAMES_LISTED else ""
    return f"{shown}{more}"


def facts(title: str, rows: Iterable[tuple[str, Any]]) -> str:
    """A titled two-column table of ``(label, value)``."""
    body = "".join(
        f'<tr><th style="text-align:left">{_text(label)}</th>'
        f'<td style="text-align:left">{_text(value)}</td></tr>'
        for label, value in rows
    )
    return f"<div><strong>{_text(title)}</strong><table>{body}</table></div>"


def grid(title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], more: int) -> str:
    """A titled table with a header row; ``more`` rows left out are counted."""
    head = "".join(f"<th>{_text(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{_text(v)}</td>" for v in row) + "</tr>" for row in rows)
    tail = f"<p>… {more} more</p>" if more > 0 else ""
    return (
        f"<div><strong>{_text(title)}</strong>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{tail}</div>"
    )


def _months(pair: tuple[str, str]) -> str:
    return f"{pair[0]} .. {pair[1]}"


def tenor(value: Tenor) -> str:
    rows: list[tuple[str, Any]] = [("kind", value.kind)]
    if value.start is not None:
        rows += [("delivery", f"{value.start} .. {value.end}")]
    return facts(f"Tenor {value.name}", rows)


def curve(value: Curve) -> str:
    contracts = [t.name for t in value.tenors]
    rows: list[tuple[str, Any]] = [
        ("id", value.id),
        ("quotation", value.quotation),
        ("units", value.units),
        ("vertical", value.vertical),
        ("region", value.region),
        (f"contracts ({len(contracts)})", _names(contracts)),
    ]
    rows += [
        (f"filter {k}", v) for k, v in value.filters.items() if k not in ("vertical", "region")
    ]
    rows += [(f"property {k}", v) for k, v in value.properties.items()]
    return facts(f"Curve {value.name}", rows)


def catalogue(value: Catalogue) -> str:
    columns = ("id", "name", "vertical", "quotation", "region", "units", "contracts")
    rows = [
        (c.id, c.name, c.vertical, c.quotation, c.region, c.units, len(c.contracts))
        for c in value[:CATALOGUE_ROWS]
    ]
    return grid(value._title(), columns, rows, len(value) - CATALOGUE_ROWS)


def bulk_job(value: BulkJob) -> str:
    # The job's state needs a request: a repr sends none (job.status() does).
    return facts(
        f"Bulk job {value.job_id}",
        [
            ("months requested", _months(value.requested)),
            ("months granted", _months(value.effective)),
            ("narrowed", "yes: the account's permissions" if value.narrowed else "no"),
        ],
    )


def bulk_result(value: BulkResult) -> str:
    destination = value.files or value.objects
    rows: list[tuple[str, Any]] = [
        ("files", _number(len(destination))),
        ("rows", _number(value.rows)),
        ("bytes downloaded", _number(value.bytes)),
        ("months requested", _months(value.requested)),
        ("months granted", _months(value.effective)),
        ("narrowed", "yes" if value.narrowed else "no"),
        ("elapsed", f"{value.elapsed:.1f} s"),
        ("jobs submitted", value.jobs),
    ]
    if destination:
        rows.append(("first file", destination[0]))
    return facts(f"Bulk download {value.job_id}", rows)


def live_feed(value: LiveFeed) -> str:
    stats = value.stats()
    # By name where the feed was given Curve objects, else by id.
    names = value._curve_names
    subscriptions = [f"{names.get(c, c)} {tenor}" for c, tenor in value.subscriptions]
    last = stats["last_message"]
    state = "closed" if value.closed else ("connected" if stats["connected"] else "connecting")
    rows: list[tuple[str, Any]] = [
        ("state", state),
        (f"subscriptions ({len(subscriptions)})", _names(subscriptions) or "none"),
        ("ticks delivered", _number(stats["ticks_delivered"])),
        ("messages", _number(stats["messages"])),
        ("queued", _number(stats["queued"])),
        ("reconnects", stats["reconnects"]),
        ("gaps filled", stats["gaps_filled"]),
        ("backfilled", _number(stats["backfilled"])),
        ("backfill requests", _number(stats["backfill_requests"])),
        ("gaps skipped", _number(stats["gaps_skipped"])),
        ("conflated", _number(stats["conflated"])),
        ("duplicates dropped", _number(stats["duplicates_dropped"])),
        ("callback errors", stats["callback_errors"]),
        ("last message (UTC)", None if last is None else f"{last:%Y-%m-%d %H:%M:%S}"),
    ]
    return facts("Live feed", rows)


def record_summary(value: RecordSummary) -> str:
    return facts(
        "Recorder summary",
        [
            ("ticks written", _number(value.ticks_written)),
            ("files written", _number(value.files_written)),
            ("backfilled", _number(value.backfilled)),
            ("reconnects", _number(value.reconnects)),
            ("restarts", _number(value.restarts)),
            ("write failures", _number(value.write_failures)),
            ("days compacted", _number(value.compacted_days)),
            ("unwritten", _number(value.unwritten)),
        ],
    )


def backfill_summary(value: BackfillSummary) -> str:
    return facts(
        "Backfill summary",
        [
            ("tasks", _number(value.tasks)),
            ("requests", _number(value.requests)),
            ("values written", _number(value.values)),
            ("days complete", _number(value.days_complete)),
            ("days already complete", _number(value.days_skipped)),
            ("files written", _number(value.files_written)),
            ("files set aside", _names(value.set_aside) or "none"),
            ("tenors with days complete but empty", _number(len(value.empty))),
        ],
    )


def lake_report(value: LakeReport) -> str:
    missing = sum(len(t["missing_days"]) for t in value.tenors)
    recorder = value.recorder
    rows: list[tuple[str, Any]] = [
        ("tenors", _number(len(value.tenors))),
        ("business days missing", _number(missing)),
        ("values held twice", _number(sum(h["values"] for h in value.held_twice))),
        ("files counted twice", _names(value.counted_twice) or "none"),
        ("unreadable files", _names([u["file"] for u in value.unreadable]) or "none"),
        ("misfiled files", _names([u["file"] for u in value.misfiled]) or "none"),
        ("untrue notes", _names([u["file"] for u in value.untrue_notes]) or "none"),
        ("foreign names", _names([u["file"] for u in value.foreign]) or "none"),
        ("links", _names(value.links) or "none"),
        ("NaN prices", _number(sum(n["values"] for n in value.nan_prices))),
    ]
    if recorder is None:
        rows.append(("recorder", "none wrote here"))
    else:
        runs = "running" if recorder["running"] else "not running"
        rows.append(("recorder", f"{runs} (status {recorder['state']}, {recorder['updated_at']})"))
    columns = ("curve", "tenor", "first day", "last day", "recorded", "backfilled", "missing")
    tenors = [
        (
            t["curve_id"],
            t["tenor"],
            t["first_day"],
            t["last_day"],
            _number(t["days_recorded"]),
            _number(t["days_backfilled"]),
            _number(len(t["missing_days"])),
        )
        for t in value.tenors[:TENOR_ROWS]
    ]
    title = "Lake check: whole" if value.ok else "Lake check: not whole"
    summary = facts(title, rows)
    table = grid("Days held, per tenor", columns, tenors, len(value.tenors) - TENOR_ROWS)
    return f"<div>{summary}{table}</div>"
