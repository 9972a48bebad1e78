"""The latest value of each curve and tenor a widget shows, taken from the
feed's batches: its memory is one entry per subscribed tenor, whatever the
feed's rate."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow


class Rows:
    """A batch's columns as Python lists, made once for every widget of
    the feed."""

    __slots__ = ("batch", "curves", "prices", "tenors", "times")

    def __init__(self, batch: pyarrow.RecordBatch) -> None:
        self.batch = batch
        self.curves = batch.column("curve_id").to_pylist()
        self.tenors = batch.column("tenor").to_pylist()
        self.prices = batch.column("price").to_pylist()
        self.times = batch.column("generated_on").to_pylist()


@dataclass(slots=True)
class Latest:
    """One tenor's latest value, and what the widgets show beside it."""

    price: float
    #: When the value was published (``generated_on``), in epoch milliseconds.
    time: float
    #: The first value seen (the subscription's snapshot), for the day's move.
    first: float
    #: Values received since the feed's reader began (the first widget of
    #: the feed).
    ticks: int
    #: When the reader took it from the feed (this machine's clock, epoch
    #: milliseconds): the front end measures a tick's way to the screen.
    received: float


class Book:
    """Latest values by ``(curve_id, tenor)``; ``curve_id`` given, of that
    curve alone."""

    def __init__(self, curve_id: str | None = None) -> None:
        self.curve_id = curve_id
        self.values: dict[tuple[str, str], Latest] = {}
        #: Keys changed since :meth:`take_changed`.
        self.changed: set[tuple[str, str]] = set()
        #: New keys since :meth:`take_changed` (the order to show may change).
        self.added = False

    def add(self, rows: Rows) -> int:
        """Takes a batch's rows; returns how many were of this book."""
        received = time.time() * 1000.0
        curves, tenors, prices, times = rows.curves, rows.tenors, rows.prices, rows.times
        mine = self.curve_id
        values, changed = self.values, self.changed
        taken = 0
        for curve, tenor, price, at in zip(curves, tenors, prices, times, strict=True):
            if (mine is not None and curve != mine) or price is None or tenor is None:
                continue
            taken += 1
            key = (curve, tenor)
            millis = at.timestamp() * 1000.0 if at is not None else received
            kept = values.get(key)
            if kept is None:
                values[key] = Latest(price, millis, price, 1, received)
                self.added = True
            else:
                kept.price, kept.time, kept.received = price, millis, received
                kept.ticks += 1
            changed.add(key)
        return taken

    def seed(self, values: dict[tuple[str, str], Latest]) -> int:
        """Takes the values read before this book was made (another book's
        of the same feed: a widget shown after the feed began); returns how
        many were of this book."""
        mine = self.curve_id
        taken = 0
        for key, value in values.items():
            if mine is not None and key[0] != mine:
                continue
            taken += 1
            self.values[key] = dataclasses.replace(value)
            self.changed.add(key)
            self.added = True
        return taken

    def take_changed(self) -> set[tuple[str, str]]:
        changed, self.changed, self.added = self.changed, set(), False
        return changed
