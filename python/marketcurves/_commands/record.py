"""``marketcurves record``: the live feed into Parquet, each value once."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from marketcurves._commands._common import (
    Commands,
    add_keepalive,
    add_storage_options,
    add_subscriptions,
    client,
    command,
    keepalive,
    plural,
    say,
    storage_options,
)

EXAMPLES = """
  marketcurves record --dest ticks/ --curve CURVE_ID
  marketcurves record --dest s3://bucket/ticks --curve ID1 --curve ID2 --tenor 'Jul 25' --rotate 1min
"""


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "record",
        "record the live feed into Parquet until Ctrl-C or SIGTERM",
        "Records the live feed into Hive-partitioned Parquet "
        "(DEST/date=YYYY-MM-DD/), each published value once across restarts: "
        "a start resumes from what DEST holds and backfills what it missed. "
        "Ctrl-C or SIGTERM is its normal end: it writes what it holds and "
        "exits 0. A minute's figures go to stderr.",
        EXAMPLES,
    )
    parser.add_argument(
        "--dest", required=True, help="folder, or an object store URL (s3://bucket/prefix, …)"
    )
    add_subscriptions(parser)
    parser.add_argument("--rotate", help="close files this often (default 5min)")
    parser.add_argument("--rotate-rows", type=int, help="or at this many ticks (default 1,000,000)")
    parser.add_argument(
        "--no-backfill",
        dest="backfill",
        action="store_false",
        help="do not fetch what was published while stopped or disconnected",
    )
    parser.add_argument(
        "--no-compact",
        dest="compact",
        action="store_false",
        help="leave each day's files as they are once it is over",
    )
    parser.add_argument("--duration", type=float, default=None, help="stop after this many seconds")
    add_keepalive(parser)
    add_storage_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # A recorder runs for days: its lines carry their time.
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(name)s %(message)s", force=True
    )
    logging.getLogger("marketcurves.record").setLevel(logging.INFO)
    tenors = args.tenors or ["*"]
    subscriptions = [(curve, tenor) for curve in args.curves for tenor in tenors]
    # Options not given keep the defaults of Client.record (the core's).
    given: dict[str, Any] = keepalive(args)
    if args.rotate is not None:
        given["rotate"] = args.rotate
    if args.rotate_rows is not None:
        given["rotate_rows"] = args.rotate_rows
    with client() as service:
        summary = service.record(
            args.dest,
            subscriptions,
            storage_options=storage_options(args),
            backfill=args.backfill,
            compact=args.compact,
            duration=args.duration,
            **given,
        )
    say(
        f"{plural(summary.ticks_written, 'tick')} in "
        f"{plural(summary.files_written, 'file')}, {summary.backfilled:,} backfilled, "
        f"{plural(summary.reconnects, 'reconnect')}"
    )
    return 0
