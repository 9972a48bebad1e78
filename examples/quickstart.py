"""A tour of marketcurves.

Run it with ``bash scripts/quickstart`` (see the README). With
``MARKETCURVES_BASE_URL`` and a token (``MARKETCURVES_TOKEN``, or
``MARKETCURVES_EMAIL`` and ``MARKETCURVES_PASSWORD``) set it talks to the
service; otherwise to the emulator that ships with the package, started here
in-process.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator

import marketcurves as mc
from marketcurves.testing import Emulator

PLOT = "forward_curve.png"


@contextlib.contextmanager
def connect() -> Iterator[mc.Client]:
    has_token = os.environ.get("MARKETCURVES_TOKEN") or os.environ.get("MARKETCURVES_PASSWORD")
    if os.environ.get("MARKETCURVES_BASE_URL") and has_token:
        print(f"Using the service at {os.environ['MARKETCURVES_BASE_URL']}")
        yield mc.Client()
        return
    with Emulator(seed=0) as emulator:
        print(
            f"Using the emulator at {emulator.base_url} (clock {emulator.now():%Y-%m-%d %H:%M} UTC)"
        )
        yield emulator.client()


def timed(label: str, pull):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = pull()
    print(f"{label}: {result.num_rows:,} rows in {time.perf_counter() - started:.2f} s")
    return result


def main() -> int:
    print(f"marketcurves {mc.__version__}")
    with connect() as client:
        catalogue = client.catalogue()
        per_vertical = Counter(curve.vertical for curve in catalogue)
        print(f"\nThe catalogue has {len(catalogue)} curves:")
        print("  " + ", ".join(f"{v} {n}" for v, n in sorted(per_vertical.items(), key=str)))

        jet = client.catalogue(vertical="Jet", quotation="Fob")
        curve = max(jet, key=lambda c: len(c.contracts))
        print(f"\n{curve.name} ({curve.units}), {len(curve.contracts)} contracts:")
        print("  " + ", ".join(t.name for t in curve.tenors[:12]) + ", …")

        today = dt.datetime.now(dt.UTC).date()
        print()
        year = timed(
            "A year of settlements, every tenor",
            lambda: client.settlements(curve, today - dt.timedelta(days=365), today),
        )
        front = next(t for t in curve.tenors if t.kind == "month")
        intraday = timed(
            f"90 days of intraday values of {front}",
            lambda: client.intraday_history(
                curve, today - dt.timedelta(days=90), today, [front.name]
            ),
        )

        frame = mc.to_pandas(year)
        print("\nSettlements per tenor (first rows):")
        summary = frame.groupby("tenor", observed=True)["price"].agg(
            ["count", "min", "max", "last"]
        )
        print(summary.head(8).round(2).to_string())
        ticks = mc.to_pandas(intraday)
        print(
            f"\nIntraday {front}: {len(ticks):,} values from {ticks['generated_on'].min():%Y-%m-%d %H:%M}"
            f" to {ticks['generated_on'].max():%Y-%m-%d %H:%M} UTC"
        )

        curve_today = mc.forward_curve(year)
        print(f"\nForward curve on {curve_today.name}: {len(curve_today)} tenors")
        print(curve_today.head(6).to_string())
        save_plot(curve_today, f"{curve.name}, {curve_today.name}", curve.units or "")

        if client.live_url is not None:
            watch_live(client, curve, seconds=5.0)
    return 0


def watch_live(client: mc.Client, curve: mc.Curve, seconds: float) -> None:
    """A few seconds of the live feed: the snapshot of every tenor, then
    whatever is published meanwhile."""
    print(f"\nLive feed of {curve.name} for {seconds:.0f} s:")
    sources: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    with client.live() as feed:
        feed.subscribe(curve, "*")
        while (left := deadline - time.monotonic()) > 0:
            tick = feed.next(timeout=left)
            if tick is None:
                continue
            if sources[tick.source] < 3:
                when = tick.generated_on.isoformat(timespec="milliseconds")
                print(f"  {tick.source:<8} {tick.tenor:<14} {when}  {tick.price}")
            sources[tick.source] += 1
        stats = feed.stats()
    print(
        "  "
        + ", ".join(f"{n} {s}s" for s, n in sources.items())
        + f"; {stats['messages']} messages, {stats['reconnects']} reconnects"
    )


def save_plot(series, title: str, units: str) -> None:  # type: ignore[no-untyped-def]
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("\n(matplotlib is not installed: no plot)")
        return
    months = series[[mc.Tenor.parse(str(t), strict=False).kind == "month" for t in series.index]]
    axes = months.plot(marker=".", figsize=(10, 4), title=title, rot=60)
    axes.set_ylabel(units)
    axes.set_xlabel("monthly tenor")
    plt.tight_layout()
    plt.savefig(PLOT, dpi=100)
    print(f"\nSaved the forward curve to {PLOT}")


if __name__ == "__main__":
    sys.exit(main())
