"""The public operations of the fault matrix: each runs through the public API
against an emulator and returns what it delivered, in a form that compares
equal to the same operation run without faults."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from live_helpers import Curves, collect, live_options
from support import BULK_TIME_SCALE, LIVE_START, start_emulator

import marketcurves as mc
from marketcurves.testing import Emulator

FULL = {"email": "full@marketcurves.test", "password": "full-password"}


@dataclass
class Context:
    """What an operation runs against: an emulator, a client made for the
    fault at hand, and a fresh directory."""

    emulator: Emulator
    client: mc.Client
    tmp: Path
    curve: dict[str, Any]
    #: Called by the live operation once the feed is under way, to inject
    #: the fault while ticks flow (faults of the other kinds are set before).
    while_running: Callable[[], None] = lambda: None
    notes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Operation:
    name: str
    #: "rest", "bulk" or "live": which emulator it needs and which faults apply.
    kind: str
    run: Callable[[Context], Any]


def _tenor(ctx: Context) -> str:
    return next(t for t in ctx.curve["contracts"] if not t.startswith("C "))


def catalogue(ctx: Context) -> Any:
    return ctx.client.catalogue(vertical="JET").to_arrow()


def last_settlement(ctx: Context) -> Any:
    return ctx.client.last_settlement(ctx.curve["id"])


def last_assessments(ctx: Context) -> Any:
    return ctx.client.last_assessments(ctx.curve["id"])


def intraday(ctx: Context) -> Any:
    return ctx.client.intraday(ctx.curve["id"], _tenor(ctx))


def settlements(ctx: Context) -> Any:
    return ctx.client.settlements(ctx.curve["id"], "2025-05-01", "2025-06-13")


def intraday_history(ctx: Context) -> Any:
    tenors = [_tenor(ctx)]
    return ctx.client.intraday_history(ctx.curve["id"], "2025-04-01", "2025-06-12", tenors=tenors)


def bulk_download(ctx: Context) -> Any:
    """Files and their row counts, each checked against the emulator."""
    dest = ctx.tmp / "bulk"
    result = ctx.client.bulk_download(
        "NAPHTHA", "2025-01", "2025-02", dest, progress=False, poll_interval=0.05, timeout=60
    )
    ctx.notes["dest"] = dest
    rows = {p.relative_to(dest).as_posix(): pq.read_metadata(p).num_rows for p in result.files}
    return rows, result.rows, mc.read_bulk(dest).num_rows


def live(ctx: Context) -> Any:
    """A feed of every tenor of a busy curve for a few seconds of real time
    (minutes on the emulator's clock), with the fault injected while it runs.
    What it delivered is compared with the emulator's record by the matrix."""
    options = live_options(ctx.emulator.time_scale)
    with ctx.client.live(**options) as feed:
        feed.subscribe(ctx.curve["id"], "*")
        ctx.notes["feed"] = feed
        ticks = collect(feed, 0.6)
        ctx.notes["before_fault"] = len(ticks)
        ctx.while_running()
        # Until the feed is back (a fault may slow the reconnect), then long
        # enough for its backfill and new updates to come.
        ticks += collect(feed, 1.0)
        deadline = time.monotonic() + 15.0
        while not reconnected(feed) and time.monotonic() < deadline:
            ticks += collect(feed, 0.25)
        back = len(ticks)
        ticks += collect(feed, 1.0)
        while not updates_after(ticks, back) and time.monotonic() < deadline:
            ticks += collect(feed, 0.25)
        ctx.notes["stats"] = feed.stats()
    return ticks


def reconnected(feed: mc.LiveFeed) -> bool:
    stats = feed.stats()
    return stats["reconnects"] >= 1 and stats["connected"]


def updates_after(ticks: list[mc.Tick], start: int) -> bool:
    return any(t.source == "update" for t in ticks[start:])


OPERATIONS = [
    Operation("catalogue", "rest", catalogue),
    Operation("last_settlement", "rest", last_settlement),
    Operation("last_assessments", "rest", last_assessments),
    Operation("intraday", "rest", intraday),
    Operation("settlements", "rest", settlements),
    Operation("intraday_history", "rest", intraday_history),
    Operation("bulk_download", "bulk", bulk_download),
    Operation("live", "live", live),
]


def emulator_for(kind: str) -> Emulator:
    """REST on a stopped clock at START, where its answers are fixed; bulk
    jobs and the feed need one that runs."""
    if kind == "rest":
        return start_emulator()
    if kind == "bulk":
        return start_emulator(time_scale=BULK_TIME_SCALE)
    return start_emulator(time_scale=600, start=LIVE_START)


def curve_for(kind: str, curves: Curves) -> dict[str, Any]:
    """A busy curve for the feed; a quieter one keeps REST pulls small."""
    return curves.fast if kind == "live" else curves.slow


def client_email(emulator: Emulator, kind: str) -> str:
    return FULL["email"] if kind == "bulk" else emulator.credentials["email"]


def client_for(emulator: Emulator, kind: str, settings: Any) -> mc.Client:
    """A client that logs in (so that it can renew tokens), with the fault's settings."""
    credentials = FULL if kind == "bulk" else emulator.credentials
    return mc.Client(
        base_url=emulator.base_url,
        live_url=emulator.live_url,
        **credentials,
        **settings,
    )
