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

import fcntl
import os
import subprocess
import sys
import time
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
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The site as ``mkdocs build --strict`` makes it, built once for the
    run (test_site.py and test_reference_pages.py read it). pytest-xdist may
    give those files to two workers: the first to take the lock builds in
    the run's folder, which the workers share, and the other reads that."""
    root = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        root = root.parent  # the run's, above each worker's own
    out, built = root / "site", root / "site.built"
    with open(root / "site.lock", "a") as lock:
        deadline = time.monotonic() + SITE_BUILD_BOUND
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                assert time.monotonic() < deadline, "another worker's build of the site never ended"
                time.sleep(0.2)
        try:
            if not built.exists():
                _build_site(out)
                built.touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out


#: The longest a build of the site may take (and another worker wait on it).
SITE_BUILD_BOUND = 300


def _build_site(out: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=SITE_BUILD_BOUND,
    )
    assert build.returncode == 0, f"mkdocs build --strict failed:\n{build.stdout}{build.stderr}"
