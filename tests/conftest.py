"""Fixtures for every suite.

The tests talk to emulators and servers on loopback only. A proxy or a
certificate file set in the machine's environment would route or verify
those connections too (in marketcurves, in ``requests`` and in
``websockets`` alike), so the whole session runs without them; the tests of
``tests/network`` set them, test by test, on purpose.

Emulators are made here: ``em``, one per module, for tests that do not
change it; ``fresh_em``, one of the test's own, for faults, clock moves and
licence changes; ``make_emulator`` for any other settings. All start with
``support.start_emulator`` (a stopped clock at ``support.START`` unless told
otherwise); fixtures of a wider scope call it themselves. A suite or module
whose ``em`` needs another seed or clock overrides ``emulator_settings``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from suite_places import MARKS_BY_PATH, SLOWEST_FIRST
from support import start_emulator

from marketcurves.testing import Emulator

# Every test leaves the process as it found it, and Ctrl-C raises.
pytest_plugins = ["process_state"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(config.rootpath)
    rank = {where: place for place, where in enumerate(SLOWEST_FIRST)}
    where_of = {}
    for item in items:
        where = Path(item.fspath).relative_to(root).as_posix()
        where_of[item.nodeid] = where
        for place, marks in MARKS_BY_PATH.items():
            if where.startswith(place):
                for mark in marks:
                    item.add_marker(mark)
    items.sort(key=lambda item: rank.get(where_of[item.nodeid], len(rank)))


#: The variables that choose a proxy or the trusted certificates.
NETWORK_VARIABLES = (
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
)


@pytest.fixture(autouse=True, scope="session")
def _no_network_settings_from_the_machine() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        for name in NETWORK_VARIABLES:
            patch.delenv(name, raising=False)
        yield


@pytest.fixture
def make_emulator() -> Iterator[Callable[..., Emulator]]:
    """Starts emulators for the test (arguments as ``start_emulator``); every
    one it started is stopped when the test ends."""
    with contextlib.ExitStack() as stack:

        def make(**settings: Any) -> Emulator:
            return stack.enter_context(start_emulator(**settings))

        yield make


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """What ``em`` and ``fresh_em`` pass to ``start_emulator``: nothing, so
    seed 0 on a stopped clock at START; overridden where a suite needs more."""
    return {}


@pytest.fixture(scope="module")
def em(emulator_settings: dict[str, Any]) -> Iterator[Emulator]:
    """One emulator per module, for tests that do not change it."""
    with start_emulator(**emulator_settings) as emulator:
        yield emulator


@pytest.fixture
def fresh_em(make_emulator: Callable[..., Emulator], emulator_settings: dict[str, Any]) -> Emulator:
    """An emulator of the test's own, as ``em`` is made: for faults, clock
    moves and licence changes."""
    return make_emulator(**emulator_settings)
