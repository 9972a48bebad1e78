"""Checks and conversions of the public API's arguments, raising
:class:`InvalidRequest` that names the argument before anything is sent:
:class:`InvalidType` (also a ``TypeError``) for a value of the wrong type,
:class:`InvalidRequest` (a ``ValueError``) for a wrong value.

Types are checked here, with plain ranges of numbers and the client's own
settings (URLs, credentials). The rules of the protocol's values (curve ids,
tenor names, date order, verticals, catalogue filters) are the core's, which
checks them before it looks at the client (ARCHITECTURE.md, "Where each rule
lives, once")."""

from __future__ import annotations

import datetime as _dt
import math
import os
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from marketcurves._core import Tenor
from marketcurves.exceptions import InvalidRequest, InvalidType


def utf8(value: str, name: str) -> str:
    """``value``, if UTF-8 can encode it, as everything that reaches the core
    and the wire must be: a lone surrogate (from a file name that is not
    UTF-8, say) cannot be."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        bad = error.object[error.start : error.end]
        raise InvalidRequest(
            f"{name} must be text that UTF-8 can encode; {bad!r} at {error.start} cannot be"
        ) from None
    return value


def curve_id(value: Any) -> str:
    """A curve id from a ``str`` or anything with an ``id`` (a :class:`Curve`)."""
    if not isinstance(value, str):
        value = getattr(value, "id", value)
    if not isinstance(value, str):
        raise InvalidType(f"curve_id must be a str or a Curve, not {type(value).__name__}")
    return utf8(value, "curve_id")


def tenor(value: Any, name: str = "tenor") -> str:
    """A tenor's name from a ``str`` or a :class:`Tenor`."""
    if isinstance(value, Tenor):
        return value.name
    if not isinstance(value, str):
        raise InvalidType(f"{name} must be a str or a Tenor, not {type(value).__name__}")
    return utf8(value, name)


def optional_tenor(value: Any) -> str | None:
    return None if value is None else tenor(value)


def tenors(value: Any) -> list[str] | None:
    """None (every contract), one tenor, or an iterable of them."""
    if value is None:
        return None
    if isinstance(value, (str, Tenor)):
        return [tenor(value, "tenors")]
    if not isinstance(value, Iterable):
        raise InvalidType(
            f"tenors must be None, a tenor or a list of tenors, not {type(value).__name__}"
        )
    return [tenor(v, "tenors") for v in value]


def history_tenors(value: Any) -> tuple[list[str] | None, str]:
    """The tenors of a history call: named ones, or ``"expired"`` / ``"all"``
    of the curve's contracts (``"listed"`` when tenors are named or None)."""
    if isinstance(value, str) and value in ("expired", "all"):
        return None, value
    return tenors(value), "listed"


def date(value: Any, name: str) -> _dt.date:
    """A date from a ``date``, a ``datetime`` (its UTC day) or an ISO string."""
    if isinstance(value, _dt.datetime):
        return (value if value.tzinfo is None else value.astimezone(_dt.UTC)).date()
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
    raise InvalidType(f"{name} must be a date, datetime or ISO string, not {type(value).__name__}")


def date_range(start: Any, end: Any) -> tuple[_dt.date, _dt.date]:
    """The days ``start`` and ``end``; the core checks their order."""
    return date(start, "start"), date(end, "end")


def text(value: Any, name: str) -> str:
    """A str that is not blank (``Tenor``'s binding calls it by name)."""
    if not isinstance(value, str):
        raise InvalidType(f"{name} must be a str, not {type(value).__name__}")
    if not value.strip():
        raise InvalidRequest(f"{name} must not be empty")
    return utf8(value, name)


def instant(value: Any, name: str) -> _dt.datetime:
    """An aware UTC datetime from a ``datetime`` (naive ones are UTC) or an
    ISO 8601 string."""
    if isinstance(value, str):
        try:
            value = _dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise InvalidRequest(f"{name} must be an ISO 8601 date-time, not {value!r}") from None
    if not isinstance(value, _dt.datetime):
        raise InvalidType(f"{name} must be a datetime or ISO string, not {type(value).__name__}")
    if value.tzinfo is None:
        return value.replace(tzinfo=_dt.UTC)
    return value.astimezone(_dt.UTC)


def optional_instant(value: Any, name: str) -> _dt.datetime | None:
    return None if value is None else instant(value, name)


def choice(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    """One of the ``allowed`` words, spelt exactly."""
    if not isinstance(value, str) or value not in allowed:
        words = ", ".join(repr(a) for a in allowed)
        wrong = InvalidRequest if isinstance(value, str) else InvalidType
        raise wrong(f"{name} must be one of {words}, not {value!r}")
    return value


def optional_str(value: Any, name: str) -> str | None:
    """None or a ``str``, whose value the core checks."""
    if value is not None and not isinstance(value, str):
        raise InvalidType(f"{name} must be a str, not {type(value).__name__}")
    return None if value is None else utf8(value, name)


def optional_text(value: Any, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        wrong = InvalidRequest if isinstance(value, str) else InvalidType
        raise wrong(f"{name} must be a non-empty str, not {value!r}")
    return utf8(value, name)


def _is_int(value: Any) -> bool:
    """An int that is not a bool: of the right type for an int argument."""
    return isinstance(value, int) and not isinstance(value, bool)


def _has_control(text: str) -> bool:
    return any(ord(c) < 32 or ord(c) == 127 for c in text)


def token(value: Any) -> str:
    """A JWT as a header carries it: surrounding whitespace (a token read from
    a file ends in a newline) is dropped; control characters inside are refused."""
    text = optional_text(value, "token")
    assert text is not None
    text = text.strip()
    if _has_control(text):
        raise InvalidRequest("token must not contain control characters (is it a JWT?)")
    return text


def positive_int(value: Any, name: str, minimum: int = 1, maximum: int = 1_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        wrong = InvalidRequest if _is_int(value) else InvalidType
        raise wrong(f"{name} must be an int from {minimum} to {maximum}, not {value!r}")
    return value


def budget(value: Any) -> int | None:
    """A request budget, ``max_requests``: None (no limit) or an int >= 0
    (0: a call that must be served whole by the cache)."""
    return None if value is None else count(value, "max_requests")


def seconds(value: Any, name: str, allow_zero: bool = False) -> float:
    """A finite number of seconds, > 0 (or >= 0 with ``allow_zero``)."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        wrong = InvalidRequest if number else InvalidType
        raise wrong(f"{name} must be a finite number of seconds {bound}, not {value!r}")
    return float(value)


def count(value: Any, name: str) -> int:
    """An int the core's counts can hold (0 to 2**64 - 1). Which of them an
    argument takes is the core's rule, checked there with its message."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64:
        wrong = InvalidRequest if _is_int(value) else InvalidType
        raise wrong(f"{name} must be an int >= 0, not {value!r}")
    return value


def duration(value: Any, name: str) -> float:
    """A number of seconds the core's durations can hold: finite and >= 0.
    Whether an argument takes zero is the core's rule, checked there."""
    return seconds(value, name, allow_zero=True)


def optional_callable(value: Any, name: str, taking: str) -> Any:
    """None or a callable, for a callback taking ``taking``."""
    if value is not None and not callable(value):
        raise InvalidType(f"{name} must be a callable taking {taking}")
    return value


def flag(value: Any, name: str) -> bool:
    """True or False; merely truthy values are refused, as a typo often is one."""
    if not isinstance(value, bool):
        raise InvalidType(f"{name} must be True or False, not {value!r}")
    return value


def path(value: Any, name: str) -> str:
    """A file system path given as a ``str`` or an ``os.PathLike``, as the
    ``str`` it stands for: the core checks its value (not empty, no NUL)."""
    if not isinstance(value, (str, os.PathLike)):
        raise InvalidType(f"{name} must be a path, not {type(value).__name__}")
    text = os.fspath(value)
    if not isinstance(text, str):
        raise InvalidType(f"{name} must be a str path, not {type(text).__name__}")
    return utf8(text, name)


#: obstore's store classes, by name, and the URL scheme each one names a
#: place with; a LocalStore is named by its folder.
STORE_SCHEMES = {"S3Store": "s3", "GCSStore": "gs", "AzureStore": "az", "LocalStore": None}


def place(value: Any, name: str) -> str | tuple[Any, str]:
    """A place to read or write: a path or URL as a ``str`` (see :func:`path`),
    or an obstore store (``S3Store``, ``GCSStore``, ``AzureStore``,
    ``LocalStore``, from the optional ``obstore`` package) with the URL that
    names it in messages and results, as ``(store, url)``. The core rebuilds
    the store from its configuration, so a ``MemoryStore``, whose objects
    live only in that store, cannot be one."""
    kind = type(value)
    if not kind.__module__.startswith("obstore"):
        if isinstance(value, (str, os.PathLike)):
            return path(value, name)
        raise InvalidType(
            f"{name} must be a path, an object store URL or an obstore store, not {kind.__name__}"
        )
    if kind.__name__ not in STORE_SCHEMES:
        raise InvalidType(
            f"{name} is an obstore {kind.__name__}, which marketcurves cannot share: "
            "use an S3Store, GCSStore, AzureStore or LocalStore"
        )
    prefix = value.prefix
    scheme = STORE_SCHEMES[kind.__name__]
    if scheme is None:
        return value, utf8(os.fspath(prefix), name)
    config = value.config
    container = config.get("bucket") or config.get("container_name") or ""
    shown = f"{scheme}://{container}" + (f"/{prefix}" if prefix else "")
    return value, utf8(shown, name)


def storage_options(value: Any) -> dict[str, str] | None:
    """None, or a dict of ``str`` keys to ``str`` values (a number or a bool
    is given as its text, as polars and deltalake take them); the core
    checks the keys."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InvalidType(f"storage_options must be a dict, not {type(value).__name__}")
    options = {}
    for key, option in value.items():
        if not isinstance(key, str):
            raise InvalidType(f"storage_options keys must be str, not {type(key).__name__}")
        if isinstance(option, bool):
            option = "true" if option else "false"
        elif isinstance(option, (int, float)):
            option = str(option)
        if not isinstance(option, str):
            raise InvalidType(f"storage option {key!r} must be a str, not {type(option).__name__}")
        options[utf8(key, "storage_options")] = utf8(option, f"storage option {key!r}")
    return options


def number(value: Any, name: str) -> float:
    """A number of seconds as a ``float``; the core checks its value."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidType(f"{name} must be a number of seconds, not {type(value).__name__}")
    return float(value)


def vertical(value: Any) -> str:
    """A vertical's name in any spelling; the core checks it is one."""
    if not isinstance(value, str):
        raise InvalidType(
            f"vertical must be a str such as 'Jet' or 'JET', not {type(value).__name__}"
        )
    return utf8(value, "vertical")


def month(value: Any, name: str) -> str:
    """``YYYY-MM`` from a ``date`` or a ``datetime``; a ``str`` as it is, for
    the core to check."""
    if isinstance(value, (_dt.date, _dt.datetime)):
        return f"{value.year:04d}-{value.month:02d}"
    if isinstance(value, str):
        return utf8(value, name)
    raise InvalidType(
        f"{name} must be a month as YYYY-MM, a date or a datetime, not {type(value).__name__}"
    )


def _without_login(value: Any) -> Any:
    """``value`` with any ``user:password@`` hidden, and any query or
    fragment (``?api_key=…``), for error messages."""
    if not isinstance(value, str):
        return value
    value = re.sub(r"://[^/?#]*@", "://***@", value)
    return re.sub(r"[?#].*", "?…", value, flags=re.DOTALL)


def url(value: Any, name: str, schemes: tuple[str, ...]) -> str:
    """An absolute URL with one of ``schemes`` (``"https"``) and a host; no
    login in it (it would show in reprs), no query or fragment (paths are
    appended to it), no spaces or control characters."""
    shown = " or ".join(f"{s}://" for s in schemes)
    text = utf8(value, name) if isinstance(value, str) else None
    parts = None if text is None else urlsplit(text)
    if text is None or parts is None or parts.scheme not in schemes or not parts.hostname:
        wrong = InvalidType if text is None else InvalidRequest
        raise wrong(
            f"{name} must be a URL starting with {shown} and a host, not {_without_login(value)!r}"
        )
    if any(c.isspace() for c in text) or _has_control(text):
        raise InvalidRequest(f"{name} must not contain spaces or control characters")
    if parts.username is not None or parts.password is not None:
        raise InvalidRequest(
            f"{name} must not carry a login: give token=, token_provider= or email= and password="
        )
    if parts.query or parts.fragment or text.rstrip().endswith(("?", "#")):
        raise InvalidRequest(
            f"{name} must not have a query or fragment, not {_without_login(text)!r}"
        )
    return text.rstrip("/")


def optional_path(value: Any, name: str) -> str | None:
    """A file system path from a ``str`` or an ``os.PathLike``, or None."""
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip():
        wrong = InvalidRequest if isinstance(value, str) else InvalidType
        raise wrong(f"{name} must be the path of a file, not {value!r}")
    return utf8(value, name)


def subscriptions(value: Any) -> list[tuple[str, str]]:
    """A list of ``(curve, tenor)`` pairs, a curve given by its id or as a
    :class:`Curve` and a tenor by its name or as a :class:`Tenor`, as every
    other method takes them; whether they are curves and tenors (and that
    there is at least one) is the core's rule."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise InvalidType(
            f"subscriptions must be a list of (curve_id, tenor) pairs, not {type(value).__name__}"
        )
    pairs = []
    for item in value:
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            wrong = InvalidRequest if isinstance(item, (list, tuple)) else InvalidType
            raise wrong(f"each subscription must be a (curve_id, tenor) pair, not {item!r}")
        pairs.append((curve_id(item[0]), tenor(item[1], "a subscription's tenor")))
    return pairs


def period(value: Any, name: str) -> str:
    """A period as the core reads it: ``"5min"``, ``"30s"``, ``"1h"``, or a
    ``timedelta``, or a number of seconds."""
    if isinstance(value, _dt.timedelta):
        return f"{value.total_seconds()}s"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{seconds(value, name)}s"
    if isinstance(value, str):
        return utf8(value, name)
    raise InvalidType(
        f"{name} must be a period such as '5min', a timedelta or seconds, "
        f"not {type(value).__name__}"
    )
