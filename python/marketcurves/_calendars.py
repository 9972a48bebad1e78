"""Holidays for the curve analytics, as ``holidays=`` takes them: a list of
dates, ``"data"`` (the days the table has prices on, read by the core), or
the name of a financial calendar of the ``holidays`` package, resolved here
to its dates (``pip install 'marketcurves[calendars]'``).

A calendar is named by its market code (``"IFEU"``, ``"XNYS"``, or an alias
such as ``"NYSE"``) or its name (``"ICE Futures Europe"``), in any case and
spacing. Its holidays are taken for every year from 1970 to 2100 (observed
days, as the exchange closes), so that roll days and delivery days far from
the table's dates are counted too; the dates are worked out once per
calendar and process.
"""

from __future__ import annotations

import datetime as _dt
import functools
import importlib
import re
import warnings
from collections.abc import Iterable
from typing import Any, Literal

from marketcurves._args import date as _date
from marketcurves.exceptions import InvalidRequest

#: The years a calendar's holidays are taken for.
YEARS = range(1970, 2101)


def holidays(value: Any, name: str = "holidays") -> list[_dt.date] | Literal["data"]:
    """What the core takes: a list of dates, or ``"data"``."""
    if value is None:
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.lower() == "data":
            return "data"
        return calendar(text, name)
    if not isinstance(value, Iterable) or isinstance(value, (bytes, bytearray)):
        raise InvalidRequest(
            f"{name} must be a list of dates, a calendar's name or 'data', "
            f"not {type(value).__name__}"
        )
    return [_date(day, name) for day in value]


def calendar(text: str, name: str = "holidays") -> list[_dt.date]:
    """The holidays of the financial calendar named ``text``."""
    try:
        with warnings.catch_warnings():
            # Releases before 1.0 warn on import that 1.0 may break their
            # API, telling the application to pin them: that is this
            # package's requirement to state (pyproject.toml), not the
            # caller's to act on.
            warnings.filterwarnings(
                "ignore", message=r"\s*This is a future version incompatibility"
            )
            package = importlib.import_module("holidays")
    except ImportError as error:
        raise ImportError(
            f"{name}={text!r} names a calendar, which needs the holidays package: "
            "pip install 'marketcurves[calendars]' (or pip install holidays)",
            name="holidays",
        ) from error
    codes, own = _markets(package)
    code = codes.get(_key(text))
    if code is None:
        known = ", ".join(f"{c} ({own[c]})" if own[c] else c for c in sorted(own))
        raise InvalidRequest(
            f"{name}: unknown calendar {text!r}. The holidays package knows these "
            f"markets, by code or name: {known}. Or give a list of dates, or 'data' "
            "for the days the table has prices on."
        )
    return list(_dates(package, code))


def _key(text: str) -> str:
    """A name as it is looked up: lower case letters and digits only."""
    return re.sub(r"[^0-9a-z]", "", text.lower())


def _label(class_name: str) -> str:
    """A class name in words: ``IceFuturesEurope`` as ``Ice Futures Europe``."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", class_name)


@functools.cache
def _markets(package: Any) -> tuple[dict[str, str], dict[str, str | None]]:
    """Every way of naming a market (its key) to its code, and each
    market's own code (not an alias) to its name, or to None."""
    # Every code and alias the package takes stands for itself (Euronext's
    # places are calendars of their own).
    codes = {_key(code): code for code in package.list_supported_financial()}
    own: dict[str, str | None] = dict.fromkeys(
        package.list_supported_financial(include_aliases=False)
    )
    # The registry maps each market's module to its class name and codes;
    # without it, codes alone are known.
    try:
        registry = importlib.import_module("holidays.registry").FINANCIAL
    except (ImportError, AttributeError):
        registry = {}
    for class_name, *aliases in registry.values():
        code = next((a for a in aliases if a in own), None)
        if code is not None:
            own[code] = _label(class_name)
            codes.setdefault(_key(class_name), code)
    return codes, own


@functools.cache
def _dates(package: Any, code: str) -> tuple[_dt.date, ...]:
    return tuple(sorted(package.financial_holidays(code, years=YEARS)))
