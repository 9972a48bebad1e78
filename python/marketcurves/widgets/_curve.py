"""``LiveCurve``: one curve's forward curve, each tenor's point moving as it
ticks, over the faint curve of the values the widget started from."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

import traitlets

from marketcurves import _args, _named
from marketcurves.exceptions import InvalidRequest
from marketcurves.plot import _input
from marketcurves.widgets import _kinds
from marketcurves.widgets._base import STATIC, FeedWidget
from marketcurves.widgets._latest import Book, Latest, Rows

if TYPE_CHECKING:
    from marketcurves.catalogue import Curve
    from marketcurves.live import LiveFeed


class LiveCurve(FeedWidget):
    """A curve's forward curve that moves as the feed ticks: a notebook
    widget (anywidget: JupyterLab, Notebook 7, VS Code), on ``client.live()``
    and ``client.replay(...)`` alike.

    Each tenor of the kinds drawn is a point, in calendar order, at its
    latest price; the values the widget started from (the subscription's
    snapshot) stay drawn faintly behind, so the move since is seen. The
    title names the curve and the price axis carries its units (from the
    catalogue, or the feed's batches). The widget reads the feed in the
    background (cells run meanwhile) and sends the front end at most
    ``max_fps`` updates a second, each with every tenor's latest value;
    memory holds one value per tenor. When the feed is closed the widget
    says "closed"; a replay that reaches its end, "end of replay".

    Read the feed through widgets only while they show it: every widget of
    one feed shares one background reader (:meth:`close` each, or close the
    feed, to stop it). ``feed.widget(curve)`` is a shortcut.

    Args:
        feed: the feed, from ``client.live()`` or ``client.replay(...)``,
            without ``on_price``.
        curve: a curve the feed is subscribed to, by id or as a
            :class:`~marketcurves.Curve`.
        kinds: the tenor kinds drawn, each its own series: ``"months"``
            (the default), ``"quarters"``, ``"windows"``, ``"continuous"``,
            a list of them, or ``"all"``.
        max_fps: the most updates sent to the front end a second (above 0,
            at most 60).

    Raises:
        InvalidRequest: the feed is not subscribed to the curve, a kind is
            not one, ``max_fps`` is out of range, or the feed delivers its
            ticks to ``on_price``.
        InvalidType: an argument of the wrong type.

    Examples:
        >>> feed = client.replay("2026-01-14T09:00", "2026-01-14T12:00")
        >>> feed.subscribe(curve)
        >>> chart = mc.widgets.LiveCurve(feed, curve)  # a cell's last line shows it
        >>> chart.title, chart.units
        ('Jet Fob AG', '$/mt')
        >>> chart.close()
        >>> feed.close()
    """

    _esm = STATIC / "live_curve.js"

    #: The curve's name (its id where the catalogue names none).
    title = traitlets.Unicode("").tag(sync=True)
    curve_id = traitlets.Unicode("").tag(sync=True)
    #: The prices' units ("" where unknown).
    units = traitlets.Unicode("").tag(sync=True)
    #: The kinds drawn, each a series of its own.
    kinds = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: The tenors drawn, in calendar order; the lists below follow them.
    tenors = traitlets.List(traitlets.Unicode()).tag(sync=True)
    tenor_kinds = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: Each tenor's latest price.
    prices = traitlets.List(traitlets.Float()).tag(sync=True)
    #: Each tenor's first value seen (the snapshot): the faint curve.
    snapshot = traitlets.List(traitlets.Float()).tag(sync=True)
    #: When each latest value was published (epoch milliseconds, UTC).
    times = traitlets.List(traitlets.Float()).tag(sync=True)
    #: When the widget took each latest value from the feed (epoch ms).
    received = traitlets.List(traitlets.Float()).tag(sync=True)

    def __init__(
        self,
        feed: LiveFeed,
        curve: str | Curve,
        *,
        kinds: str | Iterable[str] = "months",
        max_fps: float = 10.0,
    ) -> None:
        curve_id = _args.curve_id(curve)
        chosen = _kinds.kinds(kinds)
        subscribed = getattr(feed, "subscriptions", None)
        if isinstance(subscribed, list) and curve_id not in {c for c, _ in subscribed}:
            raise InvalidRequest(
                f"the feed is not subscribed to curve {curve_id}: "
                f"feed.subscribe(curve) first, then show it"
            )
        name = getattr(curve, "name", None) if not isinstance(curve, str) else None
        units = getattr(curve, "units", None) if not isinstance(curve, str) else None
        self._book = Book(curve_id)
        self._named = isinstance(name, str) and bool(name)
        self._chosen = chosen
        # The catalogue's name and units, once a batch gives them.
        self._names: tuple[str, str] | None = None
        super().__init__(
            feed,
            max_fps,
            title=name if self._named else curve_id,
            curve_id=curve_id,
            units=units if isinstance(units, str) else "",
            kinds=list(chosen),
        )

    def _take(self, rows: Rows) -> bool:
        self._name_from(rows)
        return self._book.add(rows) > 0

    def _seed(self, values: dict[tuple[str, str], Latest], last: Rows | None) -> bool:
        if last is not None:
            self._name_from(last)
        return self._book.seed(values) > 0

    def _name_from(self, rows: Rows) -> None:
        """The curve's name and units, from a batch that names them."""
        if not self._named:
            named = _named.curve_of(rows.batch, self.curve_id)
            if named is not None and named["name"]:
                self._named = True
                self._names = (named["name"], named["units"] or self.units)

    def _update(self) -> None:
        book = self._book
        book.take_changed()
        names = self._names
        if names is not None:
            self.title, self.units = names
            self._names = None
        by_tenor = {tenor: value for (_, tenor), value in book.values.items()}
        order = [t for t in _input.calendar_order(by_tenor) if _kinds.kind_of(t) in self._chosen]
        shown = [by_tenor[t] for t in order]
        self.tenors = order
        self.tenor_kinds = [_kinds.kind_of(t) for t in order]
        self.prices = [v.price for v in shown]
        self.snapshot = [v.first for v in shown]
        self.times = [v.time for v in shown]
        self.received = [v.received for v in shown]
        self.ticks = sum(v.ticks for v in shown)

    @property
    def latest(self) -> dict[str, float]:
        """Each tenor's latest price, as the front end was last sent it."""
        return dict(zip(self.tenors, self.prices, strict=True))

    @property
    def as_of(self) -> _dt.datetime | None:
        """When the newest value shown was published (UTC); None before any."""
        if not self.times:
            return None
        return _dt.datetime.fromtimestamp(max(self.times) / 1000.0, _dt.UTC)
