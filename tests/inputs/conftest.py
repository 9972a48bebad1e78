"""Fixtures of the bad-input suite: every public function and constructor
given wrong types, empty strings, unknown names, malformed dates and months,
reversed ranges, bad token providers and bad destinations raises a clear
exception naming the argument, before anything is sent, leaving nothing behind.

Most cases use a client of closed ports with a token provider that counts
its calls (``unsent``): every request and every live connection attempt asks
for a token first, so a count of zero proves that nothing was sent. Cases
that need a real job or feed use the emulator and prove it with a failure
injected for the first request that would reach it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from inputs_helpers import CountingProvider, unsent_client

import marketcurves as mc


@pytest.fixture
def provider() -> CountingProvider:
    return CountingProvider()


@pytest.fixture
def unsent(provider: CountingProvider, caplog: pytest.LogCaptureFixture) -> Iterator[mc.Client]:
    """A client whose every request would fail, after calling ``provider``;
    the test ends by checking that the provider was never called, and that
    closing the client found nothing of a refused call still holding it
    (a call made before its last argument was checked, and never run)."""
    with unsent_client(provider) as client:
        yield client
    assert provider.calls == 0, "a request was sent (or tried)"
    held = [r.getMessage() for r in caplog.records if "had not ended" in r.getMessage()]
    assert not held, held


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No MARKETCURVES_* variable in the environment."""
    for name in ("BASE_URL", "LIVE_URL", "TOKEN", "EMAIL", "PASSWORD"):
        monkeypatch.delenv(f"MARKETCURVES_{name}", raising=False)
    return monkeypatch
