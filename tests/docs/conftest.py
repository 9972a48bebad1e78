"""Fixtures of the docs suite: the environment a reader of the docs has,
made of an emulator.

Each page runs against an emulator of its own whose address and demo login
are in the environment (``MARKETCURVES_BASE_URL``, ``MARKETCURVES_LIVE_URL``,
``MARKETCURVES_EMAIL``, ``MARKETCURVES_PASSWORD``), so the pages' plain
``mc.Client()`` works as it does for a user with credentials. The clock
starts on a Thursday evening in January 2026, after the 2025 history the
pages pull and the day's London settlement; the working directory and
``HOME`` are a temporary folder, so the files the examples write
(``data/``, ``~/.cache/...``) land there.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from marketcurves.testing import Emulator

#: When the docs' examples run.
CLOCK = "2026-01-15T17:00:00Z"

#: Variables of the reader's machine that would change what the pages do.
UNSET = ("MARKETCURVES_CACHE_DIR", "MARKETCURVES_TOKEN")


@pytest.fixture
def reader_env(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    make_emulator: Callable[..., Emulator],
) -> Callable[[float], Emulator]:
    """Starts the reader's emulator, at ``time_scale`` times real speed."""

    def start(time_scale: float) -> Emulator:
        emulator = make_emulator(time_scale=time_scale, start=CLOCK)
        monkeypatch.setenv("MARKETCURVES_BASE_URL", emulator.base_url)
        monkeypatch.setenv("MARKETCURVES_LIVE_URL", emulator.live_url)
        monkeypatch.setenv("MARKETCURVES_EMAIL", emulator.credentials["email"])
        monkeypatch.setenv("MARKETCURVES_PASSWORD", emulator.credentials["password"])
        for name in UNSET:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("HOME", str(tmp_path))
        monkeypatch.chdir(tmp_path)
        return emulator

    return start
