"""One background reader per feed, handing its batches to every widget
that shows it: the feed is read once, however many widgets draw it.

The reader is a daemon thread waiting on the feed at most :data:`POLL`
seconds at a time (the wait releases the GIL: the kernel runs cells
meanwhile). It stops within that time of its last widget leaving, and
ends, telling its widgets how, once the feed is closed and read, or an
error stops it."""

from __future__ import annotations

import logging
import threading
import weakref
from typing import TYPE_CHECKING, Protocol

from marketcurves import live
from marketcurves.exceptions import ClientClosed, MarketCurvesError
from marketcurves.widgets._latest import Book, Latest, Rows

if TYPE_CHECKING:
    from marketcurves.live import LiveFeed

log = logging.getLogger("marketcurves.widgets")

#: The longest the reader waits on the feed before looking up: how soon it
#: stops once its widgets are closed, and sends an update held back by the
#: throttle when the feed goes quiet.
POLL = 0.05
#: The most ticks taken from the feed at once.
ROWS = 10_000


class Listener(Protocol):
    """What a widget does with what its reader reads, on the reader's thread."""

    def _on_batch(self, rows: Rows | None) -> None:
        """A batch of ticks, or None after ``POLL`` seconds without one."""

    def _on_end(self, how: str) -> None:
        """The feed ended: ``"closed"``, ``"end of replay"`` or ``"stopped: ..."``."""

    def _catch_up(self, values: dict[tuple[str, str], Latest], last: Rows | None) -> None:
        """What the feed's reader read before this listener came: each
        tenor's latest value, and the last batch (which names the curves)."""


class FeedReader:
    def __init__(self, feed: LiveFeed, before: FeedReader | None = None) -> None:
        self._feed = feed
        self._listeners: list[Listener] = []
        # Each tenor's latest value read so far, for a widget shown later
        # (one entry per tenor: bounded), and the batch that last named the
        # feed's curves; carried on from a reader that stopped before.
        self.book: Book = before.book if before is not None else Book()
        self.last: Rows | None = before.last if before is not None else None
        # Held while a batch is taken and handed on: a listener that comes
        # meanwhile catches up after it, never before and again with it.
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.ended: str | None = None
        self.thread = threading.Thread(
            target=self._run, name="marketcurves-widget-reader", daemon=True
        )

    @property
    def stopping(self) -> bool:
        return self._stop.is_set() or self.ended is not None

    def _attach(self, listener: Listener) -> bool:
        """Takes ``listener`` on, after what was read before it came; False
        if this reader is stopping or has ended (checked under the lock its
        end is told under: no listener comes between its end and the
        telling, to wait for an end already told)."""
        with self._lock:
            if self.stopping:
                return False
            if self.book.values:
                listener._catch_up(self.book.values, self.last)
            self._listeners.append(listener)
        if self.thread.ident is None:
            self.thread.start()
        return True

    def detach(self, listener: Listener) -> None:
        """Stops handing batches to ``listener``; the last one to leave stops
        the reader (within ``POLL`` seconds)."""
        with _readers_lock, self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)
            if not self._listeners:
                self._stop.set()

    def _run(self) -> None:
        how = "closed"
        try:
            for batch in live.polled_batches(self._feed, max_rows=ROWS, poll=POLL):
                rows = Rows(batch) if batch is not None and batch.num_rows else None
                with self._lock:
                    # Kept even when no widget is left: a reader started
                    # later for the feed goes on from here, with them.
                    if rows is not None:
                        self.book.add(rows)
                        self.last = rows
                    if self._stop.is_set():
                        return
                    for listener in self._listeners:
                        listener._on_batch(rows)
            how = live.ending(self._feed)
        except ClientClosed:
            how = "closed"
        except MarketCurvesError as error:
            log.error("widget: the feed stopped: %s", error)
            how = f"stopped: {error}"
        except Exception:
            # A widget's own failure: logged, not lost in a thread.
            log.exception("widget: reading the feed failed")
            how = "stopped: the widget failed (see the marketcurves.widgets log)"
        finally:
            with self._lock:
                self.ended = how
                listeners = list(self._listeners)
        for listener in listeners:
            listener._on_end(how)


_readers: weakref.WeakKeyDictionary[LiveFeed, FeedReader] = weakref.WeakKeyDictionary()
_readers_lock = threading.Lock()


def attach(feed: LiveFeed, listener: Listener) -> FeedReader:
    """Hands the feed's batches to ``listener`` from the feed's reader: the
    running one, or a new one once the last has stopped (waited for, so
    that two never read the feed at once), after what was read before it
    came: a widget shown after another, or after the feed ended, shows
    every tenor's latest value all the same."""
    with _readers_lock:
        reader = _readers.get(feed)
        if reader is not None and reader._attach(listener):
            return reader
        if reader is not None and reader.thread.is_alive():
            # Stopping: gone within one poll of the feed.
            reader.thread.join(timeout=10 * POLL + 1.0)
        reader = _readers[feed] = FeedReader(feed, before=reader)
        # A new reader, not started: it takes its first listener.
        reader._attach(listener)
        return reader
