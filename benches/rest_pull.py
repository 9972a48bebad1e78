"""marketcurves against a plain-Python client, pulling history from the emulator.

The workload (issue: "a year of settlements for 50 tenors plus 90 days of
1-minute intraday for 5 tenors, with 20 ms of added latency per request"):

* the baseline is written the way a user would: ``requests`` in a loop,
  ``json``, then a ``pandas.DataFrame``;
* marketcurves uses ``Client.settlements`` and ``Client.intraday_history``,
  then ``mc.to_pandas`` (its default, Arrow-backed ``nested="arrow"``).

Each contender runs in its own process (so peak memory is its own) against one
emulator process. The bound is what latency and concurrency alone allow:
requests / max_concurrency x latency. Peak memory is the process's high-water
mark (``VmHWM``), set against the size of the Arrow tables. After the timed
run, the marketcurves process times ``to_pandas`` in each ``nested`` mode on
the same tables, with its high-water mark reset before each, so that each
mode's extra memory is its own.

No client can beat the emulator itself, which takes some time to serve
each page on the same cores: where curl is installed, the same requests are
fetched by ``curl --parallel``, bodies discarded, and the pull is set against
that floor too. Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/rest_pull.py            # --quick for a smaller workload

The baseline takes two minutes and does not change with the package:
``--reuse-baseline`` takes its figures from the last run of the same plan.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

START = "2025-06-13T17:00:00Z"
TODAY = dt.date(2025, 6, 13)
LATENCY_MS = 20
CONCURRENCY = 16
NESTED_MODES = ("arrow", "python", "drop")
BASELINE_FILE = Path("/tmp/marketcurves-bench-baseline.json")


def memory_mb(field: str) -> float:
    """``VmHWM`` (the peak) or ``VmRSS`` (now) of this process, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError(f"no {field} in /proc/self/status")


def reset_peak() -> None:
    """Sets this process's ``VmHWM`` back to its resident size (Linux 4.0+)."""
    Path("/proc/self/clear_refs").write_text("5")


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


def run_baseline(base_url: str, work: dict) -> tuple[int, int, float, dict]:
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
    return len(frame), requests_made, pulled, {}


def run_marketcurves(base_url: str, work: dict) -> tuple[int, int, float, dict]:
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
    pull_peak_mb = memory_mb("VmHWM")
    frames = [mc.to_pandas(settlements), mc.to_pandas(intraday)]
    rows = sum(len(f) for f in frames)
    extra = {"table_mb": (settlements.nbytes + intraday.nbytes) / 1e6, "pull_peak_mb": pull_peak_mb}
    return rows, 0, pulled, {**extra, "tables": (settlements, intraday)}


def time_modes(tables: tuple) -> dict[str, dict[str, float]]:
    """``to_pandas`` of the tables in each ``nested`` mode: seconds, and the
    peak memory it added over what the process held before it."""
    import marketcurves as mc

    modes = {}
    for mode in NESTED_MODES:
        gc.collect()
        reset_peak()
        before = memory_mb("VmRSS")
        started = time.perf_counter()
        frames = [mc.to_pandas(t, nested=mode) for t in tables]
        seconds = time.perf_counter() - started
        modes[mode] = {"seconds": seconds, "extra_peak_mb": memory_mb("VmHWM") - before}
        del frames
    return modes


def contender(name: str, base_url: str, plan_file: str) -> None:
    work = json.loads(Path(plan_file).read_text())
    # Imports are not part of a pull: both contenders have them loaded first.
    import pandas  # noqa: F401

    import marketcurves  # noqa: F401

    imported_mb = memory_mb("VmRSS")
    started = time.perf_counter()
    run = run_baseline if name == "baseline" else run_marketcurves
    rows, made, pulled, extra = run(base_url, work)
    seconds = time.perf_counter() - started
    result = {"seconds": seconds, "pull_seconds": pulled - started, "rows": rows}
    result |= {"requests": made, "peak_mb": memory_mb("VmHWM"), "imported_mb": imported_mb}
    tables = extra.pop("tables", None)
    if tables is not None:
        extra["modes"] = time_modes(tables)
    print(json.dumps({**result, **extra}))


def request_urls(base_url: str, work: dict) -> list[str]:
    """Every request of the workload, as the baseline makes them: each
    window's page count read from its first page's ``last`` link."""
    headers = login(base_url)
    quote = requests.utils.quote
    urls = [
        f"{base_url}/historical/settlements/{work['settlement_curve']}/{quote(tenor)}"
        f"?startDate={work['settlement_start']}&endDate={work['end']}"
        for tenor in work["settlement_tenors"]
    ]
    start, end = dt.date.fromisoformat(work["intraday_start"]), dt.date.fromisoformat(work["end"])
    for tenor in work["intraday_tenors"]:
        first = start
        while first <= end:
            last = min(first + dt.timedelta(days=29), end)
            window = (
                f"{base_url}/historical/intraday/{work['intraday_curve']}/{quote(tenor)}"
                f"?startDate={first}&endDate={last}"
            )
            page = requests.get(f"{window}&page=1&pageSize=100", headers=headers, timeout=30)
            pages = int(re.search(r"[?&]page=(\d+)", page.json()["last"]).group(1))
            urls += [f"{window}&page={n}&pageSize=100" for n in range(1, pages + 1)]
            first = last + dt.timedelta(days=1)
    return urls


def fetch_only_seconds(base_url: str, work: dict) -> float | None:
    """The emulator's floor: curl fetching every request of the workload,
    ``CONCURRENCY`` at a time, bodies discarded (the best of three). None
    without curl 7.66 or later (``--parallel``)."""
    if shutil.which("curl") is None:
        return None
    urls = request_urls(base_url, work)
    token = login(base_url)["Authorization"]
    best = None
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "requests.curlrc"
        lines = [f'header = "Authorization: {token}"']
        lines += [f'url = "{url}"\noutput = "/dev/null"' for url in urls]
        config.write_text("\n".join(lines))
        command = ["curl", "--silent", "--fail", "--parallel", "--parallel-max", str(CONCURRENCY)]
        for _ in range(3):
            started = time.perf_counter()
            done = subprocess.run([*command, "--config", str(config)], capture_output=True)
            if done.returncode != 0:
                return None
            seconds = time.perf_counter() - started
            best = seconds if best is None else min(best, seconds)
    return best


def measure(name: str, base_url: str, plan_file: Path) -> dict:
    command = [sys.executable, __file__, "--contender", name, "--base-url", base_url]
    output = subprocess.run([*command, "--plan", str(plan_file)], capture_output=True, text=True)
    if output.returncode != 0:
        raise RuntimeError(output.stderr)
    return json.loads(output.stdout.strip().splitlines()[-1])


def baseline_of(base_url: str, work: dict, reuse: bool) -> dict:
    """The baseline's figures: measured, or (``reuse``) those of the last run
    of the same plan."""
    if reuse and BASELINE_FILE.exists():
        saved = json.loads(BASELINE_FILE.read_text())
        if saved["plan"] == work:
            return saved["result"]
        print("the last baseline ran another plan: measuring it again")
    plan_file = Path("/tmp/marketcurves-bench-plan.json")
    result = measure("baseline", base_url, plan_file)
    BASELINE_FILE.write_text(json.dumps({"plan": work, "result": result}))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 + 2 tenors, 30 days of intraday")
    parser.add_argument(
        "--reuse-baseline",
        action="store_true",
        help="the baseline's figures from the last run of the same plan, if there is one",
    )
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
        baseline = baseline_of(base_url, work, args.reuse_baseline)
        ours = measure("marketcurves", base_url, plan_file)
        floor = fetch_only_seconds(base_url, work)
    finally:
        emulator.terminate()
        emulator.wait()
    bound = baseline["requests"] / CONCURRENCY * LATENCY_MS / 1000
    print(
        f"workload: {baseline['requests']} requests, {LATENCY_MS} ms latency each,"
        f" {baseline['rows']:,} rows, {ours['table_mb']:.0f} MB of Arrow tables"
    )
    for name, result in (("baseline", baseline), ("marketcurves", ours)):
        print(
            f"{name:>13}: {result['seconds']:7.2f} s in all, {result['pull_seconds']:6.2f} s to pull,"
            f" peak {result['peak_mb']:5.0f} MB ({result['imported_mb']:.0f} MB after imports),"
            f" {result['rows']:,} rows"
        )
    print(
        f"{'':>13}  peak {ours['pull_peak_mb']:.0f} MB when pulled, {ours['peak_mb']:.0f} MB"
        f" with the DataFrames; {ours['table_mb']:.0f} MB of Arrow tables"
    )
    for mode, figures in ours["modes"].items():
        print(
            f"{'to_pandas':>13}: nested={mode!r:<9} {figures['seconds']:6.3f} s,"
            f" peak +{figures['extra_peak_mb']:.0f} MB"
        )
    print(
        f"speed-up over the baseline: {baseline['seconds'] / ours['seconds']:.1f}x (target >= 10x)"
    )
    print(f"latency bound at concurrency {CONCURRENCY}: {bound:.2f} s")
    if floor is not None:
        print(
            f"fetch-only floor (curl, {CONCURRENCY} at a time, bodies discarded): {floor:.2f} s,"
            f" {floor / bound:.3f} of the bound; pull / floor: {ours['pull_seconds'] / floor:.3f}"
        )
    print(f"ratio pull / bound: {ours['pull_seconds'] / bound:.3f} (target <= 1.1)")
    print(f"ratio pull+DataFrame / bound: {ours['seconds'] / bound:.3f} (target <= 1.2)")
    print(f"ratio peak / table: {ours['peak_mb'] / ours['table_mb']:.2f} (target <= 2)")
    pull_own = ours["pull_peak_mb"] - ours["imported_mb"]
    print(
        f"ratio the pull's own peak (peak when pulled - imports) / table:"
        f" {pull_own / ours['table_mb']:.2f} (target <= 1.5)"
    )
    return 0 if baseline["rows"] == ours["rows"] else 1


if __name__ == "__main__":
    sys.exit(main())
