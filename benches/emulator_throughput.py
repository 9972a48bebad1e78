"""How many 100-record intraday pages per second the emulator serves.

The emulator must not be the bottleneck of the client's benchmarks: the target
is 2,000 pages/s on a 2-core machine. Uses `wrk` (Debian package `wrk`), run
against the installed package, best with an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/emulator_throughput.py [--seconds 10] [--connections 32]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys

import requests

from marketcurves.testing import Emulator

TARGET = 2_000.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 2
    with Emulator(seed=0, time_scale=0, start="2025-06-13T17:00:00Z") as emulator:
        token = emulator.token()
        headers = {"Authorization": f"Bearer {token}"}
        catalogue = requests.get(
            f"{emulator.base_url}/catalogue", params={"pageSize": 500}, headers=headers, timeout=10
        ).json()["items"]
        curve = next(
            c for c in catalogue if c["quotation"] != "Sales" and "Jul 25" in c["contracts"]
        )
        url = (
            f"{emulator.base_url}/historical/intraday/{curve['id']}/Jul%2025"
            "?startDate=2025-05-01&endDate=2025-05-30&page=3&pageSize=100"
        )
        page = requests.get(url, headers=headers, timeout=10)
        assert len(page.json()["items"]) == 100, page.text[:200]
        command = ["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s"]
        command += ["-H", f"Authorization: Bearer {token}", url]
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    print(f"page size: {len(page.content)} bytes, 100 records")
    print(f"emulator: {rate:,.0f} pages/s; target {TARGET:,.0f} pages/s; ratio {rate / TARGET:.2f}")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
