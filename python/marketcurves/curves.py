"""Curve analytics on the package's Arrow tables, computed in the Rust core.

>>> import marketcurves as mc
>>> history = client.settlements(curve, "2025-12-26", "2025-12-31", tenors="all")
>>> nearby = mc.curves.rolling(history, nearby=[1, 2, 3], roll_days=2)
>>> nearby.column_names, nearby.num_rows
(['curve_id', 'date', 'M1', 'M2', 'M3'], 4)

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
import json
import re
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from marketcurves import _calendars, _core, _deprecation
from marketcurves._args import instant as _instant
from marketcurves._args import text as _text
from marketcurves.exceptions import InvalidRequest, InvalidType

if TYPE_CHECKING:
    from typing import TypeAlias

    import pyarrow

    from marketcurves.catalogue import Catalogue, Curve

    # Explicit aliases: mypy meets Curve and Catalogue within the package's
    # import cycle, where it would take an implicit alias for a variable.
    Factor: TypeAlias = float | str | Curve
    FactorArg: TypeAlias = Factor | Mapping[str, Factor] | Catalogue | None
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


@_deprecation.positional_options("kind", "nearby", "roll_days")
def rolling(
    table: Any,
    *,
    kind: str = "month",
    nearby: Iterable[int] = range(1, 13),
    roll_days: int = 0,
    holidays: Holidays = None,
    adjust: str = "none",
) -> pyarrow.Table:
    """Rolling nearby series: the price of the nth contract of ``kind``
    whose delivery has not started, per curve and date (settlements) or
    curve and time (other prices).

    A contract is held up to the day before its roll day and no longer from
    it on: the first day of its delivery, or ``roll_days`` business days
    before it. The contracts are those of the curve in ``table``: pull
    history with ``tenors="all"`` to have every contract, expired ones
    included (see [Rolling series](../curves.md#rolling-series)).
    :func:`roll_log` says which contract each column held.

    Args:
        table: prices of the package's schema: settlements keyed by
            ``date``, other prices by ``generated_on`` (a ``pyarrow.Table``
            or anything with the Arrow PyCapsule interface).
        kind: the contracts that roll: ``"month"``, ``"quarter"`` or
            ``"window"``.
        nearby: the positions, from 1 (one, or several).
        roll_days: business days before the first day of delivery on which
            a contract is left; 0 rolls on that day.
        holidays: what is not a business day besides Saturday and
            Sunday: a list of dates (datetimes, ISO strings, or a
            ``holidays`` package object), the name of a financial calendar
            of the ``holidays`` package (its market code, ``"IFEU"``, or
            name, ``"ICE Futures Europe"``; the ``marketcurves[calendars]``
            extra), or ``"data"``: between the table's first and last day,
            the days it has prices on (of any curve), and Monday to Friday
            outside them. See [Calendars](../curves.md#calendars).
        adjust: ``"none"`` leaves the prices as they are;
            ``"difference"`` or ``"ratio"`` back-adjusts each column
            across its rolls. Each roll's gap is measured on the last date
            (or time) the old contract is held: the new contract's price
            minus the old one's, or the new over the old, both of that
            date; every earlier value is shifted by the sum of the later
            gaps, or scaled by their product, so the latest contract's
            prices are unchanged and the series does not jump at a roll.
            Where either contract has no price on that date, the gap is
            measured on the latest earlier date on which the old contract
            is still held and both have one. ``"ratio"`` needs every price
            it divides by or scales above zero; ``"difference"`` takes any
            and is the one for curves that go negative.

    Returns:
        One row per curve and date (or time): ``curve_id``, ``date`` (or
        ``generated_on``) and a column per position, ``M1``…``Mn`` (``Q``
        for quarters, ``W`` for windows), null where its contract has no
        price.

    Raises:
        InvalidRequest: a malformed argument, a table without the columns
            it needs, an unknown calendar (the message lists the known
            ones), a position past all the curve's contracts, or, with
            ``adjust``, a roll with no date to measure its gap on, or,
            with ``adjust="ratio"``, a price at or below zero that the
            series holds or a gap is measured from, on a roll day or not
            (naming the curve, tenor and date).
        ImportError: ``holidays`` names a calendar and the ``holidays``
            package is not installed.

    Examples:
        >>> history = client.settlements(curve, "2025-12-26", "2025-12-31", tenors="all")
        >>> nearby = mc.curves.rolling(history, nearby=[1, 2], roll_days=2)
        >>> nearby.drop_columns("curve_id").to_pandas()
                 date       M1       M2
        0  2025-12-26  730.495  730.285
        1  2025-12-29  768.648  768.349
        2  2025-12-30  772.079  771.948
        3  2025-12-31  770.732  770.157

        January is left two business days before its delivery: M1 holds
        February from 30 December. Back-adjusted, the earlier values move
        by the roll's gap (768.349 - 768.648):

        >>> adjusted = mc.curves.rolling(history, nearby=[1, 2], roll_days=2, adjust="difference")
        >>> adjusted.drop_columns("curve_id").to_pandas()
                 date       M1       M2
        0  2025-12-26  730.196  729.943
        1  2025-12-29  768.349  768.007
        2  2025-12-30  772.079  771.948
        3  2025-12-31  770.732  770.157
    """
    roll = _roll_args(kind, nearby, roll_days)
    adjusted = _text(adjust, "adjust")
    return _core.curves_rolling(_table(table), roll, False, adjusted, _calendars.holidays(holidays))


@_deprecation.positional_options("kind", "nearby", "roll_days")
def roll_log(
    table: Any,
    *,
    kind: str = "month",
    nearby: Iterable[int] = range(1, 13),
    roll_days: int = 0,
    holidays: Holidays = None,
    adjust: str = "none",
) -> pyarrow.Table:
    """Which contract each position of :func:`rolling` held: the same rows
    and columns, holding tenor names.

    Args:
        table: prices, as for :func:`rolling`.
        kind: the contracts that roll, as for :func:`rolling`.
        nearby: the positions, as for :func:`rolling`.
        roll_days: as for :func:`rolling`.
        holidays: as for :func:`rolling`.
        adjust: as for :func:`rolling`; with ``"difference"`` or
            ``"ratio"``, each column ``Mn`` is followed by ``Mn_gap``, the
            gap of the roll on the row where the new contract is first held
            (null on other rows), and ``Mn_gap_on``, the date (or time) it
            was measured on.

    Returns:
        One row per curve and date (or time), a column per position holding
        the tenor it held then (null past the curve's contracts).

    Raises:
        InvalidRequest: as for :func:`rolling`.
        ImportError: ``holidays`` names a calendar and the ``holidays``
            package is not installed.

    Examples:
        >>> history = client.settlements(curve, "2025-12-26", "2025-12-31", tenors="all")
        >>> held = mc.curves.roll_log(history, nearby=[1, 2], roll_days=2)
        >>> held.drop_columns("curve_id").to_pandas()
                 date      M1      M2
        0  2025-12-26  Jan 26  Feb 26
        1  2025-12-29  Jan 26  Feb 26
        2  2025-12-30  Feb 26  Mar 26
        3  2025-12-31  Feb 26  Mar 26
        >>> gaps = mc.curves.roll_log(history, nearby=[1], roll_days=2, adjust="difference")
        >>> gaps.drop_columns("curve_id").to_pandas()
                 date      M1  M1_gap   M1_gap_on
        0  2025-12-26  Jan 26     NaN        None
        1  2025-12-29  Jan 26     NaN        None
        2  2025-12-30  Feb 26  -0.299  2025-12-29
        3  2025-12-31  Feb 26     NaN        None
    """
    roll = _roll_args(kind, nearby, roll_days)
    adjusted = _text(adjust, "adjust")
    return _core.curves_rolling(_table(table), roll, True, adjusted, _calendars.holidays(holidays))


def spread(
    table: Any, near: Any, far: Any, *, roll_days: int = 0, holidays: Holidays = None
) -> pyarrow.Table:
    """One leg minus another, per curve and date (or time), where both have
    a price.

    Args:
        table: prices, as for :func:`rolling`.
        near: the first leg: a tenor (``"Jan 26"`` or a
            :class:`~marketcurves.Tenor`) or a nearby position (``"M1"``,
            ``"Q2"``, ``"W1"``), which rolls as :func:`rolling` does.
        far: the leg subtracted, in the same forms.
        roll_days: business days before the first day of delivery on which
            a position's contract is left, as for :func:`rolling`.
        holidays: as for :func:`rolling`.

    Returns:
        ``curve_id``, ``date`` or ``generated_on``, ``near`` and ``far``
        (the tenors used) and ``spread``.

    Raises:
        InvalidRequest: a leg that is neither a tenor nor a position, a
            tenor the table does not hold, a malformed argument or a table
            without the columns it needs.
        ImportError: ``holidays`` names a calendar and the ``holidays``
            package is not installed.

    Examples:
        >>> history = client.settlements(curve, "2025-12-26", "2025-12-31", tenors="all")
        >>> calendar = mc.curves.spread(history, "M1", "M2", roll_days=2)
        >>> calendar.drop_columns("curve_id").to_pandas()
                 date    near     far  spread
        0  2025-12-26  Jan 26  Feb 26   0.210
        1  2025-12-29  Jan 26  Feb 26   0.299
        2  2025-12-30  Feb 26  Mar 26   0.131
        3  2025-12-31  Feb 26  Mar 26   0.575
    """
    legs = (_leg(near, "near"), _leg(far, "far"), _roll_days(roll_days))
    return _core.curves_spread(_table(table), *legs, _calendars.holidays(holidays))


@_deprecation.positional_options("units")
def crack(
    product: Any,
    crude: Any,
    *,
    units: str = "$/bbl",
    factor: FactorArg = None,
    crude_factor: FactorArg = None,
) -> pyarrow.Table:
    """The crack of a product against crude: tenor by tenor, on the dates
    (or times) both tables have, with both converted to ``units`` first.

    Args:
        product: the product's prices, one curve (a table as for
            :func:`rolling`).
        crude: crude's prices, one curve.
        units: the units of the result: ``"c/gal"``, ``"$/gal"``,
            ``"$/bbl"`` or ``"$/mt"``.
        factor: the product's barrels per tonne, where it is quoted per
            tonne and ``units`` are not, in any form :func:`convert` takes.
        crude_factor: crude's barrels per tonne, where it is quoted per
            tonne; None for crude's standard 7.33.

    Returns:
        ``tenor``, ``date`` or ``generated_on``, ``product``, ``crude``,
        ``crack`` and ``units``.

    Raises:
        InvalidRequest: a table holding several curves or units, unknown
            units, a conversion between tonnes and volume without a
            factor, or a malformed argument.

    Examples:
        >>> crude_curve = client.catalogue(vertical="Crude")[0]
        >>> jet = client.settlements(curve, "2026-01-13", "2026-01-14", tenors="Feb 26")
        >>> crude = client.settlements(crude_curve, "2026-01-13", "2026-01-14", tenors="Feb 26")
        >>> mc.curves.crack(jet, crude, factor=curve).to_pandas()  # Jet: 7.88 bbl/t
            tenor        date    product   crude      crack  units
        0  Feb 26  2026-01-13  98.181726  73.448  24.733726  $/bbl
        1  Feb 26  2026-01-14  98.352665  73.756  24.596665  $/bbl
    """
    return _core.curves_crack(
        _table(product, "product"),
        _table(crude, "crude"),
        _text(units, "units"),
        _factors(factor, "factor"),
        _factors(crude_factor, "crude_factor"),
    )


@_deprecation.positional_options("to", "factor")
def convert(table: Any, *, to: str = "$/bbl", factor: FactorArg = None) -> pyarrow.Table:
    """The table with ``price`` in other units, and ``units`` saying so;
    every other column as it was.

    Args:
        table: prices, as for :func:`rolling`, every row in one unit.
            Units are ``c/gal``, ``$/gal``, ``$/bbl`` and ``$/mt`` as the
            catalogue writes them (``USD/bbl``, ``USc/gal``, ``USD/MT``
            are read too).
        to: the units wanted, one of those.
        factor: barrels per tonne, which a conversion between ``$/mt`` and
            volume needs and the table cannot say: a number, a product
            name with a standard figure (``"Gasoline"`` 8.33,
            ``"Naphtha"`` 8.90, ``"Jet"`` 7.88, ``"ULSD"`` 7.45,
            ``"Fuel Oil"`` 6.35, ``"Crude"`` 7.33), a
            :class:`~marketcurves.Curve` (its vertical), a mapping of curve
            id to any of those, or a :class:`~marketcurves.Catalogue` (each
            curve's vertical); 42 gallons make a barrel.

    Returns:
        The table, its prices converted.

    Raises:
        InvalidRequest: unknown units, rows in several units, a
            conversion between tonnes and volume without a factor (naming
            the curve), or a malformed argument.

    Examples:
        >>> table = client.settlements(curve, "2026-01-14", "2026-01-14", tenors=["Feb 26", "Mar 26"])
        >>> per_barrel = mc.curves.convert(table, to="$/bbl", factor=curve)
        >>> per_barrel.select(["tenor", "price", "units"]).to_pandas()
            tenor      price  units
        0  Feb 26  98.352665  $/bbl
        1  Mar 26  98.283883  $/bbl
    """
    return _core.curves_convert(_table(table), _text(to, "to"), _factors(factor, "factor"))


@_deprecation.positional_options("values")
def matrix(table: Any, *, values: str = "price") -> pyarrow.Table:
    """The date-by-tenor matrix: one row per curve and date (or time), one
    column per tenor in calendar order.

    Args:
        table: prices, as for :func:`rolling`.
        values: the column the cells hold.

    Returns:
        ``curve_id``, ``date`` (or ``generated_on``) and a column per tenor
        holding its ``values``, null where a tenor has no row.
        ``to_pandas()`` makes it a DataFrame.

    Raises:
        InvalidRequest: a table without the columns it needs, or without
            ``values``.

    Examples:
        >>> table = client.settlements(curve, "2026-01-13", "2026-01-14", tenors=["Mar 26", "Q1 26", "Jan 26"])
        >>> mc.curves.matrix(table).drop_columns("curve_id").to_pandas()
                 date   Jan 26    Q1 26   Mar 26
        0  2026-01-13  773.765  773.414  772.881
        1  2026-01-14  775.062  774.912  774.477
    """
    return _core.curves_matrix(_table(table), _text(values, "values"))


def as_of(table: Any, at: str | Iterable[_dt.datetime | str]) -> pyarrow.Table:
    """The curve as it stood at each time of ``at``: for each curve, time and
    tenor with a value at or before that time, the tenor's last value.

    A tenor with no value yet at a time has no row there; one whose last
    value is old keeps it, however old. Of two values of a tenor at the
    same time, the table's later row is taken. Rows without a curve, tenor,
    time or price are left out. See
    [The curve as of a time](../curves.md#the-curve-as-of-a-time).

    Args:
        table: prices keyed by ``generated_on``: intraday history,
            :func:`~marketcurves.read_ticks` output, or a live feed's
            batches (``pyarrow.Table.from_batches(...)``).
        at: a list of times (datetimes, naive ones taken as UTC, or ISO
            8601 strings; in any order, each taken once), or a frequency:
            a whole number and a unit, ``s``, ``min``, ``h`` or ``D``
            (``"30s"``, ``"15min"``, ``"1h"``, ``"1D"``; the number 1 may
            be left out). A frequency's times are midnight UTC of the
            table's first day plus whole steps, those from the table's
            first time to its last, both included: ``"1h"`` is each hour on
            the hour, ``"1D"`` each midnight.

    Returns:
        One row per curve, time and tenor, by curve, time and tenor in
        calendar order: ``curve_id``, ``as_of``, ``tenor``, ``tenor_kind``,
        ``tenor_start``, ``tenor_end``, ``generated_on`` (the value's own
        time) and ``price``.

    Raises:
        InvalidRequest: a table without ``generated_on``, a frequency that
            is not one (``"1m"``: minutes are ``"min"``), one time not in
            a list, a frequency with no time across the table (``"1D"``
            over one day's hours) or more than a million, or an answer of
            more than 100 million rows.

    Examples:
        >>> ticks = client.intraday_history(curve, "2026-01-13", "2026-01-13", tenors=["Feb 26", "Mar 26"])
        >>> stood = mc.curves.as_of(ticks, ["2026-01-13T10:00:00Z", "2026-01-13T16:30:00Z"])
        >>> stood.select(["as_of", "tenor", "generated_on", "price"]).to_pandas()
                              as_of   tenor                  generated_on    price
        0 2026-01-13 10:00:00+00:00  Feb 26 2026-01-13 09:58:11.672+00:00  773.561
        1 2026-01-13 10:00:00+00:00  Mar 26 2026-01-13 09:58:11.672+00:00  772.553
        2 2026-01-13 16:30:00+00:00  Feb 26 2026-01-13 16:28:01.400+00:00  773.215
        3 2026-01-13 16:30:00+00:00  Mar 26 2026-01-13 16:28:01.400+00:00  773.181
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

    Each curve and time is built alone, from its rows. The contracts are
    the rows whose tenors have delivery days (months, quarters, 5-day
    windows, any tenor whose dates parse); continuous tenors (``C 00``...)
    have none and are left out, and so is a contract every day of which
    shorter contracts of the same curve and time cover (a quarter and its
    three months): the finer contracts define those days.
    :func:`residuals` shows how far a left-out contract disagrees. A row
    whose price is null or NaN is no price, left out alike. See
    [Daily forward curves](../curves.md#daily-forward-curves).

    Args:
        table: prices, as for :func:`rolling`.
        method: ``"smooth"``, the maximum-smoothness forward curve of
            Benth, Koekebakker and Ollmar (2007), on days: of all curves
            whose weighted mean over each contract's days is its price, the
            one with the least sum of squared second differences, its last
            day equal to the day before (days between contracts are on the
            curve too, unconstrained); or ``"flat"``, the piecewise-flat
            bootstrap: each day takes the price of the finest contract
            covering it, a coarser contract's other days the one value that
            makes its mean right, and a day no contract covers the value of
            the day before.
        weights: ``"calendar"`` averages a contract's price over every day
            of its delivery; ``"business"`` over Monday to Friday less
            ``holidays``. Every day has a value on the curve either way.
        holidays: for ``weights="business"``, as for :func:`rolling`;
            with ``"data"``, delivery days after the table's last day are
            Monday to Friday.

    Returns:
        One row per curve, time and delivery day, from the first
        contract's first day to the last contract's last day:
        ``curve_id``, ``date`` (or ``generated_on``), ``delivery`` (a date)
        and ``forward``.

    Raises:
        InvalidRequest: an unknown method or weights, a table without the
            columns it needs, two different prices of one contract at one
            date or time (naming both), an infinite price, or contracts no
            curve can meet (two tenors over the same days, a contract with
            no business day, a contract whose mean the others already fix
            at another price), naming the curve, time and tenors.
        ImportError: ``holidays`` names a calendar and the ``holidays``
            package is not installed.

    Warns:
        UserWarning: tenors left out because their names give no delivery
            days (a name of no known shape, or a kind such as ``Cal 26``
            not built from yet; continuous tenors are left out without
            one), a ``price`` column of text (with how many values were
            not numbers), or rows with a ``generated_on`` but no ``date``
            in a table keyed by ``date``. The schema metadata of the
            result holds the same notes.

    Examples:
        >>> day = client.settlements(curve, "2026-01-14", "2026-01-14", tenors=["Jan 26", "Q1 26", "Feb 26", "Mar 26"])
        >>> daily = mc.curves.build(day)
        >>> daily.num_rows  # 1 January to 31 March; Q1 26 is left out, its months define it
        90
        >>> daily.drop_columns("curve_id").to_pandas().round(3).iloc[[0, 1, 30, 89]]
                  date    delivery  forward
        0   2026-01-14  2026-01-01  774.947
        1   2026-01-14  2026-01-02  774.956
        30  2026-01-14  2026-01-31  775.142
        89  2026-01-14  2026-03-31  774.313
    """
    built = _core.curves_build(
        _table(table),
        _text(method, "method"),
        _text(weights, "weights"),
        _calendars.holidays(holidays),
    )
    return _warn_build_notes(built)


def residuals(
    table: Any,
    built: Any,
    *,
    weights: str = "calendar",
    holidays: Holidays = None,
) -> pyarrow.Table:
    """How far the curves ``built`` from ``table`` (by :func:`build`) are
    from each of its contracts.

    A contract the curve was built from has a residual of zero to within
    1e-9 of its price; a left-out one shows how far it disagrees.

    Args:
        table: the prices the curves were built from.
        built: what :func:`build` returned for ``table``.
        weights: how a contract's mean is weighted over its days, as for
            :func:`build`: the weights the curve was built with.
        holidays: as for :func:`build`, those the curve was built with
            (``"data"`` reads the days of ``table``).

    Returns:
        One row per row of ``table`` whose tenor has delivery days, by
        curve, date (or time) and tenor in calendar order: ``curve_id``,
        ``date`` (or ``generated_on``), ``tenor``, ``price``, ``mean`` (the
        built curve's mean over the contract's days) and ``residual``
        (``price - mean``). Rows missing a curve, tenor, time or price
        (null or NaN) are left out, as :func:`build` leaves them out.

    Raises:
        InvalidRequest: ``built`` is not :func:`build` output, or lacks a
            curve, time or delivery day a contract needs; a malformed
            argument.
        ImportError: ``holidays`` names a calendar and the ``holidays``
            package is not installed.

    Examples:
        >>> day = client.settlements(curve, "2026-01-14", "2026-01-14", tenors=["Jan 26", "Q1 26", "Feb 26", "Mar 26"])
        >>> fit = mc.curves.residuals(day, mc.curves.build(day)).to_pandas()
        >>> fit[["tenor", "price", "mean"]].round(3)  # Q1 26 was left out
            tenor    price     mean
        0  Jan 26  775.062  775.062
        1   Q1 26  774.912  774.847
        2  Feb 26  775.019  775.019
        3  Mar 26  774.477  774.477
        >>> (fit["residual"].abs() < 1e-9).tolist()
        [True, False, True, True]
    """
    return _core.curves_residuals(
        _table(table),
        _table(built, "built"),
        _text(weights, "weights"),
        _calendars.holidays(holidays),
    )


def _warn_build_notes(built: pyarrow.Table) -> pyarrow.Table:
    """Warns of what :func:`build` left aside, as the core noted it in the
    schema metadata: tenors it cannot place on delivery days, a ``price``
    column of text, rows without the ``date`` the table is keyed by."""
    metadata = built.schema.metadata or {}
    dropped = metadata.get(b"marketcurves.dropped_tenors")
    if dropped:
        per_curve = json.loads(dropped)
        names = "; ".join(f"curve {c}: {', '.join(t)}" for c, t in per_curve.items())
        warnings.warn(
            f"build left out tenor(s) whose delivery days it cannot tell (a name of no "
            f"known shape, or a kind such as Cal it does not build from yet): {names}",
            UserWarning,
            stacklevel=3,
        )
    text = metadata.get(b"marketcurves.price_from_text")
    if text:
        note = json.loads(text)
        unread = note["not_numbers"]
        warnings.warn(
            f"column 'price' is text ({note['type']}) and was read as numbers"
            + (f"; {unread} value(s) that are not numbers were left out" if unread else "")
            + ": cast it to float64 first",
            UserWarning,
            stacklevel=3,
        )
    undated = metadata.get(b"marketcurves.undated_rows")
    if undated:
        warnings.warn(
            f"the table has both 'date' and 'generated_on' and is keyed by date: "
            f"{int(undated)} row(s) with a generated_on but no date were left out "
            "(build intraday prices from a table without 'date')",
            UserWarning,
            stacklevel=3,
        )
    return built


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
        raise InvalidType(
            f"at must be a frequency such as '1h' or a list of times, not {type(value).__name__}"
        )
    times = [_instant(t, "at") for t in value]
    if not times:
        raise InvalidRequest("at must name at least one time")
    return times


def _table(value: Any, name: str = "table") -> Any:
    if not hasattr(value, "__arrow_c_stream__"):
        raise InvalidType(
            f"{name} must be an Arrow table (pyarrow.Table or anything with "
            f"__arrow_c_stream__), not {type(value).__name__}"
        )
    return value


def _roll_args(kind: Any, nearby: Any, roll_days: Any) -> tuple[str, list[int], int]:
    kind = _text(kind, "kind")
    if isinstance(nearby, int) and not isinstance(nearby, bool):
        nearby = [nearby]
    if not isinstance(nearby, Iterable) or isinstance(nearby, (str, bytes)):
        raise InvalidType(
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
        raise InvalidType(
            f"{name} must be barrels per tonne, a product name or a Curve, "
            f"not {type(value).__name__}"
        )
    return value


def _factors(value: Any, name: str) -> tuple[float | str | None, dict[str, float | str]]:
    from marketcurves.catalogue import Catalogue

    if value is None:
        return None, {}
    if isinstance(value, Catalogue):
        # A curve the service listed without an id names no table's curve.
        return None, {
            c.id: c.vertical for c in value if c.id is not None and c.vertical is not None
        }
    if isinstance(value, Mapping):
        per_curve: dict[str, float | str] = {}
        for key, factor in value.items():
            if not isinstance(key, str):
                raise InvalidRequest(f"{name}: keys are curve ids, not {type(key).__name__}")
            per_curve[key] = _factor(factor, f"{name}[{key!r}]")
        return None, per_curve
    return _factor(value, name), {}
