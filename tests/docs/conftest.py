"""Fixtures of the docs suite: the site as ``mkdocs build --strict`` makes
it (``site``, built once), and the environment a reader of the docs has,
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

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from docs_helpers import REPO

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


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as ``mkdocs build --strict`` makes it, built once for the
    suite (test_site.py and test_reference_pages.py read it)."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, f"mkdocs build --strict failed:\n{build.stdout}{build.stderr}"
    return out
