"""How long ``import marketcurves`` takes, against its 100 ms budget.

Each run is a fresh interpreter with ``python -X importtime``; the figure is
the median of the cumulative time of the top-level ``marketcurves`` import.
``import pyarrow`` is timed the same way for scale (the package does not
import it: its first table does). The script also says which of pandas,
matplotlib, tqdm and asyncio the import loaded (none should be) and which
modules took the most time of their own in the median run.

    python benches/import_time.py [--runs 15]
"""

from __future__ import annotations

import argparse
import subprocess
import sys

BUDGET_MS = 100.0
NOT_LOADED = ("pandas", "matplotlib", "tqdm", "asyncio")


def import_times(module: str) -> tuple[float, list[tuple[float, str]], set[str]]:
    """The cumulative ms of importing ``module`` in a fresh interpreter, every
    module's own ms, and the top-level names loaded."""
    code = f"import {module}, sys; print(' '.join(sys.modules))"
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True, check=True
    )
    total, own = None, []
    for line in run.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative_us, name = (part.strip() for part in line[12:].split("|"))
        own.append((int(self_us) / 1000, name.strip()))
        if name == module:
            total = int(cumulative_us) / 1000
    assert total is not None, f"no import time for {module}"
    loaded = {name.split(".")[0] for name in run.stdout.split()}
    return total, own, loaded


def median_run(module: str, runs: int) -> tuple[float, list[float], list, set[str]]:
    results = [import_times(module) for _ in range(runs)]
    results.sort(key=lambda r: r[0])
    middle = results[len(results) // 2]
    return middle[0], [r[0] for r in results], middle[1], middle[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    ours, every, own, loaded = median_run("marketcurves", args.runs)
    theirs, _, _, _ = median_run("pyarrow", args.runs)
    print(
        f"import marketcurves: median {ours:.1f} ms over {args.runs} runs"
        f" ({every[0]:.1f} to {every[-1]:.1f} ms)"
    )
    print(f"import pyarrow:      median {theirs:.1f} ms, for scale")
    print("own time of the slowest modules (median run):")
    for ms, name in sorted(own, reverse=True)[:8]:
        print(f"  {ms:6.1f} ms  {name}")
    unwanted = sorted(set(NOT_LOADED) & loaded)
    print(f"loaded by the import, of {', '.join(NOT_LOADED)}: {', '.join(unwanted) or 'none'}")
    print(f"ratio import / budget: {ours / BUDGET_MS:.2f} (target <= 1, {BUDGET_MS:.0f} ms)")
    # Less sensitive to a busy machine than the budget's ratio.
    print(f"ratio import marketcurves / import pyarrow: {ours / theirs:.2f}")
    return 1 if unwanted else 0


if __name__ == "__main__":
    sys.exit(main())
