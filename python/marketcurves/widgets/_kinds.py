"""The ``kinds=`` of :class:`LiveCurve`: the tenor kinds it draws, as the
plots keep them apart (a line never joins a month to a quarter)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from marketcurves.exceptions import InvalidRequest, InvalidType
from marketcurves.plot import _kinds

#: The names ``kinds=`` takes, each for the tenor kind it names.
NAMES = {
    "months": "month",
    "quarters": "quarter",
    "windows": "window",
    "continuous": "continuous",
    "other": "other",
}


def kinds(value: Any) -> tuple[str, ...]:
    """The tenor kinds ``value`` names, in the order the plots draw them:
    ``"months"``, ``"quarters"``, ``"windows"``, ``"continuous"``,
    ``"other"`` (or the kind's own name, ``"month"``...), a list of them, or
    ``"all"``."""
    if isinstance(value, str):
        if value == "all":
            return _kinds.KINDS
        value = [value]
    elif not isinstance(value, Iterable):
        raise InvalidType(
            f"kinds must be a kind, a list of kinds or 'all', not {type(value).__name__}"
        )
    chosen = set()
    for name in value:
        if not isinstance(name, str) or (name not in NAMES and name not in _kinds.KINDS):
            raise InvalidRequest(
                f"kinds must name tenor kinds ({', '.join(NAMES)}) or be 'all', not {name!r}"
            )
        chosen.add(NAMES.get(name, name))
    if not chosen:
        raise InvalidRequest("kinds names no tenor kind: give one, a list of them, or 'all'")
    return tuple(k for k in _kinds.KINDS if k in chosen)


def kind_of(tenor: str) -> str:
    return _kinds.kind_of(tenor)
