"""A built daily forward curve drawn along delivery dates, over the steps of
the contracts it was built from: each contract a flat step across its
delivery days at its price, months, quarters and windows as separate,
labelled series."""

from __future__ import annotations

import datetime as _dt
import math
from typing import TYPE_CHECKING, Any

from marketcurves._core import Tenor
from marketcurves.exceptions import InvalidRequest
from marketcurves.plot import _figure, _input

if TYPE_CHECKING:
    import pyarrow
    from matplotlib.axes import Axes

#: Each series' label, by tenor kind, in the order they are drawn.
KIND_LABELS = {"month": "months", "quarter": "quarters", "window": "windows", "other": "other"}
#: The built curve's label.
CURVE_LABEL = "daily forward curve"


def is_built(table: pyarrow.Table) -> bool:
    """Whether ``table`` is :func:`marketcurves.curves.build` output."""
    return {"delivery", "forward"} <= set(table.column_names)


def built(value: Any, name: str) -> pyarrow.Table:
    """A non-empty table of :func:`marketcurves.curves.build` output."""
    value = _input.as_arrow(value, name)
    if not is_built(value) or not {"date", "generated_on"} & set(value.column_names):
        raise InvalidRequest(
            f"{name} is not a built curve: it needs the columns delivery, forward and "
            f"date or generated_on, as marketcurves.curves.build returns"
        )
    if value.num_rows == 0:
        raise InvalidRequest(f"{name} is empty: there is nothing to plot")
    return value


def draw(
    built_table: pyarrow.Table,
    contracts: pyarrow.Table | None,
    on: Any,
    ax: Axes | None,
    name: str | None,
    style: dict[str, Any],
) -> Axes:
    """The curve of ``built_table`` as of ``on`` (its last if None), over
    the steps of ``contracts`` as of the same date or time; ``name`` (else
    the curve's id) in the title."""
    curve_id = _input.curve_id(built_table, "built", "forward_curve")
    if contracts is not None:
        other = _input.curve_id(contracts, "table", "forward_curve")
        if None not in (curve_id, other) and curve_id != other:
            raise InvalidRequest(
                f"table holds curve {other} and built curve {curve_id}: give the curve "
                f"built from the table"
            )
    key = "date" if "date" in built_table.column_names else "generated_on"
    when = _as_of(built_table, key, on)
    days, forwards = _curve(built_table, key, when)
    steps: dict[str, tuple[list[_dt.date], list[float]]] = {}
    unit = None
    if contracts is not None:
        if key not in contracts.column_names:
            raise InvalidRequest(
                f"built is keyed by {key} and table has no {key}: give the table the "
                f"curve was built from"
            )
        steps = _steps(contracts, key, when)
        unit = _input.units([("table", contracts)])
    else:
        # A built curve has no units column; it may name its curve's units.
        unit = _input.units([("built", built_table)])
    # Everything is checked before the figure is made: bad input draws nothing.
    ax = _figure.axes(ax)
    # The ignores: matplotlib draws dates through its unit converters, but its
    # stubs type plot()'s data as numbers and arrays only.
    for kind, (xs, ys) in steps.items():
        ax.plot(
            xs,  # type: ignore[arg-type]
            ys,
            linewidth=4,
            alpha=0.45,
            solid_capstyle="butt",
            label=KIND_LABELS[kind],
        )
    ax.plot(
        days,  # type: ignore[arg-type]
        forwards,
        **{"label": CURVE_LABEL, "color": "black", "linewidth": 1.5, **style},
    )
    _figure.date_axis(ax, "delivery")
    ax.set_ylabel(_input.price_label(unit))
    shown = str(when) if key == "date" else _time_text(when)
    _figure.title(ax, name or curve_id, f"daily forward curve as of {shown}")
    ax.legend()
    return ax


def _time_text(value: _dt.datetime) -> str:
    return value.astimezone(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _as_of(table: pyarrow.Table, key: str, on: Any) -> Any:
    """The date (or time) whose curve is drawn: the last, or the last of the
    day ``on``."""
    values = sorted({v for v in table[key].to_pylist() if v is not None})
    if not values:
        raise InvalidRequest(f"built has no {key}")
    if on is None:
        return values[-1]
    day = _input.day_arg(on, "on")
    if key == "date":
        if day not in values:
            raise InvalidRequest(
                f"built has no curve on {day}: it covers {len(values)} dates "
                f"from {values[0]} to {values[-1]}"
            )
        return day
    of_day = [v for v in values if v.astimezone(_dt.UTC).date() == day]
    if not of_day:
        first, last = (values[i].astimezone(_dt.UTC).date() for i in (0, -1))
        raise InvalidRequest(f"built has no curve on {day}: it covers {first} to {last}")
    return of_day[-1]


def _curve(table: pyarrow.Table, key: str, when: Any) -> tuple[list[_dt.date], list[float]]:
    import pyarrow.compute as pc

    rows = table.filter(pc.equal(table[key], when)).sort_by("delivery")
    return rows["delivery"].to_pylist(), rows["forward"].to_pylist()


def _steps(
    table: pyarrow.Table, key: str, when: Any
) -> dict[str, tuple[list[_dt.date], list[float]]]:
    """Per tenor kind, one line of flat steps: each contract from its first
    delivery day to the day after its last, at its price, the steps apart
    (NaN between them). Contracts without delivery days (``C 00``) have no
    step. Of two rows of a tenor, the later."""
    import pyarrow.compute as pc

    rows = table.filter(pc.equal(table[key], when))
    prices: dict[str, float] = {}
    for tenor, price in zip(rows["tenor"].to_pylist(), rows["price"].to_pylist(), strict=True):
        if tenor is not None and price is not None:
            prices[tenor] = price
    if not prices:
        raise InvalidRequest(f"table has no contract at {when}, the time of the built curve")
    steps: dict[str, tuple[list[_dt.date], list[float]]] = {}
    for tenor in sorted(Tenor.parse(n, strict=False) for n in prices):
        if tenor.start is None or tenor.end is None:
            continue
        kind = tenor.kind if tenor.kind in KIND_LABELS else "other"
        xs, ys = steps.setdefault(kind, ([], []))
        price = prices[tenor.name]
        xs += [tenor.start, tenor.end + _dt.timedelta(days=1), tenor.end + _dt.timedelta(days=1)]
        ys += [price, price, math.nan]
    return {kind: steps[kind] for kind in KIND_LABELS if kind in steps}
