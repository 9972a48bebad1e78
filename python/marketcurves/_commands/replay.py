"""``marketcurves replay``: a lake or the service replayed as the live feed
would deliver it."""

from __future__ import annotations

import argparse

from marketcurves._commands import output
from marketcurves._commands._common import (
    LAKE,
    Commands,
    add_storage_options,
    add_subscriptions,
    client,
    command,
    plural,
    say,
    storage_options,
)
from marketcurves._commands.live import TickWriter

EXAMPLES = """
  marketcurves replay --source ticks/ --curve CURVE_ID --start 2025-06-11T09:00 --end 2025-06-11T17:00
  marketcurves replay --source service --curve CURVE_ID --tenor 'Jul 25' \\
      --start 2025-06-11 --end 2025-06-12 --speed 60 --format ndjson
  marketcurves replay --source s3://desk/ticks --curve ID --start 2025-06-11 --end 2025-06-11 \\
      --format parquet -o day.parquet
"""


def _speed(text: str) -> float | str:
    if text == "max":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 'max' or a number, got {text!r}") from None


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "replay",
        "replay a lake or the service as the live feed would deliver it",
        "Replays the values of the curves given from --start to --end (naive "
        "times UTC; a date alone is its whole day) from a lake the recorder and "
        "the backfill wrote, or from the service's historical endpoint "
        "(--source service): first a snapshot per tenor as of --start, then "
        "every later value in time order. --speed N paces it (1 is real time); "
        "by default as fast as the output takes it.",
        EXAMPLES,
    )
    parser.add_argument(
        "--source",
        required=True,
        metavar="DEST|service",
        help=f"a lake, a folder or an object store URL ({LAKE}), "
        "or 'service' for the historical intraday endpoint",
    )
    add_subscriptions(parser)
    parser.add_argument(
        "--no-strict",
        dest="strict",
        action="store_false",
        help="replay curves and tenors the source holds nothing of (nothing comes of them)",
    )
    parser.add_argument("--start", required=True, help="first time (ISO 8601) or day")
    parser.add_argument("--end", required=True, help="last time (ISO 8601) or day")
    parser.add_argument(
        "--speed", type=_speed, default="max", help="replay seconds per real second, or 'max'"
    )
    add_storage_options(parser)
    output.add_flags(parser, formats=("table", "csv", "ndjson", "parquet"), piped="ndjson")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    fmt = output.chosen(args)
    tenors = args.tenors or ["*"]
    with client() as service:
        feed = service.replay(
            args.start,
            args.end,
            source=args.source,
            speed=args.speed,
            storage_options=storage_options(args),
        )
        with feed:
            for curve in args.curves:
                for tenor in tenors:
                    feed.subscribe(curve, tenor, strict=args.strict)
            if fmt == "parquet":
                import pyarrow as pa

                from marketcurves import _core

                # The live feed's columns, even when nothing is replayed;
                # the last batch's schema names every curve subscribed to.
                batches = [_core._ticks_batch([]), *feed.batches(timeout=None)]
                table = pa.Table.from_batches(batches, schema=batches[-1].schema)
                output.write(table, fmt, args)
                written = table.num_rows
            else:
                written = 0
                with output.destination(args) as stream:
                    writer = TickWriter(fmt, stream)
                    for tick in feed:
                        writer.write(tick)
                        written += 1
    say(f"{plural(written, 'tick')} replayed")
    return 0
