"""The ``marketcurves`` console script."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence


def _emulator(args: argparse.Namespace) -> int:
    from marketcurves.testing import Emulator

    with Emulator(
        seed=args.seed, time_scale=args.time_scale, start=args.start, port=args.port
    ) as emulator:
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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="marketcurves", description=__doc__)
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
    emulator.set_defaults(run=_emulator)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
