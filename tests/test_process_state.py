"""The session's guard of the process (``tests/process_state.py``), tried on
tests of its own in a pytest of their own."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent

CHANGERS = """
import os
import signal


def test_sets_a_variable():
    os.environ["MC_PROCESS_STATE_PROBE"] = "secret-value"


def test_sets_a_handler():
    signal.signal(signal.SIGUSR1, lambda *_: None)


def test_moves():
    os.chdir("/")


def test_changes_the_umask():
    os.umask(0o027 if os.umask(0o022) != 0o027 else 0o022)


def test_next_starts_as_the_first_did():
    assert "MC_PROCESS_STATE_PROBE" not in os.environ
    assert signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL
    assert os.getcwd() == os.environ["PROBE_CWD"]


def test_ctrl_c_raises():
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
"""


def _run(tmp_path: Path) -> str:
    (tmp_path / "test_changers.py").write_text(CHANGERS)
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["process_state"]\n')
    # Started with SIGINT ignored, as a shell's background job is.
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(HERE), "PROBE_CWD": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    return completed.stdout + completed.stderr


def test_a_test_that_changes_the_process_fails_and_the_next_starts_clean(tmp_path: Path) -> None:
    out = _run(tmp_path)
    assert "6 passed, 4 errors" in out, out
    assert "environment variables ['MC_PROCESS_STATE_PROBE']" in out
    assert "secret-value" not in out  # names only
    assert "the handler of SIGUSR1" in out
    assert "working directory" in out
    assert "umask" in out
