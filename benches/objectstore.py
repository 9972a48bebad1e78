"""Bulk files in object storage: downloads into moto's S3 against downloads
into a local folder, ``read_bulk`` from S3 against ``pyarrow.dataset``, and
the peak memory of each.

1. A year of one vertical (by default ``CRUDE``, 2024-07 to 2025-06)
   downloaded into a local folder and into moto's S3, then read back from S3
   by ``read_bulk`` and by ``pyarrow.dataset`` over ``pyarrow.fs.S3FileSystem``
   (the same objects). Targets: the download into S3 within 1.5 times the
   local one, the read within 1.2 times pyarrow's.
2. One month made big with ``Emulator.add_curves`` (by default 5,500 more
   ``CRUDE`` curves: one file of over 200 MB), downloaded into each and read
   back, to show that a download's memory does not grow with the file: the
   file is streamed, to disk or in parts of 8 MiB (4 in flight) into S3.

The emulator runs in this script's process, moto in a process of its own,
and every download and read in a fresh process of its own, which reports its
peak resident memory (``ru_maxrss``): the figures are the client's alone.
Contenders take turns; times are medians of ``--repeats`` runs.
Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/objectstore.py [--vertical CRUDE] [--start 2024-07 --end 2025-06]
        [--repeats 5] [--big-curves 5500] [--part year|big|both]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

FULL = {"email": "full@marketcurves.test", "password": "full-password"}
KEY_ID, SECRET, REGION = "AKIAOBJECTSTOREBENCH", "bench-secret", "us-east-1"
#: The big month: the last complete one before the emulator's clock.
BIG_MONTH = "2025-06"
#: Emulated seconds per real second: a job (2 s + 0.5 s a month) ends at
#: once, its URLs last 6 minutes of real time.
TIME_SCALE = 10
#: Files a download fetches at once (`BulkOptions::concurrent_files`), and so
#: moto's uploads at once when it is measured alone.
UPLOADS = 4

#: moto's S3 in a process of its own: prints its port, serves until stdin closes.
_MOTO = """
import sys
from moto.server import ThreadedMotoServer
server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
print(server.get_host_and_port()[1], flush=True)
sys.stdin.read()
server.stop()
"""


def _status_mb(field: str) -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise LookupError(field)


def start_peak() -> float:
    """Starts measuring this process's peak resident memory afresh (the
    imports' peak is not the operation's); returns the memory resident now."""
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")
    return _status_mb("VmRSS")


def peak_mb() -> float:
    """This process's peak resident memory since :func:`start_peak`."""
    return _status_mb("VmHWM")


def cpu_seconds(pid: int | None = None) -> float:
    """User and system CPU time of a process (this one by default)."""
    with open(f"/proc/{pid or 'self'}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def storage_options(endpoint: str) -> dict[str, str]:
    return {
        "aws_endpoint": endpoint,
        "aws_allow_http": "true",
        "aws_access_key_id": KEY_ID,
        "aws_secret_access_key": SECRET,
        "aws_region": REGION,
    }


# The contenders, each run in a process of its own.


def download(args: argparse.Namespace) -> dict[str, Any]:
    """One download of a job's files into ``args.dest`` (a folder or an S3 URL)."""
    import marketcurves as mc

    client = mc.Client(base_url=args.base_url, **FULL)
    job = client.bulk_submit(args.vertical, args.start, args.end).wait(poll_interval=0.05)
    options = storage_options(args.endpoint) if args.dest.startswith("s3://") else None
    before, cpu = start_peak(), cpu_seconds()
    started = time.perf_counter()
    result = job.download(args.dest, progress=False, storage_options=options)
    seconds = time.perf_counter() - started
    peak, cpu = peak_mb(), cpu_seconds() - cpu
    client.close()
    return {
        "seconds": seconds,
        "bytes": result.bytes,
        "files": len(result.files),
        "rows": result.rows,
        "before_mb": before,
        "peak_mb": peak,
        "cpu": cpu,
    }


def read(args: argparse.Namespace) -> dict[str, Any]:
    """One read of the dataset under ``args.dest`` (an S3 URL), by ``args.reader``."""
    # Imports are not the read, for either contender: importing
    # pyarrow.dataset imports pandas (when installed), which pyarrow.table(),
    # handing read_bulk's table over, would otherwise import on first use
    # (0.2 to 0.3 s here).
    import pyarrow as pa
    import pyarrow.dataset as pads
    import pyarrow.fs as pafs

    if args.reader == "read_bulk":
        import marketcurves as mc

        def run() -> pa.Table:
            return mc.read_bulk(args.dest, storage_options=storage_options(args.endpoint))
    else:
        host = args.endpoint.removeprefix("http://")
        s3 = pafs.S3FileSystem(
            access_key=KEY_ID,
            secret_key=SECRET,
            region=REGION,
            endpoint_override=host,
            scheme="http",
        )

        def run() -> pa.Table:
            dataset = pads.dataset(
                args.dest.removeprefix("s3://"),
                filesystem=s3,
                format="parquet",
                partitioning="hive",
            )
            return dataset.to_table()

    before, cpu = start_peak(), cpu_seconds()
    started = time.perf_counter()
    table = run()
    seconds = time.perf_counter() - started
    return {
        "seconds": seconds,
        "rows": table.num_rows,
        "table_mb": table.nbytes / 1e6,
        "before_mb": before,
        "peak_mb": peak_mb(),
        "cpu": cpu_seconds() - cpu,
    }


def contender(role: str, **options: str) -> dict[str, Any]:
    """Runs a contender in a fresh process, without the machine's AWS settings."""
    command = [sys.executable, __file__, "--role", role]
    for name, value in options.items():
        command += [f"--{name.replace('_', '-')}", value]
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("AWS_")}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


# The script.


class Moto:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _MOTO],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        self.endpoint = f"http://127.0.0.1:{int(self.process.stdout.readline())}"
        import boto3
        from botocore.config import Config

        self.s3 = boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=KEY_ID,
            aws_secret_access_key=SECRET,
            region_name=REGION,
            config=Config(proxies={}),
        )

    def bucket(self) -> str:
        name = f"bench-{uuid.uuid4().hex[:12]}"
        self.s3.create_bucket(Bucket=name)
        return name

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


def median(results: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in results)


def spread(results: list[dict[str, Any]], key: str) -> str:
    values = [r[key] for r in results]
    return f"{min(values):.3f} to {max(values):.3f}"


def watched(moto: Moto, role: str, **options: str) -> dict[str, Any]:
    """A contender, with the CPU time moto spent meanwhile."""
    moto_cpu = cpu_seconds(moto.process.pid)
    result = contender(role, **options)
    result["moto_cpu"] = cpu_seconds(moto.process.pid) - moto_cpu
    return result


def moto_alone(moto: Moto, folder: Path, bucket: str, threads: int) -> float:
    """The same files put into moto by boto3, ``threads`` at once: what moto
    takes to store those bytes whoever sends them."""
    files = sorted(p for p in folder.rglob("*.parquet"))
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        keys = [f"alone-{uuid.uuid4().hex}/{p.relative_to(folder).as_posix()}" for p in files]
        list(
            pool.map(
                lambda pair: moto.s3.upload_file(str(pair[0]), bucket, pair[1]),
                zip(files, keys, strict=True),
            )
        )
    return time.perf_counter() - started


def line(name: str, results: list[dict[str, Any]], size: float, what: str) -> str:
    seconds = median(results, "seconds")
    text = (
        f"  {name:>20}: {seconds:.3f} s ({spread(results, 'seconds')}),"
        f" {size / 1e6 / seconds:.0f} MB/s; peak memory {median(results, 'peak_mb'):.0f} MB"
        f" ({median(results, 'before_mb'):.0f} MB before {what}); CPU:"
        f" client {median(results, 'cpu'):.2f} s"
    )
    if median(results, "moto_cpu") > 0.05:
        text += f", moto {median(results, 'moto_cpu'):.2f} s"
    return text


def measure(
    moto: Moto, base_url: str, scratch: Path, work: dict[str, str], repeats: int, label: str
) -> dict[str, Any]:
    """Downloads into a folder and into S3 in turns, then reads S3 back in turns."""
    bucket = moto.bucket()
    local, remote, alone, ours, theirs = [], [], [], [], []
    common = {"base_url": base_url, "endpoint": moto.endpoint, **work}
    for run in range(repeats):
        local.append(watched(moto, "download", dest=str(scratch / f"{label}-{run}"), **common))
        remote.append(watched(moto, "download", dest=f"s3://{bucket}/{label}-{run}", **common))
        alone.append(moto_alone(moto, scratch / f"{label}-0", bucket, UPLOADS))
        if run > 0:
            shutil.rmtree(scratch / f"{label}-{run}")
    dest = f"s3://{bucket}/{label}-0"
    for _ in range(repeats):
        ours.append(watched(moto, "read", dest=dest, reader="read_bulk", **common))
        theirs.append(watched(moto, "read", dest=dest, reader="pyarrow", **common))
    first = local[0]
    size = first["bytes"]
    print(
        f"{label}: {work['vertical']} {work['start']}..{work['end']}: {first['files']} files,"
        f" {size / 1e6:.1f} MB, {first['rows']:,} rows; {repeats} runs each"
    )
    print(line("download to a folder", local, size, "the download"))
    print(line("download to S3", remote, size, "the download"))
    print(
        f"  {'moto alone':>20}: {statistics.median(alone):.3f} s: boto3 upload_file of the"
        f" same files, {UPLOADS} at once"
    )
    ratio = median(remote, "seconds") / median(local, "seconds")
    bound = median(remote, "seconds") / statistics.median(alone)
    print(f"  S3 / folder: {ratio:.2f} (target <= 1.5); S3 / moto alone: {bound:.2f}")
    print(line("read_bulk from S3", ours, size, "the read"))
    print(line("pyarrow.dataset S3", theirs, size, "the read"))
    print(
        f"  tables: {ours[0]['table_mb']:.0f} MB and {theirs[0]['table_mb']:.0f} MB,"
        f" {ours[0]['rows']:,} rows"
    )
    read_ratio = median(ours, "seconds") / median(theirs, "seconds")
    print(f"  read_bulk / pyarrow: {read_ratio:.2f} (target <= 1.2)")
    if {r["rows"] for r in ours + theirs} != {first["rows"]}:
        print("error: the reads do not all give the rows downloaded", file=sys.stderr)
    return {"download_ratio": ratio, "read_ratio": read_ratio}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertical", default="CRUDE")
    parser.add_argument("--start", default="2024-07")
    parser.add_argument("--end", default="2025-06")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--big-curves", type=int, default=5500)
    parser.add_argument("--part", choices=("year", "big", "both"), default="both")
    for hidden in ("--role", "--base-url", "--endpoint", "--dest", "--reader"):
        parser.add_argument(hidden, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role:
        print(json.dumps({"download": download, "read": read}[args.role](args)))
        return 0

    from marketcurves.testing import Emulator

    moto = Moto()
    try:
        with (
            Emulator(seed=0, time_scale=TIME_SCALE, start="2025-07-15T12:00:00Z") as emulator,
            tempfile.TemporaryDirectory(prefix="marketcurves-objectstore-") as folder,
        ):
            scratch = Path(folder)
            client = emulator.client(**FULL)
            year = {"vertical": args.vertical, "start": args.start, "end": args.end}
            big = {"vertical": args.vertical, "start": BIG_MONTH, "end": BIG_MONTH}
            if args.part in ("year", "both"):
                # Files are built when their job ends: built here first, the
                # contenders' jobs find them ready and time the transfer alone.
                client.bulk_submit(**year).wait(poll_interval=0.05)
                measure(moto, emulator.base_url, scratch, year, args.repeats, "year")
            if args.part in ("big", "both"):
                emulator.add_curves(args.vertical, args.big_curves)
                before, started = start_peak(), time.perf_counter()
                client.bulk_submit(**big).wait(poll_interval=0.1, timeout=None)
                print(
                    f"big month: {args.big_curves:,} curves added; the emulator built its file"
                    f" in {time.perf_counter() - started:.1f} s, its memory growing by"
                    f" {peak_mb() - before:.0f} MB at the peak (it holds built files in memory)"
                )
                measure(moto, emulator.base_url, scratch, big, min(args.repeats, 3), "big")
            client.close()
    finally:
        moto.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
