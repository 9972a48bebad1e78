"""The dicts the live feed hands out, typed: its counters (``stats()``) and its
events (``on_event``). The core builds them (``src/python/live.rs``, from
``FeedStats`` and ``FeedEvent`` of ``crates/live/src``); the wrapper
adds ``callback_errors`` and the events of callback mode. Public as
``marketcurves.live.*``; ``_core.pyi`` types the core's methods with them."""

from __future__ import annotations

import datetime
from typing import Literal, NotRequired, TypedDict

from marketcurves._core import Tick
from marketcurves.exceptions import MarketCurvesError


class FeedStats(TypedDict):
    """What the feed has done so far."""

    #: Frames received, of every kind.
    messages: int
    #: Ticks handed to the consumer.
    ticks_delivered: int
    #: Connections made after the first one.
    reconnects: int
    #: Gaps (a tenor after a reconnect) for which values were backfilled.
    gaps_filled: int
    #: Values delivered from backfills.
    backfilled: int
    #: REST requests sent by backfills.
    backfill_requests: int
    #: Backfills that failed after the REST client's retries: values
    #: published while disconnected are missing (an ``error`` event says which).
    backfill_failures: int
    #: Gaps closed with no request: after a reconnect the tenor's snapshot was
    #: the last value delivered, so nothing was published while the feed was away.
    gaps_skipped: int
    #: Values replaced by newer ones of the same tenor for a slow consumer.
    conflated: int
    #: Values not delivered because one as recent was already delivered.
    duplicates_dropped: int
    #: UTC time of the last frame received; None before the first.
    last_message: datetime.datetime | None
    #: Subscriptions recorded.
    subscriptions: int
    #: Whether a connection is up and authenticated.
    connected: bool
    #: Ticks waiting for the consumer.
    queued: int


class LiveStats(FeedStats):
    """``LiveFeed.stats()``: the feed's counters and the callback's."""

    #: Exceptions raised by ``on_price`` (logged; the feed went on).
    callback_errors: int


class ConnectedEvent(TypedDict):
    """Authenticated."""

    #: What happened.
    kind: Literal["connected"]
    #: Failed tries before this connection (0 the first time).
    attempt: int


class DisconnectedEvent(TypedDict):
    """The connection was lost (close code, error, missed pong, restart)."""

    #: What happened.
    kind: Literal["disconnected"]
    #: Why, in words.
    reason: str


class ReconnectedEvent(TypedDict):
    """Connected again after a loss."""

    #: What happened.
    kind: Literal["reconnected"]
    #: Seconds without a connection.
    downtime: float
    #: Tries it took.
    attempts: int


class GapFilledEvent(TypedDict):
    """A backfill delivered values of a tenor that a disconnection had kept
    from the feed."""

    #: What happened.
    kind: Literal["gap_filled"]
    #: The curve's id.
    curve_id: str
    #: The tenor's name.
    tenor: str
    #: Values delivered.
    count: int
    #: When the first of them was published (UTC).
    start: datetime.datetime
    #: When the last of them was published (UTC).
    end: datetime.datetime


class ConflatedEvent(TypedDict):
    """The consumer is slow: values were replaced by newer ones of the same
    tenor."""

    #: What happened.
    kind: Literal["conflated"]
    #: Values replaced since the last such event.
    count: int


class ErrorEvent(TypedDict):
    """A failure the feed carries on after: a refused resubscription, a failed
    backfill, an unexpected server error."""

    #: What happened.
    kind: Literal["error"]
    #: What failed, in words.
    message: str
    #: In callback mode, the exception a read of the feed raised (absent
    #: otherwise).
    error: NotRequired[MarketCurvesError]


#: The events the feed itself reports (callback mode adds its own).
FeedEvent = (
    ConnectedEvent
    | DisconnectedEvent
    | ReconnectedEvent
    | GapFilledEvent
    | ConflatedEvent
    | ErrorEvent
)


class CallbackErrorEvent(TypedDict):
    """``on_price`` raised on a tick (logged and counted; the feed goes on)."""

    #: What happened.
    kind: Literal["callback_error"]
    #: What ``on_price`` raised.
    error: Exception
    #: The tick it was called with.
    tick: Tick


class StoppedEvent(TypedDict):
    """In callback mode, an error ended the feed; ``wait()`` and ``close()``
    raise it."""

    #: What happened.
    kind: Literal["stopped"]
    #: The error.
    error: BaseException


#: What ``on_event`` is called with.
LiveEvent = FeedEvent | CallbackErrorEvent | StoppedEvent
