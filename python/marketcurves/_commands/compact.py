"""``marketcurves compact``: each closed day of a recording merged into one file."""

from __future__ import annotations

import argparse

from marketcurves._commands import output
from marketcurves._commands._common import (
    Commands,
    add_storage_options,
    command,
    plural,
    say,
    storage_options,
)

EXAMPLES = """
  marketcurves compact ticks/
  marketcurves compact s3://bucket/ticks --before 2025-06-01 --format json
"""


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "compact",
        "merge each closed day of a recording into one file",
        "Merges each day of a recording before --before (default today, "
        "UTC) that has several files into DEST/date=…/day-YYYY-MM-DD.parquet, "
        "and lists the days merged (day, files, rows).",
        EXAMPLES,
    )
    parser.add_argument(
        "dest",
        metavar="DEST",
        help="the recording, a folder or an object store URL: the --dest of `marketcurves record`",
    )
    parser.add_argument(
        "--before", default=None, metavar="YYYY-MM-DD", help="first day left alone (default today)"
    )
    add_storage_options(parser)
    output.add_flags(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import pyarrow as pa

    from marketcurves.record import compact

    fmt = output.chosen(args)
    days = compact(args.dest, args.before, storage_options=storage_options(args))
    table = pa.table(
        {
            "day": pa.array([d["day"] for d in days], pa.date32()),
            "files": pa.array([d["files"] for d in days], pa.int64()),
            "rows": pa.array([d["rows"] for d in days], pa.int64()),
        }
    )
    output.write(table, fmt, args)
    say(f"{plural(len(days), 'day')} compacted")
    return 0
