"""The ``marketcurves`` console script."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from marketcurves import __version__


def _emulator(args: argparse.Namespace) -> int:
    from marketcurves.testing import Emulator

    with Emulator(
        seed=args.seed, time_scale=args.time_scale, start=args.start, port=args.port
    ) as emulator:
        if args.latency_ms:
            emulator.set_latency(args.latency_ms / 1000)
        credentials = emulator.credentials
        print(f"marketcurves emulator (seed {args.seed}) at {emulator.now():%Y-%m-%d %H:%M:%S} UTC")
        print(f"  MARKETCURVES_BASE_URL={emulator.base_url}")
        print(f"  MARKETCURVES_LIVE_URL={emulator.live_url}")
        print(f"  demo login: {credentials['email']} / {credentials['password']}")
        print(f"  POST {emulator.base_url}/authenticate with that login returns a token")
        print("Press Ctrl-C to stop.", flush=True)
        try:
            while True:
                time.sleep(0.5)
        except KeyboardInterrupt:
            print("stopped")
    return 0


def _catalogue(args: argparse.Namespace) -> int:
    from marketcurves import Client

    with Client() as client:
        curves = client.catalogue(
            vertical=args.vertical, quotation=args.quotation, region=args.region
        )
    for curve in curves:
        print(f"{curve.id}  {curve.units:<6}  {curve.name}")
    print(f"{len(curves)} curves", file=sys.stderr)
    return 0


def _history(args: argparse.Namespace) -> int:
    from marketcurves import Client

    # Checked here, not by the Client, so that it is a usage error (exit 2)
    # naming the flag rather than a call's InvalidRequest naming cache_dir=.
    env_dir = os.environ.get("MARKETCURVES_CACHE_DIR", "").strip()
    if args.offline and args.cache_dir is None and not env_dir:
        args.usage_error(
            "--offline reads the history cache: pass --cache-dir DIR or set MARKETCURVES_CACHE_DIR"
        )
    cache = "offline" if args.offline else "use"
    with Client(cache_dir=args.cache_dir, cache=cache) as client:
        pull = client.intraday_history if args.intraday else client.settlements
        table = pull(args.curve_id, args.start, args.end, tenors=args.tenors, progress=True)
    # Nested columns do not fit CSV; Parquet keeps them.
    if args.output and args.output.endswith(".parquet"):
        import pyarrow.parquet as pq

        pq.write_table(table, args.output)
    else:
        import pyarrow.csv as pacsv

        flat = table.drop_columns(["dependencies", "metadata"])
        pacsv.write_csv(flat, args.output or sys.stdout.buffer)
    print(f"{table.num_rows} rows", file=sys.stderr)
    return 0


def _bulk(args: argparse.Namespace) -> int:
    from marketcurves import Client

    options = dict(args.storage_options or [])
    with Client() as client:
        result = client.bulk_download(
            args.vertical, args.start, args.end, args.dest, storage_options=options or None
        )
    print(
        f"{len(result.files) + len(result.objects)} files, {result.rows:,} rows, "
        f"{result.bytes:,} bytes downloaded, "
        f"months {result.effective[0]}..{result.effective[1]}, {result.elapsed:.1f} s",
        file=sys.stderr,
    )
    return 0


def _record(args: argparse.Namespace) -> int:
    import logging

    from marketcurves import Client

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("marketcurves.record").setLevel(logging.INFO)
    tenors = args.tenors or ["*"]
    subscriptions = [(curve, tenor) for curve in args.curves for tenor in tenors]
    options = dict(args.storage_options or [])
    # Options not given keep the defaults of Client.record (the core's).
    given: dict[str, Any] = {
        name: value
        for name, value in [
            ("rotate", args.rotate),
            ("rotate_rows", args.rotate_rows),
            ("ping_interval", args.ping_interval),
            ("reconnect_max", args.reconnect_max),
        ]
        if value is not None
    }
    if args.ping_interval is not None:
        given["pong_timeout"] = max(0.5, args.ping_interval / 2)
    with Client() as client:
        summary = client.record(
            args.dest,
            subscriptions,
            storage_options=options or None,
            backfill=args.backfill,
            compact=args.compact,
            duration=args.duration,
            **given,
        )
    print(
        f"{summary['ticks_written']:,} ticks in {summary['files_written']} files, "
        f"{summary['backfilled']:,} backfilled, {summary['reconnects']} reconnects",
        file=sys.stderr,
    )
    return 0


def _compact(args: argparse.Namespace) -> int:
    from marketcurves.record import compact

    options = dict(args.storage_options or [])
    days = compact(args.dest, args.before, storage_options=options or None)
    for day in days:
        print(f"{day['day']}  {day['files']} files  {day['rows']:,} ticks")
    print(f"{len(days)} days compacted", file=sys.stderr)
    return 0


def _storage_option(text: str) -> tuple[str, str]:
    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        # The text is not shown: it may be a secret typed without its key.
        raise argparse.ArgumentTypeError("expected KEY=VALUE")
    return key.strip(), value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="marketcurves", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    emulator = commands.add_parser("emulator", help="run the service emulator on loopback")
    emulator.add_argument(
        "--port", type=int, default=8765, help="port to listen on (0: any free one)"
    )
    emulator.add_argument("--seed", type=int, default=0, help="seed of the synthetic world")
    emulator.add_argument(
        "--time-scale", type=float, default=1.0, help="emulated seconds per second"
    )
    emulator.add_argument("--start", default=None, help="ISO date-time the clock starts at (UTC)")
    emulator.add_argument("--latency-ms", type=float, default=0.0, help="delay of every response")
    emulator.set_defaults(run=_emulator)

    catalogue = commands.add_parser(
        "catalogue", help="list curves (credentials from the environment)"
    )
    catalogue.add_argument("--vertical")
    catalogue.add_argument("--quotation")
    catalogue.add_argument("--region")
    catalogue.set_defaults(run=_catalogue)

    history = commands.add_parser("history", help="pull history of a curve to CSV or Parquet")
    history.add_argument("curve_id")
    history.add_argument("start", help="first day, YYYY-MM-DD")
    history.add_argument("end", help="last day, YYYY-MM-DD")
    history.add_argument("--tenor", action="append", dest="tenors", help="repeat; default all")
    history.add_argument("--intraday", action="store_true", help="intraday values, not settlements")
    history.add_argument("--output", "-o", help="a .csv or .parquet file; default CSV to stdout")
    history.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="keep final days in this history cache and fetch only the rest; "
        "default $MARKETCURVES_CACHE_DIR, else no cache",
    )
    history.add_argument(
        "--offline",
        action="store_true",
        help="send no request: serve everything from the cache (--cache-dir or "
        "$MARKETCURVES_CACHE_DIR), failing with CacheMiss if it lacks any day",
    )
    history.set_defaults(run=_history, usage_error=history.error)

    bulk = commands.add_parser("bulk", help="download a bulk Parquet export of one vertical")
    bulk.add_argument("--vertical", required=True, help="e.g. JET or Jet")
    bulk.add_argument("--start", required=True, help="first month, YYYY-MM")
    bulk.add_argument("--end", required=True, help="last month, YYYY-MM")
    bulk.add_argument(
        "--dest",
        required=True,
        help="folder to download into, or an object store URL (s3://bucket/prefix, gs://, az://)",
    )
    _storage_option_flag(bulk)
    bulk.set_defaults(run=_bulk)

    record = commands.add_parser(
        "record",
        help="record the live feed into Parquet until Ctrl-C or SIGTERM",
        description="Records the live feed into Hive-partitioned Parquet "
        "(DEST/date=YYYY-MM-DD/), each published value once across restarts: "
        "a start resumes from what DEST holds and backfills what it missed. "
        "Example: marketcurves record --dest ticks/ --curve C1 --tenor '*'",
    )
    record.add_argument(
        "--dest", required=True, help="folder, or an object store URL (s3://bucket/prefix, …)"
    )
    record.add_argument(
        "--curve", action="append", dest="curves", required=True, help="a curve id (repeat)"
    )
    record.add_argument(
        "--tenor",
        action="append",
        dest="tenors",
        help="a tenor of every curve given (repeat); default '*', every tenor",
    )
    record.add_argument("--rotate", help="close files this often (default 5min)")
    record.add_argument("--rotate-rows", type=int, help="or at this many ticks (default 1,000,000)")
    record.add_argument(
        "--no-backfill",
        dest="backfill",
        action="store_false",
        help="do not fetch what was published while stopped or disconnected",
    )
    record.add_argument(
        "--no-compact",
        dest="compact",
        action="store_false",
        help="leave each day's files as they are once it is over",
    )
    record.add_argument("--duration", type=float, default=None, help="stop after this many seconds")
    record.add_argument(
        "--ping-interval",
        type=float,
        default=None,
        help="seconds of quiet before a keep-alive ping (default 40)",
    )
    record.add_argument(
        "--reconnect-max",
        type=float,
        default=None,
        help="the longest wait between reconnection attempts, seconds (default 30)",
    )
    _storage_option_flag(record)
    record.set_defaults(run=_record)

    compact = commands.add_parser(
        "compact",
        help="merge each closed day of a recording into one file",
        description="Merges each day of a recording before --before (default "
        "today, UTC) that has several files into DEST/date=…/day-YYYY-MM-DD.parquet. "
        "Example: marketcurves compact ticks/",
    )
    compact.add_argument("dest", help="the recording: a folder or an object store URL")
    compact.add_argument("--before", default=None, help="first day left alone, YYYY-MM-DD")
    _storage_option_flag(compact)
    compact.set_defaults(run=_compact)
    return parser


def _storage_option_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--storage-option",
        action="append",
        dest="storage_options",
        type=_storage_option,
        metavar="KEY=VALUE",
        help="an object store option (repeat), e.g. aws_region=eu-west-1; "
        "default: the cloud's environment variables",
    )


def main(argv: Sequence[str] | None = None) -> int:
    from marketcurves.exceptions import MarketCurvesError

    args = _parser().parse_args(argv)
    try:
        return int(args.run(args))
    except MarketCurvesError as error:
        print(f"marketcurves: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
