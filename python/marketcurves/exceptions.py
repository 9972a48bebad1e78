"""The exceptions of marketcurves: every error the package raises is a
:class:`MarketCurvesError`, so one ``except`` clause can catch them all.
Each is also reachable from the package (``mc.NotFound``).

>>> for start, end in [("2026-01-14", "2026-01-12"), ("2026-01-12", "2026-01-14")]:
...     try:
...         client.settlements("no-such-curve", start, end)
...     except mc.MarketCurvesError as error:
...         print(f"{type(error).__name__}: {error}")
InvalidRequest: start 2026-01-14 is after end 2026-01-12
NotFound: GET /catalogue: not found: no curve "no-such-curve" in the catalogue
"""

from __future__ import annotations

import datetime as _dt

__all__ = [
    "AccessDenied",
    "AuthError",
    "BudgetExceeded",
    "BulkJobFailed",
    "CacheMiss",
    "ClientClosed",
    "DecodeError",
    "DestinationError",
    "InvalidRequest",
    "InvalidType",
    "LiveFeedError",
    "MarketCurvesError",
    "MissingWorkerCredentials",
    "NotFound",
    "RateLimited",
    "ServiceError",
]


class MarketCurvesError(Exception):
    """Base class of every error raised by marketcurves."""


class AuthError(MarketCurvesError):
    """The service refused the credentials, even after fetching a fresh token;
    or a backfill's worker has none (:class:`MissingWorkerCredentials`)."""


class MissingWorkerCredentials(AuthError):
    """A worker of a backfill on a cluster (``Client.backfill(cluster=...)``)
    found no credentials to make its client with: the driver's client had no
    ``token_provider`` (a fixed token or a login is never sent to the
    workers), and the worker's environment sets neither
    ``MARKETCURVES_TOKEN`` nor ``MARKETCURVES_EMAIL`` and
    ``MARKETCURVES_PASSWORD``. The task raises it before sending anything;
    see :mod:`marketcurves.backfill`."""


class AccessDenied(MarketCurvesError):
    """The account's licence does not cover the request (``NO_ACCESS`` on the live feed)."""


class NotFound(MarketCurvesError):
    """The curve, tenor or job does not exist."""


class InvalidRequest(MarketCurvesError, ValueError):
    """An argument is wrong. Raised before anything is sent; the message names the argument."""


class InvalidType(InvalidRequest, TypeError):
    """An argument is of the wrong type (a number where a curve is wanted, a
    ``str`` where a list is): a ``TypeError`` as Python users expect, and an
    :class:`InvalidRequest` as well, so that ``except mc.InvalidRequest``
    still catches it (as numpy's ``AxisError`` is both a ``ValueError`` and
    an ``IndexError``). A wrong value of the right type stays an
    :class:`InvalidRequest`, a ``ValueError``."""


class BudgetExceeded(InvalidRequest):
    """A call whose plan needs more requests than its budget allows
    (``max_requests=``, or the client's): refused before its requests are
    sent. The message names the count, the budget and how to narrow the
    call; see [The request budget](../history.md#the-request-budget).

    Args:
        message: the count, the budget and the advice, in words.
        needed: the requests the call's plan needs.
        allowed: the requests its budget allows.
    """

    def __init__(self, message: str, *, needed: int = 0, allowed: int = 0):
        super().__init__(message)
        self._needed = needed
        self._allowed = allowed

    @property
    def needed(self) -> int:
        """The requests the call's plan needs."""
        return self._needed

    @property
    def allowed(self) -> int:
        """The requests its budget allows (``max_requests``)."""
        return self._allowed


class RateLimited(MarketCurvesError):
    """The service kept answering 429 after every retry."""


class ServiceError(MarketCurvesError):
    """The service failed (5xx, dropped connection, timeout) after every retry."""


class BulkJobFailed(MarketCurvesError):
    """A bulk download job ended in FAILED, or its files could not be fetched."""


class CacheMiss(MarketCurvesError):
    """Offline (``cache="offline"``), and the cache lacks what the call asked for.

    Args:
        message: what is missing, in words.
        curve_id: the curve, if what is missing is history.
        missing: each tenor lacking days, and the runs of days it lacks.

    Examples:
        >>> cached = mc.Client(cache_dir="cache", cache="offline")
        >>> try:
        ...     cached.settlements(curve, "2026-01-12", "2026-01-14", tenors=["Feb 26"])
        ... except mc.CacheMiss as miss:
        ...     print(miss.missing)
        {'Feb 26': [(datetime.date(2026, 1, 12), datetime.date(2026, 1, 14))]}
        >>> cached.close()
    """

    def __init__(
        self,
        message: str,
        *,
        curve_id: str | None = None,
        missing: dict[str, list[tuple[_dt.date, _dt.date]]] | None = None,
    ):
        super().__init__(message)
        self._curve_id = curve_id
        self._missing = missing if missing is not None else {}

    @property
    def curve_id(self) -> str | None:
        """The curve; None when what is missing is the catalogue."""
        return self._curve_id

    @property
    def missing(self) -> dict[str, list[tuple[_dt.date, _dt.date]]]:
        """Each tenor lacking days, mapped to the runs of days it lacks, as
        ``(first, last)`` pairs (both included); empty for the catalogue."""
        return self._missing


class ClientClosed(MarketCurvesError):
    """The client was closed (:meth:`~marketcurves.Client.close`, or the end of
    its ``with`` block). Calls in flight when it closed end with this, live
    feeds opened from it too, and every later call raises it before sending anything.

    In a child process made by ``fork`` after the package was used (the
    parent's threads and connections stay in the parent), every call raises
    it at once; make such children with multiprocessing's ``"spawn"`` or
    ``"forkserver"`` method."""


class DestinationError(MarketCurvesError, OSError):
    """A recording's destination refused a write, a read or a listing (a full
    disk, a read-only folder, a store's refusal). The message names the
    destination and the file; ticks not yet written are held, and a restarted
    recorder fetches what a stopped one had not written."""


class LiveFeedError(MarketCurvesError):
    """The live feed failed in a way reconnecting cannot mend."""


class DecodeError(MarketCurvesError):
    """A response did not have the shape the interface describes.

    Args:
        message: what is wrong, naming the endpoint and the field.
        endpoint: the endpoint, as the interface names it.
        field: the path of the offending field in the body.
    """

    def __init__(self, message: str, *, endpoint: str | None = None, field: str | None = None):
        super().__init__(message)
        self._endpoint = endpoint
        self._field = field

    @property
    def endpoint(self) -> str | None:
        """The endpoint, as the interface names it
        (``GET /historical/settlements/<curve_id>/<tenor>``)."""
        return self._endpoint

    @property
    def field(self) -> str | None:
        """The path of the offending field in the body (``items[3].price``;
        ``.`` for the body itself)."""
        return self._field
