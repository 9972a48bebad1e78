"""Tenor kinds kept apart: a line never joins a month to a quarter, nor the
continuous ``C 00`` to the calendar tenors."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from marketcurves._core import Tenor
from marketcurves.exceptions import InvalidRequest

#: Every kind, in the order their series are drawn and listed.
KINDS = ("month", "quarter", "window", "continuous", "other")


def kind_of(tenor: str) -> str:
    return Tenor.parse(tenor, strict=False).kind


def chosen(value: Any, tenors: Sequence[str]) -> list[str]:
    """The kinds ``value`` names among ``tenors``' kinds: None, months if
    there are any, else the kind most present; ``"all"``, every kind there;
    a kind or a list of kinds, those (each must be a kind, and some tenor of
    one must be there)."""
    present = Counter(kind_of(t) for t in tenors)
    if value is None:
        if not present:
            return []
        return ["month"] if "month" in present else [present.most_common(1)[0][0]]
    if isinstance(value, str):
        value = list(present) if value == "all" else [value]
    elif isinstance(value, Iterable):
        value = list(value)
    else:
        raise InvalidRequest(f"kinds must be a kind, a list of kinds or 'all', not {value!r}")
    unknown = [k for k in value if k not in KINDS]
    if unknown or not value:
        raise InvalidRequest(
            f"kinds must name tenor kinds ({', '.join(KINDS)}) or be 'all', not {value!r}"
        )
    if not any(k in present for k in value):
        there = ", ".join(k for k in KINDS if k in present) or "none"
        raise InvalidRequest(f"the table has no tenor of kind {', '.join(value)} (it has: {there})")
    return [k for k in KINDS if k in value]


def split(tenors: Sequence[str], kinds: Sequence[str]) -> dict[str, list[str]]:
    """``tenors`` (in calendar order) by kind, for the kinds chosen."""
    series: dict[str, list[str]] = {k: [] for k in kinds}
    for tenor in tenors:
        kind = kind_of(tenor)
        if kind in series:
            series[kind].append(tenor)
    return {k: v for k, v in series.items() if v}
