"""What the subcommands share: their parsers' shape (an example in each
``--help``), messages on stderr, the client from the environment, and the
flags several take."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from marketcurves.client import Client

#: The type of ``parser.add_subparsers()``, which argparse does not name publicly.
Commands = Any

#: Where the arguments come from, as each ``--help`` says it.
CURVE_ID = "a curve id (a UUID) as `marketcurves catalogue` lists them"
TENOR = (
    "a tenor as the catalogue spells it in the curve's contracts, e.g. 'Jul 25' "
    "(`marketcurves catalogue --format json` lists them)"
)
VERTICAL = "Gasoline, ULSD, Jet, Naphtha, Crude or Fuel Oil, in any case (FUEL_OIL too)"
LAKE = "the ticks `marketcurves record` and `marketcurves backfill` write"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 file``, ``2 files``, ``1,024 rows``."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


def command(
    commands: Commands, name: str, summary: str, description: str, examples: str
) -> argparse.ArgumentParser:
    """A subcommand's parser, whose ``--help`` ends with ``examples``; its
    ``usage_error`` exits 2 with its usage, like argparse's own errors."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        # Raw, so that the examples keep their lines: the prose is wrapped here.
        description=textwrap.fill(description, 79),
        epilog="examples:\n" + examples.strip("\n"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(usage_error=parser.error)
    return parser


def say(message: str) -> None:
    """A line for the person at the terminal, on stderr (stdout is for data)."""
    print(message, file=sys.stderr, flush=True)


def progress() -> bool:
    """Progress bars only where someone can see them redrawn, and only with
    tqdm installed: a command does not warn of bars no one asked for."""
    import importlib.util

    return sys.stderr.isatty() and importlib.util.find_spec("tqdm") is not None


def client(**options: Any) -> Client:
    """A client of the service named by the environment (``MARKETCURVES_*``)."""
    from marketcurves import Client

    return Client(**options)


def cache_dir(args: argparse.Namespace, why: str) -> str:
    """``--cache-dir``, else ``$MARKETCURVES_CACHE_DIR``; a usage error (exit 2)
    naming both if neither is given: checked here, not by the client, so
    that the message names the flag rather than ``cache_dir=``."""
    if args.cache_dir is not None:
        return str(args.cache_dir)
    env_dir = os.environ.get("MARKETCURVES_CACHE_DIR", "").strip()
    if not env_dir:
        args.usage_error(f"{why}: pass --cache-dir DIR or set MARKETCURVES_CACHE_DIR")
    return env_dir


def add_cache_dir(parser: argparse.ArgumentParser, purpose: str, otherwise: str) -> None:
    """``--cache-dir``, its default ``$MARKETCURVES_CACHE_DIR``, then ``otherwise``."""
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help=f"{purpose} (default: $MARKETCURVES_CACHE_DIR, {otherwise})",
    )


def _storage_option(text: str) -> tuple[str, str]:
    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        # The text is not shown: it may be a secret typed without its key.
        raise argparse.ArgumentTypeError("expected KEY=VALUE")
    return key.strip(), value


def add_storage_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--storage-option",
        action="append",
        dest="storage_options",
        type=_storage_option,
        metavar="KEY=VALUE",
        help="an object store option (repeat), e.g. aws_region=eu-west-1; "
        "default: the cloud's environment variables",
    )


def storage_options(args: argparse.Namespace) -> dict[str, str] | None:
    return dict(args.storage_options or []) or None


def add_subscriptions(parser: argparse.ArgumentParser) -> None:
    """``--curve`` (one or more) and ``--tenor``: what the live feed or the
    recorder subscribes to."""
    parser.add_argument(
        "--curve",
        action="append",
        dest="curves",
        required=True,
        metavar="CURVE_ID",
        help=f"{CURVE_ID} (repeat)",
    )
    parser.add_argument(
        "--tenor",
        action="append",
        dest="tenors",
        metavar="TENOR",
        help=f"{TENOR}, of every curve given (repeat); default '*', every calendar tenor "
        "(C 00, C 01 and C 02 only by name)",
    )


def add_keepalive(parser: argparse.ArgumentParser) -> None:
    """The live feed's keep-alive, for an emulator running faster than real time."""
    parser.add_argument(
        "--ping-interval",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds of quiet before a keep-alive ping (default 40)",
    )
    parser.add_argument(
        "--reconnect-max",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="the longest wait between reconnection attempts (default 30)",
    )


def keepalive(args: argparse.Namespace) -> dict[str, Any]:
    """The keep-alive flags given, as ``Client.live`` and ``Client.record``
    take them; those not given keep the core's defaults."""
    given: dict[str, Any] = {}
    if args.ping_interval is not None:
        given["ping_interval"] = args.ping_interval
        # A pong later than half the interval means a dead connection.
        given["pong_timeout"] = max(0.5, args.ping_interval / 2)
    if args.reconnect_max is not None:
        given["reconnect_max"] = args.reconnect_max
    return given


def positive_int(text: str) -> int:
    return _whole_number(text, minimum=1)


def _whole_number(text: str, *, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"expected {minimum} or more, not {value}")
    return value


def add_max_requests(parser: argparse.ArgumentParser, counted: str) -> None:
    parser.add_argument(
        "--max-requests",
        type=requests_budget,
        metavar="N",
        help=f"refuse, before sending anything, a pull whose plan needs more than N requests "
        f"({counted}; cached days cost none, and 0 serves only from the cache); default no limit",
    )


def requests_budget(text: str) -> int:
    return _whole_number(text, minimum=0)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected seconds above 0, not {text}")
    return value
