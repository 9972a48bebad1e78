"""At most ``max_fps`` updates a second to the front end, whatever the
feed's rate: an update is due once ``1 / max_fps`` seconds have passed
since the last one."""

from __future__ import annotations

import math
import time
from typing import Any

from marketcurves.exceptions import InvalidRequest, InvalidType

#: The fastest a widget may be asked to redraw.
MAX_FPS = 60.0


def max_fps(value: Any) -> float:
    """``max_fps`` checked: a number above 0, at most :data:`MAX_FPS`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidType(f"max_fps must be a number, not {type(value).__name__}")
    if not math.isfinite(value) or not 0 < value <= MAX_FPS:
        raise InvalidRequest(f"max_fps must be above 0 and at most {MAX_FPS:g}, not {value!r}")
    return float(value)


class Throttle:
    def __init__(self, fps: float) -> None:
        self.interval = 1.0 / fps
        self.last = -math.inf
        self.sent = 0

    def due(self) -> bool:
        return time.monotonic() - self.last >= self.interval

    def mark(self) -> None:
        self.last = time.monotonic()
        self.sent += 1
