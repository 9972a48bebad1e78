"""Checks and conversions of the public API's arguments, raising
:class:`InvalidRequest` that names the argument before anything is sent."""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from marketcurves._core import Tenor
from marketcurves.exceptions import InvalidRequest


def curve_id(value: Any) -> str:
    """A curve id from a ``str`` or anything with an ``id`` (a :class:`Curve`)."""
    if not isinstance(value, str):
        value = getattr(value, "id", value)
    if not isinstance(value, str):
        raise InvalidRequest(f"curve_id must be a str or a Curve, not {type(value).__name__}")
    if not value.strip():
        raise InvalidRequest("curve_id must not be empty")
    return value.strip()


def tenor(value: Any, name: str = "tenor") -> str:
    if isinstance(value, Tenor):
        return value.name
    if not isinstance(value, str):
        raise InvalidRequest(f"{name} must be a str or a Tenor, not {type(value).__name__}")
    if not value.strip():
        raise InvalidRequest(f"{name} must not be empty")
    return value


def optional_tenor(value: Any) -> str | None:
    return None if value is None else tenor(value)


def tenors(value: Any) -> list[str] | None:
    """None (every contract), one tenor, or an iterable of them."""
    if value is None:
        return None
    if isinstance(value, (str, Tenor)):
        return [tenor(value, "tenors")]
    if not isinstance(value, Iterable):
        raise InvalidRequest(
            f"tenors must be None, a tenor or a list of tenors, not {type(value).__name__}"
        )
    names = [tenor(v, "tenors") for v in value]
    if not names:
        raise InvalidRequest("tenors must name at least one tenor, or be None for all")
    return list(dict.fromkeys(names))


def date(value: Any, name: str) -> _dt.date:
    """A date from a ``date``, a ``datetime`` (its UTC day) or an ISO string."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(_dt.timezone.utc)
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, str):
        text = value.strip()
        try:
            if len(text) == 10:
                return _dt.date.fromisoformat(text)
            return date(_dt.datetime.fromisoformat(text.replace("Z", "+00:00")), name)
        except ValueError:
            pass
        raise InvalidRequest(f"{name} must be an ISO date such as 2025-01-31, not {value!r}")
    raise InvalidRequest(
        f"{name} must be a date, datetime or ISO string, not {type(value).__name__}"
    )


def date_range(start: Any, end: Any) -> tuple[_dt.date, _dt.date]:
    first, last = date(start, "start"), date(end, "end")
    if last < first:
        raise InvalidRequest(f"start {first} is after end {last}")
    return first, last


def optional_text(value: Any, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest(f"{name} must be a non-empty str, not {value!r}")
    return value


def positive_int(value: Any, name: str, minimum: int = 1, maximum: int = 1_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise InvalidRequest(f"{name} must be an int from {minimum} to {maximum}, not {value!r}")
    return value


def seconds(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise InvalidRequest(f"{name} must be a number of seconds > 0, not {value!r}")
    return float(value)


def url(value: Any, name: str, schemes: tuple[str, ...]) -> str:
    """An absolute URL with one of ``schemes`` (``"https"``) and a host."""
    parts = urlsplit(value) if isinstance(value, str) else None
    if parts is None or parts.scheme not in schemes or not parts.hostname:
        shown = " or ".join(f"{s}://" for s in schemes)
        raise InvalidRequest(
            f"{name} must be a URL starting with {shown} and a host, not {value!r}"
        )
    return value.rstrip("/")


def optional_path(value: Any, name: str) -> str | None:
    """A file system path from a ``str`` or an ``os.PathLike``, or None."""
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest(f"{name} must be the path of a file, not {value!r}")
    return value
