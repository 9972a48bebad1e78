"""A year of one vertical through bulk download, then read back.

Prints the download rate (against what loopback carries for the same bytes,
measured in the same run), and ``read_bulk`` against
``pyarrow.parquet.read_table`` on the same files. Run on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/bulk.py [--vertical CRUDE] [--start 2024-07 --end 2025-06]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq
import requests

import marketcurves as mc
from marketcurves.testing import Emulator

FULL = {"email": "full@marketcurves.test", "password": "full-password"}


def best_of(runs: int, action) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertical", default="CRUDE")
    parser.add_argument("--start", default="2024-07")
    parser.add_argument("--end", default="2025-06")
    args = parser.parse_args()
    with Emulator(seed=0, time_scale=0, start="2025-07-15T12:00:00Z") as emulator:
        client = emulator.client(**FULL)
        # The emulator builds the files when the job ends: let that happen
        # before the clock starts, so the rate is the download's own.
        # (A stopped clock, moved past the job's run time: the URLs stay valid.)
        job = client.bulk_submit(args.vertical, args.start, args.end)
        emulator.advance(60)
        job.wait(poll_interval=0.1)
        with tempfile.TemporaryDirectory() as folder:
            dest = Path(folder)
            rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            started = time.perf_counter()
            result = job.download(dest, progress=False)
            seconds = time.perf_counter() - started
            grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024
            largest = max(p.stat().st_size for p in result.files)

            # The same bytes over loopback with plain requests, for scale.
            baseline_job = client.bulk_submit(args.vertical, args.start, args.end)
            emulator.advance(60)
            baseline_job.wait(poll_interval=0.1)
            urls = [f for f in _listing(emulator, baseline_job.job_id)]
            started = time.perf_counter()
            carried = sum(len(requests.get(url, timeout=60).content) for url in urls)
            plain_seconds = time.perf_counter() - started

            files = sorted(result.files)
            ours = best_of(3, lambda: mc.read_bulk(dest))
            theirs = best_of(3, lambda: pq.read_table(files))
            rows = mc.read_bulk(dest).num_rows
    mb = result.bytes / 1e6
    print(
        f"{args.vertical} {args.start}..{args.end}: {len(files)} files, {mb:.1f} MB, {rows:,} rows"
    )
    print(
        f"download: {mb / seconds:.1f} MB/s with marketcurves, "
        f"{carried / 1e6 / plain_seconds:.1f} MB/s with sequential requests.get on the same bytes"
    )
    print(f"memory grown by the download: {grown_mb:.0f} MB (largest file {largest / 1e6:.1f} MB)")
    print(
        f"read: read_bulk {ours:.3f} s, pyarrow.parquet {theirs:.3f} s, ratio {ours / theirs:.2f} (target <= 1.2)"
    )
    return 0


def _listing(emulator: Emulator, job_id: str) -> list[str]:
    token = emulator.token(FULL["email"])
    status = requests.get(
        f"{emulator.base_url}/bulk-download/job-status/{job_id}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    ).json()
    return [entry["url"] for entry in status["presigned_urls"]]


if __name__ == "__main__":
    sys.exit(main())
