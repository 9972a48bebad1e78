"""The ``marketcurves`` console script: a subcommand for each task, run
against the service named by the environment."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import warnings
from collections.abc import Sequence

from marketcurves import __version__
from marketcurves._commands import COMMANDS
from marketcurves._commands._parser import Parser, print_help

#: Exit codes, as ``--help`` documents them.
OK = 0
ERROR = 1
USAGE = 2
INTERRUPTED = 130

EPILOG = """\
environment:
  MARKETCURVES_BASE_URL, MARKETCURVES_LIVE_URL   the service (see: marketcurves emulator)
  MARKETCURVES_TOKEN, or MARKETCURVES_EMAIL and MARKETCURVES_PASSWORD   the credentials
  MARKETCURVES_CACHE_DIR   the history cache, if any

output:
  data goes to stdout (or -o FILE); messages and progress to stderr. --format
  is table|csv|json|ndjson|parquet where a command writes a table: table on a
  terminal, csv (live: ndjson) into a pipe, or chosen by the -o file's suffix.

exit codes:
  0    done (and marketcurves alone, which prints this help)
  1    an error (one line on stderr: the kind of error and what happened)
  2    bad usage (a flag missing or wrong)
  130  interrupted (Ctrl-C); for emulator and record, Ctrl-C is the normal end: 0

Each command's --help has examples and says where its arguments come from
(curve ids and tenors from marketcurves catalogue): marketcurves history --help
"""


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="marketcurves",
        description="The market curve service from a shell: the catalogue, history,\n"
        "bulk exports, the live feed, a recorder, the history cache and an emulator.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add(commands)
    # No command: the help, as for `--help` (exit 0).
    parser.set_defaults(run=print_help(parser))
    return parser


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def _show_warning(message: Warning | str, *args: object, **kwargs: object) -> None:
    # The warning alone: where in the package it was raised is no news to a user.
    print(f"marketcurves: warning: {_one_line(message)}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs a subcommand; returns its exit code. Usage errors exit 2 through
    ``SystemExit``, as argparse does."""
    # What the package logs (retries, reconnects) reaches stderr with its source.
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    from marketcurves.exceptions import MarketCurvesError

    try:
        args = _parser().parse_args(argv)
        return int(args.run(args))
    except MarketCurvesError as error:
        # The message names the problem; a traceback would add only noise.
        print(f"marketcurves: {type(error).__name__}: {_one_line(error)}", file=sys.stderr)
        return ERROR
    except KeyboardInterrupt:
        print("marketcurves: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`| head`): not an error of ours. Python would
        # complain when flushing stdout at exit, so stdout goes nowhere now.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return OK
    except OSError as error:
        # A file that cannot be written, a port that cannot be bound.
        print(f"marketcurves: {type(error).__name__}: {_one_line(error)}", file=sys.stderr)
        return ERROR


if __name__ == "__main__":
    sys.exit(main())
