"""What the history cache holds: the dicts of :meth:`Client.cache_info` and
:meth:`Client.clear_cache`.

The cache keeps the days of history that can no longer change, as Parquet
files under ``cache_dir``; see "The history cache" in docs/history.md for the
rules of what is kept and when.
"""

from __future__ import annotations

import datetime as _dt
from typing import Literal, TypedDict

__all__ = ["CacheInfo", "CacheMode", "CachedCurve", "Cleared"]

CacheMode = Literal["use", "refresh", "offline", "off"]
"""How a call uses the cache: serve what it holds and fetch the rest
(``"use"``), fetch everything again and overwrite (``"refresh"``), never
send a request (``"offline"``: what is missing raises
:class:`~marketcurves.CacheMiss`), or not at all (``"off"``)."""


class CachedCurve(TypedDict):
    """The cached days of one curve's history of one kind."""

    curve_id: str
    history: Literal["settlements", "intraday"]
    tenors: int
    """Tenors with cached days."""
    first: _dt.date
    """The first cached day."""
    last: _dt.date
    """The last cached day (days between may be missing)."""
    files: int
    bytes: int


class CacheInfo(TypedDict):
    """What the cache holds for the client's service and account."""

    dir: str
    """The folder of this service and account, inside ``cache_dir``."""
    files: int
    """Every file in it, the cached catalogues' included."""
    bytes: int
    curves: list[CachedCurve]


class Cleared(TypedDict):
    """What :meth:`Client.clear_cache` removed."""

    files: int
    bytes: int
