"""A plugin of the test session (loaded by ``conftest.py``): every test
leaves the process as it found it, and Ctrl-C raises ``KeyboardInterrupt``.

A test that changes a signal handler, the environment, the working directory
or the umask, and does not put it back, would change every later test of its
worker: it fails, naming what it changed, and the state is restored.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: The signals whose handlers a test must leave as it found them.
SIGNALS = (
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGPIPE,
    signal.SIGCHLD,
    signal.SIGALRM,
)


@pytest.fixture(autouse=True, scope="session")
def _ctrl_c_raises_keyboard_interrupt() -> Iterator[None]:
    """A shell that runs a command in the background without job control
    (``bash scripts/test &`` in a script, ``nohup``, some CI runners) starts
    it with SIGINT ignored, and Python then keeps it ignored: the tests of
    Ctrl-C would wait for an interrupt that never comes. The session takes
    Python's own handler, as an interactive interpreter has, and gives the
    one it found back at its end."""
    found = signal.getsignal(signal.SIGINT)
    if found == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, found)


#: Variables a library sets once, when it is first imported, whichever test
#: imports it: not a test's change.
SET_ON_IMPORT = {
    "PYTEST_CURRENT_TEST",  # pytest names the test and its phase
    "_RJEM_MALLOC_CONF",  # polars, its allocator's options
}


def _umask() -> int:
    """The process's umask, read without changing it where the system allows
    (``os.umask`` sets it, and a thread creating a file meanwhile would get
    the wrong mode)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def _process_state() -> dict[str, Any]:
    return {
        "signal handlers": {sig.name: signal.getsignal(sig) for sig in SIGNALS},
        "environment": {k: v for k, v in os.environ.items() if k not in SET_ON_IMPORT},
        "working directory": os.getcwd(),
        "umask": oct(_umask()),
    }


@pytest.fixture(autouse=True)
def _process_state_unchanged() -> Iterator[None]:
    """Fails a test that leaves the process otherwise than it found it
    (signal handlers, environment, working directory, umask), and puts the
    state back, so that the next test in the worker starts as the first did."""
    before = _process_state()
    yield
    after = _process_state()
    changed = [what for what in before if before[what] != after[what]]
    if not changed:
        return
    for sig in SIGNALS:
        signal.signal(sig, before["signal handlers"][sig.name])
    for key in after["environment"].keys() - before["environment"].keys():
        del os.environ[key]
    os.environ.update(before["environment"])
    os.chdir(before["working directory"])
    os.umask(int(before["umask"], 8))
    details = []
    for what in changed:
        if what == "environment":
            keys = sorted(
                key
                for key in before[what].keys() | after[what].keys()
                if before[what].get(key) != after[what].get(key)
            )
            details.append(f"environment variables {keys}")  # names only: values may be secrets
        elif what == "signal handlers":
            for name, handler in before[what].items():
                if after[what][name] != handler:
                    details.append(f"the handler of {name}: {handler!r} -> {after[what][name]!r}")
        else:
            details.append(f"{what}: {before[what]!r} -> {after[what]!r}")
    pytest.fail("the test left the process changed: " + "; ".join(details), pytrace=False)
