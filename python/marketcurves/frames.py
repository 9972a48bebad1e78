"""pandas views of the package's Arrow tables."""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any

from marketcurves._args import date as _date
from marketcurves._core import Tenor

if TYPE_CHECKING:
    import pandas
    import pyarrow


def _calendar_order(names: Any) -> list[str]:
    return [t.name for t in sorted({Tenor.parse(n, strict=False) for n in names})]


def to_pandas(table: pyarrow.Table) -> pandas.DataFrame:
    """A DataFrame of a price table: ``generated_on`` tz-aware in UTC,
    ``tenor`` categorical in calendar order, ``tenor_start``/``tenor_end``
    (and ``date``) as ``datetime.date`` objects."""
    import pandas as pd

    frame = table.to_pandas(date_as_object=True)
    if "tenor" in frame:
        order = _calendar_order(frame["tenor"].unique())
        frame["tenor"] = pd.Categorical(frame["tenor"], categories=order, ordered=True)
    return frame


def forward_curve(
    table: pyarrow.Table, on: _dt.date | _dt.datetime | str | None = None
) -> pandas.Series:
    """The forward curve on one day: the last price of each tenor that day,
    as a Series indexed by tenor in calendar order, ready to ``.plot()``.

    ``on`` defaults to the latest day in the table. The day of a row is its
    ``date`` (settlements) or the UTC day of ``generated_on``.
    """
    import pandas as pd

    frame = to_pandas(table)
    if frame.empty:
        return pd.Series(dtype="float64", name="price")
    if "date" in frame:
        days = frame["date"]
    else:
        days = frame["generated_on"].dt.tz_convert("UTC").dt.date
    day = max(d for d in days if d is not None) if on is None else _date(on, "on")
    rows = frame[days == day].sort_values("generated_on", kind="stable")
    latest = rows.groupby("tenor", observed=True)["price"].last()
    order = _calendar_order(latest.index.astype(str))
    curve = latest.reindex(order)
    # A plain index in calendar order: it survives filtering and plots as it reads.
    curve.index = pd.Index(order, name="tenor")
    curve.name = f"{day}"
    return curve
