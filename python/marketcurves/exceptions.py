"""The exceptions of marketcurves: every error the package raises is a
:class:`MarketCurvesError`, so one ``except`` clause can catch them all."""

from __future__ import annotations

import datetime as _dt

__all__ = [
    "AccessDenied",
    "AuthError",
    "BulkJobFailed",
    "CacheMiss",
    "ClientClosed",
    "DecodeError",
    "DestinationError",
    "InvalidRequest",
    "LiveFeedError",
    "MarketCurvesError",
    "NotFound",
    "RateLimited",
    "ServiceError",
]


class MarketCurvesError(Exception):
    """Base class of every error raised by marketcurves."""


class AuthError(MarketCurvesError):
    """The service refused the credentials, even after fetching a fresh token."""


class AccessDenied(MarketCurvesError):
    """The account's licence does not cover the request (``NO_ACCESS`` on the live feed)."""


class NotFound(MarketCurvesError):
    """The curve, tenor or job does not exist."""


class InvalidRequest(MarketCurvesError, ValueError):
    """An argument is wrong. Raised before anything is sent; the message names the argument."""


class RateLimited(MarketCurvesError):
    """The service kept answering 429 after every retry."""


class ServiceError(MarketCurvesError):
    """The service failed (5xx, dropped connection, timeout) after every retry."""


class BulkJobFailed(MarketCurvesError):
    """A bulk download job ended in FAILED, or its files could not be fetched."""


class CacheMiss(MarketCurvesError):
    """Offline (``cache="offline"``), and the cache lacks what the call asked for.

    ``curve_id`` names the curve (None when what is missing is the
    catalogue), and ``missing`` maps each tenor lacking days to the runs of
    days it lacks, as ``(first, last)`` pairs of :class:`datetime.date`.
    """

    def __init__(
        self,
        message: str,
        *,
        curve_id: str | None = None,
        missing: dict[str, list[tuple[_dt.date, _dt.date]]] | None = None,
    ):
        super().__init__(message)
        self.curve_id = curve_id
        self.missing = missing if missing is not None else {}


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

    ``endpoint`` names the endpoint as the interface does and ``field`` the path
    of the offending field in the body (``items[3].price``; ``.`` for the body).
    """

    def __init__(self, message: str, *, endpoint: str | None = None, field: str | None = None):
        super().__init__(message)
        self.endpoint = endpoint
        self.field = field
