"""The faults of the matrix: how each is injected, which operations it
reaches, and what the operation owes the user under it — the right data
(``SURVIVE``) or the documented exception."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fault_operations import Context
from live_helpers import wait_connected

import marketcurves as mc

#: The operation completes with exactly the data it gives without the fault.
SURVIVE = None

Outcome = type[BaseException] | None


@dataclass(frozen=True)
class Fault:
    name: str
    #: The operation kinds ("rest", "bulk", "live") it is tried with.
    reaches: frozenset[str]
    #: Injects the fault: before a REST or bulk operation starts, while the
    #: live feed runs.
    inject: Callable[[Context], None]
    expect: Outcome = SURVIVE
    #: Expectations that differ for some operations, by operation name.
    overrides: Mapping[str, Outcome] = field(default_factory=dict)
    #: Client settings the fault needs (short timeouts, few retries).
    client: Mapping[str, Any] = field(default_factory=dict)

    def expected(self, operation: str) -> Outcome:
        return self.overrides.get(operation, self.expect)


ALL = frozenset({"rest", "bulk", "live"})
REST = frozenset({"rest", "bulk"})
BULK = frozenset({"bulk"})
LIVE = frozenset({"live"})
FEW_RETRIES = {"max_retries": 2}


def later(ctx: Context, seconds: float, action: Callable[[], None]) -> None:
    """Runs ``action`` ``seconds`` from now, on a timer the matrix joins."""
    timer = threading.Timer(seconds, action)
    ctx.notes.setdefault("timers", []).append(timer)
    timer.start()


def rest_fault(ctx: Context, inject: Callable[[], None]) -> None:
    """Injects a REST fault; in a live feed, then drops its connection so
    that the backfill meets it."""
    inject()
    if ctx.notes.get("kind") == "live":
        ctx.emulator.drop_live_connections()


def in_flight(ctx: Context, action: Callable[[], None]) -> None:
    """``action`` while the operation's first requests are in flight: every
    response takes 0.4 s and the action comes 0.2 s in."""
    ctx.emulator.set_latency(0.4)
    later(ctx, 0.2, action)


def expire_urls_mid_download(ctx: Context) -> None:
    """Breaks the first transfer and expires every URL once a partial file
    is on disk, so that resuming meets 403 and the job must run again."""
    ctx.emulator.truncate_next_download(1)
    ctx.emulator.set_latency(0.2)
    dest = ctx.tmp / "bulk"
    stop = threading.Event()
    ctx.notes.setdefault("stops", []).append(stop)

    def watch() -> None:
        while not stop.wait(0.01):
            if any(dest.rglob(".*.part")):
                ctx.emulator.expire_urls()
                return

    watcher = threading.Thread(target=watch, name="fault-url-expiry")
    ctx.notes.setdefault("threads", []).append(watcher)
    watcher.start()


def drop_twice(ctx: Context) -> None:
    ctx.emulator.drop_live_connections()
    wait_connected(ctx.notes["feed"])
    ctx.emulator.drop_live_connections()


def auth_endpoint_down(ctx: Context) -> None:
    """Tokens expire and the auth endpoint fails: more often than a call
    retries for REST, twice over for a live reconnect (which keeps trying)."""
    ctx.emulator.expire_tokens()
    failures = 6 if ctx.notes.get("kind") == "live" else 50
    rest_fault(ctx, lambda: ctx.emulator.fail_next(failures, 503, path="/authenticate"))


def silence(ctx: Context) -> None:
    ctx.emulator.silence_live(True)
    time.sleep(1.0)
    ctx.emulator.silence_live(False)


FAULTS = [
    Fault(
        "5xx burst",
        ALL,
        lambda ctx: rest_fault(ctx, lambda: ctx.emulator.fail_next(3, 503)),
    ),
    Fault(
        "5xx beyond the retries",
        REST,
        lambda ctx: ctx.emulator.fail_next(50, 502),
        expect=mc.ServiceError,
        client=FEW_RETRIES,
    ),
    Fault(
        "429 with Retry-After",
        ALL,
        lambda ctx: rest_fault(ctx, lambda: ctx.emulator.fail_next(2, 429, retry_after=1)),
    ),
    Fault(
        "429 without Retry-After",
        ALL,
        lambda ctx: rest_fault(ctx, lambda: ctx.emulator.fail_next(2, 429)),
    ),
    Fault(
        "429 beyond the retries",
        REST,
        lambda ctx: ctx.emulator.fail_next(50, 429),
        expect=mc.RateLimited,
        client=FEW_RETRIES,
    ),
    Fault(
        "reset mid-body",
        ALL,
        lambda ctx: rest_fault(ctx, lambda: ctx.emulator.reset_next(2)),
    ),
    Fault(
        "truncated JSON",
        REST,
        lambda ctx: ctx.emulator.corrupt_next(1, kind="truncated"),
        expect=mc.DecodeError,
    ),
    Fault(
        "malformed JSON",
        REST,
        lambda ctx: ctx.emulator.corrupt_next(1, kind="malformed"),
        expect=mc.DecodeError,
    ),
    Fault(
        "latency beyond the timeout",
        REST,
        lambda ctx: ctx.emulator.set_latency(1.5),
        expect=mc.ServiceError,
        client={"timeout": 0.5, "max_retries": 1},
    ),
    Fault(
        "token expiry mid-operation",
        ALL,
        lambda ctx: rest_fault(ctx, lambda: in_flight(ctx, ctx.emulator.expire_tokens)),
    ),
    Fault(
        "auth endpoint down",
        ALL,
        auth_endpoint_down,
        expect=mc.ServiceError,
        overrides={"live": SURVIVE},
        client=FEW_RETRIES,
    ),
    Fault(
        "licence revoked mid-pull",
        REST,
        lambda ctx: in_flight(ctx, lambda: ctx.emulator.revoke_licence(ctx.notes["email"])),
        expect=mc.AccessDenied,
        # The catalogue lists every curve whatever the licence. Bulk download
        # answers 403 for a bad token (interface, Authentication 2): refused
        # again after a fresh token, it is an AuthError with the service's words.
        overrides={"catalogue": SURVIVE, "bulk_download": mc.AuthError},
    ),
    Fault("bulk job FAILED", BULK, lambda ctx: ctx.emulator.fail_next_job(1)),
    Fault("URL expiry", BULK, expire_urls_mid_download),
    Fault("truncated file", BULK, lambda ctx: ctx.emulator.truncate_next_download(1)),
    Fault("abrupt live drops", LIVE, drop_twice),
    Fault("feed restart", LIVE, lambda ctx: ctx.emulator.restart_feed()),
    Fault(
        "failed re-auth, accepted next",
        LIVE,
        lambda ctx: (ctx.emulator.fail_next_auth(1), ctx.emulator.drop_live_connections()),
    ),
    Fault(
        "re-auth refused twice",
        LIVE,
        lambda ctx: (ctx.emulator.fail_next_auth(2), ctx.emulator.drop_live_connections()),
        expect=mc.AuthError,
    ),
    Fault(
        "live licence revoked",
        LIVE,
        lambda ctx: (ctx.emulator.revoke_live(), ctx.emulator.drop_live_connections()),
        expect=mc.AccessDenied,
    ),
    Fault("silent feed", LIVE, silence),
]
