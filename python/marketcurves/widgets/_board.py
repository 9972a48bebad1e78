"""``LiveBoard``: a ticking table, a row per curve and tenor of the feed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from marketcurves import _named
from marketcurves.plot import _input
from marketcurves.widgets._base import STATIC, FeedWidget
from marketcurves.widgets._latest import Book, Latest, Rows

if TYPE_CHECKING:
    from marketcurves.live import LiveFeed


class LiveBoard(FeedWidget):
    """A ticking table of a feed: a row per curve and tenor it delivers,
    with the last price, the change since the widget started reading (the
    subscription's snapshot), the time of the last value and the ticks
    received. A row flashes when its value changes. A notebook widget
    (anywidget: JupyterLab, Notebook 7, VS Code), on ``client.live()`` and
    ``client.replay(...)`` alike.

    Rows come by curve, in the order they were subscribed to, then by tenor
    in calendar order; a curve is shown by the name the catalogue gives it.
    Like :class:`LiveCurve`, it reads the feed in the background, sends at
    most ``max_fps`` updates a second, keeps one value per tenor, and says
    "closed" or "end of replay" when the feed ends.

    Args:
        feed: the feed, from ``client.live()`` or ``client.replay(...)``,
            without ``on_price``.
        max_fps: the most updates sent to the front end a second (above 0,
            at most 60).

    Raises:
        InvalidRequest: ``max_fps`` is out of range, or the feed delivers
            its ticks to ``on_price``.
        InvalidType: an argument of the wrong type.

    Examples:
        >>> feed = client.replay("2026-01-14T09:00", "2026-01-14T12:00")
        >>> feed.subscribe(curve, "Feb 26")
        >>> board = mc.widgets.LiveBoard(feed)  # a cell's last line shows it
        >>> board.close()
        >>> feed.close()
    """

    _esm = STATIC / "live_board.js"

    #: A row per curve and tenor: ``curve_id``, ``curve`` (its name),
    #: ``units``, ``tenor``, ``price``, ``change`` (since the first value
    #: seen), ``time`` (published, epoch ms UTC), ``ticks`` and
    #: ``received`` (taken from the feed, epoch ms).
    rows = traitlets.List(traitlets.Dict()).tag(sync=True)

    def __init__(self, feed: LiveFeed, *, max_fps: float = 10.0) -> None:
        self._book = Book()
        # Curves in the order the feed names them (its subscriptions').
        self._curves: dict[str, _named.NamedCurve] = {}
        self._order: list[tuple[str, str]] = []
        super().__init__(feed, max_fps)

    def _take(self, rows: Rows) -> bool:
        if self._book.add(rows) == 0:
            return False
        self._name_from(rows)
        return True

    def _seed(self, values: dict[tuple[str, str], Latest], last: Rows | None) -> bool:
        if self._book.seed(values) == 0:
            return False
        if last is not None:
            self._name_from(last)
        return True

    def _name_from(self, rows: Rows) -> None:
        """Names the curves of new tenors, from a batch that names them."""
        if self._book.added and len(self._curves) < len({c for c, _ in self._book.values}):
            for named in _named.curves_of(rows.batch):
                self._curves.setdefault(named["id"], named)

    def _update(self) -> None:
        book = self._book
        if book.added:
            self._order = self._sorted(book.values)
        book.take_changed()
        self.rows = [self._row(key) for key in self._order]
        self.ticks = sum(v.ticks for v in book.values.values())

    def _sorted(self, keys: Any) -> list[tuple[str, str]]:
        by_curve: dict[str, list[str]] = {}
        for curve, tenor in keys:
            by_curve.setdefault(curve, []).append(tenor)
        named = list(self._curves)
        curves = sorted(by_curve, key=lambda c: (named.index(c) if c in named else len(named), c))
        return [(c, t) for c in curves for t in _input.calendar_order(by_curve[c])]

    def _row(self, key: tuple[str, str]) -> dict[str, Any]:
        value = self._book.values[key]
        named = self._curves.get(key[0])
        return {
            "curve_id": key[0],
            "curve": (named["name"] if named else None) or key[0],
            "units": (named["units"] if named else None) or "",
            "tenor": key[1],
            "price": value.price,
            "change": value.price - value.first,
            "time": value.time,
            "ticks": value.ticks,
            "received": value.received,
        }

    @property
    def latest(self) -> dict[tuple[str, str], float]:
        """Each ``(curve_id, tenor)``'s latest price, as the front end was
        last sent it."""
        return {(r["curve_id"], r["tenor"]): r["price"] for r in self.rows}
