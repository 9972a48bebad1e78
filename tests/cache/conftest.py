"""Fixtures of the history cache suite: ``Client(cache_dir=...)`` end to end
against the emulator, the requests it sends counted by the emulator itself.

The emulators run on a stopped clock set on Friday 2025-06-13 at 17:00 UTC
(after the London close): every answer is fixed unless a test moves the
clock. Each test gets a cache folder of its own (``cache_dir``). Tests that
only read share one emulator per module (``em``: requests are counted as
differences, so sharing is harmless); tests that move its clock, stop it or
inject faults get one of their own (``fresh_em``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cache_helpers import Curves, pick_curves
from support import start_emulator

import marketcurves as mc
from marketcurves.testing import Emulator


@pytest.fixture(scope="session")
def curves() -> Curves:
    """The curves this suite pulls; the world is a function of the seed, so
    they are the same in every emulator of seed 0."""
    with start_emulator() as emulator:
        with emulator.client() as client:
            return pick_curves(client)


@pytest.fixture(scope="session")
def curve(curves: Curves) -> str:
    """A licensed curve with intraday values every 15 minutes."""
    return curves.coarse


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    """A cache folder of the test's own; not made yet (the cache makes it)."""
    return tmp_path / "cache"


@pytest.fixture
def client(em: Emulator, cache_dir: Path) -> Iterator[mc.Client]:
    """A client of the module's emulator with the test's cache, logged in
    as the demo account."""
    with em.client(cache_dir=cache_dir) as c:
        yield c


@pytest.fixture(autouse=True)
def no_cache_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No cache from the environment unless a test sets one."""
    monkeypatch.delenv("MARKETCURVES_CACHE_DIR", raising=False)
