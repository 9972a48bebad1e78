"""What the history cache holds: the dicts of :meth:`Client.cache_info` and
:meth:`Client.clear_cache`.

The cache keeps the days of history that can no longer change, as Parquet
files under ``cache_dir``; see [The history cache](../history.md#the-history-cache)
for the rules of what is kept and when.

>>> cached = mc.Client(cache_dir="cache")
>>> _ = cached.settlements(curve, "2026-01-05", "2026-01-09")  # fetched, then kept
>>> _ = cached.settlements(curve, "2026-01-05", "2026-01-09", cache="offline")  # from the cache
>>> cached.cache_info()["curves"][0]["history"]
'settlements'
>>> _ = cached.settlements(curve, "2026-01-05", "2026-01-09", tenors=["Feb 26"])
>>> cached.last_call_stats
{'days_from_cache': 5, 'days_from_service': 0}
>>> cached.close()
"""

from __future__ import annotations

import datetime as _dt
from typing import Literal, TypedDict

__all__ = ["CacheInfo", "CacheMode", "CachedCurve", "CallStats", "Cleared"]

CacheMode = Literal["use", "refresh", "offline", "off"]
"""How a call uses the cache: serve what it holds and fetch the rest
(``"use"``), fetch everything again and overwrite (``"refresh"``), never
send a request (``"offline"``: what is missing raises
:class:`~marketcurves.CacheMiss`), or not at all (``"off"``)."""


class CachedCurve(TypedDict):
    """The cached days of one curve's history of one kind."""

    curve_id: str
    """The curve's id."""
    history: Literal["settlements", "intraday"]
    """Which history: ``settlements``, or ``intraday`` values."""
    tenors: int
    """Tenors with cached days."""
    days: int
    """Tenor-days cached: a day of one tenor counts once."""
    first: _dt.date
    """The first cached day."""
    last: _dt.date
    """The last cached day (days between may be missing)."""
    files: int
    """Files holding them."""
    bytes: int
    """Their size."""


class CacheInfo(TypedDict):
    """What the cache holds for the client's service and account."""

    dir: str
    """The folder of this service and account, inside ``cache_dir``."""
    files: int
    """Every file in it, the cached catalogues' included."""
    bytes: int
    """The size of every file in it."""
    curves: list[CachedCurve]
    """Each curve's cached history, one entry per kind."""


class Cleared(TypedDict):
    """What :meth:`Client.clear_cache` removed."""

    files: int
    """Files removed."""
    bytes: int
    """Their size."""


class CallStats(TypedDict):
    """What one call's table came from, in tenor-days (a day of one tenor):
    :attr:`Client.last_call_stats <marketcurves.Client.last_call_stats>`."""

    days_from_cache: int
    """Read from the cache."""
    days_from_service: int
    """Fetched from the service (and kept, those that are final)."""
