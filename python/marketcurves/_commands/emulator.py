"""``marketcurves emulator``: the service on loopback, until Ctrl-C."""

from __future__ import annotations

import argparse
import shlex
import time

from marketcurves._commands._common import Commands, command

EXAMPLES = """
  marketcurves emulator --port 8765 --seed 0
  marketcurves emulator --start 2025-06-13T09:00:00Z --time-scale 60   # an hour a minute
"""


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "emulator",
        "run the service emulator on loopback",
        "Serves the whole service (REST, bulk files, live feed) on loopback "
        "until Ctrl-C, which is its normal end (exit 0). It prints the "
        "addresses and a demo login as `export` lines, to paste into the "
        "shell of the other commands (its other lines are shell comments, so "
        "`marketcurves emulator > env.sh &` then `. ./env.sh` works too).",
        EXAMPLES,
    )
    parser.add_argument(
        "--port", type=int, default=8765, help="port to listen on (0: any free one)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the synthetic world")
    parser.add_argument("--time-scale", type=float, default=1.0, help="emulated seconds per second")
    parser.add_argument("--start", default=None, help="ISO date-time the clock starts at (UTC)")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="delay of every response")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from marketcurves.testing import Emulator

    with Emulator(
        seed=args.seed, time_scale=args.time_scale, start=args.start, port=args.port
    ) as emulator:
        if args.latency_ms:
            emulator.set_latency(args.latency_ms / 1000)
        credentials = emulator.credentials
        clock = f"{emulator.now():%Y-%m-%d %H:%M:%S}"
        print(f"# marketcurves emulator (seed {args.seed}), its clock at {clock} UTC.")
        print("# For the other commands, in another shell (the login is the demo account's):")
        for name, value in [
            ("MARKETCURVES_BASE_URL", emulator.base_url),
            ("MARKETCURVES_LIVE_URL", emulator.live_url),
            ("MARKETCURVES_EMAIL", credentials["email"]),
            ("MARKETCURVES_PASSWORD", credentials["password"]),
        ]:
            print(f"export {name}={shlex.quote(value)}")
        print(f"# POST {emulator.base_url}/authenticate with that login returns a token.")
        keepalive = emulator.keepalive()
        if keepalive:
            # Its 60 s idle limit passes faster than the client's default ping.
            print(
                f"# Its clock runs {emulator.time_scale:g} times real speed: give `live` and "
                f"`record` --ping-interval {keepalive['ping_interval']:.3g}."
            )
        print("# Press Ctrl-C to stop.", flush=True)
        try:
            while True:
                time.sleep(0.5)
        except KeyboardInterrupt:
            print("# stopped")
    return 0
