"""Soak of the tick recorder: ``marketcurves record`` as a process of its own
for a long stretch under random abrupt drops of the feed, expired tokens,
graceful restarts (SIGTERM, then a new process) and SIGKILLs (then a new
process); then the emulator's clock stops, a last recorder catches up with
everything published, and the recording is compared, tenor by tenor, with
what the emulator published.

    python benches/record_soak.py [--minutes 10] [--scale 60] [--curves 3] [--seed 1]

The emulator runs in this script's process (``Emulator.published`` is the
reference); each recorder is a child process, so that its peak memory is its
own. By default ten minutes of real time at 60 times speed: ten hours of a
trading day. Prints the schedule as it runs (seeded), then the ticks
published, recorded, missing and duplicated (times compared truncated to
milliseconds, as the feed carries them), the peak resident memory of the
recorders, run by run, and the files of the recording. Exits with 1 if a tick
is missing, duplicated or never published, a recorder crashed or did not stop
cleanly on SIGTERM, or the last one did not catch up.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa
import pyarrow.compute as pc

import marketcurves as mc
from marketcurves.testing import Emulator

#: A line of the recorder's log: time, logger, message.
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ (\S+) (.*)$")
#: A Wednesday at 06:00 UTC: a whole trading day ahead, no weekly restart.
START = "2025-06-11T06:00:00Z"
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
#: Faults and their weights: two in five end the running recorder.
FAULTS = {"drop": 4, "expire-tokens": 2, "sigterm": 2, "sigkill": 2}
#: How long a SIGTERM may take before it counts as not honoured.
STOP_WAIT = 20.0
#: Recorders ending by themselves before the soak gives up.
MAX_CRASHES = 5
#: How long the last recorder may take to catch up.
CATCH_UP_WAIT = 180.0


def micros(when: dt.datetime) -> int:
    return (when - EPOCH) // dt.timedelta(microseconds=1)


def at_micros(value: int) -> dt.datetime:
    return EPOCH + dt.timedelta(microseconds=value)


def busiest_curves(start: dt.datetime, hours: float, count: int) -> list[str]:
    """The ``count`` curves, of the catalogue's first 60 the demo account may
    follow live (not Sales), that publish the most values in the stretch the
    soak covers (on a stopped clock at its end)."""
    end = start + dt.timedelta(hours=hours)
    with Emulator(seed=0, time_scale=0, start=end) as emulator, emulator.client() as client:
        counted = []
        for curve in client.catalogue()[:60]:
            if curve.quotation == "Sales":
                continue
            values = sum(
                len(emulator.published(curve.id, tenor, start, end))
                for tenor in curve.contracts or []
            )
            counted.append((values, curve.id))
    return [curve_id for _, curve_id in sorted(counted, reverse=True)[:count]]


def status_kib(pid: int, field: str) -> int:
    """A ``/proc/<pid>/status`` figure in KiB (0 once the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


class Run(NamedTuple):
    number: int
    began: float
    seconds: float
    ended: str
    peak_kib: int
    code: int | None


class Recorder:
    """One ``marketcurves record`` process, and its peak resident memory:
    ``VmHWM``, read every tenth of a second while it runs. Not ``ru_maxrss``:
    Linux carries the high-water mark of the memory a child had before its
    ``exec`` over to it, and a child spawned by ``vfork`` had this script's
    (the emulator's and the comparison's)."""

    def __init__(self, number: int, emulator: Emulator, args: argparse.Namespace) -> None:
        self.number = number
        argv = [sys.executable, "-m", "marketcurves", "record", "--dest", str(args.dest)]
        for curve in args.curve_ids:
            argv += ["--curve", curve]
        # Keep-alive on the emulator's clock, as in the recorder's tests.
        argv += ["--ping-interval", str(30.0 / args.scale), "--reconnect-max", "0.5"]
        argv += ["--rotate", args.rotate]
        credentials = emulator.credentials
        environment = {
            **os.environ,
            "MARKETCURVES_BASE_URL": emulator.base_url,
            "MARKETCURVES_LIVE_URL": emulator.live_url,
            "MARKETCURVES_EMAIL": credentials["email"],
            "MARKETCURVES_PASSWORD": credentials["password"],
        }
        environment.pop("MARKETCURVES_TOKEN", None)
        # Its log goes to a file: a pipe nobody reads would block it once full.
        self.log = args.logs / f"recorder-{number:03d}.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                argv, env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )
        self.began = time.monotonic()
        self.finished: float | None = None
        self.peak_kib = 0
        self.ended: str | None = None
        self.code: int | None = None

    def sample(self) -> None:
        self.peak_kib = max(self.peak_kib, status_kib(self.process.pid, "VmHWM"))

    def reap(self, block: bool) -> bool:
        """Whether the process has ended (reaped here, with its peak memory)."""
        if self.code is not None:
            return True
        self.sample()
        pid, wait_status = os.waitpid(self.process.pid, 0 if block else os.WNOHANG)
        if pid == 0:
            return False
        self.finished = time.monotonic()
        self.code = os.waitstatus_to_exitcode(wait_status)
        # Popen must not reap it again.
        self.process.returncode = self.code
        return True

    def started(self) -> bool:
        """Whether it has begun recording (its SIGTERM handler is in place
        from then on; a SIGTERM during its imports ends it as the default
        action does, losing nothing, as a SIGKILL)."""
        return "recording " in self.log.read_text(errors="replace")

    def stop(self, how: str) -> None:
        """SIGTERM (waiting up to STOP_WAIT, then SIGKILL) or SIGKILL."""
        self.ended = how
        if self.reap(block=False):
            self.ended = f"crashed before its {how}"
            return
        if how == "sigterm":
            deadline = time.monotonic() + STOP_WAIT
            while not self.started() and not self.reap(block=False):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            self.process.send_signal(signal.SIGTERM)
            while not self.reap(block=False):
                if time.monotonic() > deadline:
                    self.ended = "sigterm not honoured, then sigkill"
                    break
                time.sleep(0.05)
        if self.code is None:
            self.process.send_signal(signal.SIGKILL)
            self.reap(block=True)

    def run(self, soak_began: float) -> Run:
        return Run(
            self.number,
            self.began - soak_began,
            (self.finished or time.monotonic()) - self.began,
            self.ended or "?",
            self.peak_kib,
            self.code,
        )

    def failed(self) -> bool:
        """A crash, or a SIGTERM that did not end it with 0."""
        if self.ended == "sigkill":
            return self.code != -signal.SIGKILL
        return self.ended != "sigterm" or self.code != 0


def soak(emulator: Emulator, args: argparse.Namespace) -> tuple[list[Recorder], Counter[str]]:
    """Runs recorders for ``args.minutes`` under random faults; returns every
    recorder started (the last still running) and the faults done."""
    rng = random.Random(args.seed)
    kinds, weights = list(FAULTS), list(FAULTS.values())
    done: Counter[str] = Counter()
    began = time.monotonic()
    recorders = [Recorder(1, emulator, args)]
    next_fault = began + rng.uniform(3.0, 12.0)
    while (now := time.monotonic()) - began < args.minutes * 60:
        current = recorders[-1]
        if current.reap(block=False):
            current.ended = "crashed"
            tail = current.log.read_text(errors="replace").strip().splitlines()[-3:]
            print(
                f"{now - began:7.1f} s  recorder {current.number} ended by itself: {current.code}"
            )
            print("\n".join(f"           | {line}" for line in tail), flush=True)
            done["crash"] += 1
            if done["crash"] >= MAX_CRASHES:
                print(f"stopping the soak after {done['crash']} crashes")
                break
            time.sleep(1.0)
            recorders.append(Recorder(len(recorders) + 1, emulator, args))
        elif now >= next_fault:
            kind = rng.choices(kinds, weights)[0]
            done[kind] += 1
            line = f"{now - began:7.1f} s  {kind}"
            if kind == "drop":
                emulator.drop_live_connections()
            elif kind == "expire-tokens":
                emulator.expire_tokens()
            else:
                current.stop(kind)
                pause = rng.uniform(0.0, 3.0)
                line += f" recorder {current.number} (exit {current.code}, peak "
                line += f"{current.peak_kib / 1024:.0f} MiB), next in {pause:.1f} s"
                time.sleep(pause)
                recorders.append(Recorder(len(recorders) + 1, emulator, args))
            print(line, flush=True)
            next_fault = time.monotonic() + rng.uniform(3.0, 12.0)
        time.sleep(0.1)
    return recorders, done


def last_published(
    emulator: Emulator, curve_ids: list[str], since: dt.datetime, end: dt.datetime
) -> dict[tuple[str, str], int]:
    """Per (curve, tenor) that ``*`` covers, published since ``since``: its
    last time in ms. ``*`` leaves out the continuous tenors (docs/protocol.md)."""
    last: dict[tuple[str, str], int] = {}
    with emulator.client() as client:
        contracts = {c.id: c.contracts or [] for c in client.catalogue() if c.id in curve_ids}
    for curve_id in curve_ids:
        for tenor in contracts[curve_id]:
            if mc.Tenor.parse(tenor, strict=False).kind == "continuous":
                continue
            values = emulator.published(curve_id, tenor, since, end)
            if values:
                last[(curve_id, tenor)] = micros(values[-1].generated_on) // 1000
    return last


def recorded_last(dest: Path) -> dict[tuple[str, str], int]:
    """Per (curve, tenor) recorded: its last time in ms."""
    table = mc.read_ticks(dest)
    if table.num_rows == 0:
        return {}
    table = table.set_column(2, "generated_on", pc.cast(table["generated_on"], pa.int64()))
    grouped = table.group_by(["curve_id", "tenor"]).aggregate([("generated_on", "max")])
    return {
        (c, t): at // 1000
        for c, t, at in zip(
            grouped["curve_id"].to_pylist(),
            grouped["tenor"].to_pylist(),
            grouped["generated_on_max"].to_pylist(),
            strict=True,
        )
    }


def catch_up(dest: Path, recorder: Recorder, expected: dict[tuple[str, str], int]) -> float:
    """Waits until the recording holds each tenor's last published value;
    returns how long that took (or raises TimeoutError)."""
    began = time.monotonic()
    while True:
        have = recorded_last(dest)
        if all(have.get(key, -1) >= last for key, last in expected.items()):
            return time.monotonic() - began
        if recorder.reap(block=False):
            raise RuntimeError(f"the last recorder ended by itself: {recorder.code}")
        if time.monotonic() - began > CATCH_UP_WAIT:
            behind = [key for key, last in expected.items() if have.get(key, -1) < last]
            raise TimeoutError(f"{len(behind)} tenors behind, e.g. {behind[:3]}")
        time.sleep(0.5)


def compare(
    emulator: Emulator, dest: Path, curve_ids: list[str], since: dt.datetime, end: dt.datetime
) -> tuple[Counter[str], list[str]]:
    """Per tenor, the recording against what was published from its first
    recorded value to ``end``; tenors published and never recorded count as
    missing from ``since``."""
    figures = Counter[str]()
    examples: list[str] = []
    end_ms = micros(end) // 1000
    published_tenors = last_published(emulator, curve_ids, since, end)
    for curve_id in curve_ids:
        table = mc.read_ticks(dest, curve_id=curve_id)
        times = pc.divide(pc.cast(table["generated_on"], pa.int64()), 1000).to_pylist()
        rows: dict[str, list[tuple[int, float]]] = {}
        for tenor, at, price in zip(
            table["tenor"].to_pylist(), times, table["price"].to_pylist(), strict=True
        ):
            rows.setdefault(tenor, []).append((at, price))
        never = {t for c, t in published_tenors if c == curve_id} - set(rows)
        for tenor in sorted(never):
            missed = len(emulator.published(curve_id, tenor, since, end))
            figures["never recorded tenors"] += 1
            figures["published"] += missed
            figures["missing"] += missed
            examples.append(f"{curve_id} {tenor}: never recorded, {missed} published")
        for tenor, got in rows.items():
            first = got[0][0]
            published = [
                (micros(v.generated_on) // 1000, v.price)
                for v in emulator.published(
                    curve_id, tenor, at_micros(first * 1000), end + dt.timedelta(microseconds=999)
                )
            ]
            expected, kept = set(published), set(got)
            missing = sorted(expected - kept)
            extra = sorted(kept - expected)
            figures["tenors"] += 1
            figures["published"] += len(published)
            figures["recorded"] += len(got)
            figures["missing"] += len(missing)
            figures["duplicated"] += len(got) - len(kept)
            figures["never published"] += len(extra)
            figures["out of order"] += sum(a[0] >= b[0] for a, b in itertools.pairwise(got))
            figures["after the end"] += sum(at > end_ms for at, _ in got)
            for label, which in (("missing", missing), ("never published", extra)):
                if which:
                    shown = ", ".join(
                        at_micros(at * 1000).strftime("%H:%M:%S.%f")[:-3] for at, _ in which[:5]
                    )
                    examples.append(f"{curve_id} {tenor}: {len(which)} {label}, {shown}")
            if len(got) != len(kept):
                repeated = [at for at, n in Counter(got).items() if n > 1][:5]
                examples.append(f"{curve_id} {tenor}: repeated {repeated}")
    return figures, examples


def data_files(dest: Path) -> tuple[int, int, int]:
    """Parts, compacted days, and their bytes."""
    parts = list(dest.rglob("part-*.parquet"))
    days = list(dest.rglob("day-*.parquet"))
    return len(parts), len(days), sum(p.stat().st_size for p in parts + days)


def log_lines(recorders: list[Recorder], dest: Path) -> Counter[str]:
    """What the recorders logged, by kind (numbers left out), and any panic
    or traceback."""
    kinds: Counter[str] = Counter()
    for recorder in recorders:
        for line in recorder.log.read_text(errors="replace").splitlines():
            if found := LOG_LINE.match(line.replace(str(dest), "DEST")):
                kind = re.sub(r"[0-9][0-9.,]*", "#", f"{found[1]}: {found[2]}")
                kinds[kind[:100]] += 1
            elif "panicked" in line or "Traceback" in line:
                kinds[line[:90]] += 1
    return kinds


def baseline_kib() -> int:
    """Peak resident memory of the interpreter and the command's imports alone."""
    code = (
        "import marketcurves.cli, marketcurves.record, pathlib; "
        "print(pathlib.Path('/proc/self/status').read_text())"
    )
    status = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    line = next(x for x in status.stdout.splitlines() if x.startswith("VmHWM:"))
    return int(line.split()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="real time under faults")
    parser.add_argument("--scale", type=float, default=60.0, help="emulator clock speed")
    parser.add_argument("--start", default=START, help="the emulator's clock at the start (UTC)")
    parser.add_argument("--curves", type=int, default=3, help="busy curves, every tenor")
    parser.add_argument("--rotate", default="1s", help="the recorders' --rotate (real time)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the schedule of faults")
    parser.add_argument("--keep", action="store_true", help="keep the recording and the logs")
    args = parser.parse_args()

    start = dt.datetime.fromisoformat(args.start.replace("Z", "+00:00"))
    args.curve_ids = busiest_curves(start, args.minutes * args.scale / 60, args.curves)
    work = Path(tempfile.mkdtemp(prefix="record-soak-"))
    args.dest, args.logs = work / "ticks", work / "logs"
    args.logs.mkdir()
    print(f"seed {args.seed}; {args.minutes:g} min at {args.scale:g}x from {args.start}")
    print(f"curves (every tenor): {', '.join(args.curve_ids)}; recording into {args.dest}")
    failures: list[str] = []
    with Emulator(seed=0, time_scale=args.scale, start=args.start) as emulator:
        since = emulator.now()
        began = time.monotonic()
        recorders, done = soak(emulator, args)
        # The clock stops: what was published is final, and a last recorder
        # must bring all of it into the recording.
        emulator.time_scale = 0
        end = emulator.now()
        recorders[-1].stop("sigterm")
        last = Recorder(len(recorders) + 1, emulator, args)
        recorders.append(last)
        expected = last_published(emulator, args.curve_ids, since, end)
        try:
            caught_up = catch_up(args.dest, last, expected)
        except (TimeoutError, RuntimeError) as error:
            failures.append(f"the last recorder did not catch up: {error}")
            caught_up = float("nan")
        last.stop("sigterm")
        figures, examples = compare(emulator, args.dest, args.curve_ids, since, end)
    runs = [r.run(began) for r in recorders]
    crashed = [r for r in recorders if r.failed()]
    parts, days, size = data_files(args.dest)
    logged = log_lines(recorders, args.dest)

    print()
    print(
        f"ran {args.minutes:g} min at {args.scale:g}x: {since:%H:%M} to {end:%H:%M} on {end:%Y-%m-%d}"
    )
    print("faults: " + ", ".join(f"{n} {kind}" for kind, n in sorted(done.items())))
    print(f"recorders: {len(recorders)} runs; the last caught up in {caught_up:.1f} s")
    print(
        f"ticks: {figures['published']:,} published over {figures['tenors']} tenors, "
        f"{figures['recorded']:,} recorded; missing {figures['missing']}, "
        f"duplicated {figures['duplicated']}, never published {figures['never published']}, "
        f"out of order {figures['out of order']}, tenors never recorded {figures['never recorded tenors']}"
    )
    peaks = [r.peak_kib for r in runs]
    longest = max(runs, key=lambda r: r.seconds)
    print(
        f"peak memory of a recorder (VmHWM): {max(peaks) / 1024:.1f} MiB; "
        f"the longest run ({longest.seconds:.0f} s) {longest.peak_kib / 1024:.1f} MiB"
    )
    print(f"  against {baseline_kib() / 1024:.1f} MiB for a process that only imports the package")
    third = max(1, len(runs) // 3)
    early, late = (max(r.peak_kib for r in part) for part in (runs[:third], runs[-third:]))
    print(
        f"  the first third of the runs up to {early / 1024:.1f} MiB, "
        f"the last third up to {late / 1024:.1f} MiB"
    )
    print(f"files: {parts} parts and {days} compacted days, {size / 1e6:.1f} MB")
    print("logged, by kind:")
    for kind, n in logged.most_common():
        print(f"  {n:5d}  {kind}")
    print("runs (began at, lasted, ended by, exit code, peak RSS):")
    for run in runs:
        print(
            f"  {run.number:3d}  {run.began:6.1f} s  {run.seconds:5.1f} s  {run.ended:<34} "
            f"{run.code!s:>4}  {run.peak_kib / 1024:6.1f} MiB"
        )
    for example in examples[:20]:
        print(f"  {example}")
    if figures["missing"] or figures["duplicated"] or figures["never published"]:
        failures.append("the recording is not each published value once")
    if figures["out of order"] or figures["after the end"]:
        failures.append("values out of order or after the end")
    for recorder in crashed:
        failures.append(f"recorder {recorder.number}: {recorder.ended}, exit {recorder.code}")
    for failure in failures:
        print(f"FAILED: {failure}")
    if not failures:
        print("OK: every published value recorded exactly once; every recorder stopped cleanly")
    if args.keep or failures:
        print(f"kept: {work}")
    else:
        shutil.rmtree(work)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
