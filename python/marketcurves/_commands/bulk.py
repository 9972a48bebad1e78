"""``marketcurves bulk``: a bulk Parquet export of one vertical, downloaded."""

from __future__ import annotations

import argparse
from typing import Any

from marketcurves._commands import output
from marketcurves._commands._common import (
    VERTICAL,
    Commands,
    add_storage_options,
    client,
    command,
    plural,
    progress,
    say,
    storage_options,
)

EXAMPLES = """
  marketcurves bulk --vertical JET --start 2024-03 --end 2024-06 --dest data/
  marketcurves bulk --vertical Jet --start 2024-03 --end 2024-12 --dest s3://bucket/jet \\
      --storage-option aws_region=eu-west-1 --format json
"""


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "bulk",
        "download a bulk Parquet export of one vertical",
        "Submits a bulk job, waits for it, downloads its files into "
        "DEST/vertical=…/year=…/month=… and checks them; a rerun fetches only "
        "what is missing. Prints the files, one a line, or with --format json "
        "an object of what it did (files, rows, bytes, months granted, jobs). "
        "The service narrows a range the account's licence does not cover, "
        "with a warning.",
        EXAMPLES,
    )
    parser.add_argument("--vertical", required=True, help=VERTICAL)
    parser.add_argument("--start", required=True, metavar="YYYY-MM", help="first month")
    parser.add_argument("--end", required=True, metavar="YYYY-MM", help="last month, included")
    parser.add_argument(
        "--dest",
        required=True,
        help="folder to download into, or an object store URL (s3://bucket/prefix, gs://, az://)",
    )
    add_storage_options(parser)
    output.add_flags(parser, formats=("table", "json"), piped="table")
    parser.set_defaults(run=run)


def summary(result: Any) -> dict[str, Any]:
    return {
        "job_id": result.job_id,
        "files": [str(f) for f in result.files] + list(result.objects),
        "rows": result.rows,
        "bytes": result.bytes,
        "requested": list(result.requested),
        "effective": list(result.effective),
        "narrowed": result.narrowed,
        "elapsed": round(result.elapsed, 3),
        "jobs": result.jobs,
    }


def run(args: argparse.Namespace) -> int:
    fmt = output.chosen(args)
    with client() as service:
        result = service.bulk_download(
            args.vertical,
            args.start,
            args.end,
            args.dest,
            progress=progress(),
            storage_options=storage_options(args),
        )
    facts = summary(result)
    if fmt == "json":
        output.write_object(facts, args)
    else:
        with output.destination(args) as stream:
            for path in facts["files"]:
                stream.write(f"{path}\n")
    say(
        f"{plural(len(facts['files']), 'file')}, {plural(result.rows, 'row')}, "
        f"{plural(result.bytes, 'byte')} downloaded, "
        f"months {result.effective[0]}..{result.effective[1]}, {result.elapsed:.1f} s"
    )
    return 0
