"""Fixtures for the live feed suite: ``Client.live`` end to end against the
emulator's WebSocket feed.

The emulators run on an accelerated clock, so that the interface's timers
(60 s idle drop, the 3-minute close of a connection without subscriptions,
curves publishing every minute) play out in real seconds. The client's
keep-alive is scaled to match: a ping every ``30 / scale`` real seconds of quiet.

What a client delivered is checked against what the emulator published
(``Emulator.published``), and against the intraday endpoints read with plain
``requests``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from live_helpers import Curves
from support import LIVE_START, start_emulator

from marketcurves.testing import Emulator


@pytest.fixture(scope="session")
def curves() -> Curves:
    with start_emulator(start=LIVE_START) as emulator:
        return Curves(emulator)


@pytest.fixture
def em(make_emulator: Callable[..., Emulator]) -> Emulator:
    """An emulator of its own at 60 times real speed: a minute a second."""
    return make_emulator(time_scale=60, start=LIVE_START)


@pytest.fixture
def fast_em(make_emulator: Callable[..., Emulator]) -> Emulator:
    """At 600 times real speed: a one-minute curve ticks ten times a second."""
    return make_emulator(time_scale=600, start=LIVE_START)
