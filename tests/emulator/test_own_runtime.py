"""The emulator serves from threads of its own, as a service on other
machines would: the client's workers stay the client's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import start_emulator


def _thread_names() -> set[str]:
    return {p.read_text().strip() for p in Path("/proc/self/task").glob("*/comm")}


@pytest.mark.skipif(sys.platform != "linux", reason="thread names are read from /proc")
def test_the_emulator_serves_from_threads_of_its_own():
    with start_emulator() as em, em.client() as client:
        assert client.catalogue()
        names = _thread_names()
    # Thread names are cut to 15 characters: "marketcurves-emulator".
    assert "marketcurves-em" in names, names
