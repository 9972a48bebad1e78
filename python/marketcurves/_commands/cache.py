"""``marketcurves cache info`` and ``marketcurves cache clear``: the history
cache of the service and account in the environment."""

from __future__ import annotations

import argparse

from marketcurves._commands import output
from marketcurves._commands._common import (
    Commands,
    add_cache_dir,
    add_storage_options,
    cache_dir,
    client,
    command,
    plural,
    say,
    storage_options,
)
from marketcurves._commands._parser import print_help

EXAMPLES = """
  marketcurves cache info --cache-dir ~/.cache/marketcurves
  marketcurves cache info --cache-dir s3://desk-bucket/marketcurves
  marketcurves cache info --format json
  marketcurves cache clear --curve CURVE_ID --before 2025-01-01
"""


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "cache",
        "show or clear the history cache",
        "The history cache (see history --cache-dir) of the service and "
        "account named by the environment: what it holds, or some of it removed.",
        EXAMPLES,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    parser.set_defaults(run=print_help(parser))
    info = command(
        actions,
        "info",
        "what the cache holds",
        "Lists the cached history, one row per curve and kind (settlements or "
        "intraday): tenors, tenor-days, first and last day, files, bytes. A "
        "cache in object storage (--cache-dir s3://..., gs://..., az://...) "
        "takes its settings from the cloud's environment variables or "
        "--storage-option. With --format json, one object with the folder and "
        "totals too.",
        EXAMPLES,
    )
    add_cache_dir(info, "the cache's folder or object store URL", "one of the two is needed")
    add_storage_options(info)
    output.add_flags(info)
    info.set_defaults(run=run_info)
    clear = command(
        actions,
        "clear",
        "remove cached history",
        "Removes the cached history of --curve (default every curve) of the "
        "days before --before (default every day); with neither, the cached "
        "catalogues too. Prints what it removed.",
        EXAMPLES,
    )
    add_cache_dir(clear, "the cache's folder or object store URL", "one of the two is needed")
    add_storage_options(clear)
    clear.add_argument(
        "--curve",
        metavar="CURVE_ID",
        help="only this curve: an id as `marketcurves cache info` lists them",
    )
    clear.add_argument("--before", metavar="YYYY-MM-DD", help="only the days before this one")
    output.add_flags(clear, formats=("table", "json"), piped="table")
    clear.set_defaults(run=run_clear)


def run_info(args: argparse.Namespace) -> int:
    import pyarrow as pa

    fmt = output.chosen(args)
    where = cache_dir(args, "cache info reads the history cache")
    with client(cache_dir=where, storage_options=storage_options(args)) as service:
        info = service.cache_info()
    if fmt == "json":
        output.write_object(info, args)
    else:
        # One row per curve and kind of history (CachedCurve's fields).
        schema = pa.schema(
            [
                ("curve_id", pa.string()),
                ("history", pa.string()),
                ("tenors", pa.int64()),
                ("days", pa.int64()),
                ("first", pa.date32()),
                ("last", pa.date32()),
                ("files", pa.int64()),
                ("bytes", pa.int64()),
            ]
        )
        output.write(pa.Table.from_pylist(list(info["curves"]), schema=schema), fmt, args)
    say(f"{info['dir']}: {plural(info['files'], 'file')}, {plural(info['bytes'], 'byte')}")
    return 0


def run_clear(args: argparse.Namespace) -> int:
    fmt = output.chosen(args)
    where = cache_dir(args, "cache clear needs the history cache")
    with client(cache_dir=where, storage_options=storage_options(args)) as service:
        cleared = service.clear_cache(args.curve, args.before)
    if fmt == "json":
        output.write_object(cleared, args)
    else:
        with output.destination(args) as stream:
            removed = f"{plural(cleared['files'], 'file')}, {plural(cleared['bytes'], 'byte')}"
            stream.write(f"removed {removed}\n")
    return 0
