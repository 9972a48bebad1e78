"""What every widget of a feed shares: anywidget's model, the feed's
reader, the throttle and the feed's state as the front end shows it.

A widget sets its synced traits from the reader's thread, all of one
update under ``hold_sync``: one message to the front end per update, at
most ``max_fps`` a second."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from marketcurves import live
from marketcurves.exceptions import InvalidRequest, InvalidType
from marketcurves.widgets import _reader
from marketcurves.widgets._throttle import Throttle, max_fps

try:
    import anywidget
    import traitlets
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(
        "the notebook widgets need anywidget: pip install 'marketcurves[jupyter]'"
    ) from missing

if TYPE_CHECKING:
    from marketcurves.live import LiveFeed
    from marketcurves.widgets._latest import Latest, Rows

#: The front end, shipped in the wheel: nothing is loaded from the network.
STATIC = Path(__file__).with_name("static")


class FeedWidget(anywidget.AnyWidget):
    """A widget drawing a feed as it ticks (the base of LiveCurve and LiveBoard)."""

    _css = STATIC / "widgets.css"

    #: ``waiting`` (no tick yet), ``live``, then ``closed``,
    #: ``end of replay`` or ``stopped: <why>``.
    state = traitlets.Unicode("waiting").tag(sync=True)
    #: Ticks received by this widget (of what it shows).
    ticks = traitlets.Int(0).tag(sync=True)
    #: Updates sent to the front end: at most ``max_fps`` a second.
    frames = traitlets.Int(0).tag(sync=True)
    max_fps = traitlets.Float(10.0).tag(sync=True)

    def __init__(self, feed: Any, fps: Any, **traits: Any) -> None:
        if not isinstance(feed, live.LiveFeed):
            raise InvalidType(
                f"feed must be a LiveFeed (client.live() or client.replay(...)), "
                f"not {type(feed).__name__}"
            )
        if live.on_price_mode(feed):
            raise InvalidRequest(
                "this feed delivers its ticks to on_price; a widget reads the feed "
                "itself: open it without on_price="
            )
        fps = max_fps(fps)
        super().__init__(max_fps=fps, **traits)
        self._feed = feed
        self._throttle = Throttle(fps)
        # The reader's thread updates; close() and cells read.
        self._feed_lock = threading.Lock()
        self._feed_dirty = False
        self._feed_reader: _reader.FeedReader | None = _reader.attach(feed, self)

    @property
    def feed(self) -> LiveFeed:
        """The feed the widget reads."""
        return self._feed

    @property
    def updates_sent(self) -> int:
        """Updates sent to the front end so far (the throttle's count)."""
        return self._throttle.sent

    # What the reader calls, on its thread.

    def _on_batch(self, rows: Rows | None) -> None:
        with self._feed_lock:
            if rows is not None and self._take(rows):
                self._feed_dirty = True
            if self._feed_dirty and self._throttle.due():
                self._flush()

    def _catch_up(self, values: dict[tuple[str, str], Latest], last: Rows | None) -> None:
        with self._feed_lock:
            if self._seed(values, last):
                self._flush()

    def _on_end(self, how: str) -> None:
        with self._feed_lock:
            self._feed_reader = None
            # The last values, and the end, at once.
            self._flush(state=how)

    def _flush(self, state: str | None = None) -> None:
        self._feed_dirty = False
        self._throttle.mark()
        with self.hold_sync():
            self._update()
            if state is not None:
                self.state = state
            elif self.state == "waiting":
                self.state = "live"
            self.frames = self._throttle.sent

    # What each widget does.

    def _take(self, rows: Rows) -> bool:
        """Takes a batch's ticks; True if the widget shows any."""
        raise NotImplementedError

    def _seed(self, values: dict[tuple[str, str], Latest], last: Rows | None) -> bool:
        """Takes what the feed's reader read before the widget came; True
        if the widget shows any of it."""
        raise NotImplementedError

    def _update(self) -> None:
        """Sets the synced traits from what was taken."""
        raise NotImplementedError

    def close(self) -> None:
        """Stops reading the feed (the feed itself stays open) and closes
        the widget's views. The feed's reader stops once its last widget is
        closed, within a twentieth of a second."""
        reader = getattr(self, "_feed_reader", None)
        self._feed_reader = None
        if reader is not None:
            reader.detach(self)
            if reader.stopping and reader.thread is not threading.current_thread():
                reader.thread.join(timeout=10 * _reader.POLL + 1.0)
        super().close()
