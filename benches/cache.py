"""The history cache: a pull served from the cache against the same pull from
the service, and what opening a warm cache costs.

1. The workload of ``rest_pull.py`` (a year of settlements for 50 tenors plus
   90 days of 1-minute intraday for 5 tenors, 20 ms of added latency per
   request), except that its range ends YESTERDAY (``TODAY - 1 day``): the
   current day is never kept, so a range ending today would always fetch it.
   Pulled once cold (an empty cache) and once warm, each in a process of its
   own, so the warm pull is a fresh process opening the cache, as a notebook
   re-run is. Target: warm at least 50x faster than cold. The script exits
   with 1 if the warm tables differ from the cold ones or the warm pull
   sent a request.
2. A cache holding a year of every tenor of 50 curves (the catalogue's first
   licensed ones, filled with no latency), opened by a fresh process:
   constructing the client plus ``cache_info()``, one curve's year offline,
   and all 50 curves offline.

The emulator runs in this script's process, since requests are counted
there (``Emulator.request_count``; ``marketcurves emulator`` cannot report
them); each pull runs in a process of its own.
Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/cache.py            # --quick for a smaller workload
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc  # makes pa.ipc available
from rest_pull import CONCURRENCY, LATENCY_MS, START, TODAY, plan

import marketcurves as mc
from marketcurves.testing import Emulator

YESTERDAY = TODAY - dt.timedelta(days=1)
CURVES = 50
#: Contenders' tables, for this script to compare.
TABLES = ("settlements", "intraday")


def client(base_url: str, cache_dir: str) -> mc.Client:
    return mc.Client(
        base_url=base_url,
        email="demo@marketcurves.test",
        password="demo-password",
        max_concurrency=CONCURRENCY,
        cache_dir=cache_dir,
    )


def preload() -> None:
    """Imports are not part of a pull (as in rest_pull.py). pandas is one of
    them: ``pyarrow.table()``, which hands each table to Python, imports it
    on first use when it is installed (0.2 to 0.3 s here), so a process's
    first pull pays for it, with or without a cache."""
    try:
        import pandas  # noqa: F401
    except ImportError:
        pass


def pull_workload(args: argparse.Namespace) -> None:
    """A cold or warm pull of the workload; writes its tables for comparison."""
    work = json.loads(Path(args.plan).read_text())
    preload()
    started = time.perf_counter()
    session = client(args.base_url, args.cache_dir)
    made = time.perf_counter()
    settlements = session.settlements(
        work["settlement_curve"], work["settlement_start"], work["end"], work["settlement_tenors"]
    )
    settled = time.perf_counter()
    intraday = session.intraday_history(
        work["intraday_curve"], work["intraday_start"], work["end"], work["intraday_tenors"]
    )
    done = time.perf_counter()
    info = session.cache_info()
    session.close()
    for name, table in zip(TABLES, (settlements, intraday), strict=True):
        with pa.ipc.new_stream(f"{args.out}.{name}.arrow", table.schema) as writer:
            writer.write_table(table)
    result = {
        "seconds": done - started,
        "client_seconds": made - started,
        "settlements_seconds": settled - made,
        "intraday_seconds": done - settled,
        "rows": settlements.num_rows + intraday.num_rows,
        "table_bytes": settlements.nbytes + intraday.nbytes,
        "cache_files": info["files"],
        "cache_bytes": info["bytes"],
    }
    print(json.dumps(result))


def fill(args: argparse.Namespace) -> None:
    """Fills the cache with a year of the chosen tenors of the chosen curves."""
    work = json.loads(Path(args.plan).read_text())
    session = client(args.base_url, args.cache_dir)
    started = time.perf_counter()
    rows = 0
    for curve in work["curves"]:
        table = session.settlements(curve["id"], work["start"], work["end"], curve["tenors"])
        rows += table.num_rows
    seconds = time.perf_counter() - started
    session.close()
    print(json.dumps({"seconds": seconds, "rows": rows}))


def open_warm(args: argparse.Namespace) -> None:
    """Opens the filled cache: client and cache_info(), one curve, every curve."""
    work = json.loads(Path(args.plan).read_text())
    preload()
    started = time.perf_counter()
    session = client(args.base_url, args.cache_dir)
    info = session.cache_info()
    opened = time.perf_counter()
    first = work["curves"][0]
    one = session.settlements(
        first["id"], work["start"], work["end"], first["tenors"], cache="offline"
    )
    pulled_one = time.perf_counter()
    rows = 0
    for curve in work["curves"]:
        table = session.settlements(
            curve["id"], work["start"], work["end"], curve["tenors"], cache="offline"
        )
        rows += table.num_rows
    pulled_all = time.perf_counter()
    session.close()
    result = {
        "open_seconds": opened - started,
        "one_seconds": pulled_one - opened,
        "one_rows": one.num_rows,
        "all_seconds": pulled_all - pulled_one,
        "all_rows": rows,
        "cache_files": info["files"],
        "cache_bytes": info["bytes"],
        "cached_curves": len(info["curves"]),
    }
    print(json.dumps(result))


def run(role: str, base_url: str, plan_file: Path, cache_dir: Path, out: Path) -> dict:
    command = [sys.executable, __file__, "--role", role, "--base-url", base_url]
    command += ["--plan", str(plan_file), "--cache-dir", str(cache_dir), "--out", str(out)]
    output = subprocess.run(command, capture_output=True, text=True)
    if output.returncode != 0:
        raise RuntimeError(output.stderr)
    return json.loads(output.stdout.strip().splitlines()[-1])


def counted(emulator: Emulator, role: str, scratch: Path, work: str, out: str) -> dict:
    """Runs a contender in a process of its own, and adds the requests the
    emulator received meanwhile."""
    before = emulator.request_count()
    plan_file, cache_dir = scratch / f"{work}.json", scratch / f"{work}-cache"
    result = run(role, emulator.base_url, plan_file, cache_dir, scratch / out)
    result["requests"] = emulator.request_count() - before
    return result


def read_tables(out: Path) -> list[pa.Table]:
    return [pa.ipc.open_stream(f"{out}.{name}.arrow").read_all() for name in TABLES]


def mb(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


def workload(emulator: Emulator, quick: bool, scratch: Path) -> bool:
    """Part 1: cold against warm. True if warm gave the same tables and sent nothing."""
    work = plan(emulator.base_url, quick)
    work["end"] = str(YESTERDAY)
    (scratch / "workload.json").write_text(json.dumps(work))
    cold = counted(emulator, "pull", scratch, "workload", "cold")
    warm = counted(emulator, "pull", scratch, "workload", "warm")
    pairs = zip(read_tables(scratch / "cold"), read_tables(scratch / "warm"), strict=True)
    same = all(c.equals(w) for c, w in pairs)
    settlement_days = (YESTERDAY - dt.date.fromisoformat(work["settlement_start"])).days + 1
    intraday_days = (YESTERDAY - dt.date.fromisoformat(work["intraday_start"])).days + 1
    print(
        f"workload: {len(work['settlement_tenors'])} tenors x {settlement_days} days of settlements"
        f" + {len(work['intraday_tenors'])} tenors x {intraday_days} days of intraday,"
        f" ending {YESTERDAY}; {LATENCY_MS} ms latency; {cold['rows']:,} rows"
    )
    for name, result in (("cold", cold), ("warm", warm)):
        print(
            f"{name:>5}: {result['seconds']:7.3f} s, {result['requests']:5} requests"
            f" (client {result['client_seconds']:.3f} s, settlements"
            f" {result['settlements_seconds']:.3f} s, intraday {result['intraday_seconds']:.3f} s)"
        )
    ratio = cold["seconds"] / warm["seconds"]
    print(f"cold / warm: {ratio:.1f}x (target >= 50x, with no warm request)")
    print(
        f"cache on disk: {warm['cache_files']} files, {mb(warm['cache_bytes'])};"
        f" Arrow table: {mb(cold['table_bytes'])}"
        f" ({warm['cache_bytes'] / cold['table_bytes']:.2f} of it)"
    )
    print(f"warm table equal to cold: {same}")
    if not same:
        print("error: the warm tables differ from the cold ones", file=sys.stderr)
    if warm["requests"]:
        print(f"error: the warm pull sent {warm['requests']} requests", file=sys.stderr)
    return same and warm["requests"] == 0


def curves_plan(base_url: str, quick: bool) -> dict:
    """The first licensed curves of the catalogue, every tenor (ten with --quick)."""
    with mc.Client(
        base_url=base_url, email="demo@marketcurves.test", password="demo-password"
    ) as session:
        licensed = [c for c in session.catalogue() if c.quotation != "Sales"]
    chosen = licensed[: 10 if quick else CURVES]
    # None: every contract the catalogue lists, as a user would ask.
    tenors = [list(c.contracts[:10]) if quick else None for c in chosen]
    return {
        "curves": [{"id": c.id, "tenors": t} for c, t in zip(chosen, tenors, strict=True)],
        "tenor_count": sum(len(c.contracts[:10] if quick else c.contracts) for c in chosen),
        "start": str(TODAY - dt.timedelta(days=365)),
        "end": str(YESTERDAY),
    }


def warm_cache(emulator: Emulator, quick: bool, scratch: Path) -> bool:
    """Part 2: opening a cache of a year of every tenor of 50 curves."""
    work = curves_plan(emulator.base_url, quick)
    (scratch / "curves.json").write_text(json.dumps(work))
    # Latency only makes the filling longer: it is not what is measured.
    emulator.set_latency(0)
    filled = counted(emulator, "fill", scratch, "curves", "fill")
    opened = counted(emulator, "open", scratch, "curves", "open")
    curves, tenors = len(work["curves"]), work["tenor_count"]
    note = "" if curves == CURVES or quick else f" (the catalogue has only {curves} licensed)"
    print(
        f"warm cache: {curves} curves{note}, {tenors} tenors, {work['start']} to {work['end']};"
        f" filled in {filled['seconds']:.1f} s with {filled['requests']} requests, no latency"
    )
    print(
        f"  on disk: {opened['cache_files']} files, {mb(opened['cache_bytes'])},"
        f" {opened['cached_curves']} curves"
    )
    print(f"  (a) client + cache_info(): {opened['open_seconds'] * 1000:8.1f} ms")
    print(
        f"  (b) one curve's year, offline: {opened['one_seconds'] * 1000:8.1f} ms,"
        f" {opened['one_rows']:,} rows"
    )
    print(
        f"  (c) {curves} curves, offline: {opened['all_seconds'] * 1000:8.1f} ms,"
        f" {opened['all_rows']:,} rows ({filled['rows']:,} when filled);"
        f" {opened['requests']} requests"
    )
    if opened["requests"]:
        print(f"error: offline pulls sent {opened['requests']} requests", file=sys.stderr)
    if opened["all_rows"] != filled["rows"]:
        print("error: the offline pulls' rows are not the filled ones", file=sys.stderr)
    return opened["requests"] == 0 and opened["all_rows"] == filled["rows"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="10 + 2 tenors; 10 curves of 10 tenors"
    )
    for hidden in ("--role", "--base-url", "--plan", "--cache-dir", "--out"):
        parser.add_argument(hidden, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role:
        {"pull": pull_workload, "fill": fill, "open": open_warm}[args.role](args)
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="marketcurves-cache-bench-"))
    try:
        with Emulator(start=START, time_scale=0) as emulator:
            emulator.set_latency(LATENCY_MS / 1000)
            good = workload(emulator, args.quick, scratch)
            good = warm_cache(emulator, args.quick, scratch) and good
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
