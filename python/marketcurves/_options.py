"""The options of each call that crosses into the core, typed once: the
dicts ``marketcurves`` builds with their types checked (``_args``), which
the core takes as one value each and whose values it checks."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import Any, TypedDict


class Credentials(TypedDict, total=False):
    """The one kind of credentials a :class:`marketcurves.Client` was given:
    a token, a token provider, or an email and password."""

    token: str
    token_provider: Callable[[], str]
    email: str | None
    password: str | None


class ClientOptions(TypedDict):
    """``_core.CoreClient``'s, built by :class:`marketcurves.Client`: one
    kind of credentials set, the others None."""

    token: str | None
    token_provider: Callable[[], str] | None
    email: str | None
    password: str | None
    max_concurrency: int
    timeout: float
    max_retries: int
    ca_bundle: str | None
    #: A folder or an object store URL, or an obstore store and its URL.
    cache_dir: str | tuple[Any, str] | None
    #: For a ``cache_dir`` that is an object store URL.
    cache_storage_options: dict[str, str] | None
    cache: str
    max_response_bytes: int


class CatalogueRequest(TypedDict):
    """``_core.CoreClient.catalogue``'s, built by ``Client.catalogue``."""

    vertical: str | None
    quotation: str | None
    region: str | None
    #: Custom filters, ``(key, value)``.
    custom: list[tuple[str, str]]
    #: None for the client's mode.
    cache: str | None


class HistoryRequest(TypedDict):
    """``_core.CoreClient.settlements``' and ``intraday_history``'s, built
    by ``Client.settlements`` and ``Client.intraday_history``."""

    curve_id: str
    start: _dt.date
    end: _dt.date
    #: Tenors by name; None for what ``contracts`` says.
    tenors: list[str] | None
    #: ``"listed"``, ``"expired"`` or ``"all"``.
    contracts: str
    #: None for the client's mode.
    cache: str | None
    #: The most requests the call may send; None for no limit.
    max_requests: int | None


class LiveSettings(TypedDict):
    """A feed's settings but ``backfill``, as ``Client.live`` gives them."""

    queue_size: int
    ping_interval: float
    pong_timeout: float
    reconnect_max: float
    connect_timeout: float
    subscribe_timeout: float


class LiveOptions(LiveSettings):
    """``_core.LiveFeed``'s."""

    backfill: bool


class RecordOptions(TypedDict):
    """``_core.Recorder``'s, built by ``marketcurves.record``."""

    #: A path or URL, or an obstore store and the URL naming it (``_args.place``).
    dest: str | tuple[Any, str]
    subscriptions: list[tuple[str, str]]
    rotate: str
    storage_options: dict[str, str] | None
    backfill: bool
    rotate_rows: int
    hold_limit: int
    compact: bool
    duration: float | None
    ping_interval: float
    pong_timeout: float
    reconnect_max: float


class BulkDownloadOptions(TypedDict):
    """``_core.bulk_download``'s, built by ``marketcurves.bulk``."""

    vertical: str
    start: str
    end: str
    #: A path or URL, or an obstore store and the URL naming it (``_args.place``).
    dest: str | tuple[Any, str]
    poll_interval: float
    timeout: float
    storage_options: dict[str, str] | None


class BackfillOptions(TypedDict):
    """``_core.backfill``'s, built by ``marketcurves.backfill``."""

    #: A path or URL, or an obstore store and the URL naming it (``_args.place``).
    dest: str | tuple[Any, str]
    storage_options: dict[str, str] | None
    subscriptions: list[tuple[str, str]]
    start: _dt.date
    end: _dt.date
    tenors: str
    #: The most requests the plan may need; None for no limit.
    max_requests: int | None


class ReplayOptions(TypedDict):
    """``_core.LiveFeed.replay``'s, built by ``Client.replay``."""

    #: None for the service; else a lake, as ``_args.place`` gives it.
    source: str | tuple[Any, str] | None
    storage_options: dict[str, str] | None
    start: _dt.datetime
    end: _dt.datetime
    #: None: as fast as the consumer takes values.
    speed: float | None
    conflate: bool
    queue_size: int
