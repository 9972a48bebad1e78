"""``marketcurves mcp``: the package as a Model Context Protocol server,
for an assistant (see docs/agents.md)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from typing import Any

from marketcurves._commands._common import (
    Commands,
    add_cache_dir,
    command,
    positive_int,
    positive_seconds,
    requests_budget,
    say,
)

EXAMPLES = """
  marketcurves mcp                                   # stdio, for a desktop client
  marketcurves mcp --emulator                        # try it without an account
  marketcurves mcp --http 8000                       # streamable HTTP on 127.0.0.1:8000/mcp
  MARKETCURVES_MCP_TOKEN=... marketcurves mcp --http 0.0.0.0:8000
"""
TOKEN_VARIABLE = "MARKETCURVES_MCP_TOKEN"


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "mcp",
        "serve the package to an assistant (Model Context Protocol)",
        "Serves read-only tools (find_curves, describe_curve, forward_curve, "
        "price_history, spread, build_curve) to an MCP client, over stdio or "
        "streamable HTTP, against the service named by the environment. Each "
        "call's requests are planned and refused above --max-requests; tables "
        "above --max-rows come back summarized, the whole table a Parquet "
        "resource. Needs the mcp extra: pip install 'marketcurves[mcp]'.",
        EXAMPLES,
    )
    parser.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        help="serve streamable HTTP at /mcp instead of stdio; loopback unless HOST is given, "
        f"and a HOST not loopback requires --auth-token or ${TOKEN_VARIABLE}",
    )
    parser.add_argument(
        "--auth-token",
        metavar="TOKEN",
        help=f"the bearer token HTTP clients must send (default ${TOKEN_VARIABLE}, "
        "which keeps it out of the process list)",
    )
    parser.add_argument(
        "--emulator", action="store_true", help="serve the in-process emulator (no account needed)"
    )
    parser.add_argument(
        "--max-requests",
        type=requests_budget,
        default=50,
        metavar="N",
        help="refuse, before sending anything, a call that needs more than N requests (default 50)",
    )
    parser.add_argument(
        "--max-rows",
        type=positive_int,
        default=500,
        metavar="N",
        help="rows returned inline; above, a summary and the table as a resource (default 500)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=60.0,
        metavar="SECONDS",
        help="the longest a call may take before it is a tool error (default 60)",
    )
    add_cache_dir(parser, "serve history through this cache", "else no cache")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    token = args.auth_token or os.environ.get(TOKEN_VARIABLE, "").strip() or None
    where = None
    if args.http is not None:
        from marketcurves._mcp.transport import address, is_loopback

        try:
            where = address(args.http)
        except ValueError as error:
            args.usage_error(f"--http: {error}")
        if where is not None and not is_loopback(where[0]) and token is None:
            args.usage_error(
                f"--http {where[0]} is not loopback: pass --auth-token or set {TOKEN_VARIABLE}"
            )
    try:
        import mcp  # noqa: F401
    except ImportError:
        say("marketcurves: the mcp command needs the mcp extra: pip install 'marketcurves[mcp]'")
        return 1
    return _serve(args, where, token)


def _serve(args: argparse.Namespace, where: tuple[str, int] | None, token: str | None) -> int:
    from contextlib import ExitStack

    from marketcurves._mcp.budget import Budget
    from marketcurves._mcp.catalog import Catalog
    from marketcurves._mcp.redact import Redactor, redact_logs
    from marketcurves._mcp.results import Results
    from marketcurves._mcp.server import make_server
    from marketcurves._mcp.tools import Desk
    from marketcurves._mcp.transport import serve_http, serve_stdio

    redactor = Redactor([token, args.cache_dir])
    redact_logs(redactor)
    logging.captureWarnings(True)
    logging.getLogger("marketcurves.mcp").setLevel(logging.INFO)
    # A client stops a stdio server with SIGTERM: an exit, so that the
    # results folder is removed.
    previous = signal.signal(signal.SIGTERM, _exit)
    with ExitStack() as stack:
        results = Results()
        stack.callback(results.close)
        redactor.add(results.folder, os.path.realpath(results.folder))
        options: dict[str, Any] = {"timeout": min(30.0, args.timeout)}
        if args.cache_dir is not None:
            options["cache_dir"] = args.cache_dir
        if args.emulator:
            from marketcurves.testing import Emulator

            emulator = stack.enter_context(Emulator(seed=0, time_scale=1.0))
            redactor.add(emulator.credentials["password"])
            client = stack.enter_context(emulator.client(**options))
        else:
            from marketcurves import Client

            client = stack.enter_context(Client(**options))
        desk = Desk(client, Catalog(client), Budget(args.max_requests), args.max_rows, results)
        server = make_server(desk, redactor, args.timeout)
        try:
            if where is None:
                serve_stdio(server)
            else:
                serve_http(server, where[0], where[1], token)
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
    return 0


def _exit(signum: int, frame: object) -> None:
    sys.exit(0)
