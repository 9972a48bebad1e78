"""What the plots read from a price table, checked: one curve, one unit, the
days it covers, a day's forward curve, a tenor's rows. Bad input raises
:class:`~marketcurves.InvalidRequest` naming the table and the problem,
before anything is drawn."""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from marketcurves import _named
from marketcurves._core import Tenor
from marketcurves.exceptions import InvalidRequest

if TYPE_CHECKING:
    import pyarrow

#: Ids listed when a table holds several curves.
_IDS_SHOWN = 3


def as_arrow(value: Any, name: str) -> pyarrow.Table:
    """A ``pyarrow.Table`` of a table, a ``RecordBatch``, or anything with the
    Arrow PyCapsule interface."""
    import pyarrow as pa

    if isinstance(value, pa.RecordBatch):
        return pa.Table.from_batches([value])
    if isinstance(value, pa.Table):
        return value
    if not hasattr(value, "__arrow_c_stream__"):
        raise InvalidRequest(
            f"{name} must be a price table (pyarrow.Table), not {type(value).__name__}"
        )
    # A DataFrame of to_pandas keeps the curves' names in its attrs.
    return _named.with_curves(pa.table(value), _named.curves_of(value))


def table(value: Any, name: str) -> pyarrow.Table:
    """A non-empty price table (a ``pyarrow.Table`` or ``RecordBatch``, or
    anything with the Arrow PyCapsule interface) with ``tenor`` and
    ``price`` and a time column."""
    value = as_arrow(value, name)
    missing = [c for c in ("tenor", "price") if c not in value.column_names]
    if "date" not in value.column_names and "generated_on" not in value.column_names:
        missing.append("date or generated_on")
    if missing:
        raise InvalidRequest(
            f"{name} lacks the column(s) {', '.join(missing)}: plots take the "
            f"price tables of the client (settlements, intraday, ...)"
        )
    if value.num_rows == 0:
        raise InvalidRequest(f"{name} is empty: there is nothing to plot")
    return value


def curve_id(table: pyarrow.Table, name: str, plot: str) -> str | None:
    """The one curve of ``table`` (None if it has no ``curve_id`` column)."""
    if "curve_id" not in table.column_names:
        return None
    ids = sorted(str(i) for i in table["curve_id"].unique().to_pylist() if i is not None)
    if len(ids) > 1:
        shown = ", ".join(ids[:_IDS_SHOWN]) + (", ..." if len(ids) > _IDS_SHOWN else "")
        raise InvalidRequest(
            f"{name} holds {len(ids)} curves ({shown}); {plot} draws one: "
            f"filter it first, e.g. table.filter(pyarrow.compute.field('curve_id') == id)"
        )
    return ids[0] if ids else None


def curve_name(value: Any, curve_id: str | None, *tables: pyarrow.Table) -> str | None:
    """The name of the curve ``value`` (a ``Curve``, or a ``Catalogue`` to
    look ``curve_id`` up in) says the table holds; for None, the name the
    first of ``tables`` to name the curve gives it in its metadata (None if
    none does: the plot shows the id)."""
    from marketcurves.catalogue import Catalogue, Curve

    if value is None:
        named = (_named.curve_of(t, curve_id) for t in tables)
        return next((c["name"] for c in named if c is not None and c["name"]), None)
    if isinstance(value, Catalogue):
        if curve_id is None:
            raise InvalidRequest(
                "curve: the table has no curve_id to look up in the catalogue; give the Curve"
            )
        try:
            value = value.by_id(curve_id)
        except KeyError:
            raise InvalidRequest(f"curve: the catalogue has no curve {curve_id}") from None
    if not isinstance(value, Curve):
        raise InvalidRequest(
            f"curve must be a Curve or a Catalogue (to name the curve), not {type(value).__name__}"
        )
    if curve_id is not None and value.id != curve_id:
        raise InvalidRequest(
            f"curve is {value.name or value.id} ({value.id}), but the table holds curve {curve_id}"
        )
    return value.name or value.id


def units(tables: Iterable[tuple[str, pyarrow.Table]]) -> str | None:
    """The one unit of the prices of ``tables``: their ``units`` column,
    else, for a table without one (intraday values, live ticks), the units
    its metadata names for the curves it holds (a table may name more: a
    live feed's names every curve subscribed to); None if none says."""
    seen: dict[str, str] = {}
    for name, table in tables:
        if "units" not in table.column_names:
            held = (
                set(table["curve_id"].unique().to_pylist())
                if "curve_id" in table.column_names
                else None
            )
            for curve in _named.curves_of(table):
                if curve["units"] is not None and (held is None or curve["id"] in held):
                    seen.setdefault(curve["units"], name)
            continue
        for unit in table["units"].unique().to_pylist():
            if unit is not None:
                seen.setdefault(unit, name)
    if len(seen) > 1:
        listed = ", ".join(f"{unit} ({name})" for unit, name in sorted(seen.items()))
        raise InvalidRequest(
            f"prices in several units: {listed}; convert them to one first "
            f"with marketcurves.curves.convert"
        )
    return next(iter(seen), None)


def price_label(unit: str | None) -> str:
    return f"price ({unit})" if unit else "price"


def calendar_order(names: Iterable[str]) -> list[str]:
    return [t.name for t in sorted({Tenor.parse(n, strict=False) for n in names})]


def days(table: pyarrow.Table) -> list[_dt.date | None]:
    """The day of each row: its ``date`` (settlements), else the UTC day of
    its ``generated_on``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if "date" in table.column_names:
        dates: list[_dt.date | None] = table["date"].to_pylist()
        return dates
    times = table["generated_on"].cast(pa.timestamp("us", tz="UTC"))
    days_: list[_dt.date | None] = pc.cast(times, pa.date32()).to_pylist()
    return days_


def day_arg(value: Any, name: str) -> _dt.date:
    from marketcurves._args import date

    return date(value, name)


class Curves:
    """The forward curve of each day of a one-curve table: each tenor's last
    price that day (the latest ``generated_on``)."""

    def __init__(self, table: pyarrow.Table, name: str) -> None:
        times = (
            table["generated_on"].to_pylist()
            if "generated_on" in table.column_names
            else [None] * table.num_rows
        )
        latest: dict[_dt.date, dict[str, tuple[Any, float]]] = {}
        rows = zip(
            days(table), table["tenor"].to_pylist(), times, table["price"].to_pylist(), strict=True
        )
        for day, tenor, time, price in rows:
            if day is None or tenor is None or price is None:
                continue
            kept = latest.setdefault(day, {}).get(tenor)
            # Later rows win where times tie or are missing.
            if kept is None or kept[0] is None or time is None or time >= kept[0]:
                latest[day][tenor] = (time, price)
        self._prices = {
            day: {tenor: price for tenor, (_, price) in by_tenor.items()}
            for day, by_tenor in latest.items()
        }
        self.days = sorted(self._prices)
        if not self.days:
            raise InvalidRequest(f"{name} has no price with a date or a time")

    def on(self, day: _dt.date, name: str) -> dict[str, float]:
        """Prices by tenor on ``day``."""
        if day not in self._prices:
            first, last = self.days[0], self.days[-1]
            raise InvalidRequest(
                f"{name} has no price on {day}: it covers {len(self.days)} days "
                f"from {first} to {last}"
            )
        return self._prices[day]

    def tenors(self, chosen: Sequence[_dt.date]) -> list[str]:
        """The tenors priced on any of ``chosen``, in calendar order."""
        return calendar_order({t for day in chosen for t in self._prices[day]})

    @staticmethod
    def line(prices: dict[str, float], tenors: Sequence[str]) -> list[float]:
        """The prices of ``tenors`` (NaN, a gap in the line, where one has none)."""
        return [prices.get(t, math.nan) for t in tenors]


def spread_days(available: Sequence[_dt.date], count: int) -> list[_dt.date]:
    """``count`` days evenly spread from the first to the last (all of them if fewer)."""
    if len(available) <= count:
        return list(available)
    last = len(available) - 1
    return [available[round(i * last / (count - 1))] for i in range(count)]


def tenor_rows(table: pyarrow.Table, tenor: str, name: str) -> pyarrow.Table:
    """The rows of one tenor, by time."""
    import pyarrow.compute as pc

    rows = table.filter(pc.equal(table["tenor"], tenor))
    if rows.num_rows == 0:
        present = calendar_order(n for n in table["tenor"].unique().to_pylist() if n)
        shown = ", ".join(present[:8]) + (", ..." if len(present) > 8 else "")
        raise InvalidRequest(f"{name} has no rows of tenor {tenor!r}; it has {shown}")
    order = "generated_on" if "generated_on" in rows.column_names else "date"
    return rows.sort_by(order)
