"""Curve analytics on the package's Arrow tables, computed in the Rust core.

>>> import marketcurves as mc
>>> history = client.settlements(curve, "2024-01-01", "2025-12-31", tenors="all")  # doctest: +SKIP
>>> mc.curves.rolling(history, nearby=[1, 2, 3], roll_days=2)  # doctest: +SKIP

Every function takes a table of the design's schema (settlements keyed by
``date``, other prices by ``generated_on``; anything with the Arrow PyCapsule
interface, such as ``pyarrow.Table`` or a polars DataFrame) and returns a
``pyarrow.Table``. Bad input raises :class:`~marketcurves.InvalidRequest`
naming the problem.

Business days for ``roll_days`` (and for ``weights="business"``) are Monday to
Friday less ``holidays``: the tables do not say which exchange's holidays
apply, so the caller names them, as a list of dates, a financial calendar of
the ``holidays`` package (``"IFEU"``, ``"ICE Futures Europe"``, ``"XNYS"``;
``pip install 'marketcurves[calendars]'``), or ``"data"``, the days the
table has prices on.

Barrels per tonne (for ``$/mt`` against volume units) are the industry's
standard figures: Gasoline 8.33, Naphtha 8.90, Jet 7.88, ULSD 7.45, Fuel Oil
6.35 (ICE Futures Europe contract specifications) and Crude 7.33 (Energy
Institute Statistical Review, approximate conversion factors); 42 gallons
make a barrel.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from marketcurves import _calendars, _core
from marketcurves._args import instant as _instant
from marketcurves._args import text as _text
from marketcurves.exceptions import InvalidRequest

if TYPE_CHECKING:
    import pyarrow

    from marketcurves.catalogue import Catalogue, Curve

    Factor = float | str | Curve
    FactorArg = Factor | Mapping[str, Factor] | Catalogue | None
    Holidays = Iterable[_dt.date | _dt.datetime | str] | str | None

__all__ = [
    "as_of",
    "build",
    "convert",
    "crack",
    "matrix",
    "residuals",
    "roll_log",
    "rolling",
    "spread",
]


def rolling(
    table: Any,
    kind: str = "month",
    nearby: Iterable[int] = range(1, 13),
    roll_days: int = 0,
    *,
    holidays: Holidays = None,
    adjust: str = "none",
) -> pyarrow.Table:
    """One row per curve and date (settlements) or curve and time (other
    prices), with columns ``M1``…``Mn`` (``Q`` for quarters, ``W`` for
    windows): the price of the nth contract of ``kind`` whose delivery has
    not started.

    A contract is held up to the day before its roll day and no longer from
    it on: the first day of its delivery, or ``roll_days`` business days
    before it. Business days are Monday to Friday less ``holidays``: a list
    of dates (datetimes, ISO strings, or a ``holidays`` package object), the
    name of a financial calendar of the ``holidays`` package (its market
    code, ``"IFEU"``, or name, ``"ICE Futures Europe"``; the
    ``marketcurves[calendars]`` extra), or ``"data"``: between the table's
    first and last day, the days it has prices on (of any curve), and
    Monday to Friday outside them. An unknown calendar raises
    :class:`InvalidRequest` listing the known ones.

    The contracts are those of the curve in ``table``; a position past all
    of them raises :class:`InvalidRequest`, and a position whose contract
    has no price at a time is null there (pull history with
    ``tenors="all"`` to have every contract). :func:`roll_log` says which
    contract each column held.

    ``adjust`` back-adjusts each column across its rolls. Each roll's gap is
    measured on the last date (or time) the old contract is held: the new
    contract's price minus the old one's (``"difference"``) or the new over
    the old (``"ratio"``), both of that date. Every earlier value is
    shifted by the sum of the later gaps, or scaled by their product, so
    the latest contract's prices are unchanged and the series does not jump
    at a roll. Where either contract has no price on that date, the gap is
    measured on the latest earlier date on which the old contract is still
    held and both have one (:func:`roll_log` says which); a roll with no
    such date raises :class:`InvalidRequest` naming it, and so does a ratio
    that is not above zero. ``"none"`` (the default) leaves the prices as
    they are.
    """
    args = (*_roll_args(kind, nearby, roll_days), False, _text(adjust, "adjust"))
    return _core.curves_rolling(_table(table), *args, _calendars.holidays(holidays))


def roll_log(
    table: Any,
    kind: str = "month",
    nearby: Iterable[int] = range(1, 13),
    roll_days: int = 0,
    *,
    holidays: Holidays = None,
    adjust: str = "none",
) -> pyarrow.Table:
    """The same rows and columns as :func:`rolling`, holding the tenor each
    position held at that date or time (null past the curve's contracts).

    With ``adjust="difference"`` or ``"ratio"``, each column ``Mn`` is
    followed by ``Mn_gap``, the gap of the roll on the row where the new
    contract is first held (null on other rows), and ``Mn_gap_on``, the date
    (or time) it was measured on; see :func:`rolling`."""
    args = (*_roll_args(kind, nearby, roll_days), True, _text(adjust, "adjust"))
    return _core.curves_rolling(_table(table), *args, _calendars.holidays(holidays))


def spread(
    table: Any, near: Any, far: Any, *, roll_days: int = 0, holidays: Holidays = None
) -> pyarrow.Table:
    """``near`` minus ``far`` per curve and date (or time), where both have a
    price. A leg is a tenor (``"Jan 26"`` or a :class:`~marketcurves.Tenor`)
    or a nearby position (``"M1"``, ``"Q2"``, ``"W1"``), which rolls as
    :func:`rolling` does: ``roll_days`` business days (Monday to Friday less
    ``holidays``, as :func:`rolling` takes them) before delivery, by default
    on its first day. Columns: ``curve_id``, ``date`` or ``generated_on``,
    ``near`` and ``far`` (the tenors used) and ``spread``."""
    legs = (_leg(near, "near"), _leg(far, "far"), _roll_days(roll_days))
    return _core.curves_spread(_table(table), *legs, _calendars.holidays(holidays))


def crack(
    product: Any,
    crude: Any,
    units: str = "$/bbl",
    *,
    factor: FactorArg = None,
    crude_factor: FactorArg = None,
) -> pyarrow.Table:
    """The crack of a product against crude: tenor by tenor, on the dates
    (or times) both tables have, with both converted to ``units`` first.

    Each table holds one curve. ``factor`` gives the product's barrels per
    tonne when it is quoted per tonne (see :func:`convert`); crude per tonne
    uses crude's standard 7.33 unless ``crude_factor`` says otherwise.
    Columns: ``tenor``, ``date`` or ``generated_on``, ``product``,
    ``crude``, ``crack`` and ``units``."""
    all_, per_curve = _factors(factor, "factor")
    crude_all, crude_per_curve = _factors(crude_factor, "crude_factor")
    return _core.curves_crack(
        _table(product, "product"),
        _table(crude, "crude"),
        _text(units, "units"),
        all_,
        per_curve,
        crude_all,
        crude_per_curve,
    )


def convert(table: Any, to: str = "$/bbl", factor: FactorArg = None) -> pyarrow.Table:
    """The table with ``price`` in ``to`` and ``units`` saying so; every
    other column as it was.

    Units are ``c/gal``, ``$/gal``, ``$/bbl`` and ``$/mt`` as the catalogue
    writes them (``USD/bbl``, ``USc/gal``, ``USD/MT`` are read too). Every row
    must be in one unit. Between ``$/mt`` and volume a curve needs barrels
    per tonne, which the table cannot say: ``factor`` is a number, a product
    name with a standard figure (``"Gasoline"``, ``"Naphtha"``, ``"Jet"``,
    ``"ULSD"``, ``"Fuel Oil"``, ``"Crude"``), a :class:`Curve` (its
    vertical), a mapping of curve id to any of those, or a
    :class:`Catalogue` (each curve's vertical). Without one, such a
    conversion raises :class:`InvalidRequest` naming the curve."""
    all_, per_curve = _factors(factor, "factor")
    return _core.curves_convert(_table(table), _text(to, "to"), all_, per_curve)


def matrix(table: Any, values: str = "price") -> pyarrow.Table:
    """One row per curve and date (or time), one column per tenor in
    calendar order, holding the ``values`` column (null where a tenor has no
    row). ``to_pandas`` works on it."""
    return _core.curves_matrix(_table(table), _text(values, "values"))


def as_of(table: Any, at: str | Iterable[_dt.datetime | str]) -> pyarrow.Table:
    """The curve as it stood at each time of ``at``: for each curve, time and
    tenor with a value at or before that time, the tenor's last value.

    ``table`` holds prices keyed by ``generated_on``: intraday history,
    :func:`~marketcurves.read_ticks` output, or a live feed's batches
    (``pyarrow.Table.from_batches(...)``). ``at`` is a list of times
    (datetimes, naive ones taken as UTC, or ISO 8601 strings; in any order,
    each taken once), or a frequency: a whole number and a unit, ``s``,
    ``min``, ``h`` or ``D`` (``"30s"``, ``"15min"``, ``"1h"``, ``"1D"``; the
    number 1 may be left out). A frequency's times are midnight UTC of the
    table's first day plus whole steps, those from the table's first time
    to its last, both included: ``"1h"`` is each hour on the hour, ``"1D"``
    each midnight.

    One row per curve, time and tenor, by curve, time and tenor in calendar
    order: ``curve_id``, ``as_of``, ``tenor``, ``tenor_kind``,
    ``tenor_start``, ``tenor_end``, ``generated_on`` (the value's own time)
    and ``price``. A tenor with no value yet at a time has no row there;
    one whose last value is old keeps it, however old. Of two values of a
    tenor at the same time, the table's later row is taken. Rows without a
    curve, tenor, time or price are left out.

    Raises :class:`InvalidRequest` for a table without ``generated_on``, a
    frequency that is not one (``"1m"``: minutes are ``"min"``), a
    frequency with no time across the table (``"1D"`` over one day's
    hours) or more than a million, and an answer of more than 100 million
    rows.
    """
    return _core.curves_as_of(_table(table), _at(at))


def build(
    table: Any,
    *,
    method: str = "smooth",
    weights: str = "calendar",
    holidays: Holidays = None,
) -> pyarrow.Table:
    """A daily forward curve for each curve and date (settlements) or curve
    and time (other prices) of ``table``, consistent with its contracts.

    One row per curve, time and delivery day, from the first contract's
    first day to the last contract's last day: ``curve_id``, ``date`` (or
    ``generated_on``), ``delivery`` (a date) and ``forward``. Each curve and
    time is built alone, from its rows.

    The contracts are the rows whose tenors have delivery days (months,
    quarters, 5-day windows, any tenor whose dates parse); continuous
    tenors (``C 00``...) have none and are left out, and so is a contract
    every day of which shorter contracts of the same curve and time cover
    (a quarter and its three months): the finer contracts define those
    days. :func:`residuals` shows how far a left-out contract disagrees.

    ``method="smooth"`` is the maximum-smoothness forward curve of Benth,
    Koekebakker and Ollmar (2007), on days: of all curves whose weighted
    mean over each contract's days is its price, the one with the least
    sum of squared second differences, its last day equal to the day
    before. Days between contracts are on the curve too, unconstrained.
    ``method="flat"`` is the piecewise-flat bootstrap: each day takes the
    price of the finest contract covering it, a coarser contract's other
    days the one value that makes its mean right, and a day no contract
    covers the value of the day before.

    ``weights="calendar"`` averages a contract's price over every day of its
    delivery; ``weights="business"`` over Monday to Friday less
    ``holidays``, which :func:`rolling` takes alike: a list of dates,
    datetimes or ISO strings, a financial calendar's name (``"IFEU"``), or
    ``"data"``, the days ``table`` has prices on between its first and last
    (delivery days after the table's last day are Monday to Friday). Every
    day has a value on the curve either way.

    Raises :class:`InvalidRequest` for an unknown method or weights, a table
    without the columns it needs, or contracts no curve can meet: two
    tenors over the same days, a contract with no business day, a contract
    whose mean the others already fix at another price.
    """
    return _core.curves_build(
        _table(table),
        _text(method, "method"),
        _text(weights, "weights"),
        _calendars.holidays(holidays),
    )


def residuals(
    table: Any,
    built: Any,
    *,
    weights: str = "calendar",
    holidays: Holidays = None,
) -> pyarrow.Table:
    """How far the curves ``built`` from ``table`` (by :func:`build`) are from
    each of its contracts.

    One row per row of ``table`` whose tenor has delivery days, by curve,
    date (or time) and tenor in calendar order: ``curve_id``, ``date`` (or
    ``generated_on``), ``tenor``, ``price``, ``mean`` (the built curve's
    mean over the contract's days, weighted as ``weights`` and ``holidays``
    say, which should be those the curve was built with; ``"data"`` reads
    the days of ``table``) and ``residual``
    (``price - mean``). A contract the curve was built from has a residual
    of zero to within 1e-9 of its price; a left-out one shows how far it
    disagrees. Rows missing a curve, tenor, time or price are left out, as
    :func:`build` leaves them out. Raises :class:`InvalidRequest` if
    ``built`` lacks a curve, time or delivery day a contract needs.
    """
    return _core.curves_residuals(
        _table(table),
        _table(built, "built"),
        _text(weights, "weights"),
        _calendars.holidays(holidays),
    )


def _at(value: Any) -> str | list[_dt.datetime]:
    if isinstance(value, str):
        if re.match(r"\s*\d{4}-\d{2}-\d{2}", value):
            raise InvalidRequest(
                f"at is a frequency such as '1h' or a list of times; one time goes in a "
                f"list: at=[{value!r}]"
            )
        return value
    if isinstance(value, _dt.datetime):
        raise InvalidRequest(
            "at is a frequency such as '1h' or a list of times; one time goes in a list"
        )
    if not isinstance(value, Iterable) or isinstance(value, (bytes, bytearray)):
        raise InvalidRequest(
            f"at must be a frequency such as '1h' or a list of times, not {type(value).__name__}"
        )
    times = [_instant(t, "at") for t in value]
    if not times:
        raise InvalidRequest("at must name at least one time")
    return times


def _table(value: Any, name: str = "table") -> Any:
    if not hasattr(value, "__arrow_c_stream__"):
        raise InvalidRequest(
            f"{name} must be an Arrow table (pyarrow.Table or anything with "
            f"__arrow_c_stream__), not {type(value).__name__}"
        )
    return value


def _roll_args(kind: Any, nearby: Any, roll_days: Any) -> tuple[str, list[int], int]:
    kind = _text(kind, "kind")
    if isinstance(nearby, int) and not isinstance(nearby, bool):
        nearby = [nearby]
    if not isinstance(nearby, Iterable) or isinstance(nearby, (str, bytes)):
        raise InvalidRequest(
            f"nearby must be a position or positions such as range(1, 13), "
            f"not {type(nearby).__name__}"
        )
    positions = list(nearby)
    for n in positions:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 10_000:
            raise InvalidRequest(f"nearby positions are whole numbers from 1, not {n!r}")
    return kind, positions, _roll_days(roll_days)


def _roll_days(roll_days: Any) -> int:
    if isinstance(roll_days, bool) or not isinstance(roll_days, int) or not 0 <= roll_days <= 366:
        raise InvalidRequest(f"roll_days must be a whole number from 0 to 366, not {roll_days!r}")
    return roll_days


def _leg(value: Any, name: str) -> str:
    from marketcurves._core import Tenor

    if isinstance(value, Tenor):
        return value.name
    return _text(value, name)


def _factor(value: Any, name: str) -> float | str:
    from marketcurves.catalogue import Curve

    if isinstance(value, Curve):
        vertical = value.vertical
        if vertical is None:
            raise InvalidRequest(f"{name}: curve {value.id} has no vertical to take a factor from")
        return vertical
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidRequest(
            f"{name} must be barrels per tonne, a product name or a Curve, "
            f"not {type(value).__name__}"
        )
    return value


def _factors(value: Any, name: str) -> tuple[float | str | None, dict[str, float | str]]:
    from marketcurves.catalogue import Catalogue

    if value is None:
        return None, {}
    if isinstance(value, Catalogue):
        return None, {c.id: c.vertical for c in value if c.vertical is not None}
    if isinstance(value, Mapping):
        per_curve: dict[str, float | str] = {}
        for key, factor in value.items():
            if not isinstance(key, str):
                raise InvalidRequest(f"{name}: keys are curve ids, not {type(key).__name__}")
            per_curve[key] = _factor(factor, f"{name}[{key!r}]")
        return None, per_curve
    return _factor(value, name), {}
