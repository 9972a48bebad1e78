"""Helpers of the bad-input suite: a client that proves nothing was sent, and
the check every case makes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import marketcurves as mc

#: Nothing listens on the discard port: a request sent there fails with ServiceError.
CLOSED_URL = "http://127.0.0.1:9/v2"
CLOSED_LIVE_URL = "ws://127.0.0.1:9"
ID = "425934c1-68dd-43eb-b8ee-477999b2f5ec"


class CountingProvider:
    """A token provider that counts its calls. Every request, and every live
    connection attempt, starts by asking for a token, so no call means that
    nothing was sent (nor tried)."""

    def __init__(self) -> None:
        self.calls = 0
        self.called = threading.Event()

    def __call__(self) -> str:
        self.calls += 1
        self.called.set()
        return "never-accepted"


def unsent_client(provider: Callable[[], Any]) -> mc.Client:
    """A client of closed ports whose every request would fail at once with
    ServiceError, after calling ``provider`` for its token."""
    return mc.Client(
        base_url=CLOSED_URL,
        live_url=CLOSED_LIVE_URL,
        token_provider=provider,
        max_retries=0,
        timeout=2.0,
    )


def assert_invalid(run: Callable[[], Any], *names: str) -> mc.InvalidRequest:
    """``run`` raises InvalidRequest (a ValueError too) whose message names each of ``names``."""
    with pytest.raises(mc.InvalidRequest) as caught:
        run()
    assert isinstance(caught.value, ValueError)
    for name in names:
        assert name in str(caught.value), (name, str(caught.value))
    return caught.value


def tree(folder: Path) -> list[str]:
    """Every path under ``folder``, relative, sorted: to show nothing was created."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def thread_idents() -> set[int]:
    """Python threads, less the dummies that stand for the Rust runtime's
    workers once they have logged (they live as long as the process)."""
    dummy = threading._DummyThread  # type: ignore[attr-defined]
    return {t.ident for t in threading.enumerate() if t.ident and not isinstance(t, dummy)}
