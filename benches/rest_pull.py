"""marketcurves against a plain-Python client, pulling history from the emulator.

The workload (issue: "a year of settlements for 50 tenors plus 90 days of
1-minute intraday for 5 tenors, with 20 ms of added latency per request"):

* the baseline is written the way a user would: ``requests`` in a loop,
  ``json``, then a ``pandas.DataFrame``;
* marketcurves uses ``Client.settlements`` and ``Client.intraday_history``,
  then ``mc.to_pandas``.

Each contender runs in its own process (so peak memory is its own) against one
emulator process. The bound is what latency and concurrency alone allow:
requests / max_concurrency x latency. Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/rest_pull.py            # --quick for a smaller workload
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import requests

START = "2025-06-13T17:00:00Z"
TODAY = dt.date(2025, 6, 13)
LATENCY_MS = 20
CONCURRENCY = 16


def start_emulator() -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "marketcurves", "emulator", "--port", "0"]
    command += ["--time-scale", "0", "--start", START, "--latency-ms", str(LATENCY_MS)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        if "MARKETCURVES_BASE_URL=" in line:
            return process, line.split("=", 1)[1].strip()
    raise RuntimeError("the emulator did not start")


def login(base_url: str) -> dict[str, str]:
    credentials = {"email": "demo@marketcurves.test", "password": "demo-password"}
    token = requests.post(f"{base_url}/authenticate", json=credentials, timeout=30).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def plan(base_url: str, quick: bool) -> dict[str, object]:
    """Chooses the curves and tenors: the same for both contenders."""
    headers = login(base_url)
    curves = requests.get(
        f"{base_url}/catalogue", params={"pageSize": 500}, headers=headers, timeout=30
    ).json()["items"]
    licensed = [c for c in curves if c["quotation"] != "Sales"]
    many = max(licensed, key=lambda c: len(c["contracts"]))
    minute = None
    for curve in licensed:
        month = next(t for t in curve["contracts"] if t[:3].isalpha() and t[3] == " ")
        tenor = requests.utils.quote(month)
        page = requests.get(
            f"{base_url}/ongoing/intraday/{curve['id']}/{tenor}", headers=headers, timeout=30
        ).json()
        if "page=11&" in page["last"]:  # 17 hours of 1-minute values: 1,020 in pages of 100
            minute = curve
            break
    assert minute is not None, "no 1-minute curve"
    months = [t for t in minute["contracts"] if t[:3].isalpha() and t[3] == " "]
    return {
        "settlement_curve": many["id"],
        "settlement_tenors": many["contracts"][: 10 if quick else 50],
        "settlement_start": str(TODAY - dt.timedelta(days=365)),
        "intraday_curve": minute["id"],
        "intraday_tenors": months[: 2 if quick else 5],
        "intraday_start": str(TODAY - dt.timedelta(days=29 if quick else 89)),
        "end": str(TODAY),
    }


def run_baseline(base_url: str, work: dict) -> tuple[int, int]:
    import pandas as pd

    session = requests.Session()
    session.headers.update(login(base_url))
    records, requests_made = [], 0
    for tenor in work["settlement_tenors"]:
        url = f"{base_url}/historical/settlements/{work['settlement_curve']}/{requests.utils.quote(tenor)}"
        params = {"startDate": work["settlement_start"], "endDate": work["end"]}
        response = session.get(url, params=params, timeout=30)
        requests_made += 1
        for day in json.loads(response.text):
            records.append({"tenor": tenor, "date": day["date"], **day["value"]})
    start, end = dt.date.fromisoformat(work["intraday_start"]), dt.date.fromisoformat(work["end"])
    for tenor in work["intraday_tenors"]:
        first = start
        while first <= end:
            last = min(first + dt.timedelta(days=29), end)
            url = f"{base_url}/historical/intraday/{work['intraday_curve']}/{requests.utils.quote(tenor)}"
            params: dict[str, object] = {"startDate": str(first), "endDate": str(last), "page": 1}
            while True:
                page = json.loads(session.get(url, params=params, timeout=30).text)
                requests_made += 1
                records.extend(page["items"])
                if not page["next"]:
                    break
                params["page"] = int(params["page"]) + 1  # type: ignore[call-overload]
            first = last + dt.timedelta(days=1)
    pulled = time.perf_counter()
    frame = pd.DataFrame.from_records(records)
    frame["generatedOn"] = pd.to_datetime(frame["generatedOn"], utc=True, format="ISO8601")
    return len(frame), requests_made, pulled


def run_marketcurves(base_url: str, work: dict) -> tuple[int, int]:
    import marketcurves as mc

    client = mc.Client(
        base_url=base_url,
        email="demo@marketcurves.test",
        password="demo-password",
        max_concurrency=CONCURRENCY,
    )
    settlements = client.settlements(
        work["settlement_curve"], work["settlement_start"], work["end"], work["settlement_tenors"]
    )
    intraday = client.intraday_history(
        work["intraday_curve"], work["intraday_start"], work["end"], work["intraday_tenors"]
    )
    pulled = time.perf_counter()
    rows = len(mc.to_pandas(settlements)) + len(mc.to_pandas(intraday))
    return rows, 0, pulled


def contender(name: str, base_url: str, plan_file: str) -> None:
    work = json.loads(Path(plan_file).read_text())
    # Imports are not part of a pull: both contenders have them loaded first.
    import pandas  # noqa: F401

    import marketcurves  # noqa: F401

    started = time.perf_counter()
    run = run_baseline if name == "baseline" else run_marketcurves
    rows, made, pulled = run(base_url, work)
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result = {"seconds": seconds, "pull_seconds": pulled - started, "rows": rows}
    print(json.dumps({**result, "requests": made, "peak_mb": peak_mb}))


def measure(name: str, base_url: str, plan_file: Path) -> dict:
    command = [sys.executable, __file__, "--contender", name, "--base-url", base_url]
    output = subprocess.run([*command, "--plan", str(plan_file)], capture_output=True, text=True)
    if output.returncode != 0:
        raise RuntimeError(output.stderr)
    return json.loads(output.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 + 2 tenors, 30 days of intraday")
    parser.add_argument("--contender", help=argparse.SUPPRESS)
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    parser.add_argument("--plan", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.contender:
        contender(args.contender, args.base_url, args.plan)
        return 0
    emulator, base_url = start_emulator()
    try:
        work = plan(base_url, args.quick)
        plan_file = Path("/tmp/marketcurves-bench-plan.json")
        plan_file.write_text(json.dumps(work))
        baseline = measure("baseline", base_url, plan_file)
        ours = measure("marketcurves", base_url, plan_file)
    finally:
        emulator.terminate()
        emulator.wait()
    bound = baseline["requests"] / CONCURRENCY * LATENCY_MS / 1000
    print(
        f"workload: {baseline['requests']} requests, {LATENCY_MS} ms latency each, {baseline['rows']:,} rows"
    )
    for name, result in (("baseline", baseline), ("marketcurves", ours)):
        print(
            f"{name:>13}: {result['seconds']:7.2f} s in all, {result['pull_seconds']:6.2f} s to pull,"
            f" peak {result['peak_mb']:5.0f} MB, {result['rows']:,} rows"
        )
    print(
        f"speed-up over the baseline: {baseline['seconds'] / ours['seconds']:.1f}x (target >= 10x)"
    )
    print(
        f"latency bound at concurrency {CONCURRENCY}: {bound:.2f} s; "
        f"marketcurves pull / bound: {ours['pull_seconds'] / bound:.2f} (target <= 1.5)"
    )
    return 0 if baseline["rows"] == ours["rows"] else 1


if __name__ == "__main__":
    sys.exit(main())
