"""The live feed: :class:`LiveFeed`, made by :meth:`marketcurves.Client.live`.

Keep-alive, reconnects, re-authentication with a fresh token, resubscription
and backfill of what was published while disconnected all happen in the Rust
core; this module gives them the three Python forms: an iterator (also
``async for``), Arrow record batches, and a callback run on a thread of its own.
"""

from __future__ import annotations

import datetime as _dt
import logging
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from marketcurves import _args, _core, _deprecation, _html
from marketcurves._live_types import (
    CallbackErrorEvent,
    ConflatedEvent,
    ConnectedEvent,
    DisconnectedEvent,
    ErrorEvent,
    FeedEvent,
    FeedStats,
    GapFilledEvent,
    LiveEvent,
    LiveStats,
    ReconnectedEvent,
    StoppedEvent,
)
from marketcurves._options import LiveSettings, ReplayOptions
from marketcurves.exceptions import ClientClosed, InvalidRequest, MarketCurvesError

if TYPE_CHECKING:
    import pyarrow

    from marketcurves._core import Tick
    from marketcurves.catalogue import Curve
    from marketcurves.widgets import LiveCurve

__all__ = [
    "CallbackErrorEvent",
    "ConflatedEvent",
    "ConnectedEvent",
    "DisconnectedEvent",
    "ErrorEvent",
    "FeedEvent",
    "FeedStats",
    "GapFilledEvent",
    "LiveEvent",
    "LiveFeed",
    "LiveStats",
    "ReconnectedEvent",
    "StoppedEvent",
]

log = logging.getLogger("marketcurves.live")

#: How often a waiting iterator looks up to hand events to ``on_event``.
_EVENT_POLL = 1.0


def _subscription_tenor(value: Any) -> str:
    if isinstance(value, str) and value.strip(" ") == "*":
        return "*"
    return _args.tenor(value)


class LiveFeed:
    """Prices pushed by the service as they are published.

    Made by :meth:`marketcurves.Client.live`; a context manager (``with`` and
    ``async with``) that closes the feed on exit. Read it in one of three ways:

    - ``for tick in feed`` (or ``async for``): :class:`marketcurves.Tick` one at a time;
    - ``for batch in feed.batches()``: ``pyarrow.RecordBatch`` es of many ticks;
    - ``on_price=``: a callable called with each tick on a thread of the feed.

    What the feed promises: per curve and tenor, values are delivered in
    strictly increasing ``generated_on`` (milliseconds compared), none twice.
    After a dropped connection it reconnects with backoff, authenticates with
    a fresh token, resubscribes, and (``backfill=True``) fetches from the
    intraday endpoints every value published while it was away, delivering
    them (``source="backfill"``) before newer ones.

    A consumer slower than the feed does not make memory grow: past
    ``queue_size`` ticks waiting, the queue keeps only the newest value of each
    curve and tenor (``stats()["conflated"]`` counts what was replaced). Values
    so skipped are not backfilled; they remain in the intraday history.

    Closing the client the feed was opened from ends the feed: reading it
    raises :class:`~marketcurves.ClientClosed` once the ticks already
    queued are read, and so do ``subscribe``, ``unsubscribe`` and ``wait``.

    ``on_event=`` is called, on the thread that reads the feed, with a dict
    whose ``kind`` says what happened (every event is also logged to
    ``marketcurves.live``): ``connected`` (``attempt``), ``disconnected``
    (``reason``), ``reconnected`` (``downtime`` in seconds, ``attempts``),
    ``gap_filled`` (``curve_id``, ``tenor``, ``count``, ``start``, ``end``),
    ``conflated`` (``count``) and ``error`` (``message``); in callback mode
    also ``callback_error`` (``error``, ``tick``) and ``stopped``
    (``error``). :data:`LiveEvent` types them. Events wait for a reader in a
    bounded buffer of the core, which drops the oldest when full.

    See [The live feed](../live.md) for a tour.

    Examples:
        >>> with client.live() as feed:
        ...     feed.subscribe(curve, "Feb 26")
        ...     for tick in feed:
        ...         print(tick.tenor, tick.price, tick.source)
        ...         break
        Feb 26 780.131 snapshot
    """

    def __init__(
        self,
        client: _core.CoreClient,
        live_url: str,
        *,
        backfill: bool,
        on_price: Callable[[Tick], object] | None,
        on_event: Callable[[LiveEvent], object] | None,
        options: LiveSettings,
    ) -> None:
        on_price = _args.optional_callable(on_price, "on_price", "a Tick")
        on_event = _args.optional_callable(on_event, "on_event", "an event dict")
        self._start(
            _core.LiveFeed(client, live_url, {**options, "backfill": backfill}), on_price, on_event
        )

    def _start(
        self,
        core: _core.LiveFeed,
        on_price: Callable[[Tick], object] | None,
        on_event: Callable[[LiveEvent], object] | None,
    ) -> None:
        self._core = core
        self._on_price = on_price
        self._on_event = on_event
        self._callback_errors = 0
        # Ticks taken from the core but not yet handed out: an iteration left
        # with `break` leaves the rest of its chunk here, for the next read.
        self._held: deque[Tick] = deque()
        # Taken with `_held` changed by two threads: the callback's and a
        # subscription change's (`_give_back`).
        self._held_lock = threading.Lock()
        # A replay's core takes back what is held here (`_give_back`).
        self._replayed = core.now() is not None
        #: Names of the curves subscribed to as Curve objects, for the view.
        self._curve_names: dict[str, str] = {}
        self._failure: BaseException | None = None
        self._failure_reported = False
        # Closed here (close(), the end of a `with`) before it ended by
        # itself: a widget then says "closed", not "end of replay".
        self._closed_here = False
        self._thread: threading.Thread | None = None
        if on_price is not None:
            self._thread = threading.Thread(
                target=self._run_callback, name="marketcurves-live-callback", daemon=True
            )
            self._thread.start()

    def __repr__(self) -> str:
        state = "closed" if self._core.closed else "open"
        count = len(self._core.subscriptions())
        return f"<LiveFeed {state}, {count} subscription{'s' if count != 1 else ''}>"

    @property
    def now(self) -> _dt.datetime:
        """The feed's time (UTC): a replay's current time (what a
        subscription made now is a snapshot of); for the live feed, this
        machine's clock."""
        # Ticks held here are not handed out yet: the time is the last one's that is.
        replayed = self._core.now(len(self._held))
        return _dt.datetime.now(_dt.UTC) if replayed is None else replayed

    def _repr_html_(self) -> str:
        """Its state, subscriptions and counters (:meth:`stats`)."""
        stats = self.stats()
        # By name where the feed was given Curve objects, else by id.
        names = self._curve_names
        subscriptions = [f"{names.get(c, c)} {tenor}" for c, tenor in self.subscriptions]
        last = stats["last_message"]
        state = "closed" if self.closed else ("connected" if stats["connected"] else "connecting")
        number = _html.number
        rows: list[tuple[str, Any]] = [
            ("state", state),
            (f"subscriptions ({len(subscriptions)})", _html.names(subscriptions) or "none"),
            ("ticks delivered", number(stats["ticks_delivered"])),
            ("messages", number(stats["messages"])),
            ("queued", number(stats["queued"])),
            ("reconnects", stats["reconnects"]),
            ("gaps filled", stats["gaps_filled"]),
            ("backfilled", number(stats["backfilled"])),
            ("backfill requests", number(stats["backfill_requests"])),
            ("gaps skipped", number(stats["gaps_skipped"])),
            ("conflated", number(stats["conflated"])),
            ("duplicates dropped", number(stats["duplicates_dropped"])),
            ("callback errors", stats["callback_errors"]),
            ("last message (UTC)", None if last is None else f"{last:%Y-%m-%d %H:%M:%S}"),
        ]
        return _html.facts("Live feed", rows)

    # Subscriptions.

    def subscribe(self, curve_id: str | Curve, tenor: str = "*", *, strict: bool = True) -> None:
        """Subscribes to one tenor of a curve, or to every calendar tenor of
        it; returns once the service has taken the subscription, which is
        renewed after every reconnect. The first tick of each tenor is its
        ``snapshot``, the latest value; ``update`` ticks follow.

        Args:
            curve_id: the curve, by id or as a :class:`~marketcurves.Curve`.
            tenor: a tenor name, or ``"*"`` for every calendar tenor
                (months, quarters, windows...; the continuous ``C 00``,
                ``C 01``, ``C 02`` only by name).
            strict: the service answers a subscription to what it does not
                publish with silence, so by default the curve must be in the
                catalogue and the tenor one of the contracts it lists for
                the curve (on a replay, the source must hold values of it
                between the replay's time, less the 30 days a snapshot
                looks back, and its end). False subscribes anyway.

        Raises:
            InvalidRequest: a malformed argument, or (``strict``) a curve or
                tenor the catalogue does not list; before anything is sent.
            AccessDenied: the account's licence does not cover the curve, or
                not the live feed.
            ClientClosed: the client, or the feed, is closed.

        Examples:
            >>> with client.live() as feed:
            ...     feed.subscribe(curve, "Feb 26")
            ...     feed.subscribe(curve, "Mar 26")
            ...     [tenor for _, tenor in feed.subscriptions]
            ['Feb 26', 'Mar 26']
        """
        self._subscribe(curve_id, tenor, strict).wait()

    async def subscribe_async(
        self, curve_id: str | Curve, tenor: str = "*", *, strict: bool = True
    ) -> None:
        """The awaitable form of :meth:`subscribe`."""
        await self._subscribe(curve_id, tenor, strict)

    def _subscribe(self, curve_id: Any, tenor: Any, strict: Any) -> _core.Call[None]:
        args = (_args.curve_id(curve_id), _subscription_tenor(tenor), _args.flag(strict, "strict"))
        self._remember_name(curve_id)
        self._give_back()
        return self._core.subscribe(*args)

    def unsubscribe(self, curve_id: str | Curve, tenor: str = "*") -> None:
        """Stops a subscription. Ticks already queued are still delivered.

        Args:
            curve_id: the curve, by id or as a :class:`~marketcurves.Curve`.
            tenor: a tenor name, or ``"*"`` for every tenor of the curve,
                named ones too.

        Raises:
            InvalidRequest: a malformed argument.
            ClientClosed: the client, or the feed, is closed.

        Examples:
            >>> with client.live() as feed:
            ...     feed.subscribe(curve, "Feb 26")
            ...     feed.unsubscribe(curve)
            ...     feed.subscriptions
            []
        """
        self._unsubscribe(curve_id, tenor).wait()

    async def unsubscribe_async(self, curve_id: str | Curve, tenor: str = "*") -> None:
        """The awaitable form of :meth:`unsubscribe`."""
        await self._unsubscribe(curve_id, tenor)

    def _unsubscribe(self, curve_id: Any, tenor: Any) -> _core.Call[None]:
        args = (_args.curve_id(curve_id), _subscription_tenor(tenor))
        self._give_back()
        return self._core.unsubscribe(*args)

    def _give_back(self) -> None:
        """A replay takes back the ticks held here, not handed out: a
        subscription change takes effect at the last value handed out, and
        its values come in time order among those held."""
        if not self._replayed:
            return
        with self._held_lock:
            self._core.give_back(len(self._held))
            self._held.clear()

    @property
    def subscriptions(self) -> list[tuple[str, str]]:
        """``(curve_id, tenor)`` of every subscription, sorted (``"*"`` for a
        subscription to every tenor of a curve)."""
        return self._core.subscriptions()

    def _remember_name(self, curve: object) -> None:
        name = getattr(curve, "name", None)
        if isinstance(name, str) and not isinstance(curve, str):
            self._curve_names[_args.curve_id(curve)] = name

    # Reading.

    def _check_readable(self) -> None:
        if self._on_price is not None:
            raise InvalidRequest("this feed delivers its ticks to on_price; it cannot be iterated")

    def __iter__(self) -> Iterator[Tick]:
        """Ticks as they come, until the feed is closed (``for tick in feed``).
        Leaving the loop loses nothing: the next read goes on from there.

        Yields:
            Each tick, per curve and tenor in strictly increasing
            ``generated_on``.

        Raises:
            AccessDenied: at a resubscription, the licence no longer covers
                a curve; after it, iterate again.
            AuthError: no token is accepted any more.
            ClientClosed: the client was closed (once the ticks already
                queued are read).
            InvalidRequest: the feed delivers its ticks to ``on_price``.
        """
        self._check_readable()
        core, held = self._core, self._held
        while True:
            while held:
                yield held.popleft()
            # The core's chunk at a time, kept on the feed and handed out one
            # by one, so leaving the loop loses none of it.
            ticks = core.take(timeout=_EVENT_POLL).wait()
            self._dispatch_events()
            if not ticks:
                if not core.closed:
                    continue
                # Closed: whatever is still queued, then the end.
                ticks = core.take(timeout=0).wait()
                if not ticks:
                    return
            held.extend(ticks)

    def __aiter__(self) -> AsyncIterator[Tick]:
        """Ticks as they come, until the feed is closed (``async for tick in
        feed``), waiting without blocking the event loop; as ``for``.

        Yields:
            Each tick, per curve and tenor in strictly increasing
            ``generated_on``.

        Raises:
            InvalidRequest: the feed delivers its ticks to ``on_price``.
        """
        self._check_readable()
        return self._ticks_async()

    async def _ticks_async(self) -> AsyncIterator[Tick]:
        held = self._held
        while True:
            while held:
                yield held.popleft()
            ticks = await self._core.take()
            self._dispatch_events()
            if not ticks:
                return
            held.extend(ticks)

    @_deprecation.positional_options("timeout")
    def next(self, *, timeout: float | None = None) -> Tick | None:
        """The next tick, waiting for it.

        Args:
            timeout: the longest wait, in seconds (0 takes what is queued
                without waiting); None waits as long as it takes.

        Returns:
            The tick; None if ``timeout`` seconds pass first, or the feed is
            closed and every tick read.

        Raises:
            InvalidRequest: the feed delivers its ticks to ``on_price``.
            ClientClosed: the client was closed (once the ticks already
                queued are read).

        Examples:
            >>> with client.live() as feed:
            ...     feed.subscribe(curve, "Feb 26")
            ...     tick = feed.next(timeout=10)
            ...     later = feed.next(timeout=0.1)  # the clock stands: no update
            >>> tick.price, tick.source, later
            (780.131, 'snapshot', None)
        """
        call = self._next(timeout)
        if call is None:
            return self._held.popleft()
        tick = call.wait()
        self._dispatch_events()
        return tick

    async def next_async(self, *, timeout: float | None = None) -> Tick | None:
        """The awaitable form of :meth:`next`."""
        call = self._next(timeout)
        if call is None:
            return self._held.popleft()
        tick = await call
        self._dispatch_events()
        return tick

    def _next(self, timeout: Any) -> _core.Call[Tick | None] | None:
        """The core's read of the next tick; None if one is held here."""
        self._check_readable()
        if timeout is not None:
            # 0 takes what is queued without waiting.
            timeout = _args.duration(timeout, "timeout")
        return None if self._held else self._core.next(timeout)

    @_deprecation.positional_options("max_rows", "timeout")
    def batches(
        self,
        *,
        max_rows: int = _core.LIVE_BATCH_ROWS,
        timeout: float | None = _core.LIVE_BATCH_TIMEOUT,
    ) -> Iterator[pyarrow.RecordBatch]:
        """Ticks as Arrow record batches, until the feed is closed: the form
        to append to a table or write to files.

        Args:
            max_rows: a batch is yielded when it holds this many rows...
            timeout: ...or this many seconds after its first row arrived
                (None: only when full).

        Yields:
            Batches of the columns ``curve_id``, ``tenor``, ``tenor_kind``,
            ``tenor_start``, ``tenor_end``, ``generated_on``, ``price`` and
            ``source``. Rows gathered before an error are yielded first; the
            error is raised by the next batch. Each batch's schema metadata
            names, under ``marketcurves.curves`` (see [The curves a table
            names](../history.md#the-curves-a-table-names)), every curve subscribed to
            since the feed opened, in that order, with the name, units and
            quotation the catalogue gives: a strict subscription reads the
            catalogue, a ``strict=False`` one only the catalogue the client
            has fetched already, a replay the client's (fetched if needed);
            a curve none of them lists is named by its id alone. So
            :func:`marketcurves.to_pandas` and the plots name the curve.

        Raises:
            InvalidRequest: a malformed argument, or the feed delivers its
                ticks to ``on_price``.
            ClientClosed: the client was closed.

        Examples:
            >>> with client.live() as feed:
            ...     feed.subscribe(curve, "Feb 26")
            ...     feed.subscribe(curve, "Mar 26")
            ...     batch = next(feed.batches(timeout=0.5))
            >>> batch.to_pandas()[["tenor", "price", "source"]]
                tenor    price    source
            0  Feb 26  780.131  snapshot
            1  Mar 26  779.340  snapshot
        """
        max_rows, timeout = self._batch_args(max_rows, timeout)
        while self._held:
            yield self._held_batch(max_rows)
        while (batch := self._core.next_batch(max_rows, timeout).wait()) is not None:
            self._dispatch_events()
            yield batch
        self._dispatch_events()

    async def batches_async(
        self,
        *,
        max_rows: int = _core.LIVE_BATCH_ROWS,
        timeout: float | None = _core.LIVE_BATCH_TIMEOUT,
    ) -> AsyncIterator[pyarrow.RecordBatch]:
        """The asynchronous form of :meth:`batches` (``async for``), waiting
        without blocking the event loop."""
        max_rows, timeout = self._batch_args(max_rows, timeout)
        while self._held:
            yield self._held_batch(max_rows)
        while (batch := await self._core.next_batch(max_rows, timeout)) is not None:
            self._dispatch_events()
            yield batch
        self._dispatch_events()

    def _held_batch(self, max_rows: int) -> pyarrow.RecordBatch:
        """Up to ``max_rows`` held ticks, taken off the held ones, as a batch
        of the feed's (built by the core, as ``next_batch``'s are, naming
        the feed's curves)."""
        held = self._held
        return self._core.ticks_batch([held.popleft() for _ in range(min(max_rows, len(held)))])

    def _batch_args(self, max_rows: Any, timeout: Any) -> tuple[int, float | None]:
        """The one preparing step of :meth:`batches` and its twin."""
        self._check_readable()
        count = _args.count(max_rows, "max_rows")
        return count, None if timeout is None else _args.duration(timeout, "timeout")

    # Callback mode.

    def _run_callback(self) -> None:
        on_price = self._on_price
        assert on_price is not None
        core = self._core
        while True:
            try:
                ticks = core.take(timeout=_EVENT_POLL).wait()
            except MarketCurvesError as error:
                if self._is_fatal(error):
                    self._fail(error)
                    return
                log.error("live feed: %s", error)
                self._emit({"kind": "error", "message": str(error), "error": error})
                continue
            except BaseException as error:
                self._fail(error)
                return
            self._dispatch_events()
            if not ticks and core.closed:
                return
            # Held, not iterated: a subscription made from on_price gives
            # back the rest of the lot to a replay (`_give_back`).
            held, lock = self._held, self._held_lock
            with lock:
                held.extend(ticks)
            while True:
                with lock:
                    if not held:
                        break
                    tick = held.popleft()
                try:
                    on_price(tick)
                except Exception as error:
                    self._callback_errors += 1
                    log.exception("live feed: on_price raised on %r; the feed goes on", tick)
                    self._emit({"kind": "callback_error", "error": error, "tick": tick})

    def _is_fatal(self, error: BaseException) -> bool:
        return self._core.closed

    def _fail(self, error: BaseException) -> None:
        self._failure = error
        # Closing the client is the caller's own doing, not a failure to shout about.
        level = logging.INFO if isinstance(error, ClientClosed) else logging.ERROR
        log.log(level, "live feed stopped: %s", error)
        self._emit({"kind": "stopped", "error": error})
        self._core.close()

    @_deprecation.positional_options("timeout")
    def wait(self, *, timeout: float | None = None) -> bool:
        """In callback mode (``on_price``), blocks until the feed ends,
        closed elsewhere or stopped by an error. Ctrl-C interrupts it.

        Args:
            timeout: the longest wait, in seconds; None waits until the end.

        Returns:
            True if the feed ended, False if ``timeout`` passed first.

        Raises:
            InvalidRequest: the feed has no ``on_price``.
            MarketCurvesError: the error that stopped the feed (raised once).

        Examples:
            >>> prices = []
            >>> def keep_one(tick):
            ...     prices.append(tick.price)
            ...     feed.close()
            >>> feed = client.live(on_price=keep_one)
            >>> feed.subscribe(curve, "Feb 26")
            >>> feed.wait(timeout=10), prices
            (True, [780.131])
        """
        thread, deadline = self._wait_args(timeout)
        waited = 0.0
        # Short joins, so that Ctrl-C reaches the waiting thread.
        while thread.is_alive() and (deadline is None or waited < deadline):
            step = 0.1 if deadline is None else min(0.1, deadline - waited)
            thread.join(step)
            waited += step
        self._raise_failure()
        return not thread.is_alive()

    async def wait_async(self, *, timeout: float | None = None) -> bool:
        """The awaitable form of :meth:`wait`."""
        # Imported here, as in _join_callback_thread_async.
        import asyncio

        thread, deadline = self._wait_args(timeout)
        loop = asyncio.get_running_loop()
        end = None if deadline is None else loop.time() + deadline
        while thread.is_alive() and (end is None or loop.time() < end):
            step = 0.01 if end is None else max(0.0, min(0.01, end - loop.time()))
            await asyncio.sleep(step)
        self._raise_failure()
        return not thread.is_alive()

    def _wait_args(self, timeout: Any) -> tuple[threading.Thread, float | None]:
        """The one preparing step of :meth:`wait` and its twin."""
        if self._thread is None:
            raise InvalidRequest("wait() is for feeds made with on_price=")
        return self._thread, None if timeout is None else _args.seconds(timeout, "timeout")

    def _join_callback_thread(self) -> None:
        """Waits for the callback thread, unless called from it (``on_price``
        closing the client)."""
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            # Short joins, so that Ctrl-C reaches the waiting thread.
            while thread.is_alive():
                thread.join(0.1)

    async def _join_callback_thread_async(self) -> None:
        # Imported here, where a running loop has loaded it already: at the
        # top of the module it was a third of ``import marketcurves``.
        import asyncio

        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            while thread.is_alive():
                await asyncio.sleep(0.01)

    def _raise_failure(self) -> None:
        if self._failure is not None and not self._failure_reported:
            self._failure_reported = True
            raise self._failure

    # Events.

    def _dispatch_events(self) -> None:
        """Hands the events the core kept (its one bounded buffer, which drops
        the oldest when nobody reads it) to ``on_event``, on the reading
        thread: Python code never runs on the core's threads."""
        if self._on_event is None:
            return
        for event in self._core.events():
            self._emit(event)

    def _emit(self, event: LiveEvent) -> None:
        if self._on_event is None:
            return
        try:
            self._on_event(event)
        except Exception:
            log.exception("live feed: on_event raised on %r; the feed goes on", event)

    # State and shutdown.

    def stats(self) -> LiveStats:
        """The feed's counters, since it was opened.

        Returns:
            ``messages`` received, ``ticks_delivered``, ``reconnects``,
            ``gaps_filled`` (reconnects after which values were
            backfilled), ``backfilled`` (values), ``backfill_requests``
            (REST requests they took), ``backfill_failures``,
            ``gaps_skipped`` (tenors whose snapshot after a reconnect showed
            nothing was missed), ``conflated``, ``duplicates_dropped``,
            ``callback_errors``, ``queued``, ``subscriptions``, ``connected``
            and ``last_message`` (UTC datetime of the last frame, or None).

        Examples:
            >>> with client.live() as feed:
            ...     feed.subscribe(curve, "Feb 26")
            ...     tick = feed.next(timeout=10)
            ...     stats = feed.stats()
            >>> stats["ticks_delivered"], stats["reconnects"], stats["connected"]
            (1, 0, True)
        """
        return {**self._core.stats(), "callback_errors": self._callback_errors}

    @property
    def closed(self) -> bool:
        """Whether the feed is closed: by :meth:`close`, the end of its
        ``with`` block, its client's closing, or an error that stopped it."""
        return bool(self._core.closed)

    def close(self) -> None:
        """Closes the connection and stops every task and thread of the feed.
        In callback mode, waits for the callback thread to finish the ticks
        already queued. Calling it again does nothing.

        Raises:
            MarketCurvesError: in callback mode, the error that stopped the
                feed, if any (raised once).
        """
        self._note_closing()
        self._core.close()
        self._join_callback_thread()
        self._dispatch_events()
        self._raise_failure()

    async def close_async(self) -> None:
        """The awaitable form of :meth:`close` (without a callback thread)."""
        self._note_closing()
        await self._core.close_async()
        if self._thread is not None:
            self.close()
        self._dispatch_events()

    def _note_closing(self) -> None:
        if not self._core.closed:
            self._closed_here = True

    # Widgets.

    def widget(self, curve: str | Curve, *, kinds: str | Iterable[str] = "months") -> LiveCurve:
        """A notebook widget drawing ``curve``'s forward curve as the feed
        ticks: :class:`marketcurves.widgets.LiveCurve` on this feed (it needs
        ``pip install 'marketcurves[jupyter]'``).

        The widget reads the feed in the background from then on: read it
        through widgets only (every widget of one feed shares one reader).

        Args:
            curve: a subscribed curve, by id or as a :class:`~marketcurves.Curve`.
            kinds: the tenor kinds drawn: ``"months"`` (the default),
                ``"quarters"``, ``"windows"``, ``"continuous"``, a list of
                them, or ``"all"``.

        Returns:
            The widget, shown when it is a cell's last value.

        Raises:
            InvalidRequest: the curve is not subscribed to, a kind is not
                one, or the feed delivers its ticks to ``on_price``.
            ImportError: anywidget is not installed.

        Examples:
            >>> feed = client.replay("2026-01-14T09:00", "2026-01-14T12:00", speed=60)
            >>> feed.subscribe(curve)
            >>> feed.widget(curve)  # in a notebook: the curve, moving  # doctest: +SKIP
        """
        from marketcurves.widgets import LiveCurve

        return LiveCurve(self, curve, kinds=kinds)

    def __enter__(self) -> LiveFeed:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> LiveFeed:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close_async()


# The module's front for the client (not in __all__: users get feeds from
# Client.live and Client.replay).


def replay(
    client: _core.CoreClient,
    options: ReplayOptions,
    on_price: Callable[[Tick], object] | None,
    on_event: Callable[[LiveEvent], object] | None,
) -> LiveFeed:
    """A replay behind the very class of the live feed (``Client.replay``)."""
    on_price = _args.optional_callable(on_price, "on_price", "a Tick")
    on_event = _args.optional_callable(on_event, "on_event", "an event dict")
    feed = LiveFeed.__new__(LiveFeed)
    feed._start(_core.LiveFeed.replay(client, options), on_price, on_event)
    return feed


def join_callbacks(feeds: Iterable[LiveFeed]) -> None:
    """Waits for the callback threads of ``feeds``, whose client has closed
    (``Client.close``), but the calling thread's own (``on_price`` closing
    the client)."""
    for feed in list(feeds):
        feed._join_callback_thread()


async def join_callbacks_async(feeds: Iterable[LiveFeed]) -> None:
    """The awaitable form of :func:`join_callbacks` (``Client.close_async``)."""
    for feed in list(feeds):
        await feed._join_callback_thread_async()


# The module's front for the widgets (marketcurves.widgets), which read a
# feed in the background and must be able to stop while it is quiet.


def polled_batches(
    feed: LiveFeed, *, max_rows: int, poll: float
) -> Iterator[pyarrow.RecordBatch | None]:
    """The feed's ticks as :meth:`LiveFeed.batches` yields them (naming the
    feed's curves), or None after ``poll`` seconds without a tick, so that
    the reader can look up and stop; ends once the feed is closed and read.
    Raises what reading the feed raises (``ClientClosed``, ...)."""
    feed._check_readable()
    core = feed._core
    while True:
        with feed._held_lock:
            batch = feed._held_batch(max_rows) if feed._held else None
        if batch is not None:
            yield batch
            continue
        if core.stats()["queued"]:
            # Ticks are waiting: the core's own batch, returned within
            # `poll` of its first row (its wait for a first row is unbounded).
            ready = core.next_batch(max_rows, poll).wait()
            feed._dispatch_events()
            if ready is None:
                return
            yield ready
            continue
        ticks = core.take(max_rows, timeout=poll).wait()
        feed._dispatch_events()
        if not ticks:
            if not core.closed:
                yield None
                continue
            # Closed: whatever is still queued, then the end.
            ticks = core.take(max_rows, timeout=0).wait()
            if not ticks:
                return
        yield core.ticks_batch(ticks)


def ending(feed: LiveFeed) -> str:
    """How a feed read to its end ended: ``"end of replay"`` for a replay
    that reached its end by itself, else ``"closed"``."""
    return "end of replay" if feed._replayed and not feed._closed_here else "closed"


def on_price_mode(feed: LiveFeed) -> bool:
    """Whether the feed hands its ticks to ``on_price`` (nothing else can
    read it)."""
    return feed._on_price is not None
