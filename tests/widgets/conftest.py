"""Fixtures of the widget suite: the messages the widgets send to their
front end, recorded where a kernel would send them (the comm), and an
emulator whose clock stands at LIVE_START, moved by the tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import comm
import pytest
from comm.base_comm import BaseComm
from support import LIVE_START
from widget_helpers import Recorded


class RecordingComm(BaseComm):  # type: ignore[misc]
    recorded: Recorded

    def publish_msg(self, msg_type: str, data: Any = None, **keys: Any) -> None:
        if msg_type == "comm_msg" and isinstance(data, dict):
            self.recorded.messages.append((self.comm_id, data))


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorded]:
    """What the widgets made in the test send to the front end."""
    recorded = Recorded()

    class Comm(RecordingComm):
        pass

    Comm.recorded = recorded
    monkeypatch.setattr(comm, "create_comm", Comm)
    yield recorded


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    return {"time_scale": 0, "start": LIVE_START}


@pytest.fixture(scope="module")
def lake(em: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A lake of the day before LIVE_START, of three curves (the
    emulator's history, backfilled): replays of it start at once."""
    path = tmp_path_factory.mktemp("lake")
    with em.client() as client:
        curves = [c for c in client.catalogue() if c.quotation != "Sales"][:3]
        client.backfill(path, [(c.id, "*") for c in curves], "2025-06-10", "2025-06-10")
    return {"path": str(path), "curves": curves}
