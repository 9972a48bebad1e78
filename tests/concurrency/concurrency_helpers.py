"""Helpers of the concurrency suite: the calls a shared client is put
through, running them, comparing their results, and checking that nothing
(thread, socket) is left behind."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

import marketcurves as mc

#: Generous bounds, only so that a broken close fails instead of hanging.
HANG_GUARD = 60.0


@dataclass(frozen=True)
class Call:
    """One call of a public method: ``client.<name>(*args, **dict(kwargs))``;
    hashable, so that results can be looked up by call."""

    name: str
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()

    def run(self, client: mc.Client) -> Any:
        return getattr(client, self.name)(*self.args, **dict(self.kwargs))

    async def run_async(self, client: mc.Client) -> Any:
        return await getattr(client, f"{self.name}_async")(*self.args, **dict(self.kwargs))

    def __repr__(self) -> str:
        shown = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs]
        return f"{self.name}({', '.join(shown)})"


def mixed_calls(curves: list[mc.Curve]) -> list[Call]:
    """Catalogue, current-day and history calls over a few curves: a mix of
    one request, every page of a paged endpoint, and many requests at once."""
    calls = [
        Call("catalogue"),
        Call("catalogue", kwargs=(("vertical", "Jet"),)),
        Call("catalogue", kwargs=(("vertical", "Crude"), ("quotation", "Fob"))),
    ]
    for curve in curves:
        calls += [
            Call("last_settlement", (curve.id,)),
            Call("last_settlement", (curve.id, "Jul 25")),
            Call("last_assessments", (curve.id,)),
            Call("intraday", (curve.id, "Aug 25")),
            Call("settlements", (curve.id, "2025-05-01", "2025-05-31", ("Jul 25", "Aug 25"))),
            Call("intraday_history", (curve.id, "2025-06-11", "2025-06-12", ("Aug 25",))),
        ]
    return calls


def same(result: Any, expected: Any) -> bool:
    if isinstance(expected, pa.Table):
        return isinstance(result, pa.Table) and result.equals(expected)
    if isinstance(expected, mc.Catalogue):
        return isinstance(result, mc.Catalogue) and result.to_arrow().equals(expected.to_arrow())
    raise AssertionError(f"no comparison for {type(expected).__name__}")


def thread_idents() -> set[int]:
    """The Python threads running. Threads Python did not start (the Rust
    runtime's workers, once they have logged through ``logging``) show up as
    dummy threads and live as long as the process: they are not counted."""
    dummy = threading._DummyThread  # type: ignore[attr-defined]
    return {t.ident for t in threading.enumerate() if t.ident and not isinstance(t, dummy)}


def wait_until(condition: Callable[[], bool], what: str, seconds: float = HANG_GUARD) -> None:
    """Waits for ``condition``; a hang guard, not a timing assertion."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still waiting, after {seconds} s, for {what}"
        time.sleep(0.01)


def port_of(url: str) -> int:
    return int(url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])


def connections_to(port: int) -> int:
    """Established TCP connections of this machine to ``port`` on loopback,
    seen from the connecting side: the client's pooled and live sockets to
    the emulator. Linux only (``/proc/net/tcp``)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as rows:
            next(rows)
            for row in rows:
                fields = row.split()
                remote, state = fields[2], fields[3]
                if state == "01" and int(remote.rsplit(":", 1)[1], 16) == port:
                    count += 1
    return count


HAS_PROC_NET = os.path.exists("/proc/net/tcp")
