"""The everyday loop, timed on this machine: how long from an edit to its
test result, before and after the loop of issue 42 (the editable install of
``scripts/dev``, the crates that are the layers).

- Python: one line of a module of python/marketcurves changed (a comment
  appended), then one test file run. Before, at the baseline, the loop its
  docs gave: ``bash scripts/test FILE`` (the workspace's ``cargo test``, a
  wheel built and reinstalled, then pytest). After, in this checkout
  installed editable by ``scripts/dev``: ``python -m pytest FILE``, and
  ``bash scripts/test --python-only FILE`` (which rebuilds nothing, no Rust
  input having changed). Target: under 10 s.
- Rust: one line of the live feed's code changed (a comment appended to its
  delivery queue), then its crate's tests built and run on the dev profile:
  ``cargo test -p marketcurves-client`` while the live feed is
  crates/client/src/live/, ``cargo test -p marketcurves-live`` once it is
  crates/live. Target: under 60 s, and less than before.

The baseline (``--baseline``, by default 3b06935, the last commit before
crates/client was split) is checked out as a temporary git worktree and
built in a target directory of its own (``--baseline-target``, by default
``dev-loop-baseline`` inside this checkout's target directory, kept so that
the next run starts warmer). Each side is warmed first, untimed; each figure
is the best of ``--runs``. Every file edited is put back and the worktree
removed, whatever happens (Ctrl-C included). The baseline's
``scripts/test`` installs its wheel into the venv; the Python part leaves
the venv with this checkout installed editable, as ``scripts/dev`` does
(after a failure, ``bash scripts/dev`` puts it back).

    nice -n 10 python benches/dev_loop.py [--runs 3] [--part python|rust]

Run it with the venv's python (that of MARKETCURVES_VENV, default .venv),
and CARGO_TARGET_DIR as for the other scripts.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "3b06935"
TEST_FILE = "tests/client/test_catalogue.py"
PYTHON_MODULE = "python/marketcurves/catalogue.py"
PYTHON_EDIT = "\n# benches/dev_loop.py: an edit\n"
LIVE_MODULE = "queue.rs"  # the live feed's delivery queue, in either layout
RUST_EDIT = "\n// benches/dev_loop.py: an edit\n"


def live_feed(checkout: Path) -> tuple[Path, str]:
    """The live feed's file to edit, and the package whose tests to run."""
    crate = checkout / "crates/live"
    if not crate.is_dir():
        return checkout / "crates/client/src/live" / LIVE_MODULE, "marketcurves-client"
    package = tomllib.loads((crate / "Cargo.toml").read_text())["package"]["name"]
    found = sorted((crate / "src").rglob(LIVE_MODULE)) or [crate / "src/lib.rs"]
    return found[0], package


@contextlib.contextmanager
def edited(path: Path, line: str) -> Iterator[None]:
    """``path`` with ``line`` appended, put back on the way out."""
    original = path.read_bytes()
    try:
        path.write_bytes(original + line.encode())
        yield
    finally:
        path.write_bytes(original)


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """``rev`` checked out in a temporary worktree, removed on the way out."""
    path = Path(tempfile.gettempdir()) / f"marketcurves-dev-loop-{ROOT.name}"
    git = ["git", "-C", str(ROOT), "worktree"]
    if path.exists():  # left by a run killed outright
        subprocess.run([*git, "remove", "--force", str(path)], check=False)
    subprocess.run([*git, "prune"], check=True)
    subprocess.run([*git, "add", "--quiet", "--detach", str(path), rev], check=True)
    try:
        yield path
    finally:
        subprocess.run([*git, "remove", "--force", str(path)], check=True)


class Runner:
    """Runs commands, their output to a log each (shown when one fails)."""

    def __init__(self) -> None:
        self.logs = Path(tempfile.mkdtemp(prefix="dev-loop-"))

    def __call__(self, name: str, command: list[str], cwd: Path, env: dict[str, str]) -> float:
        log = self.logs / f"{name}.log"
        started = time.perf_counter()
        with log.open("w") as out:
            done = subprocess.run(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        took = time.perf_counter() - started
        if done.returncode != 0:
            tail = log.read_text(errors="replace").splitlines()[-40:]
            sys.exit("\n".join([*tail, f"error: `{' '.join(command)}` failed in {cwd}"]))
        return took


def best(label: str, runs: int, once: Callable[[], float]) -> float:
    times = [once() for _ in range(runs)]
    print(f"  {label}: {', '.join(f'{t:.1f}' for t in times)} s", flush=True)
    return min(times)


def python_loop(
    run: Runner, runs: int, test_file: str, base: Path, envs: tuple[dict[str, str], dict[str, str]]
) -> list[tuple[str, float, float]]:
    base_env, env = envs
    python = str(Path(env["MARKETCURVES_VENV"]) / "bin/python")
    today = ["bash", "scripts/test", test_file]
    print("python: warming the baseline (its scripts/test, untimed)", flush=True)
    run("python-warm-before", today, base, base_env)

    def timed(name: str, checkout: Path, command: list[str], env: dict[str, str]) -> float:
        with edited(checkout / PYTHON_MODULE, PYTHON_EDIT):
            return run(name, command, checkout, env)

    # Every run of the baseline installs its wheel: all of them first, then
    # scripts/dev once for this checkout's.
    before = best(
        f"before, {' '.join(today)}", runs, lambda: timed("python-before", base, today, base_env)
    )
    print("python: warming this checkout (scripts/dev, untimed)", flush=True)
    run("python-warm-after", ["bash", "scripts/dev"], ROOT, env)
    pytest = [python, "-m", "pytest", "-p", "no:cacheprovider", "-q", test_file]
    after = best("after, pytest FILE", runs, lambda: timed("python-after", ROOT, pytest, env))
    only = ["bash", "scripts/test", "--python-only", test_file]
    after_only = best(
        "after, scripts/test --python-only FILE",
        runs,
        lambda: timed("python-only", ROOT, only, env),
    )
    return [
        (f"Python line, then {test_file}: pytest, editable", before, after),
        ("  the same by scripts/test --python-only", before, after_only),
    ]


def rust_loop(
    run: Runner, runs: int, base: Path, envs: tuple[dict[str, str], dict[str, str]]
) -> list[tuple[str, float, float]]:
    sides = [(base, envs[0], "before"), (ROOT, envs[1], "after")]
    feeds = [live_feed(checkout) for checkout, _, _ in sides]
    for (checkout, env, side), (path, package) in zip(sides, feeds, strict=True):
        print(f"rust {side}: {path.relative_to(checkout)}, cargo test -p {package}", flush=True)
        run(f"rust-warm-{side}", ["cargo", "test", "--locked", "-p", package], checkout, env)

    def timed(i: int) -> float:
        (checkout, env, side), (path, package) = sides[i], feeds[i]
        with edited(path, RUST_EDIT):
            return run(f"rust-{side}", ["cargo", "test", "--locked", "-p", package], checkout, env)

    # Before and after in turn, so that both see the same load.
    times: list[list[float]] = [[], []]
    for _ in range(runs):
        for i in (0, 1):
            times[i].append(timed(i))
    for i, side in enumerate(("before", "after")):
        print(f"  {side}: {', '.join(f'{t:.1f}' for t in times[i])} s", flush=True)
    return [
        (
            f"live feed's Rust line, then cargo test -p {feeds[0][1]} / {feeds[1][1]}",
            min(times[0]),
            min(times[1]),
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=BASELINE, help="a git revision (default %(default)s)")
    parser.add_argument("--baseline-target", type=Path, help="the baseline's CARGO_TARGET_DIR")
    parser.add_argument("--runs", type=int, default=3, help="best of (default %(default)s)")
    parser.add_argument("--part", choices=["python", "rust", "all"], default="all")
    parser.add_argument("--test-file", default=TEST_FILE, help="default %(default)s")
    args = parser.parse_args()

    env = {k: v for k, v in os.environ.items() if k != "MARKETCURVES_WHEEL"}
    env.setdefault("MARKETCURVES_VENV", sys.prefix)
    target = Path(env.get("CARGO_TARGET_DIR", ROOT / "target"))
    baseline_target = args.baseline_target or target / "dev-loop-baseline"
    base_env = env | {"CARGO_TARGET_DIR": str(baseline_target)}
    run = Runner()
    rows: list[tuple[str, float, float]] = []
    with worktree(args.baseline) as base:
        print(
            f"before: {args.baseline}, in {base}, target {baseline_target}; "
            f"after: {ROOT} as it is; logs in {run.logs}",
            flush=True,
        )
        if args.part in ("python", "all"):
            rows += python_loop(run, args.runs, args.test_file, base, (base_env, env))
        if args.part in ("rust", "all"):
            rows += rust_loop(run, args.runs, base, (base_env, env))

    print(f"\nbest of {args.runs}, seconds (load average now {os.getloadavg()[0]:.1f})")
    print("| loop | before | after | after/before |\n|---|---|---|---|")
    for name, before, after in rows:
        print(f"| {name} | {before:.1f} | {after:.1f} | {after / before:.3f} |")


if __name__ == "__main__":
    main()
