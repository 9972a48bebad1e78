"""``marketcurves history``: settlements or intraday values over a range of days."""

from __future__ import annotations

import argparse

from marketcurves._commands import output
from marketcurves._commands._common import (
    CURVE_ID,
    TENOR,
    Commands,
    add_cache_dir,
    add_max_requests,
    cache_dir,
    client,
    command,
    plural,
    progress,
    say,
)

EXAMPLES = """
  marketcurves history CURVE_ID 2025-01-01 2025-06-30 -o half-year.parquet
  marketcurves history CURVE_ID 2025-06-01 2025-06-13 --tenor 'Jul 25' --intraday --format ndjson
  marketcurves history CURVE_ID 2025-01-01 2025-06-30 --cache-dir ~/.cache/mc --offline
"""

#: The columns of the ``table`` format; every column shows in the others.
BRIEF = ("tenor", "date", "snapshot", "generated_on", "price", "units")


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "history",
        "pull history of a curve",
        "Pulls the settlements (or, with --intraday, the intraday values) of "
        "a curve from START to END, every tenor or those given, in the "
        "columns of the package's tables. Curve ids, and each curve's tenors "
        "(its contracts), come from `marketcurves catalogue`.",
        EXAMPLES,
    )
    parser.add_argument("curve_id", metavar="CURVE_ID", help=CURVE_ID)
    parser.add_argument("start", metavar="START", help="first day, YYYY-MM-DD (UTC)")
    parser.add_argument("end", metavar="END", help="last day, YYYY-MM-DD (UTC), included")
    parser.add_argument(
        "--tenor",
        action="append",
        dest="tenors",
        metavar="TENOR",
        help=f"{TENOR} (repeat); default every tenor the catalogue lists for the curve",
    )
    parser.add_argument("--intraday", action="store_true", help="intraday values, not settlements")
    output.add_flags(parser)
    add_cache_dir(
        parser,
        "keep the days that can no longer change in this history cache and fetch only the rest",
        "else no cache",
    )
    parser.add_argument(
        "--offline",
        action="store_true",
        help="send no request: serve everything from the cache (--cache-dir or "
        "$MARKETCURVES_CACHE_DIR), failing with CacheMiss if it lacks any day",
    )
    add_max_requests(
        parser, "one per tenor, or per tenor and 30 days with --intraday, and the catalogue's"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    fmt = output.chosen(args)
    folder = (
        cache_dir(args, "--offline reads the history cache") if args.offline else args.cache_dir
    )
    with client(cache_dir=folder, cache="offline" if args.offline else "use") as service:
        pull = service.intraday_history if args.intraday else service.settlements
        table = pull(
            args.curve_id,
            args.start,
            args.end,
            tenors=args.tenors,
            progress=progress(),
            max_requests=args.max_requests,
        )
    output.write(table, fmt, args, brief=BRIEF)
    say(plural(table.num_rows, "row"))
    return 0
