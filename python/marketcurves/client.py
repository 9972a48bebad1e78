"""The client of the market curve service: :class:`Client`."""

from __future__ import annotations

import contextvars
import datetime as _dt
import functools
import json
import os
import warnings
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from marketcurves import _args, _core, _deprecation, _environment, _progress, bulk
from marketcurves import backfill as backfill_
from marketcurves import catalogue as catalogue_
from marketcurves import live as live_
from marketcurves import record as record_
from marketcurves._call_stats import taken as taken_stats
from marketcurves._options import (
    CatalogueRequest,
    ClientOptions,
    Credentials,
    HistoryRequest,
    LiveSettings,
    ReplayOptions,
)
from marketcurves._worker_cache import worker_cache
from marketcurves._worker_settings import WorkerSettings, worker_credentials

# Annotations name these classes, not bulk.X or live.X: in the class body the
# methods Client.bulk and Client.live hide the modules of those names.
from marketcurves.bulk import BulkJob, BulkResult
from marketcurves.cache import CacheInfo, CacheMode, CallStats, Cleared
from marketcurves.catalogue import Catalogue, Curve
from marketcurves.exceptions import InvalidRequest, InvalidType
from marketcurves.live import LiveEvent, LiveFeed

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pyarrow
    from obstore.store import ObjectStore

    from marketcurves._core import Tenor, Tick


def _env(name: str) -> str | None:
    value = os.environ.get(name)
    return value if value and value.strip() else None


class Client:
    """A client of the service's REST endpoints.

    One client serves any number of threads and asyncio tasks at once, over
    one connection pool. Close it when done (``with mc.Client(...) as client:``,
    ``async with``, or :meth:`close`): calls still in flight, and live feeds
    opened from it, end with :class:`~marketcurves.ClientClosed`; so does
    every later call, before sending anything.

    Every blocking method has an awaitable twin named ``<name>_async``, with
    the same arguments (but ``progress``). Besides the errors each method
    lists, any call that reaches the service may raise
    :class:`~marketcurves.AuthError` (the credentials are refused),
    :class:`~marketcurves.RateLimited` and :class:`~marketcurves.ServiceError`
    (after every retry) and :class:`~marketcurves.DecodeError` (a response
    not of the interface's shape); see [Troubleshooting](../troubleshooting.md).

    Args:
        base_url: the REST base address, ending in ``/v2``; default
            ``$MARKETCURVES_BASE_URL``.
        live_url: the live feed base address; default ``$MARKETCURVES_LIVE_URL``.
        token: a JWT; default ``$MARKETCURVES_TOKEN``. It cannot be renewed.
        token_provider: a callable returning a fresh token, called when one
            is needed and when the service refuses the current one. If it
            raises, or returns anything but a non-empty ``str``, the call that
            needed the token raises :class:`~marketcurves.AuthError` naming
            ``token_provider``, before sending anything.
        email: the login's email, for ``POST {base_url}/authenticate``;
            default ``$MARKETCURVES_EMAIL``.
        password: the login's password; default ``$MARKETCURVES_PASSWORD``.
        max_concurrency: requests in flight at once.
        timeout: seconds for one attempt of one request.
        max_retries: retries of a request after connection errors, timeouts,
            429 and 5xx, with exponential backoff.
        ca_bundle: the path of a PEM file with one or more CA certificates to
            trust besides the system's (a proxy or firewall that inspects
            TLS presents certificates of its own CA). Used by REST calls,
            bulk downloads and the live feed; ``$SSL_CERT_FILE`` is read too.
        cache_dir: a folder for the history cache, or an object store URL
            (``s3://bucket/prefix``, with ``storage_options``) or an obstore
            store, for a cache that many clients and accounts share;
            default ``$MARKETCURVES_CACHE_DIR``, and no cache if neither is
            set. :meth:`settlements`, :meth:`intraday_history` and
            :meth:`catalogue` then keep the days that can no longer change,
            and fetch only what the cache lacks. A folder is created when
            first written; a file, or a folder that cannot be written, is
            refused. See [A cache for the desk](../history.md#a-cache-for-the-desk).
        storage_options: for a ``cache_dir`` that is an object store URL:
            object_store's keys (``aws_endpoint``, ``aws_region``, …), as
            for :meth:`record`; credentials may come from the cloud's
            environment variables instead.
        cache: how calls use the cache when they do not say
            (:data:`marketcurves.cache.CacheMode`): ``"use"`` serves what it
            holds and fetches the rest, ``"refresh"`` fetches everything
            again and overwrites, ``"offline"`` never sends a request (what
            is missing raises :class:`~marketcurves.CacheMiss`), ``"off"``
            ignores it.
        max_response_bytes: the longest response body taken in (64 MiB by
            default, ``marketcurves._core.MAX_RESPONSE_BYTES``): a
            longer one raises :class:`~marketcurves.ServiceError` as soon as
            its length is known or read, within ``timeout``, and is not
            retried.
        max_requests: the request budget of the history calls
            (:meth:`settlements`, :meth:`intraday_history`, :meth:`intraday`,
            their twins) and :meth:`backfill` that do not give their own:
            a call whose plan needs more requests raises
            :class:`~marketcurves.BudgetExceeded` before sending them;
            cached days cost nothing, and 0 allows only what the cache
            serves. None, no budget (see
            [The request budget](../history.md#the-request-budget)).

    Explicit arguments win over the environment; among credentials,
    ``token_provider`` wins over ``token``, which wins over a login.
    ``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY`` and ``NO_PROXY`` are read
    when the client is made (see [Corporate networks](../networks.md)).

    Raises:
        InvalidRequest: an argument is wrong, there is no ``base_url``, or
            no credentials (neither given nor in the environment). Nothing
            is sent: the login happens at the first call.

    Examples:
        With ``MARKETCURVES_BASE_URL`` and a login in the environment:

        >>> client = mc.Client()
        >>> client.catalogue(vertical="Jet", quotation="Fob")[0].name
        'Jet Fob AG'
        >>> client.close()
    """

    @_deprecation.positional_options(
        "live_url",
        "token",
        "token_provider",
        "email",
        "password",
        "max_concurrency",
        "timeout",
        "max_retries",
        "ca_bundle",
        "cache_dir",
        "cache",
        "max_response_bytes",
    )
    def __init__(
        self,
        base_url: str | None = None,
        *,
        live_url: str | None = None,
        token: str | None = None,
        token_provider: Callable[[], str] | None = None,
        email: str | None = None,
        password: str | None = None,
        max_concurrency: int = 16,
        timeout: float = 30.0,
        max_retries: int = 5,
        ca_bundle: str | os.PathLike[str] | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        cache: CacheMode = "use",
        max_response_bytes: int = _core.MAX_RESPONSE_BYTES,
        storage_options: dict[str, str] | None = None,
        max_requests: int | None = None,
    ) -> None:
        base = base_url if base_url is not None else _env("MARKETCURVES_BASE_URL")
        if base is None:
            raise InvalidRequest("base_url is required (or set MARKETCURVES_BASE_URL)")
        self._base_url = _args.url(base, "base_url", ("http", "https"))
        live = live_url if live_url is not None else _env("MARKETCURVES_LIVE_URL")
        self._live_url = None if live is None else _args.url(live, "live_url", ("ws", "wss"))
        credentials = self._credentials(token, token_provider, email, password)
        self._auth = next(iter(credentials))
        self._timeout = _args.seconds(timeout, "timeout")
        options: ClientOptions = {
            "token": None,
            "token_provider": None,
            "email": None,
            "password": None,
            **credentials,
            "max_concurrency": _args.positive_int(max_concurrency, "max_concurrency"),
            "timeout": self._timeout,
            "max_retries": _args.positive_int(max_retries, "max_retries", minimum=0, maximum=100),
            "ca_bundle": _args.optional_path(ca_bundle, "ca_bundle"),
            "cache_dir": self._cache_dir(cache_dir),
            "cache_storage_options": _args.storage_options(storage_options),
            "cache": _args.text(cache, "cache"),
            "max_response_bytes": _args.positive_int(
                max_response_bytes, "max_response_bytes", minimum=1024, maximum=2**63 - 1
            ),
        }
        self._max_requests = _args.budget(max_requests)
        self._core = _core.CoreClient(self.base_url, options)
        # What a backfill's workers make their own clients from: no secret
        # but a token provider's (marketcurves.backfill).
        self._settings: dict[str, Any] = {
            "base_url": self.base_url,
            "live_url": self.live_url,
            "max_concurrency": options["max_concurrency"],
            "timeout": options["timeout"],
            "max_retries": options["max_retries"],
            "ca_bundle": options["ca_bundle"],
            "max_response_bytes": options["max_response_bytes"],
            # A shared cache by its URL, never its credentials (_worker_cache).
            **worker_cache(
                options["cache_dir"], options["cache_storage_options"], options["cache"]
            ),
        }
        if options["token_provider"] is not None:
            self._settings["token_provider"] = options["token_provider"]
        # Each thread's and task's last history call's counts (last_call_stats).
        self._last_stats: contextvars.ContextVar[CallStats | None] = contextvars.ContextVar(
            "marketcurves_last_call_stats", default=None
        )
        # Feeds opened from this client, so that close() can wait for their threads.
        self._feeds: weakref.WeakSet[LiveFeed] = weakref.WeakSet()

    @staticmethod
    def _cache_dir(cache_dir: Any) -> str | tuple[Any, str] | None:
        chosen = cache_dir if cache_dir is not None else _env("MARKETCURVES_CACHE_DIR")
        if chosen is not None and type(chosen).__module__.startswith("obstore"):
            return _args.place(chosen, "cache_dir")
        path = _args.optional_path(chosen, "cache_dir")
        if path is None or "://" in path:
            # A URL is the core's to read (Place::parse), not a user's folder.
            return path
        return os.path.expanduser(path)

    @staticmethod
    def _credentials(token: Any, token_provider: Any, email: Any, password: Any) -> Credentials:
        if token_provider is not None:
            if not callable(token_provider):
                raise InvalidType("token_provider must be a callable returning a token")
            return {"token_provider": token_provider}
        if token is not None:
            return {"token": _args.token(token)}
        if email is not None or password is not None:
            if email is None or password is None:
                raise InvalidRequest("email and password go together: give both")
            return {
                "email": _args.optional_text(email, "email"),
                "password": _args.optional_text(password, "password"),
            }
        if (found := _environment.credentials()) is not None:
            return found
        raise InvalidRequest(
            "no credentials: pass token=, token_provider= or email= and password= "
            "(or set MARKETCURVES_TOKEN, or MARKETCURVES_EMAIL and MARKETCURVES_PASSWORD)"
        )

    @property
    def base_url(self) -> str:
        """The REST base address the client sends its requests to: the
        ``base_url`` it was given, or ``$MARKETCURVES_BASE_URL``."""
        return self._base_url

    @property
    def live_url(self) -> str | None:
        """The live feed's base address: the ``live_url`` the client was
        given, or ``$MARKETCURVES_LIVE_URL``; None if neither, and then
        :meth:`live` and :meth:`record` raise
        :class:`~marketcurves.InvalidRequest`."""
        return self._live_url

    def __repr__(self) -> str:
        auth = {"token_provider": "token provider", "token": "fixed token", "email": "login"}
        state = ", closed" if self.closed else ""
        return f"Client(base_url={self.base_url!r}, auth={auth[self._auth]!r}{state})"

    # Closing.

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (or the ``with`` block ended)."""
        return bool(self._core.closed)

    def close(self) -> None:
        """Closes the client.

        Every call in flight (blocking or awaitable, in any thread) and every
        live feed opened from it ends promptly with
        :class:`~marketcurves.ClientClosed`, and later calls raise it before
        sending anything. Returns once they have ended and let go of the
        client's connection pool, which closes its connections. A bulk
        download cut short leaves only temporary files (``.name.part``),
        which a later download resumes. Calling it again does nothing.

        Examples:
            >>> client = mc.Client()
            >>> client.close()
            >>> client.closed
            True
        """
        self._core.close()
        live_.join_callbacks(self._feeds)

    async def close_async(self) -> None:
        """The awaitable form of :meth:`close`."""
        await self._core.close_async()
        await live_.join_callbacks_async(self._feeds)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close_async()

    # The catalogue.

    def _catalogue(
        self, vertical: Any, quotation: Any, region: Any, cache: Any, filters: dict[str, Any]
    ) -> _core.Call[list[_core._CurveRow]]:
        """The one preparing step of :meth:`catalogue` and its twin."""
        # A filter given as None is no filter, as for vertical, quotation and region.
        custom = [
            (k, text) for k, v in filters.items() if (text := _args.optional_str(v, k)) is not None
        ]
        request: CatalogueRequest = {
            "vertical": _args.optional_str(vertical, "vertical"),
            "quotation": _args.optional_str(quotation, "quotation"),
            "region": _args.optional_str(region, "region"),
            "custom": custom,
            "cache": _args.optional_str(cache, "cache"),
        }
        return self._core.catalogue(request)

    def catalogue(
        self,
        vertical: str | None = None,
        quotation: str | None = None,
        region: str | None = None,
        *,
        cache: CacheMode | None = None,
        **filters: str,
    ) -> Catalogue:
        """Every curve quotation matching the filters, all pages.

        With a cache, a query's answer serves until the next contracts
        refresh (Monday to Friday, 02:30 UTC).

        Args:
            vertical: the vertical (``"Jet"``, ``"Gasoline"``, ``"Fuel Oil"``...;
                any case, ``FUEL_OIL`` too); None for every vertical.
            quotation: the quotation (``"Fob"``, ``"Price"``, ``"Margin"``...; any case).
            region: the region, as the interface names it (any case).
            cache: how this call uses the history cache
                (:data:`~marketcurves.cache.CacheMode`); None for the
                client's mode.
            **filters: custom keys and their values (``grade="10ppm"``,
                ``loadPort=...``); a value of None is no filter, a key no
                curve has matches nothing.

        Returns:
            The matching curves, in the service's order; empty if none match.

        Raises:
            InvalidRequest: a vertical, quotation or region the interface
                does not have, or a filter that is not text.
            CacheMiss: ``cache="offline"`` and this query is not cached.

        Examples:
            >>> jet = client.catalogue(vertical="Jet", quotation="Fob")
            >>> len(jet), jet[0].name, jet[0].units
            (6, 'Jet Fob AG', '$/mt')
        """
        rows = self._catalogue(vertical, quotation, region, cache, filters).wait()
        return catalogue_.from_core(rows)

    async def catalogue_async(
        self,
        vertical: str | None = None,
        quotation: str | None = None,
        region: str | None = None,
        *,
        cache: CacheMode | None = None,
        **filters: str,
    ) -> Catalogue:
        """The awaitable form of :meth:`catalogue`."""
        rows = await self._catalogue(vertical, quotation, region, cache, filters)
        return catalogue_.from_core(rows)

    # Current-day data.

    def last_settlement(self, curve_id: str | Curve, tenor: str | None = None) -> pyarrow.Table:
        """Today's London snapshot (the settlement) of one tenor, or of every
        tenor of the curve.

        Args:
            curve_id: the curve, by id or as a :class:`~marketcurves.Curve`.
            tenor: a tenor name (``"Feb 26"``); None for every tenor.

        Returns:
            One row per tenor, with the columns described in
            [The tables](../history.md#the-tables); for every tenor, empty
            before the day's settlement is published.

        Raises:
            InvalidRequest: a malformed curve id or tenor name.
            NotFound: the service does not know the curve or the tenor, or
                (one tenor) has not published its settlement yet today.
            AccessDenied: the account's licence does not cover the curve.

        Examples:
            >>> table = client.last_settlement(curve, "Feb 26")
            >>> mc.to_pandas(table)[["tenor", "generated_on", "price"]]
                tenor              generated_on   price
            0  Feb 26 2026-01-15 16:30:00+00:00  779.86
        """
        return self._last_settlement(curve_id, tenor).wait()

    async def last_settlement_async(
        self, curve_id: str | Curve, tenor: str | None = None
    ) -> pyarrow.Table:
        """The awaitable form of :meth:`last_settlement`."""
        return await self._last_settlement(curve_id, tenor)

    def _last_settlement(self, curve_id: Any, tenor: Any) -> _core.Call[pyarrow.Table]:
        return self._core.last_settlement(_args.curve_id(curve_id), _args.optional_tenor(tenor))

    def last_assessments(self, curve_id: str | Curve, tenor: str | None = None) -> pyarrow.Table:
        """Today's Singapore, London and New York assessments of one tenor, or
        of every tenor of the curve.

        Args:
            curve_id: the curve, by id or as a :class:`~marketcurves.Curve`.
            tenor: a tenor name; None for every tenor.

        Returns:
            One row per tenor and snapshot published so far today, with a
            ``snapshot`` column (``singapore``, ``london``, ``new_york``).

        Raises:
            InvalidRequest: a malformed curve id or tenor name.
            NotFound: the service does not know the curve or the tenor, or
                (one tenor) has published no assessment of it yet today.
            AccessDenied: the account's licence does not cover the curve.

        Examples:
            >>> table = client.last_assessments(curve, "Feb 26")
            >>> mc.to_pandas(table)[["tenor", "snapshot", "generated_on", "price"]]
                tenor   snapshot              generated_on    price
            0  Feb 26  singapore 2026-01-15 08:30:00+00:00  777.832
            1  Feb 26     london 2026-01-15 16:30:00+00:00  779.860
        """
        return self._last_assessments(curve_id, tenor).wait()

    async def last_assessments_async(
        self, curve_id: str | Curve, tenor: str | None = None
    ) -> pyarrow.Table:
        """The awaitable form of :meth:`last_assessments`."""
        return await self._last_assessments(curve_id, tenor)

    def _last_assessments(self, curve_id: Any, tenor: Any) -> _core.Call[pyarrow.Table]:
        return self._core.last_assessments(_args.curve_id(curve_id), _args.optional_tenor(tenor))

    def intraday(
        self,
        curve_id: str | Curve,
        tenor: str,
        *,
        progress: bool = False,
        max_requests: int | None = None,
    ) -> pyarrow.Table:
        """Today's intraday values of one tenor (the current UTC day), every page.

        Args:
            curve_id: the curve, by id or as a :class:`~marketcurves.Curve`.
            tenor: a tenor name.
            progress: show a progress bar of the pages (with tqdm installed).
            max_requests: the call's request budget (None for the
                client's): it costs one request, and one for the
                catalogue that names the table if the client does not
                keep it already.

        Returns:
            One row per value, oldest first; empty for a tenor without
            values today.

        Raises:
            InvalidRequest: a malformed curve id or tenor name.
            BudgetExceeded: the call needs more requests than ``max_requests``.
            NotFound: the service does not know the curve.
            AccessDenied: the account's licence does not cover the curve.

        Examples:
            >>> table = client.intraday(curve, "Feb 26")
            >>> mc.to_pandas(table)[["tenor", "generated_on", "price"]].head(3)
                tenor                     generated_on    price
            0  Feb 26 2026-01-15 00:00:19.600000+00:00  776.888
            1  Feb 26 2026-01-15 00:02:28.398897+00:00  777.048
            2  Feb 26 2026-01-15 00:04:37.080000+00:00  776.903
        """
        run = functools.partial(self._intraday, curve_id, tenor, max_requests)
        return _progress.wait(run, progress, "intraday")

    async def intraday_async(
        self, curve_id: str | Curve, tenor: str, *, max_requests: int | None = None
    ) -> pyarrow.Table:
        """The awaitable form of :meth:`intraday`."""
        return await self._intraday(curve_id, tenor, max_requests)

    def _intraday(self, curve_id: Any, tenor: Any, max_requests: Any) -> _core.Call[pyarrow.Table]:
        budget = self._budget(max_requests)
        return self._core.intraday(_args.curve_id(curve_id), _args.tenor(tenor), budget)

    def _budget(self, max_requests: Any) -> int | None:
        """A call's request budget: its own, else the client's."""
        chosen = _args.budget(max_requests)
        return chosen if chosen is not None else self._max_requests

    # History.

    def settlements(
        self,
        curve_id: str | Curve,
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
        tenors: str | list[str] | None = None,
        *,
        progress: bool = False,
        cache: CacheMode | None = None,
        max_requests: int | None = None,
    ) -> pyarrow.Table:
        """End-of-day snapshots (settlements) from ``start`` to ``end``.

        One request per tenor, run concurrently. With a cache, final days
        come from it and only the others are fetched (see ``cache_dir``).

        Args:
            curve_id: the curve, by id or as a :class:`~marketcurves.Curve`.
            start: the first day (a date, a datetime's UTC day, or
                ``"YYYY-MM-DD"``).
            end: the last day, included.
            tenors: tenor names (one, or a list); None for every contract
                the catalogue lists for the curve. ``"expired"`` pulls the
                contracts of the kinds the curve lists (months, quarters,
                windows) whose delivery overlaps the range but which the
                catalogue no longer lists; ``"all"`` pulls those and the
                listed ones, enough to build a rolling series over years
                (see :func:`marketcurves.curves.rolling`). There, a tenor
                the service does not know (404) is skipped with a warning,
                and named in the table's schema metadata under
                ``marketcurves.skipped_tenors``.
            progress: show a progress bar of the requests (with tqdm installed).
            cache: how this call uses the history cache
                (:data:`~marketcurves.cache.CacheMode`); None for the
                client's mode.
            max_requests: the call's request budget (None for the
                client's): the most requests its plan may need, counted
                before any is sent; cached days cost nothing (see
                [The request budget](../history.md#the-request-budget)).

        Returns:
            One row per tenor and day with a settlement, sorted by tenor (in
            calendar order) then day, with a ``date`` column; see
            [The tables](../history.md#the-tables).

        Raises:
            InvalidRequest: a malformed argument, or ``end`` before ``start``.
            NotFound: the service does not know the curve or a named tenor.
            AccessDenied: the account's licence does not cover the curve.
            CacheMiss: ``cache="offline"`` and the cache lacks some of the days.
            BudgetExceeded: the call needs more requests than ``max_requests``.

        Warns:
            UserWarning: a tenor named that the catalogue does not list
                returned nothing (a mistyped name looks like an empty
                answer), or ``"expired"`` skipped tenors the service does not know.

        Examples:
            >>> table = client.settlements(curve, "2026-01-12", "2026-01-14", tenors=["Feb 26", "Mar 26"])
            >>> mc.to_pandas(table)[["tenor", "date", "price"]]
                tenor        date    price
            0  Feb 26  2026-01-12  776.596
            1  Feb 26  2026-01-13  773.672
            2  Feb 26  2026-01-14  775.019
            3  Mar 26  2026-01-12  776.506
            4  Mar 26  2026-01-13  772.881
            5  Mar 26  2026-01-14  774.477
        """
        request = _history(curve_id, start, end, tenors, cache, self._budget(max_requests))
        run = functools.partial(self._core.settlements, request)
        table = _progress.wait(run, progress, "settlements")
        return _warn_skipped(self._stats_taken(table))

    async def settlements_async(
        self,
        curve_id: str | Curve,
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
        tenors: str | list[str] | None = None,
        *,
        cache: CacheMode | None = None,
        max_requests: int | None = None,
    ) -> pyarrow.Table:
        """The awaitable form of :meth:`settlements`."""
        request = _history(curve_id, start, end, tenors, cache, self._budget(max_requests))
        return _warn_skipped(self._stats_taken(await self._core.settlements(request)))

    def intraday_history(
        self,
        curve_id: str | Curve,
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
        tenors: str | list[str] | None = None,
        *,
        progress: bool = False,
        cache: CacheMode | None = None,
        max_requests: int | None = None,
    ) -> pyarrow.Table:
        """Intraday values from ``start`` to ``end`` (inclusive UTC days), split
        into windows of at most 30 days, every page of each, run concurrently.

        With a cache, final days come from it and only the others are
        fetched (see ``cache_dir``).

        Args:
            curve_id: the curve, by id or as a :class:`~marketcurves.Curve`.
            start: the first UTC day (a date, a datetime's UTC day, or
                ``"YYYY-MM-DD"``).
            end: the last UTC day, included.
            tenors: as for :meth:`settlements`: tenor names (one, or a
                list); None for every contract the catalogue lists for the
                curve; ``"expired"`` for the contracts of the listed kinds
                whose delivery overlaps the range but which the catalogue
                no longer lists; ``"all"`` for both. There, a tenor the
                service does not know (404) is skipped with a warning, and
                named in the table's schema metadata under
                ``marketcurves.skipped_tenors``.
            progress: show a progress bar of the requests (with tqdm installed).
            cache: how this call uses the history cache
                (:data:`~marketcurves.cache.CacheMode`); None for the
                client's mode.
            max_requests: the call's request budget (None for the
                client's): the most requests its plan may need, counted
                before any is sent; cached days cost nothing (see
                [The request budget](../history.md#the-request-budget)).

        Returns:
            One row per value, with its ``generated_on`` time, sorted by
            tenor (in calendar order) then time; see
            [The tables](../history.md#the-tables). Empty for a range
            without values.

        Raises:
            InvalidRequest: a malformed argument, ``end`` before ``start``,
                a tenor of a kind the curve does not list, or a ``cache``
                mode the client cannot use (``"offline"`` without a cache).
            NotFound: the service does not know the curve or a named tenor.
            AccessDenied: the account's licence does not cover the curve.
            CacheMiss: ``cache="offline"`` and the cache lacks some of the days.
            BudgetExceeded: the call needs more requests than ``max_requests``.

        Warns:
            UserWarning: a tenor named that the catalogue does not list
                returned nothing (a mistyped name looks like an empty
                answer), or ``"expired"`` skipped tenors the service does not know.

        Examples:
            >>> table = client.intraday_history(curve, "2026-01-12", "2026-01-13", tenors="Feb 26")
            >>> table.num_rows  # a value about every two minutes, for two days
            1440
            >>> mc.to_pandas(table)[["tenor", "generated_on", "price"]].tail(3)
                   tenor                     generated_on    price
            1437  Feb 26 2026-01-13 23:54:21.400000+00:00  772.428
            1438  Feb 26 2026-01-13 23:56:20.000000+00:00  772.334
            1439  Feb 26 2026-01-13 23:58:11.090703+00:00  772.722
        """
        request = _history(curve_id, start, end, tenors, cache, self._budget(max_requests))
        run = functools.partial(self._core.intraday_history, request)
        table = _progress.wait(run, progress, "intraday history")
        return _warn_skipped(self._stats_taken(table))

    async def intraday_history_async(
        self,
        curve_id: str | Curve,
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
        tenors: str | list[str] | None = None,
        *,
        cache: CacheMode | None = None,
        max_requests: int | None = None,
    ) -> pyarrow.Table:
        """The awaitable form of :meth:`intraday_history`."""
        request = _history(curve_id, start, end, tenors, cache, self._budget(max_requests))
        return _warn_skipped(self._stats_taken(await self._core.intraday_history(request)))

    def name_curves(self, table: pyarrow.Table) -> pyarrow.Table:
        """``table`` naming its curves from the catalogue: its schema
        metadata's ``marketcurves.curves``, a JSON list of ``id``, ``name``,
        ``units`` and ``quotation``, one per curve of its ``curve_id``
        column. The client's own tables name their curves already; this is
        for a table read without a client (:func:`~marketcurves.read_ticks`),
        which names its curves by id alone. The catalogue is the one the
        client keeps (fetched at most every ten minutes); a curve it does not
        list, or every curve if it cannot be fetched, is named by id alone.

        Args:
            table: a ``pyarrow.Table`` or ``RecordBatch`` with a ``curve_id``
                column.

        Returns:
            The table, its columns untouched.

        Raises:
            InvalidRequest: ``table`` is neither a table nor a record batch,
                or has no ``curve_id`` column (a bulk dataset's ``id`` is
                its record's, not a curve's).
            ClientClosed: the client is closed.

        Examples:
            >>> ticks = client.name_curves(mc.read_ticks("ticks", curve_id=curve.id))  # doctest: +SKIP
        """
        return self._core.name_curves(_arrow_table(table)).wait()

    async def name_curves_async(self, table: pyarrow.Table) -> pyarrow.Table:
        """The awaitable form of :meth:`name_curves`."""
        return await self._core.name_curves(_arrow_table(table))

    # The history cache.

    @property
    def last_call_stats(self) -> CallStats | None:
        """What the last :meth:`settlements` or :meth:`intraday_history`
        call (or its awaitable form) of this thread or asyncio task cost:
        the tenor-days (a day of one tenor) read from the cache and those
        fetched from the service. None before one, or after one that did
        not go through a cache (no ``cache_dir``, or ``cache="off"``).

        Examples:
            >>> cached = mc.Client(cache_dir="cache")
            >>> _ = cached.settlements(curve, "2026-01-05", "2026-01-09", tenors=["Feb 26"])
            >>> cached.last_call_stats
            {'days_from_cache': 0, 'days_from_service': 5}
            >>> cached.close()
        """
        return self._last_stats.get()

    def _stats_taken(self, table: pyarrow.Table) -> pyarrow.Table:
        """The call's counts out of ``table`` (which is then the very table
        an uncached call returns), kept for :attr:`last_call_stats`."""
        table, stats = taken_stats(table)
        self._last_stats.set(stats)
        return table

    def cache_info(self) -> CacheInfo:
        """What the history cache holds for this client's service and account.

        Returns:
            Its folder, files and bytes, and for each curve the first and
            last cached day of its settlements and of its intraday values.

        Raises:
            InvalidRequest: the client has no cache (no ``cache_dir``).

        Examples:
            >>> cached = mc.Client(cache_dir="cache")
            >>> _ = cached.settlements(curve, "2026-01-05", "2026-01-09", tenors=["Feb 26"])
            >>> [(c["history"], c["tenors"], c["first"], c["last"]) for c in cached.cache_info()["curves"]]
            [('settlements', 1, datetime.date(2026, 1, 5), datetime.date(2026, 1, 9))]
            >>> cached.close()
        """
        return self._core.cache_info().wait()

    async def cache_info_async(self) -> CacheInfo:
        """The awaitable form of :meth:`cache_info`."""
        return await self._core.cache_info()

    def clear_cache(
        self,
        curve_id: str | Curve | None = None,
        before: _dt.date | _dt.datetime | str | None = None,
    ) -> Cleared:
        """Removes cached history; with neither argument, the cached
        catalogues too. Only this client's service and account are touched.

        Args:
            curve_id: the curve whose history goes, by id or as a
                :class:`~marketcurves.Curve`; None for every curve.
            before: remove only the days before this one; None for every day.

        Returns:
            The files and bytes removed.

        Raises:
            InvalidRequest: the client has no cache, or a malformed argument.

        Examples:
            >>> cached = mc.Client(cache_dir="cache")
            >>> _ = cached.settlements(curve, "2026-01-05", "2026-01-09", tenors=["Feb 26"])
            >>> cached.clear_cache(curve)["files"]
            1
            >>> cached.close()
        """
        return self._clear_cache(curve_id, before).wait()

    async def clear_cache_async(
        self,
        curve_id: str | Curve | None = None,
        before: _dt.date | _dt.datetime | str | None = None,
    ) -> Cleared:
        """The awaitable form of :meth:`clear_cache`."""
        return await self._clear_cache(curve_id, before)

    def _clear_cache(self, curve_id: Any, before: Any) -> _core.Call[Cleared]:
        curve = None if curve_id is None else _args.curve_id(curve_id)
        return self._core.clear_cache(
            curve, None if before is None else _args.date(before, "before")
        )

    # Bulk download.

    def bulk_submit(
        self,
        vertical: str,
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
    ) -> BulkJob:
        """Submits a bulk job: every end-of-day snapshot of one vertical over
        whole months, as Parquet files. :meth:`bulk_download` does the rest;
        the job lets you wait and download yourself.

        Args:
            vertical: the vertical (``"Jet"`` or ``"JET"``).
            start: the first month (``"YYYY-MM"``, or a date or datetime in it).
            end: the last month, included.

        Returns:
            The job, running on the service.

        Raises:
            InvalidRequest: an unknown vertical, a malformed month, ``end``
                before ``start``, or a range of which the account's licence
                holds no complete month.

        Warns:
            UserWarning: the service narrowed the range to the account's
                permissions (``job.narrowed``); it names both ranges.

        Examples:
            >>> job = client.bulk_submit("Jet", "2025-01", "2025-02")
            >>> job.effective, job.narrowed
            (('2025-01', '2025-02'), False)
        """
        return BulkJob(self._core, bulk.submit(self._core, vertical, start, end).wait())

    async def bulk_submit_async(
        self,
        vertical: str,
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
    ) -> BulkJob:
        """The awaitable form of :meth:`bulk_submit`."""
        return BulkJob(self._core, await bulk.submit(self._core, vertical, start, end))

    @_deprecation.positional_options("progress")
    def bulk_download(
        self,
        vertical: str,
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
        dest: str | os.PathLike[str] | ObjectStore,
        *,
        progress: bool = False,
        poll_interval: float = _core.BULK_POLL_INTERVAL,
        timeout: float = _core.BULK_TIMEOUT,
        storage_options: dict[str, str] | None = None,
    ) -> BulkResult:
        """Submits, waits, downloads and verifies a bulk job, into
        ``dest/vertical=…/year=…/month=…/``.

        A FAILED job is submitted again, and expired URLs are renewed by
        running the job again. Files already there with the right size are
        skipped, so a rerun fetches only what is missing. A file ``path``
        that is not a plain partition is refused. Every argument is checked,
        ``dest`` included, before anything is sent; ``dest`` is created once
        the job has succeeded.

        Into an object store, each file is streamed into a multipart upload
        completed only once its size is checked, and aborted on any failure,
        so no object is ever half-written.

        Args:
            vertical: the vertical (``"Jet"`` or ``"JET"``).
            start: the first month (``"YYYY-MM"``, or a date or datetime in it).
            end: the last month, included.
            dest: a folder (a file, or a folder that cannot be written, is
                refused); an object store URL (``s3://bucket/prefix``,
                ``gs://…``, ``az://…``, ``abfs://…``) with credentials from
                the cloud's environment variables or ``storage_options``; or
                an obstore store (``S3Store``, ``GCSStore``, ``AzureStore``
                or ``LocalStore``, with the ``obstore`` extra), configured
                and prefixed as obstore made it.
            progress: show the job's phase and the bytes downloaded (with
                tqdm installed).
            poll_interval: seconds between the first polls of the job's
                status (backing off to ten times that).
            timeout: seconds the job may run before
                :class:`~marketcurves.BulkJobFailed` is raised.
            storage_options: for an object store URL: object_store's keys,
                as for :func:`marketcurves.read_bulk`; refused with a store
                or a folder.

        Returns:
            The files (``files``, or ``objects`` for a store, as URLs), the
            bytes this run transferred and the rows they hold.

        Raises:
            InvalidRequest: a malformed argument, a range of which the
                account's licence holds no complete month, or a ``dest``
                that cannot be written (a bucket that does not exist or
                refuses the credentials, before the job is submitted).
            BulkJobFailed: the job failed again, ran past ``timeout``, or
                its files could not be fetched.

        Warns:
            UserWarning: the service narrowed the range to the account's
                permissions, or listed no file for some months.

        Examples:
            >>> result = client.bulk_download("Jet", "2025-01", "2025-02", "bulk")
            >>> [path.relative_to("bulk").as_posix() for path in result.files]
            ['vertical=Jet/year=2025/month=01/jet-2025-01.parquet', 'vertical=Jet/year=2025/month=02/jet-2025-02.parquet']
        """
        run = functools.partial(
            bulk.download,
            self._core,
            vertical,
            start,
            end,
            dest,
            poll_interval,
            timeout,
            storage_options,
        )
        return bulk.wait_for_download(run, progress)

    async def bulk_download_async(
        self,
        vertical: str,
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
        dest: str | os.PathLike[str] | ObjectStore,
        *,
        poll_interval: float = _core.BULK_POLL_INTERVAL,
        timeout: float = _core.BULK_TIMEOUT,
        storage_options: dict[str, str] | None = None,
    ) -> BulkResult:
        """The awaitable form of :meth:`bulk_download`."""
        call = bulk.download(
            self._core, vertical, start, end, dest, poll_interval, timeout, storage_options
        )
        return bulk.downloaded(await call)

    # The live feed.

    @_deprecation.positional_options("backfill", "on_price")
    def live(
        self,
        *,
        backfill: bool = True,
        on_price: Callable[[Tick], object] | None = None,
        on_event: Callable[[LiveEvent], object] | None = None,
        queue_size: int = _core.LIVE_QUEUE_SIZE,
        ping_interval: float = _core.LIVE_PING_INTERVAL,
        pong_timeout: float = _core.LIVE_PONG_TIMEOUT,
        reconnect_max: float = _core.LIVE_RECONNECT_MAX,
    ) -> LiveFeed:
        """Opens the live feed (``live_url``) and returns a
        :class:`~marketcurves.LiveFeed` to subscribe and read; use it as a
        context manager. The connection is made, and kept, in the background.

        Args:
            backfill: after a reconnect, fetch what was published meanwhile
                from the intraday endpoints and deliver it first.
            on_price: if given, called with each :class:`Tick` on a thread of
                the feed; what it raises is logged and counted, and the feed goes on.
            on_event: called with a dict for each ``connected``,
                ``disconnected``, ``reconnected``, ``gap_filled``,
                ``conflated`` and ``error`` event (also logged); see
                :data:`marketcurves.live.LiveEvent`.
            queue_size: ticks waiting for a slow consumer before the queue
                keeps only the newest value per curve and tenor.
            ping_interval: seconds of quiet before a keep-alive ping (the
                service drops a connection silent for 60 s; an emulator
                with a fast clock, sooner: see
                :meth:`Emulator.keepalive <marketcurves.testing.Emulator.keepalive>`).
            pong_timeout: seconds a ping may wait for its pong before the
                connection is taken for dead and replaced.
            reconnect_max: the longest wait between reconnection attempts.

        Returns:
            The feed, with no subscription yet.

        Raises:
            InvalidRequest: the client has no ``live_url``, or a malformed
                argument.

        Examples:
            >>> with client.live() as feed:
            ...     feed.subscribe(curve, "Feb 26")
            ...     tick = feed.next(timeout=10)
            >>> tick.tenor, tick.source
            ('Feb 26', 'snapshot')
        """
        live_url = self._required_live_url("the live feed")
        backfill = _args.flag(backfill, "backfill")
        # Types here; the core checks the values (LiveConfig::validate).
        options: LiveSettings = {
            "queue_size": _args.count(queue_size, "queue_size"),
            "ping_interval": _args.duration(ping_interval, "ping_interval"),
            "pong_timeout": _args.duration(pong_timeout, "pong_timeout"),
            "reconnect_max": _args.duration(reconnect_max, "reconnect_max"),
            # The client's timeout bounds the wait for a connection and for
            # a subscription's answer, as it bounds a REST request.
            "connect_timeout": self._timeout,
            "subscribe_timeout": self._timeout,
        }
        feed = LiveFeed(
            self._core,
            live_url,
            backfill=backfill,
            on_price=on_price,
            on_event=on_event,
            options=options,
        )
        self._feeds.add(feed)
        return feed

    def replay(
        self,
        start: _dt.datetime | _dt.date | str,
        end: _dt.datetime | _dt.date | str,
        *,
        source: str | os.PathLike[str] | ObjectStore = "service",
        speed: float | str = "max",
        on_price: Callable[[Tick], object] | None = None,
        on_event: Callable[[LiveEvent], object] | None = None,
        storage_options: dict[str, str] | None = None,
        conflate: bool | None = None,
        queue_size: int = _core.LIVE_QUEUE_SIZE,
    ) -> LiveFeed:
        """Replays history through a :class:`LiveFeed`, the very class
        :meth:`live` returns: a strategy written against the live feed runs
        unchanged, and switching a backtest to it is one line.

        Subscribe, iterate, read batches, take callbacks, close, as on the
        live feed. A subscription takes effect at the replay's current time
        (:attr:`LiveFeed.now`, from ``start``): one ``snapshot`` per tenor,
        its last value at or before that time (looking back up to 30 days),
        then every later value up to ``end`` as an ``update``, in time order
        across every subscribed curve and tenor, ties by curve then tenor.
        Iteration ends at ``end``.

        Args:
            start: the replay's first time (naive times and dates are UTC;
                a date is its midnight).
            end: its last time (a date is its last microsecond).
            source: ``"service"`` (the historical intraday endpoint, through
                the history cache when the client has one), or a lake the
                recorder and the backfill wrote: a folder, an object store
                URL (with ``storage_options``) or an obstore store.
            speed: ``"max"``, as fast as the consumer takes values, never
                skipping one; or replay seconds per real second (1.0 is real
                time), on a virtual clock from ``start``.
            conflate: paced, a slow consumer gets the newest value per tenor
                (counted as conflated), as on the live feed; ``False``
                delivers every value, late. Default: True when paced.
            on_price: as for :meth:`live`.
            on_event: as for :meth:`live`.
            queue_size: as for :meth:`live`.
            storage_options: for a lake at an object store URL, as for
                :func:`marketcurves.read_bulk`.

        Returns:
            The feed, with no subscription yet, at ``start``.

        Raises:
            InvalidRequest: a malformed argument, ``end`` before ``start``, a
                lake that does not exist, or ``storage_options`` with a local
                path; before anything is read or sent.

        Examples:
            >>> with client.replay("2026-01-14T10:00", "2026-01-14T10:10") as feed:
            ...     feed.subscribe(curve, "Feb 26")
            ...     for tick in feed:
            ...         print(tick.generated_on, tick.price, tick.source)
            2026-01-14 09:58:37.300000+00:00 772.919 snapshot
            2026-01-14 10:00:14.530200+00:00 772.995 update
            2026-01-14 10:02:33.900000+00:00 773.077 update
            2026-01-14 10:04:08.600000+00:00 772.854 update
            2026-01-14 10:06:18.883000+00:00 773.19 update
            2026-01-14 10:08:25+00:00 772.801 update
        """
        first = _replay_time(start, "start", end=False)
        last = _replay_time(end, "end", end=True)
        if last < first:
            raise InvalidRequest(f"end {last.isoformat()} is before start {first.isoformat()}")
        paced = _replay_speed(speed)
        if conflate is not None and paced is None and _args.flag(conflate, "conflate"):
            raise InvalidRequest("speed='max' never skips a value: conflate does not apply")
        lake = None if isinstance(source, str) and source == "service" else source
        options = _args.storage_options(storage_options)
        if lake is None and options is not None:
            raise InvalidRequest("storage_options apply to a lake, not to source='service'")
        replay_options: ReplayOptions = {
            "source": None if lake is None else _args.place(lake, "source"),
            "storage_options": options,
            "start": first,
            "end": last,
            "speed": paced,
            "conflate": paced is not None
            and (conflate is None or _args.flag(conflate, "conflate")),
            "queue_size": _args.count(queue_size, "queue_size"),
        }
        feed = live_.replay(self._core, replay_options, on_price, on_event)
        self._feeds.add(feed)
        return feed

    # The recorder.

    def _required_live_url(self, purpose: str) -> str:
        if self.live_url is None:
            raise InvalidRequest(
                f"live_url is required for {purpose} (or set MARKETCURVES_LIVE_URL)"
            )
        return self.live_url

    def backfill(
        self,
        dest: str | os.PathLike[str] | ObjectStore,
        subscriptions: Sequence[tuple[str | Curve, str | Tenor]],
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
        *,
        tenors: str = "listed",
        storage_options: dict[str, str] | None = None,
        cluster: Any = None,
        progress: bool = False,
        max_requests: int | None = None,
    ) -> backfill_.BackfillSummary:
        """Fetches the intraday values of ``subscriptions`` from the
        historical endpoint into ``dest``, in the recorder's layout: a tick
        lake's history (see [The tick lake](../lake.md)).

        Resumable: each file's footer says which of its tenors' days are
        complete, meaning final on the service's clock (an hour after the
        UTC day; a day without a value once a week old). A run killed at
        any point and run again fetches only the days missing, and writes
        nothing twice; over a complete range it sends no request. A
        recorder started on ``dest`` afterwards resumes after the newest
        value there.

        Args:
            dest: a folder, an object store URL or an obstore store, as for
                :meth:`record`.
            subscriptions: ``(curve, tenor)`` pairs, a curve by id or as a
                :class:`~marketcurves.Curve`, tenor ``"*"`` for the curve's
                calendar contracts (the continuous tenors are named).
            start: the first UTC day.
            end: the last UTC day, included; no later than the service's today.
            tenors: what each ``"*"`` takes: ``"listed"``, the contracts the
                catalogue lists; ``"expired"``, those of the curve's kinds
                that it no longer lists but that delivered within the range;
                ``"all"``, both (as for :meth:`settlements`).
            storage_options: for an object store URL, as for :meth:`record`.
            cluster: a ``dask.distributed.Client`` whose workers run the
                tasks (one curve over at most 30 days each); see
                :mod:`marketcurves.backfill` for how they authenticate (no
                secret is sent in the task graph). None runs them here.
            progress: show a bar (requests here, tasks on a cluster) when
                tqdm is installed.
            max_requests: the backfill's request budget (None for the
                client's): its plan, one request per tenor of each task and
                one for the catalogue if it must be fetched, is checked on
                this machine before any task starts.

        Returns:
            The tasks run, requests sent, values written and days complete.

        Raises:
            InvalidRequest: a malformed argument, a curve the catalogue does
                not list, a tenor the curve does not offer, or a start after
                the service's today; before any intraday request.
            DestinationError: ``dest`` refused a write.
            BudgetExceeded: the plan needs more requests than ``max_requests``.

        Examples:
            >>> client.backfill("ticks", [(curve, "Feb 26")], "2026-01-12", "2026-01-13")
            BackfillSummary(tasks=1, requests=15, values=1440, days_complete=2, days_skipped=0, files_written=2, set_aside=[], empty=[])
            >>> client.backfill("ticks", [(curve, "Feb 26")], "2026-01-12", "2026-01-13").days_skipped
            2
        """
        return backfill_.backfill(
            self._core,
            self._worker_settings(),
            dest,
            subscriptions,
            start,
            end,
            tenors=tenors,
            storage_options=storage_options,
            cluster=cluster,
            progress=progress,
            max_requests=self._budget(max_requests),
        )

    async def backfill_async(
        self,
        dest: str | os.PathLike[str] | ObjectStore,
        subscriptions: Sequence[tuple[str | Curve, str | Tenor]],
        start: _dt.date | _dt.datetime | str,
        end: _dt.date | _dt.datetime | str,
        *,
        tenors: str = "listed",
        storage_options: dict[str, str] | None = None,
        cluster: Any = None,
        max_requests: int | None = None,
    ) -> backfill_.BackfillSummary:
        """The awaitable form of :meth:`backfill` (with a cluster, the
        driver waits in a thread)."""
        return await backfill_.backfill_async(
            self._core,
            self._worker_settings(),
            dest,
            subscriptions,
            start,
            end,
            tenors=tenors,
            storage_options=storage_options,
            cluster=cluster,
            max_requests=self._budget(max_requests),
        )

    def _worker_settings(self) -> dict[str, Any]:
        """The settings a backfill's workers make their clients from, a copy
        (on a closed client too: the core refuses the backfill itself)."""
        return dict(self._settings)

    def worker_settings(self) -> WorkerSettings:
        """This client's settings without its secrets, for clients of the
        same service and history cache in other processes: a Dask task of
        yours makes its client with :meth:`from_worker_settings`, as a
        backfill's workers do. They hold the addresses, the limits, the
        request budget, a token provider if the client has one, and the
        history cache if it is in an object store (its URL and the storage
        options that are no credentials); a folder cache stays this
        machine's. Safe in a task graph: no token, password or store key.

        Returns:
            The settings, picklable.

        Examples:
            >>> settings = client.worker_settings()
            >>> settings.base_url == client.base_url
            True
        """
        return WorkerSettings({**self._settings, "max_requests": self._max_requests})

    @classmethod
    def from_worker_settings(cls, settings: WorkerSettings) -> Client:
        """A client made from another's :meth:`worker_settings`, in a worker
        process: the same service, limits and budget, and the same history
        cache when it is shared (an object store), whose credentials come
        from this process's environment (the cloud's variables). The
        service's credentials are the settings' token provider, else this
        process's ``MARKETCURVES_TOKEN`` (or ``MARKETCURVES_EMAIL`` and
        ``MARKETCURVES_PASSWORD``).

        Args:
            settings: what :meth:`worker_settings` gave.

        Returns:
            A client; close it (or use it in a ``with`` block) when done.

        Raises:
            InvalidType: ``settings`` is not a :class:`~marketcurves.WorkerSettings`.
            MissingWorkerCredentials: no token provider in the settings and
                no credentials in this process's environment.
            InvalidRequest: a setting does not hold here (a ``ca_bundle``
                path this machine lacks).

        Examples:
            >>> settings = client.worker_settings()  # on the driver
            >>> with mc.Client.from_worker_settings(settings) as worker_client:  # on a worker
            ...     table = worker_client.settlements(curve, "2026-01-12", "2026-01-14")
        """
        if not isinstance(settings, WorkerSettings):
            raise InvalidType(
                "settings must be what Client.worker_settings() gave, "
                f"not {type(settings).__name__}"
            )
        values = settings.values()
        cache_dir = values.get("cache_dir")
        return cls(
            values["base_url"],
            live_url=values.get("live_url"),
            **worker_credentials(values),
            max_concurrency=values["max_concurrency"],
            timeout=values["timeout"],
            max_retries=values["max_retries"],
            ca_bundle=values["ca_bundle"],
            cache_dir=cache_dir[0] if isinstance(cache_dir, tuple) else cache_dir,
            storage_options=values.get("cache_storage_options"),
            cache=values.get("cache", "off"),
            max_response_bytes=values["max_response_bytes"],
            max_requests=values.get("max_requests"),
        )

    def record(
        self,
        dest: str | os.PathLike[str] | ObjectStore,
        subscriptions: Sequence[tuple[str | Curve, str | Tenor]],
        *,
        rotate: str | _dt.timedelta | float = _core.RECORD_ROTATE,
        storage_options: dict[str, str] | None = None,
        backfill: bool = True,
        rotate_rows: int = _core.RECORD_ROTATE_ROWS,
        hold_limit: int = _core.RECORD_HOLD_LIMIT,
        compact: bool = True,
        duration: float | None = None,
        ping_interval: float = _core.LIVE_PING_INTERVAL,
        pong_timeout: float = _core.LIVE_PONG_TIMEOUT,
        reconnect_max: float = _core.LIVE_RECONNECT_MAX,
    ) -> record_.RecordSummary:
        """Records the live feed of ``subscriptions`` into ``dest`` until
        Ctrl-C, SIGTERM or ``duration`` seconds; then writes what it holds
        and returns (see [The tick recorder](../recorder.md)).

        Each value the service publishes is written exactly once, from the
        first one recorded on: a start resumes from the last value the
        files hold per curve and tenor, and with ``backfill`` fetches what
        was published since from the intraday endpoints before any newer
        value; a crash loses only what no file held yet, which the next
        start fetches. Files (``date=YYYY-MM-DD/part-….parquet``) appear
        whole or not at all. A minute's figures go to the
        ``marketcurves.record`` logger and to ``dest/_status.json``.

        Args:
            dest: a folder; an object store URL (``s3://bucket/prefix``...,
                with ``storage_options``); or an obstore store (``S3Store``,
                ``GCSStore``, ``AzureStore`` or ``LocalStore``, with the
                ``obstore`` extra), configured and prefixed as obstore made it.
            subscriptions: ``(curve, tenor)`` pairs, a curve by id or as a
                :class:`~marketcurves.Curve`, tenor ``"*"`` for every tenor
                of the curve.
            rotate: a file closes this long after its first tick (``"30s"``,
                ``"5min"``, ``"1h"``, a ``timedelta`` or seconds).
            storage_options: for an object store URL: object_store's keys,
                as for :func:`marketcurves.read_bulk`; refused otherwise.
            backfill: at a start and after a reconnect, fetch what was
                published meanwhile before any newer value.
            rotate_rows: a file closes at this many ticks.
            hold_limit: ticks the destination refuses are held and written
                once it takes them again, up to this many (2 million ticks,
                about 130 MB, by default).
            compact: merge each day into one file an hour after it ends.
            duration: seconds to record; None until Ctrl-C or SIGTERM.
            ping_interval: the feed's keep-alive, as for :meth:`live`.
            pong_timeout: as for :meth:`live`.
            reconnect_max: as for :meth:`live`.

        Returns:
            The ticks and files written, what was backfilled, reconnects and
            failures (a :class:`~marketcurves.RecordSummary`).

        Raises:
            InvalidRequest: a malformed argument, a curve the catalogue does
                not list or a tenor it does not list for the curve (the feed
                would send nothing for it); before anything connects.
            DestinationError: more than ``hold_limit`` ticks held; a
                restart fetches what was held.
            AccessDenied: the licence no longer covers a subscription.
            AuthError: the credentials stopped working. In both cases what
                it held was written first, and the status says ``failed``.

        Examples:
            >>> summary = client.record("ticks", [(curve, "Feb 26")], duration=0.5)
            >>> summary.ticks_written > 0, summary.unwritten
            (True, 0)
        """
        return record_.record(
            self._core,
            self._required_live_url("the recorder"),
            dest=dest,
            subscriptions=subscriptions,
            rotate=rotate,
            storage_options=storage_options,
            backfill=backfill,
            rotate_rows=rotate_rows,
            hold_limit=hold_limit,
            compact=compact,
            duration=duration,
            ping_interval=ping_interval,
            pong_timeout=pong_timeout,
            reconnect_max=reconnect_max,
        )

    async def record_async(
        self,
        dest: str | os.PathLike[str] | ObjectStore,
        subscriptions: Sequence[tuple[str | Curve, str | Tenor]],
        *,
        rotate: str | _dt.timedelta | float = _core.RECORD_ROTATE,
        storage_options: dict[str, str] | None = None,
        backfill: bool = True,
        rotate_rows: int = _core.RECORD_ROTATE_ROWS,
        hold_limit: int = _core.RECORD_HOLD_LIMIT,
        compact: bool = True,
        duration: float | None = None,
        ping_interval: float = _core.LIVE_PING_INTERVAL,
        pong_timeout: float = _core.LIVE_PONG_TIMEOUT,
        reconnect_max: float = _core.LIVE_RECONNECT_MAX,
    ) -> record_.RecordSummary:
        """The awaitable form of :meth:`record`. Cancelling it stops the
        recorder, which writes what it holds in the background. Closing
        the client stops it too: it writes what it holds, then returns its
        summary."""
        return await record_.record_async(
            self._core,
            self._required_live_url("the recorder"),
            dest=dest,
            subscriptions=subscriptions,
            rotate=rotate,
            storage_options=storage_options,
            backfill=backfill,
            rotate_rows=rotate_rows,
            hold_limit=hold_limit,
            compact=compact,
            duration=duration,
            ping_interval=ping_interval,
            pong_timeout=pong_timeout,
            reconnect_max=reconnect_max,
        )


def _history(
    curve_id: Any, start: Any, end: Any, tenors: Any, cache: Any, max_requests: int | None
) -> HistoryRequest:
    """The one preparing step of the history calls (:meth:`Client.settlements`,
    :meth:`Client.intraday_history` and their twins)."""
    first, last = _args.date_range(start, end)
    named, contracts = _args.history_tenors(tenors)
    return {
        "curve_id": _args.curve_id(curve_id),
        "start": first,
        "end": last,
        "tenors": named,
        "contracts": contracts,
        "cache": _args.optional_str(cache, "cache"),
        "max_requests": max_requests,
    }


def _replay_time(value: Any, name: str, *, end: bool) -> _dt.datetime:
    """A replay's bound: a date (or ``YYYY-MM-DD``) is its midnight, or for
    ``end`` its last microsecond; anything else as ``_args.instant``."""
    if isinstance(value, str) and len(value.strip()) == 10:
        value = _args.date(value, name)
    if isinstance(value, _dt.date) and not isinstance(value, _dt.datetime):
        midnight = _dt.datetime.combine(value, _dt.time(), tzinfo=_dt.UTC)
        return midnight + _dt.timedelta(days=1, microseconds=-1) if end else midnight
    return _args.instant(value, name)


def _replay_speed(speed: Any) -> float | None:
    """``"max"`` as None, else a number of replay seconds per real second above 0."""
    if isinstance(speed, str) and speed == "max":
        return None
    if isinstance(speed, bool) or not isinstance(speed, (int, float)):
        raise InvalidType(f"speed must be 'max' or a number above 0, not {speed!r}")
    if not (speed > 0 and speed != float("inf")):
        raise InvalidRequest(f"speed must be 'max' or a number above 0, not {speed!r}")
    return float(speed)


def _arrow_table(table: Any) -> pyarrow.Table:
    """A ``pyarrow.Table`` of a table or a record batch."""
    import pyarrow as pa

    if isinstance(table, pa.RecordBatch):
        return pa.Table.from_batches([table])
    if not isinstance(table, pa.Table):
        raise InvalidType(
            f"table must be a pyarrow.Table or RecordBatch, not {type(table).__name__}"
        )
    return table


def _warn_skipped(table: pyarrow.Table) -> pyarrow.Table:
    """Warns of the tenors a pull of expired contracts skipped (404), and of
    tenors asked for by name that the catalogue does not list and that
    returned nothing (a mistyped name looks like an empty answer)."""
    metadata = table.schema.metadata or {}
    skipped = metadata.get(b"marketcurves.skipped_tenors")
    if skipped:
        names = json.loads(skipped)
        warnings.warn(
            f"the service does not know {len(names)} tenor(s), skipped: {', '.join(names)}",
            UserWarning,
            stacklevel=3,
        )
    empty = metadata.get(b"marketcurves.empty_unlisted_tenors")
    if empty:
        names = json.loads(empty)
        warnings.warn(
            f"tenor(s) {', '.join(names)} returned no rows and are not among the curve's "
            "listed contracts: check the name (client.catalogue() lists each curve's "
            "contracts)",
            UserWarning,
            stacklevel=3,
        )
    return table
