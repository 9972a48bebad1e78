"""``marketcurves backfill``: a tick lake's history from the historical
intraday endpoint, here or on a Dask cluster."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from marketcurves._commands._common import (
    CURVE_ID,
    TENOR,
    VERTICAL,
    Commands,
    add_max_requests,
    add_storage_options,
    client,
    command,
    plural,
    progress,
    say,
    storage_options,
)
from marketcurves.backfill import BackfillSummary
from marketcurves.exceptions import AccessDenied

if TYPE_CHECKING:
    import distributed

EXAMPLES = """
  marketcurves backfill --dest ticks/ --curve CURVE_ID --start 2025-01-01 --end 2025-12-31
  marketcurves backfill --dest s3://desk/ticks --vertical Jet --quotation Fob \\
      --start 2025-01-01 --end 2025-12-31 --scheduler tcp://scheduler:8786
"""


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "backfill",
        "fetch a tick lake's history into the recorder's layout",
        "Fetches the intraday values of the curves given (every calendar "
        "contract of each, or --tenor) from START to END (inclusive UTC days) "
        "from the historical endpoint into DEST/date=YYYY-MM-DD/, in the "
        "recorder's layout. A rerun fetches only the days not yet complete. "
        "With --scheduler the tasks run on a Dask cluster, whose workers "
        "authenticate from their own environment (MARKETCURVES_TOKEN, or "
        "MARKETCURVES_EMAIL and MARKETCURVES_PASSWORD).",
        EXAMPLES,
    )
    parser.add_argument(
        "--dest", required=True, help="folder, or an object store URL (s3://bucket/prefix, …)"
    )
    curves = parser.add_mutually_exclusive_group(required=True)
    curves.add_argument(
        "--curve",
        action="append",
        dest="curves",
        metavar="CURVE_ID",
        help=f"{CURVE_ID} (repeat)",
    )
    curves.add_argument("--vertical", help=f"every curve of a vertical: {VERTICAL}")
    parser.add_argument("--quotation", help="with --vertical: only this quotation type (e.g. Fob)")
    parser.add_argument(
        "--tenor",
        action="append",
        dest="tenors",
        metavar="TENOR",
        help=f"{TENOR}, of every curve given (repeat); default '*', every calendar contract",
    )
    parser.add_argument(
        "--contracts",
        choices=("listed", "expired", "all"),
        default="listed",
        help="which contracts '*' takes: those listed (default), those no longer listed, or both",
    )
    parser.add_argument("--start", required=True, metavar="YYYY-MM-DD", help="first day (UTC)")
    parser.add_argument(
        "--end", required=True, metavar="YYYY-MM-DD", help="last day (UTC), included"
    )
    parser.add_argument(
        "--scheduler", metavar="ADDR", help="a Dask scheduler's address (tcp://host:8786)"
    )
    add_storage_options(parser)
    add_max_requests(
        parser, "one per tenor and 30 days, and the catalogue's; with --vertical, per quotation"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.quotation is not None and args.vertical is None:
        args.usage_error("--quotation goes with --vertical")
    with client() as service, contextlib.ExitStack() as stack:
        if args.vertical is not None:
            chosen = service.catalogue(vertical=args.vertical, quotation=args.quotation)
            if not chosen:
                args.usage_error(f"no curve of vertical {args.vertical!r} in the catalogue")
            groups: dict[str | None, list[str]] = {}
            names: dict[str, str] = {}
            for curve in chosen:
                if curve.id is not None:
                    groups.setdefault(curve.quotation, []).append(curve.id)
                    names[curve.id] = f"{curve.id} ({curve.name})"
            # A curve the service lists without an id cannot be asked for.
            if unnamed := [curve.name or "no name" for curve in chosen if curve.id is None]:
                say(
                    f"skipped {plural(len(unnamed), 'curve')} the catalogue lists "
                    f"without an id: {', '.join(unnamed)}"
                )
        else:
            groups = {None: args.curves}
            names = {curve_id: curve_id for curve_id in args.curves}
        tenors = args.tenors or ["*"]
        arguments: dict[str, Any] = {
            "tenors": args.contracts,
            "storage_options": storage_options(args),
            "progress": progress(),
            "max_requests": args.max_requests,
        }
        if args.scheduler is not None:
            arguments["cluster"] = stack.enter_context(_dask_client(args.scheduler))

        def backfill(curve_ids: list[str]) -> BackfillSummary:
            subscriptions = [(curve, tenor) for curve in curve_ids for tenor in tenors]
            return service.backfill(args.dest, subscriptions, args.start, args.end, **arguments)

        summary, skipped = _within_licence(backfill, list(groups.values()))
    if skipped and len(set(skipped)) == len(names):
        raise AccessDenied(
            f"every curve asked for is outside the account's licence: {_listed(skipped, names)}"
        )
    say(
        f"{plural(summary.values, 'value')} in {plural(summary.files_written, 'file')} from "
        f"{plural(summary.requests, 'request')} ({plural(summary.tasks, 'task')}); "
        f"{plural(summary.days_complete, 'tenor-day')} complete, "
        f"{summary.days_skipped:,} already there"
    )
    if skipped:
        say(
            f"skipped {plural(len(skipped), 'curve')} outside the account's licence "
            f"(AccessDenied): {_listed(skipped, names)}"
        )
    return 0


def _within_licence(
    backfill: Callable[[list[str]], BackfillSummary], groups: list[list[str]]
) -> tuple[BackfillSummary, list[str]]:
    """Each group of curves backfilled, and the curves the account's licence
    does not cover, skipped. A licence covers quotations (so a vertical's
    curves go by quotation, and a quotation outside it costs one refusal);
    a group refused is tried curve by curve, as a licence may also leave
    single curves out. A run cut short by the refusal loses nothing: the
    files it wrote are whole, and the next run counts their days as there."""
    summary, skipped = BackfillSummary(), []
    for group in groups:
        try:
            summary = summary + backfill(group)
            continue
        except AccessDenied:
            if len(group) == 1:
                skipped.extend(group)
                continue
        for curve_id in group:
            try:
                summary = summary + backfill([curve_id])
            except AccessDenied:
                skipped.append(curve_id)
    return summary, skipped


def _listed(curve_ids: list[str], names: dict[str, str]) -> str:
    return ", ".join(names[curve_id] for curve_id in curve_ids)


def _dask_client(address: str) -> distributed.Client:
    try:
        import distributed
    except ImportError:
        raise ImportError(
            "marketcurves backfill --scheduler needs Dask: pip install 'marketcurves[dask]'"
        ) from None
    return distributed.Client(address)
