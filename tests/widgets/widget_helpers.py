"""Waiting on widgets, each wait bounded."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

#: The longest any wait of the suite takes before failing.
WAIT = 30.0

ENDED = ("closed", "end of replay")


def wait_for(check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(0.02)


def wait_ended(widget: Any) -> str:
    wait_for(lambda: widget.state in ENDED or widget.state.startswith("stopped"), "the end")
    return str(widget.state)


class Recorded:
    """Every message the widgets' comms published, by widget model id."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, dict[str, Any]]] = []

    def updates(self, widget: Any) -> list[dict[str, Any]]:
        """The state updates sent for ``widget`` after it was opened."""
        return [
            data["state"]
            for comm_id, data in self.messages
            if comm_id == widget.model_id and data.get("method") == "update"
        ]
