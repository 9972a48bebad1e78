"""The history cache shared in a bucket (moto's S3 on loopback), the three
figures of issue 44, measured in one run, 20 ms of added service latency:

1. **A second machine's pull**: a year of settlements of every listed tenor
   of a curve, from a bucket another machine (process) filled, against that
   cold pull. Target: at least 20x faster.
2. **Clients racing** on one range (ten, and two), each a process of its
   own, let go at once on an empty bucket: the service's requests, together,
   over what one client needs. Target (ten): at most 1.2x. Two clients
   should send at most one client's requests plus those in flight when the
   first finished (up to ``max_concurrency``).
3. **A warm read from the bucket** against a warm read from a folder cache
   of the same days, each a fresh process (client made, then the pull).
   Target: at most 1.5x.

Every pull runs in a process of its own (pyarrow imported before its clock
starts: that import is the process's, not the pull's); the emulator runs in
this script's process, which counts the requests it receives. Times are medians
of ``--repeats`` runs. Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/shared_cache.py [--repeats 3] [--racers 10]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from objectstore import Moto, storage_options
from rest_pull import CONCURRENCY, LATENCY_MS, START, TODAY

import marketcurves as mc
from marketcurves.testing import Emulator

SETTLEMENTS = "/historical/settlements"
END = TODAY.replace(day=TODAY.day - 1)
FIRST = END.replace(year=END.year - 1)
#: A racer waits at most this long to be let go.
GO_WITHIN = 120.0


# A pull, in a process of its own.


def pull(args: argparse.Namespace) -> None:
    # pyarrow (and numpy) are imported on the first table a process gets,
    # whatever its source: 60 to 130 ms that are the process's, not the
    # pull's (a notebook or a worker has them already). Imported first.
    import pyarrow  # noqa: F401

    options = json.loads(args.options) if args.options else None
    started = time.perf_counter()
    client = mc.Client(
        base_url=args.base_url,
        email="demo@marketcurves.test",
        password="demo-password",
        max_concurrency=CONCURRENCY,
        cache_dir=args.cache_dir,
        storage_options=options,
    )
    if args.go:
        ready = Path(args.go).with_suffix(f".{args.name}.ready")
        ready.touch()
        deadline = time.monotonic() + GO_WITHIN
        while not Path(args.go).exists():
            if time.monotonic() > deadline:
                raise SystemExit("never let go")
            time.sleep(0.002)
        started = time.perf_counter()
    table = client.settlements(args.curve, args.first or str(FIRST), args.last or str(END))
    seconds = time.perf_counter() - started
    stats = client.last_call_stats
    client.close()
    print(json.dumps({"seconds": seconds, "rows": table.num_rows, "stats": stats}))


# The script.


def command(
    base_url: str,
    curve: str,
    cache_dir: str,
    options: dict[str, str] | None,
    days: tuple[dt.date, dt.date] | None = None,
) -> list:
    argv = [sys.executable, __file__, "--role", "pull", "--base-url", base_url]
    argv += ["--curve", curve, "--cache-dir", cache_dir]
    if days is not None:
        argv += ["--first", str(days[0]), "--last", str(days[1])]
    return argv + (["--options", json.dumps(options)] if options else [])


def run(argv: list[str]) -> dict[str, Any]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def counted(em: Emulator, argv: list[str]) -> dict[str, Any]:
    before = em.request_count(SETTLEMENTS)
    result = run(argv)
    result["requests"] = em.request_count(SETTLEMENTS) - before
    return result


def race(em: Emulator, argvs: list[list[str]], scratch: Path) -> tuple[int, list[dict]]:
    """A process per command, let go at once: their requests, together."""
    racers = len(argvs)
    go = scratch / f"go-{racers}-{time.monotonic_ns()}"
    procs = [
        subprocess.Popen(
            [*argv, "--go", str(go), "--name", str(i)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, argv in enumerate(argvs)
    ]
    try:
        deadline = time.monotonic() + GO_WITHIN
        while len(list(scratch.glob(f"{go.name}.*.ready"))) < racers:
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                raise RuntimeError("the racers did not get ready")
            time.sleep(0.01)
        before = em.request_count(SETTLEMENTS)
        go.touch()
        outputs = [p.communicate(timeout=600) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    results = []
    for p, (out, err) in zip(procs, outputs, strict=True):
        if p.returncode != 0:
            raise RuntimeError(err)
        results.append(json.loads(out.strip().splitlines()[-1]))
    return em.request_count(SETTLEMENTS) - before, results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--racers", type=int, default=10)
    hidden_options = ("--role", "--base-url", "--curve", "--cache-dir", "--options", "--go")
    for hidden in (*hidden_options, "--name", "--first", "--last"):
        parser.add_argument(hidden, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "pull":
        pull(args)
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="marketcurves-shared-cache-bench-"))
    moto = Moto()
    try:
        with Emulator(start=START, time_scale=0) as em:
            with em.client() as client:
                licensed = [c for c in client.catalogue() if c.quotation != "Sales"]
                curve = max(licensed, key=lambda c: len(c.contracts or []))
            em.set_latency(LATENCY_MS / 1000)
            options = storage_options(moto.endpoint)
            tenors = len(curve.contracts)
            print(
                f"{tenors} tenors x {(END - FIRST).days + 1} days of settlements, {FIRST} to"
                f" {END}; {LATENCY_MS} ms latency; max_concurrency {CONCURRENCY}"
            )

            def bucket() -> str:
                return f"s3://{moto.bucket()}/desk"

            # 1. Cold, then a second machine's pull from the bucket.
            colds, seconds = [], []
            for _ in range(args.repeats):
                url = bucket()
                colds.append(counted(em, command(em.base_url, curve.id, url, options)))
                seconds.append(counted(em, command(em.base_url, curve.id, url, options)))
            cold = statistics.median(r["seconds"] for r in colds)
            second = statistics.median(r["seconds"] for r in seconds)
            print(
                f"1. second machine's pull: cold {cold:.3f} s ({colds[0]['requests']} requests),"
                f" from the bucket {second:.3f} s ({seconds[0]['requests']} requests):"
                f" {cold / second:.1f}x (target >= 20x)"
            )

            # 2. Racing clients on one range, each time an empty bucket.
            need = colds[0]["requests"]
            for racers in sorted({2, args.racers}):
                argv = command(em.base_url, curve.id, bucket(), options)
                sent, results = race(em, [argv] * racers, scratch)
                fetched = sum(r["stats"]["days_from_service"] for r in results)
                print(
                    f"2. {racers} clients racing: {sent} requests against {need} for one:"
                    f" {sent / need:.2f}x (target <= 1.2x for ten); tenor-days fetched"
                    f" {fetched:,} by all"
                )
            # Two clients on unequal ranges that overlap by half: the days of
            # both, fetched once between them (one client would fetch the
            # first range, then the rest of the second).
            third = (END - FIRST) // 3
            early, late = (FIRST, END - third), (FIRST + third, END)
            url = bucket()
            sent, results = race(
                em,
                [command(em.base_url, curve.id, url, options, days) for days in (early, late)],
                scratch,
            )
            fetched = sum(r["stats"]["days_from_service"] for r in results)
            union = colds[0]["stats"]["days_from_service"]
            print(
                f"2. 2 clients racing on overlapping ranges ({early[0]}..{early[1]} and"
                f" {late[0]}..{late[1]}): tenor-days fetched {fetched:,} against {union:,} of"
                f" both ranges: {fetched / union:.2f}x; {sent} requests against {2 * need}"
                f" for one client pulling one range then the other"
            )

            # 3. Warm reads: the bucket against a folder of the same days.
            url, folder = bucket(), str(scratch / "folder")
            run(command(em.base_url, curve.id, url, options))
            run(command(em.base_url, curve.id, folder, None))
            warm_bucket = [run(command(em.base_url, curve.id, url, options))["seconds"]]
            warm_folder = [run(command(em.base_url, curve.id, folder, None))["seconds"]]
            for _ in range(args.repeats - 1):
                warm_bucket.append(run(command(em.base_url, curve.id, url, options))["seconds"])
                warm_folder.append(run(command(em.base_url, curve.id, folder, None))["seconds"])
            in_bucket, in_folder = statistics.median(warm_bucket), statistics.median(warm_folder)
            print(
                f"3. warm read: bucket {in_bucket:.3f} s, folder {in_folder:.3f} s:"
                f" {in_bucket / in_folder:.2f}x (target <= 1.5x)"
            )
    finally:
        moto.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
