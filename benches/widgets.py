"""The notebook widgets under a fast feed: what they send, what they cost,
and how soon a tick is on the screen.

A lake of six curves' day (about 52,000 values, backfilled from the
emulator) is replayed paced at about 5,000 ticks a second, each part in
the same run:

* updates sent to the front end a second (a ``LiveCurve`` and a
  ``LiveBoard`` on the feed), against ``max_fps`` (target: at most 1);
* the kernel's CPU for the widgets: the process's CPU time over the replay
  with both widgets, less that of the same replay read by a bare
  ``batches()`` loop (the baseline, measured in the same run), as a share
  of one core (target: under 10 %);
* in Chromium (``--part browser``; needs Debian's chromium and
  chromium-driver and the ``browser`` dependency group), the same replay in
  a notebook: the time from the reader taking a tick off the feed to its
  point redrawn on the page, median and p99 (the throttle's wait included).

    python benches/widgets.py [--rate 5000] [--part kernel|browser|all]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import marketcurves as mc
from marketcurves.testing import Emulator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

DAY = ("2025-06-10T00:00", "2025-06-11T00:00")
CURVES = 6


def make_lake(root: Path) -> tuple[list[str], int]:
    """The lake, its curves' ids, and how many values the day holds."""
    with Emulator(seed=0, time_scale=0, start="2025-06-11T09:00:00Z") as em, em.client() as client:
        curves = [c.id for c in client.catalogue() if c.quotation != "Sales"][:CURVES]
        client.backfill(root, [(c, "*") for c in curves], DAY[0][:10], DAY[0][:10])
        total = mc.read_ticks(root).num_rows
    return curves, total


def replay_once(
    client: mc.Client, lake: Path, curves: list[str], speed: float, widgets: bool
) -> dict[str, float]:
    feed = client.replay(*DAY, source=str(lake), speed=speed)
    for curve in curves:
        feed.subscribe(curve)
    cpu, started = time.process_time(), time.monotonic()
    ticks = 0
    if widgets:
        chart = mc.widgets.LiveCurve(feed, curves[0], kinds="all")
        board = mc.widgets.LiveBoard(feed)
        while board.state in ("waiting", "live"):
            time.sleep(0.05)
        ticks = board.ticks
        sent = max(chart.updates_sent, board.updates_sent)
        chart.close()
        board.close()
    else:
        for batch in feed.batches(max_rows=10_000, timeout=0.05):
            ticks += batch.num_rows
        sent = 0
    elapsed = time.monotonic() - started
    used = time.process_time() - cpu
    feed.close()
    return {"elapsed": elapsed, "cpu": used, "ticks": ticks, "sent": sent}


def kernel(lake: Path, curves: list[str], total: int, rate: float) -> None:
    speed = 86_400 * rate / total
    with Emulator(seed=0, time_scale=0, start="2025-06-11T09:00:00Z") as em, em.client() as client:
        base = replay_once(client, lake, curves, speed, widgets=False)
        run = replay_once(client, lake, curves, speed, widgets=True)
    fps = 10.0
    per_second = run["sent"] / run["elapsed"]
    print(
        f"ticks/s: {run['ticks'] / run['elapsed']:,.0f} ({run['ticks']:,} ticks in {run['elapsed']:.1f} s; "
        f"baseline {base['ticks'] / base['elapsed']:,.0f})"
    )
    print(
        f"updates sent/s: {per_second:.2f}; / max_fps {fps:g} = {per_second / fps:.2f} (target <= 1)"
    )
    share = (run["cpu"] / run["elapsed"]) - (base["cpu"] / base["elapsed"])
    print(
        f"kernel CPU for the widgets: {share:.1%} of a core (with them {run['cpu'] / run['elapsed']:.1%}, "
        f"bare batches() {base['cpu'] / base['elapsed']:.1%}); / 10 % = {share / 0.10:.2f} (target < 1)"
    )


BROWSER_CELLS = [
    """\
import marketcurves as mc
from marketcurves.testing import Emulator
emulator = Emulator(seed=0, time_scale=0, start="2025-06-11T09:00:00Z")
client = emulator.client()
feed = client.replay({start!r}, {end!r}, source={lake!r}, speed={speed!r})
for curve in {curves!r}:
    feed.subscribe(curve)""",
    "chart = mc.widgets.LiveCurve(feed, {curve!r}, kinds='all')\nchart",
]


def browser(lake: Path, curves: list[str], total: int, rate: float) -> None:
    from notebook_browser import Page, chromium, jupyter_server, notebook, wait_for, why_not

    reason = why_not()
    if reason:
        print(f"browser part skipped: {reason}")
        return
    speed = 86_400 * rate / total
    values = {
        "start": DAY[0],
        "end": DAY[1],
        "lake": str(lake),
        "speed": speed,
        "curves": curves,
        "curve": curves[0],
    }
    cells = [c.format(**values) for c in BROWSER_CELLS]
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / "bench.ipynb").write_text(notebook(cells), encoding="utf-8")
        with jupyter_server(Path(root)) as base, chromium() as driver:
            page = Page(driver, base, "bench.ipynb")
            page.run_cell(timeout=120)
            page.run_cell()
            wait_for(
                lambda: page.texts(".mc-live-curve .mc-live-state") == ["end of replay"],
                "the end",
                600,
            )
            latencies = page.script("return document.querySelector('.mc-live-curve').mcLatencies")
    latencies = sorted(latencies)
    median = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    print(
        f"tick to point moved in Chromium: median {median:.0f} ms, p99 {p99:.0f} ms "
        f"({len(latencies):,} points moved; / the throttle's interval 100 ms: {median / 100:.2f}, {p99 / 100:.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=5000.0, help="ticks a second")
    parser.add_argument("--part", choices=("kernel", "browser", "all"), default="all")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        lake = Path(root) / "lake"
        curves, total = make_lake(lake)
        print(f"lake: {total:,} values of {len(curves)} curves")
        if args.part in ("kernel", "all"):
            kernel(lake, curves, total, args.rate)
        if args.part in ("browser", "all"):
            browser(lake, curves, total, args.rate)


if __name__ == "__main__":
    main()
