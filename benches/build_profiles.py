"""The quickstart's build against the release build: how much speed the
quickstart profile (no LTO, dependencies at opt-level 2; Cargo.toml) gives up
for its shorter build.

The work is the package's own, CPU-bound: a month of intraday values of five
tenors pulled from the emulator with no added latency (pages decoded into
Arrow), ten years of synthetic settlements rolled into M1..M6 series
(``mc.curves.rolling``), and the pulled table turned into a DataFrame. Each
wheel is installed into a folder of its own and measured in a fresh
interpreter, alternately, several times; each interpreter times each step
five times and keeps the fastest, and the figure is the ratio of the medians
of those, quickstart over release (1.0 is as fast; the target is at most 1.1).

    python benches/build_profiles.py QUICKSTART_WHEEL RELEASE_WHEEL [--runs 5]

Build the two wheels from one checkout: ``maturin build --profile quickstart``
and ``maturin build --release``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORK = r"""
import json, time
REPEATS = 5
import marketcurves as mc
from marketcurves.testing import Emulator
import curves as synthetic

# The fastest of several runs: what the build gives, without the
# scheduler's noise on a small shared machine.
def best(work, repeats=REPEATS):
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)

timings = {}
with Emulator(start="2025-06-13T17:00:00Z") as em, em.client() as client:
    curve = next(c for c in client.catalogue() if len(c.contracts or []) >= 5)
    tenors = list(curve.contracts[:5])
    client.intraday_history(curve, "2025-05-01", "2025-05-07", tenors)  # warm up
    timings["pull"] = best(
        lambda: client.intraday_history(curve, "2025-04-01", "2025-05-31", tenors)
    )
    table = client.intraday_history(curve, "2025-04-01", "2025-05-31", tenors)
    timings["to_pandas"] = best(lambda: mc.to_pandas(table))
settlements = synthetic.synthetic(10, 60)
timings["rolling"] = best(lambda: mc.curves.rolling(settlements, nearby=range(1, 7)))
print(json.dumps(timings))
"""


def install(wheel: Path, into: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(into),
            str(wheel),
        ],
        check=True,
    )


def measure(site: Path) -> dict[str, float]:
    benches = Path(__file__).parent
    env_path = f"{site}:{benches}"
    run = subprocess.run(
        [sys.executable, "-c", WORK],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("quickstart", type=Path)
    parser.add_argument("release", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        sites = {"quickstart": Path(scratch) / "q", "release": Path(scratch) / "r"}
        install(args.quickstart, sites["quickstart"])
        install(args.release, sites["release"])
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in sites}
        started = time.perf_counter()
        for _ in range(args.runs):
            for name, site in sites.items():
                runs[name].append(measure(site))
        print(f"{args.runs} runs of each, alternately, in {time.perf_counter() - started:.0f} s")
    total = {name: [sum(r.values()) for r in rs] for name, rs in runs.items()}
    for part in ["pull", "to_pandas", "rolling"]:
        q = statistics.median(r[part] for r in runs["quickstart"])
        r = statistics.median(r[part] for r in runs["release"])
        print(
            f"{part:10} quickstart {q * 1000:8.1f} ms  release {r * 1000:8.1f} ms  ratio {q / r:.3f}"
        )
    q, r = statistics.median(total["quickstart"]), statistics.median(total["release"])
    print(
        f"{'all':10} quickstart {q * 1000:8.1f} ms  release {r * 1000:8.1f} ms  ratio {q / r:.3f}"
    )


if __name__ == "__main__":
    main()
