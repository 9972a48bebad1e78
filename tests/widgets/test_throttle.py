"""Whatever the feed's rate, a widget sends its front end at most
``max_fps`` updates a second, each with every tenor's latest value:
counted by the messages sent, against the time they were sent in."""

from __future__ import annotations

import math
import time
from typing import Any

from widget_helpers import Recorded, wait_ended

import marketcurves as mc
from marketcurves.testing import Emulator

#: A whole day of three curves (about 26,000 values) in about three
#: seconds: 8 hours a second, thousands of ticks a second.
DAY = ("2025-06-10T00:00", "2025-06-11T00:00")
SPEED = 8 * 3600


def test_updates_are_throttled_at_a_high_tick_rate(
    em: Emulator, lake: dict[str, Any], sent: Recorded
) -> None:
    with em.client() as client, client.replay(*DAY, source=lake["path"], speed=SPEED) as feed:
        curves = lake["curves"]
        for curve in curves:
            feed.subscribe(curve)
        started = time.monotonic()
        chart = mc.widgets.LiveCurve(feed, curves[0], kinds="all", max_fps=5)
        board = mc.widgets.LiveBoard(feed, max_fps=5)
        wait_ended(board)
        wait_ended(chart)
        elapsed = time.monotonic() - started
        for widget in (chart, board):
            updates = sent.updates(widget)
            # One update at most per fifth of a second, and the last (the end).
            assert len(updates) <= math.floor(elapsed * 5) + 2, (len(updates), elapsed)
            assert len(updates) == widget.updates_sent == widget.frames
            assert updates[-1]["state"] == "end of replay"
        assert len(sent.updates(board)) >= 3, "the replay lasted several updates"
        # Many ticks a message: the throttle, not the feed, set the pace.
        assert board.ticks > 20 * len(sent.updates(board)), (board.ticks, elapsed)
        # The last message holds the last value of every tenor.
        last_rows = next(u["rows"] for u in reversed(sent.updates(board)) if "rows" in u)
        assert {(r["curve_id"], r["tenor"]): r["price"] for r in last_rows} == board.latest
        chart.close()
        board.close()
