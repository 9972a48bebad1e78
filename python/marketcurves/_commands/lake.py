"""``marketcurves lake check``: what a tick lake holds and what is wrong with
it; exits 1 when anything is."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from marketcurves._commands import output
from marketcurves._commands._common import (
    LAKE,
    Commands,
    add_storage_options,
    command,
    plural,
    say,
    storage_options,
)
from marketcurves._commands._parser import print_help

if TYPE_CHECKING:
    from marketcurves.lake import LakeReport

EXAMPLES = """
  marketcurves lake check ticks/
  marketcurves lake check s3://desk/ticks --start 2025-01-01 --format json
"""


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "lake",
        "check a tick lake (the recorder's and the backfill's files)",
        "A tick lake: the files of the recorder and the backfill in one destination.",
        EXAMPLES,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    parser.set_defaults(run=print_help(parser))
    check = command(
        actions,
        "check",
        "what a lake holds, and what is wrong",
        "Reads every file of the days asked for and lists, per curve and "
        "tenor, the days held by the recorder and by the backfill and the "
        "business days missing in between; then values held twice, files a "
        "plain reader counts twice, unreadable files and folders, rows filed "
        "under another day, notes their files contradict, foreign names, "
        "links, NaN prices and whether the recorder runs. Exits 1 when anything is wrong, 0 otherwise.",
        EXAMPLES,
    )
    check.add_argument(
        "dest", metavar="DEST", help=f"the lake, a folder or an object store URL: {LAKE}"
    )
    check.add_argument("--start", metavar="YYYY-MM-DD", help="first day read (default: all)")
    check.add_argument("--end", metavar="YYYY-MM-DD", help="last day read (default: all)")
    add_storage_options(check)
    output.add_flags(check, formats=("table", "json"), piped="table")
    check.set_defaults(run=run_check)


def run_check(args: argparse.Namespace) -> int:
    import pyarrow as pa

    from marketcurves.lake import check_lake

    fmt = output.chosen(args)
    report = check_lake(
        args.dest, start=args.start, end=args.end, storage_options=storage_options(args)
    )
    if fmt == "json":
        output.write_object(report.to_dict(), args)
    else:
        rows = [{**tenor, "missing_days": len(tenor["missing_days"])} for tenor in report.tenors]
        schema = pa.schema(
            [
                ("curve_id", pa.string()),
                ("tenor", pa.string()),
                ("first_day", pa.date32()),
                ("last_day", pa.date32()),
                ("days_recorded", pa.int64()),
                ("days_backfilled", pa.int64()),
                ("missing_days", pa.int64()),
            ]
        )
        output.write(pa.Table.from_pylist(rows, schema=schema), fmt, args)
    for problem in _problems(report):
        say(problem)
    say("the lake is whole" if report.ok else "the lake is not whole")
    return 0 if report.ok else 1


def _problems(report: LakeReport) -> list[str]:
    """One line per fault, for the person at the terminal."""
    lines = []
    for tenor in report.tenors:
        if tenor["missing_days"]:
            days = ", ".join(d.isoformat() for d in tenor["missing_days"][:5])
            more = len(tenor["missing_days"]) - 5
            lines.append(
                f"missing: {tenor['curve_id']} {tenor['tenor']}: {days}"
                + (f" and {more} more" if more > 0 else "")
            )
    for held in report.held_twice:
        lines.append(
            f"held twice: {held['curve_id']} {held['tenor']} on {held['day']}: "
            f"{plural(held['values'], 'value')}"
        )
    lines.extend(f"counted twice by a plain reader: {name}" for name in report.counted_twice)
    lines.extend(f"unreadable: {u['file']}: {u['reason']}" for u in report.unreadable)
    lines.extend(f"misfiled: {u['file']}: {u['reason']}" for u in report.misfiled)
    lines.extend(f"untrue note: {u['file']}: {u['reason']}" for u in report.untrue_notes)
    lines.extend(f"foreign: {u['file']}: {u['reason']}" for u in report.foreign)
    lines.extend(f"link: {name}: never read, written or deleted through" for name in report.links)
    for nan in report.nan_prices:
        lines.append(
            f"not a number: {nan['curve_id']} {nan['tenor']} on {nan['day']}: "
            f"{plural(nan['values'], 'price')}"
        )
    recorder = report.recorder
    if recorder is not None and not recorder["running"]:
        lines.append(
            f"the recorder does not run (state {recorder['state']}, "
            f"status of {recorder['updated_at']}): nothing is recorded after its last values"
        )
    return lines
