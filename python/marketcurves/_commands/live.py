"""``marketcurves live``: ticks of the live feed as they come."""

from __future__ import annotations

import argparse
import csv
import json
import time
from typing import IO, Any

from marketcurves._commands import output
from marketcurves._commands._common import (
    Commands,
    add_keepalive,
    add_subscriptions,
    client,
    command,
    keepalive,
    plural,
    positive_int,
    positive_seconds,
    say,
)

EXAMPLES = """
  marketcurves live --curve CURVE_ID                      # every tenor, until Ctrl-C
  marketcurves live --curve CURVE_ID --tenor 'Jul 25' --count 10 --format ndjson
  marketcurves live --curve ID1 --curve ID2 --duration 60 --format csv -o minute.csv
"""

COLUMNS = ("generated_on", "curve_id", "tenor", "price", "source")


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "live",
        "print ticks of the live feed as they come",
        "Subscribes to the live feed and writes each tick as it comes "
        "(generated_on, curve_id, tenor, price, source), until Ctrl-C "
        "(exit 130), --duration or --count. First comes the snapshot, the "
        "last value of each tenor (source 'snapshot'); then updates as the "
        "service publishes them, every 1 to 15 minutes a tenor, so --count "
        "beyond the snapshot can take minutes (stderr says when it waits). "
        "Reconnects and backfills what a dropped connection missed. To keep "
        "ticks in Parquet across restarts, use the record command.",
        EXAMPLES,
    )
    add_subscriptions(parser)
    parser.add_argument(
        "--duration", type=positive_seconds, metavar="SECONDS", help="stop after this long"
    )
    parser.add_argument("--count", type=positive_int, metavar="N", help="stop after N ticks")
    parser.add_argument(
        "--no-backfill",
        dest="backfill",
        action="store_false",
        help="after a reconnect, do not fetch what was published meanwhile",
    )
    parser.add_argument(
        "--no-strict",
        dest="strict",
        action="store_false",
        help="subscribe to curves and tenors the catalogue does not list "
        "(the service sends nothing for them)",
    )
    add_keepalive(parser)
    output.add_flags(parser, formats=("table", "csv", "ndjson"), piped="ndjson")
    parser.set_defaults(run=run)


class TickWriter:
    """Writes ticks one by one, each flushed at once."""

    def __init__(self, fmt: str, stream: IO[str]) -> None:
        self._fmt = fmt
        self._stream = stream
        self._csv = csv.writer(stream, lineterminator="\n") if fmt == "csv" else None
        if self._csv is not None:
            self._csv.writerow(COLUMNS)
        elif fmt == "table":
            stream.write(self._line(COLUMNS))
        stream.flush()

    @staticmethod
    def _line(cells: Any) -> str:
        time_, curve, tenor, price, source = cells
        return f"{time_:<23}  {curve:<36}  {tenor:<14}  {price:>12}  {source}\n"

    def write(self, tick: Any) -> None:
        if self._fmt == "ndjson":
            row = {name: getattr(tick, name) for name in COLUMNS}
            self._stream.write(json.dumps(row, default=output.iso) + "\n")
        elif self._csv is not None:
            stamp = output.timestamp(tick.generated_on)
            self._csv.writerow([stamp, tick.curve_id, tick.tenor, repr(tick.price), tick.source])
        else:
            cells = [getattr(tick, name) for name in COLUMNS]
            self._stream.write(self._line([output.cell(c) for c in cells]))
        self._stream.flush()


class Waiting:
    """Says once on stderr that the feed is waiting for updates, when the
    snapshot is written and nothing has come for a while: at the service's
    pace (a tenor's value every 1 to 15 minutes) a --count can take minutes,
    which would otherwise look like a hang."""

    #: Quiet seconds, before the first update, that are worth a word.
    AFTER = 2.0

    def __init__(self) -> None:
        self._said = False

    def timeout(self, wait: float | None) -> float | None:
        """How long the next read waits: at most ``AFTER`` until said."""
        if self._said:
            return wait
        return self.AFTER if wait is None else min(wait, self.AFTER)

    def tick(self, tick: Any) -> None:
        if tick.source != "snapshot":
            # Updates come: nothing to explain.
            self._said = True

    def quiet(self, written: int) -> None:
        if not self._said:
            self._said = True
            say(
                f"{plural(written, 'snapshot tick')} written; waiting for updates, which "
                "come as the service publishes them (every 1 to 15 minutes a tenor). "
                "Ctrl-C stops."
            )


def run(args: argparse.Namespace) -> int:
    fmt = output.chosen(args)
    tenors = args.tenors or ["*"]
    written = 0
    interrupted = False
    with output.destination(args) as stream, client() as service:
        with service.live(backfill=args.backfill, **keepalive(args)) as feed:
            for curve in args.curves:
                for tenor in tenors:
                    feed.subscribe(curve, tenor, strict=args.strict)
            writer = TickWriter(fmt, stream)
            deadline = None if args.duration is None else time.monotonic() + args.duration
            waiting = Waiting()
            try:
                while args.count is None or written < args.count:
                    wait = None if deadline is None else deadline - time.monotonic()
                    if wait is not None and wait <= 0:
                        break
                    tick = feed.next(timeout=waiting.timeout(wait))
                    if tick is None:
                        if feed.closed:
                            break
                        waiting.quiet(written)
                        continue
                    waiting.tick(tick)
                    writer.write(tick)
                    written += 1
            except KeyboardInterrupt:
                # What was written is kept (and -o renamed): Ctrl-C is how one stops.
                interrupted = True
            stats = feed.stats()
    say(
        f"{plural(written, 'tick')}, {plural(stats['reconnects'], 'reconnect')}, "
        f"{stats['backfilled']:,} backfilled"
    )
    return 130 if interrupted else 0
