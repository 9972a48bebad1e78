"""The compiled core of marketcurves. Import from ``marketcurves``, not from here."""

import datetime
from collections.abc import Awaitable, Callable, Generator
from pathlib import Path
from typing import Any, Generic, Literal, TypedDict, TypeVar, final

import pyarrow

from marketcurves._live_types import FeedEvent, FeedStats
from marketcurves._options import (
    BackfillOptions,
    BulkDownloadOptions,
    CatalogueRequest,
    ClientOptions,
    HistoryRequest,
    LiveOptions,
    RecordOptions,
    ReplayOptions,
)
from marketcurves.cache import CacheInfo, Cleared
from marketcurves.record import CompactedDay
from marketcurves.testing import Credentials

__all__ = [
    "BULK_POLL_INTERVAL",
    "BULK_TIMEOUT",
    "LIVE_BATCH_ROWS",
    "LIVE_BATCH_TIMEOUT",
    "LIVE_PING_INTERVAL",
    "LIVE_PONG_TIMEOUT",
    "LIVE_QUEUE_SIZE",
    "LIVE_RECONNECT_MAX",
    "MAX_RESPONSE_BYTES",
    "RECORD_HOLD_LIMIT",
    "RECORD_ROTATE",
    "RECORD_ROTATE_ROWS",
    "BackfillLock",
    "BulkResult",
    "Call",
    "CoreClient",
    "EmulatorServer",
    "LiveFeed",
    "Recorder",
    "SubmittedJob",
    "Tenor",
    "Tick",
    "__version__",
    "_decode_table",
    "_table_schema",
    "_ticks_batch",
    "backfill",
    "backfill_lock",
    "backfill_plan",
    "backfill_task",
    "bulk_download",
    "bulk_download_job",
    "bulk_status",
    "bulk_submit",
    "bulk_wait",
    "check_lake",
    "compact_recording",
    "curves_as_of",
    "curves_build",
    "curves_convert",
    "curves_crack",
    "curves_matrix",
    "curves_residuals",
    "curves_rolling",
    "curves_spread",
    "read_bulk",
    "read_ticks",
    "secret_storage_options",
]

__version__: str
"""The package's version (the root crate's, which is also the wheel's)."""

_PriceEndpoint = Literal[
    "last_settlement",
    "last_settlement_all",
    "last_assessments",
    "last_assessments_all",
    "intraday",
    "settlements",
    "intraday_history",
]

@final
class Tenor:
    """A contract period (tenor) name, parsed.

    The four shapes of the interface are read as calendar periods: monthly
    ``Jan 25``, quarterly ``Q1 25``, 5-day windows ``1-5 Jan 25`` … ``26-EOM Feb 24``
    (EOM is the month's last day) and continuous ``C 00``/``C 01``/``C 02``.
    Two-digit years are years of this century. Any other name (the live feed has
    shapes the interface does not show) is kind ``"other"``.

    Tenors sort in calendar order: continuous first, then calendar periods by
    start date and, for the same start, shorter first, then other names; the
    name breaks ties. Equality and hashing follow the exact name, and a tenor
    equals its name as a ``str``. ``str(tenor)`` gives the name back unchanged.
    See [Tenors](../tenors.md).

    Examples:
        >>> mc.Tenor("26-EOM Feb 24")
        Tenor('26-EOM Feb 24', kind='window', start=2024-02-26, end=2024-02-29)
        >>> sorted(mc.Tenor.parse(n, strict=False) for n in ["Feb 26", "Cal 27", "Q1 26", "C 00", "Jan 26"])
        [Tenor('C 00', kind='continuous'), Tenor('Jan 26', kind='month', start=2026-01-01, end=2026-01-31), Tenor('Q1 26', kind='quarter', start=2026-01-01, end=2026-03-31), Tenor('Feb 26', kind='month', start=2026-02-01, end=2026-02-28), Tenor('Cal 27', kind='other')]
    """

    def __new__(cls, name: str) -> Tenor:
        """Parses ``name`` strictly, as :meth:`parse` does by default.

        Args:
            name: a tenor name, as the service writes it.

        Returns:
            The tenor.

        Raises:
            InvalidRequest: one of the interface's four shapes with
                impossible values (``Q5 24``).
        """

    @staticmethod
    def parse(name: str, strict: bool = True) -> Tenor:
        """Parses a tenor name.

        Any name that is not one of the interface's four shapes, such as the
        feed's year, half-month or delivery-window tenors (``Cal 27``,
        ``H1 27``, ``Win 26``) or a word that is not a month (``Foo 24``), is
        kind ``"other"``.

        Args:
            name: a tenor name, as the service writes it.
            strict: refuse one of the four shapes with impossible values
                (``Q5 24``, ``3-7 Jan 24``, ``32-EOM Jan 24``); with False it
                is kept as kind ``"other"``, as the package does for names
                the service sends.

        Returns:
            The tenor, with its kind and delivery period.

        Raises:
            InvalidRequest: (``strict``) one of the four shapes with
                impossible values, naming the reason.

        Examples:
            >>> tenor = mc.Tenor.parse("Q1 26")
            >>> tenor.kind, tenor.start, tenor.end
            ('quarter', datetime.date(2026, 1, 1), datetime.date(2026, 3, 31))
            >>> mc.Tenor.parse("Cal 27")
            Tenor('Cal 27', kind='other')
            >>> mc.Tenor.parse("Q5 24")
            Traceback (most recent call last):
              ...
            marketcurves.exceptions.InvalidRequest: invalid tenor "Q5 24": quarter must be Q1 to Q4, not Q5
            >>> mc.Tenor.parse("Q5 24", strict=False)
            Tenor('Q5 24', kind='other')
        """

    @staticmethod
    def range(
        kind: str,
        start: datetime.date | datetime.datetime | str,
        end: datetime.date | datetime.datetime | str,
    ) -> list[str]:
        """The tenors of a kind that deliver within a range of days: the
        contracts to ask for to cover it, expired ones included.

        Args:
            kind: ``"month"``, ``"quarter"`` or ``"window"``.
            start: the first day (a date, a datetime's UTC day, or
                ``"YYYY-MM-DD"``).
            end: the last day, included.

        Returns:
            The names of the tenors of ``kind`` whose delivery period
            overlaps ``start`` to ``end``, in calendar order.

        Raises:
            InvalidRequest: an unknown kind, a malformed date, or ``end``
                before ``start``.

        Examples:
            >>> mc.Tenor.range("quarter", "2026-01-01", "2026-12-31")
            ['Q1 26', 'Q2 26', 'Q3 26', 'Q4 26']
            >>> mc.Tenor.range("window", "2026-02-20", "2026-02-28")
            ['16-20 Feb 26', '21-25 Feb 26', '26-EOM Feb 26']
        """

    @property
    def name(self) -> str:
        """The name exactly as given."""

    @property
    def kind(self) -> Literal["month", "quarter", "window", "continuous", "other"]:
        """``"month"``, ``"quarter"``, ``"window"``, ``"continuous"`` or ``"other"``."""

    @property
    def start(self) -> datetime.date | None:
        """First day of the period; ``None`` for continuous and other tenors."""

    @property
    def end(self) -> datetime.date | None:
        """Last day of the period (inclusive); ``None`` for continuous and other tenors."""

    @property
    def sort_key(self) -> tuple[int, int, int, str]:
        """A key that orders names as tenors order: ``sorted(names, key=lambda n:
        Tenor.parse(n, strict=False).sort_key)``."""

    def _repr_html_(self) -> str:
        """Jupyter's view: the name, kind and delivery period."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Tenor, /) -> bool: ...
    def __le__(self, other: Tenor, /) -> bool: ...
    def __gt__(self, other: Tenor, /) -> bool: ...
    def __ge__(self, other: Tenor, /) -> bool: ...
    def __reduce__(self) -> tuple[object, tuple[str, bool]]: ...

# Helpers for tests and benchmarks, public as marketcurves.testing.*.

def _ticks_batch(ticks: list[Tick]) -> pyarrow.RecordBatch:
    """Ticks as a batch of the live feed's schema, naming no curve."""

def _table_schema(kind: Literal["prices", "settlements", "assessments", "live"]) -> pyarrow.Schema:
    """The schema of a table kind: ``prices`` (last settlement, intraday),
    ``settlements`` (adds ``date``), ``assessments`` (adds ``snapshot``) or
    ``live`` (the feed's batches: ``source`` in place of the units and
    nested columns)."""

def _decode_table(
    endpoint: _PriceEndpoint, body: bytes, curve_id: str, tenor: str | None = None
) -> pyarrow.Table:
    """Decode the JSON body of a price endpoint into a table of the design's schema.

    ``tenor`` is the tenor of the request path, used for records that leave it
    out. A body that does not follow the interface raises
    :class:`~marketcurves.exceptions.DecodeError` naming the endpoint and field.
    """

@final
class EmulatorServer:
    """The service emulator, serving on loopback from the shared runtime: the
    emulator crate's control API, one method each under the same names. Use
    :class:`marketcurves.testing.Emulator`, which wraps it. Bad values raise
    ``InvalidRequest``."""

    def __new__(
        cls,
        seed: int = 0,
        time_scale: float = 1.0,
        start: datetime.datetime | None = None,
        port: int = 0,
        early_close: list[datetime.date] | None = None,
    ) -> EmulatorServer:
        """Starts serving; ``OSError`` if the port cannot be bound."""
    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v2``."""
    @property
    def live_url(self) -> str:
        """``ws://127.0.0.1:<port>``."""
    @property
    def credentials(self) -> Credentials:
        """The demo account's login."""
    def token(self, email: str | None = None) -> str:
        """A fresh token for an account (default: the demo account)."""
    def now(self) -> datetime.datetime:
        """The emulator's current time (UTC)."""
    def set_time(self, when: datetime.datetime) -> None:
        """Moves the clock to ``when``; it keeps its speed."""
    def advance(self, seconds: float) -> None:
        """Moves the clock by ``seconds`` (back, if negative)."""
    @property
    def time_scale(self) -> float:
        """Emulated seconds per real second; settable, 0 stops the clock."""
    @time_scale.setter
    def time_scale(self, time_scale: float) -> None: ...
    def fail_next(
        self,
        count: int = 1,
        status: int = 503,
        *,
        path: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        """The next ``count`` requests under ``path`` fail with ``status``."""
    def reset_next(self, count: int = 1, *, path: str | None = None) -> None:
        """The next ``count`` responses under ``path`` break off mid-body."""
    def corrupt_next(
        self,
        count: int = 1,
        *,
        path: str | None = None,
        kind: Literal["truncated", "malformed"] = "truncated",
    ) -> None:
        """The next ``count`` responses under ``path`` arrive whole but cut
        short (``"truncated"``) or as an HTML page (``"malformed"``)."""
    def set_latency(self, seconds: float) -> None:
        """Delays every response by ``seconds`` of real time (0 removes it)."""
    def clear_faults(self) -> None:
        """Removes every pending REST, bulk and live fault, and the latency."""
    def request_count(self, path: str | None = None) -> int:
        """REST requests received since the emulator started, every one counted
        (retries, failures and ``/authenticate`` included), only those whose
        path starts with ``path`` (with or without ``/v2``) when given."""
    def peak_in_flight(self, reset: bool = False) -> int:
        """The most REST requests in progress at once since the start or the
        last reset; ``reset`` starts again from those in progress."""
    def expire_tokens(self) -> None:
        """Every token issued so far stops working."""
    def revoke_licence(self, email: str | None = None, *, quotation: str | None = None) -> None:
        """Takes ``quotation`` (or everything) out of an account's licence."""
    def restore_licence(self, email: str | None = None) -> None:
        """Gives an account a licence for everything."""
    def fail_next_job(self, count: int = 1) -> None:
        """The next ``count`` bulk jobs end ``FAILED``."""
    def truncate_next_download(self, count: int = 1) -> None:
        """The next ``count`` bulk file downloads break off partway."""
    def expire_urls(self) -> None:
        """Every pre-signed URL issued so far expires now."""
    def malicious_paths(self, enabled: bool) -> None:
        """Whether bulk jobs also list files whose paths escape the destination."""
    def bulk_rows(self, vertical: str, month: str, *, email: str | None = None) -> int:
        """Rows of the bulk file of ``vertical`` (either spelling) and ``month``
        (``YYYY-MM``) for an account's quotation licence (default: the demo account)."""
    def add_curves(self, vertical: str, count: int) -> None:
        """Lists ``count`` more curves in ``vertical`` (either spelling), which
        also makes its bulk files bigger."""
    def revoke_live(self, email: str | None = None) -> None:
        """Takes the live feed out of an account's licence (default: the demo account)."""
    def drop_live_connections(self) -> None:
        """Ends every live connection abruptly, with no close frame."""
    def restart_feed(self) -> None:
        """Closes every live connection with code 1012, as the weekly restart does."""
    def fail_next_auth(self, count: int = 1) -> None:
        """The next ``count`` live auth commands answer ``auth-failed``."""
    def fail_next_live_command(self, count: int = 1) -> None:
        """The next ``count`` commands of authenticated live connections answer
        ``UNEXPECTED_ERROR`` and are not carried out."""
    def answer_pings(self, enabled: bool) -> None:
        """Whether live pings get their pong."""
    def silence_live(self, enabled: bool) -> None:
        """Whether the live feed writes nothing to its connections."""
    def firehose(self, enabled: bool) -> None:
        """Whether the live feed sends synthetic values as fast as readers take them."""
    @property
    def live_connections(self) -> int:
        """How many live connections are open."""
    def published(
        self,
        curve_id: str,
        tenor: str,
        start: datetime.datetime | None = None,
        end: datetime.datetime | None = None,
    ) -> list[tuple[datetime.datetime, float]]:
        """``(generated_on, price)`` of the values the live feed published for
        a curve and tenor from ``start`` to ``end``, both included (default:
        the start of the emulator's UTC day to now)."""
    @property
    def running(self) -> bool:
        """False once stopped."""
    def stop(self) -> None:
        """Stops the server; open connections get up to 2 s to finish."""

_T = TypeVar("_T")

@final
class Call(Generic[_T]):
    """One call of the core, made by its binding, run once in either form:
    :meth:`wait` blocks; ``await call`` runs it on the event loop. Nothing
    happens until then; bad arguments and a closed client raise when the
    call is made."""

    def wait(self, progress: Callable[..., object] | None = None) -> _T:
        """Runs the call to its end with the GIL released; Ctrl-C cancels it
        and raises ``KeyboardInterrupt``. ``progress`` is called with the
        call's counts every 0.1 s and at the end: ``(done, total)`` requests,
        or a bulk download's ``(phase, bytes done, bytes in all)``."""
    def __await__(self) -> Generator[Any, None, _T]:
        """The call on the running event loop; cancelling it cancels the call."""

class _CurveRow(TypedDict):
    """A curve of the catalogue, as the core gives it: ``marketcurves.Curve``
    is made from it (a field the service left out is None, or empty)."""

    id: str | None
    name: str | None
    quotation: str | None
    units: str | None
    filters: dict[str, str]
    properties: dict[str, str]
    contracts: list[str]

@final
class CoreClient:
    """The core of a :class:`marketcurves.Client`: its connection pool, token,
    network settings and history cache, and the handle that its REST, bulk,
    live and record calls all take. Use :class:`marketcurves.Client`, which
    checks the arguments and reads the environment.

    The proxies of the environment (``HTTPS_PROXY``, ``HTTP_PROXY``,
    ``ALL_PROXY``, ``NO_PROXY``) and the trusted certificates (the system's,
    plus those of the PEM file ``ca_bundle`` and of ``$SSL_CERT_FILE``) are
    read here, once; the live feeds opened with this client use them too. A
    bad proxy variable or certificate file raises ``InvalidRequest``.

    Each request method returns a :class:`Call`, waited for by a blocking
    method of :class:`marketcurves.Client` and awaited by its twin. Once
    closed, every method (and every call in flight) raises
    :class:`~marketcurves.exceptions.ClientClosed`.
    """

    def __new__(cls, base_url: str, options: ClientOptions) -> CoreClient: ...
    def close(self) -> None:
        """Ends every call in flight and every live feed of this client with
        ``ClientClosed``, and waits for them to let go of it (its connection
        pool goes with the last). Idempotent."""
    def close_async(self) -> Awaitable[None]:
        """The awaitable form of :meth:`close`."""
    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
    def catalogue(self, request: CatalogueRequest) -> Call[list[_CurveRow]]: ...
    def last_settlement(self, curve_id: str, tenor: str | None = None) -> Call[pyarrow.Table]: ...
    def last_assessments(self, curve_id: str, tenor: str | None = None) -> Call[pyarrow.Table]: ...
    def intraday(
        self, curve_id: str, tenor: str, max_requests: int | None = None
    ) -> Call[pyarrow.Table]: ...
    def settlements(self, request: HistoryRequest) -> Call[pyarrow.Table]: ...
    def intraday_history(self, request: HistoryRequest) -> Call[pyarrow.Table]: ...
    def cache_info(self) -> Call[CacheInfo]:
        """What the cache holds for this client's service and account."""
    def name_curves(self, table: pyarrow.Table) -> Call[pyarrow.Table]: ...
    def clear_cache(
        self, curve_id: str | None = None, before: datetime.date | None = None
    ) -> Call[Cleared]:
        """Removes cached history of a curve (or all) before a day (or all)."""

BULK_POLL_INTERVAL: float
"""Seconds between a bulk job's first status requests, by default."""
BULK_TIMEOUT: float
"""Seconds a bulk job may run before the wait gives up, by default."""
MAX_RESPONSE_BYTES: int
"""The longest REST response body a client takes in, by default, in bytes."""
LIVE_QUEUE_SIZE: int
"""Ticks waiting for a slow live consumer before the queue conflates, by default."""
LIVE_PING_INTERVAL: float
"""Seconds of quiet on the live feed before a keep-alive ping, by default."""
LIVE_PONG_TIMEOUT: float
"""Seconds a live ping may wait for its pong, by default."""
LIVE_RECONNECT_MAX: float
"""The longest wait between live reconnection attempts, by default, in seconds."""
LIVE_BATCH_ROWS: int
"""Rows of a live batch, by default."""
LIVE_BATCH_TIMEOUT: float
"""Seconds a live batch waits for more rows after its first, by default."""
RECORD_ROTATE: str
"""A recorder's file is closed this long after its first tick, by default."""
RECORD_ROTATE_ROWS: int
"""Ticks in one recorder's file at most, by default."""
RECORD_HOLD_LIMIT: int
"""Ticks a recorder holds unwritten before it stops, by default."""

@final
class SubmittedJob:
    """A submitted bulk job: its id and month ranges, without its URLs."""

    @property
    def job_id(self) -> str: ...
    @property
    def requested(self) -> tuple[str, str]: ...
    @property
    def effective(self) -> tuple[str, str]:
        """The range the service granted: the request narrowed to the account's permissions."""
    @property
    def narrowed(self) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class BulkResult:
    """What a bulk download produced (``marketcurves.BulkResult``), returned
    by :meth:`marketcurves.Client.bulk_download` and
    :meth:`marketcurves.BulkJob.download`.

    Examples:
        >>> result = client.bulk_download("Jet", "2025-01", "2025-02", "bulk", progress=False)
        >>> result.effective, len(result.files), result.jobs, result.narrowed
        (('2025-01', '2025-02'), 2, 1, False)
    """

    @property
    def job_id(self) -> str:
        """The service's id of the job that made the files (the last one,
        if it was run again)."""
    @property
    def files(self) -> tuple[Path, ...]:
        """The files of a download into a local folder (empty for a store)."""
    @property
    def objects(self) -> tuple[str, ...]:
        """The objects' URLs of a download into an object store (empty for a folder)."""
    @property
    def bytes(self) -> int:
        """Bytes transferred by this run; files already complete are not fetched again."""
    @property
    def rows(self) -> int:
        """Rows in all the files, from their Parquet footers."""
    @property
    def requested(self) -> tuple[str, str]:
        """The months asked for, ``("YYYY-MM", "YYYY-MM")``."""
    @property
    def effective(self) -> tuple[str, str]:
        """The months the service granted: the request narrowed to the
        account's permissions."""
    @property
    def elapsed(self) -> float:
        """Seconds from the start to the last byte."""
    @property
    def jobs(self) -> int:
        """Jobs submitted, counting resubmissions after FAILED or expired URLs."""
    @property
    def narrowed(self) -> bool:
        """Whether the service narrowed the requested range."""
    @property
    def months_without_files(self) -> list[str]:
        """Months of the effective range (``YYYY-MM``) for which the job
        listed no file; a download warns of them."""
    def _repr_html_(self) -> str:
        """Jupyter's view: the job, its months, files, rows and bytes."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def bulk_submit(client: CoreClient, vertical: str, start: str, end: str) -> Call[SubmittedJob]:
    """Submits a bulk job."""

def bulk_status(client: CoreClient, job_id: str) -> Call[str]:
    """RUNNING, SUCCEEDED or FAILED (or another state the service reports)."""

def bulk_wait(
    client: CoreClient, job_id: str, poll_interval: float, timeout: float | None
) -> Call[None]:
    """Polls until the job ends; FAILED or the timeout raise BulkJobFailed."""

def bulk_download_job(
    client: CoreClient,
    job: SubmittedJob,
    dest: str | tuple[Any, str],
    storage_options: dict[str, str] | None = None,
) -> Call[BulkResult]:
    """Waits for a submitted job, then downloads its files into dest;
    progress is (phase, bytes done, bytes in all)."""

def bulk_download(client: CoreClient, options: BulkDownloadOptions) -> Call[BulkResult]:
    """Submit, wait, download, verify; a FAILED job is submitted again and
    expired URLs are renewed by running the job again."""

_Factor = float | str

_Holidays = list[datetime.date] | Literal["data"]

_Factors = tuple[_Factor | None, dict[str, _Factor]]
"""One leg's factors: one for every curve, and one per curve id."""

def curves_rolling(
    table: object,
    roll: tuple[str, list[int], int],
    log: bool,
    adjust: str,
    holidays: _Holidays,
) -> pyarrow.Table:
    """Each nearby position's price (or, with ``log``, its tenor) per curve
    and time, rolled (``roll``: the kind, the nearby positions, the roll
    days) in the business days of ``holidays`` and back-adjusted as
    ``adjust`` says; see :func:`marketcurves.curves.rolling`."""

def curves_spread(
    table: object, near: str, far: str, roll_days: int, holidays: _Holidays
) -> pyarrow.Table:
    """Near minus far per curve and time; see :func:`marketcurves.curves.spread`."""

def curves_crack(
    product: object,
    crude: object,
    units: str,
    factors_of_product: _Factors,
    factors_of_crude: _Factors,
) -> pyarrow.Table:
    """Product minus crude per tenor and time; see :func:`marketcurves.curves.crack`."""

def curves_convert(table: object, to: str, factors_of: _Factors) -> pyarrow.Table:
    """The table with its prices in ``to``; see :func:`marketcurves.curves.convert`."""

def curves_matrix(table: object, values: str) -> pyarrow.Table:
    """One row per curve and time, one column per tenor; see
    :func:`marketcurves.curves.matrix`."""

def curves_as_of(table: object, at: str | list[datetime.datetime]) -> pyarrow.Table:
    """Each tenor's last value at or before each time, per curve; see
    :func:`marketcurves.curves.as_of`."""

def curves_build(table: object, method: str, weights: str, holidays: _Holidays) -> pyarrow.Table:
    """A daily forward curve per curve and time, from its contracts; see
    :func:`marketcurves.curves.build`."""

def curves_residuals(
    table: object, built: object, weights: str, holidays: _Holidays
) -> pyarrow.Table:
    """Each contract row's price against the built curve's mean over its
    days; see :func:`marketcurves.curves.residuals`."""

def read_bulk(
    dest: str | tuple[Any, str],
    vertical: str | None = None,
    start: str | None = None,
    end: str | None = None,
    parse_json: bool = False,
    storage_options: dict[str, str] | None = None,
) -> Call[pyarrow.Table]:
    """Reads a downloaded bulk dataset (a local folder or an object store
    URL) with the partition columns added."""

class _RecordCounts(TypedDict):
    """``marketcurves.RecordSummary``'s fields."""

    ticks_written: int
    files_written: int
    backfilled: int
    reconnects: int
    restarts: int
    write_failures: int
    compacted_days: int
    unwritten: int

@final
class Recorder:
    """A recorder of the live feed into ``dest``, its arguments checked
    before anything connects; it runs once."""

    def __new__(cls, client: CoreClient, live_url: str, options: RecordOptions) -> Recorder: ...
    def run(self) -> _RecordCounts:
        """Records until Ctrl-C or ``duration`` seconds, then writes what it
        holds and returns what it did."""
    def run_async(self) -> Awaitable[_RecordCounts]:
        """The awaitable form of :meth:`run`; cancelling it stops the recorder."""

def read_ticks(
    dest: str | tuple[Any, str],
    curve_id: str | None = None,
    tenor: str | None = None,
    start: datetime.datetime | None = None,
    end: datetime.datetime | None = None,
    storage_options: dict[str, str] | None = None,
) -> Call[pyarrow.Table]:
    """A recording as one table sorted by curve, tenor and time."""

def check_lake(
    dest: str | tuple[Any, str],
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    storage_options: dict[str, str] | None = None,
) -> Call[dict[str, Any]]:
    """A lake's check, as ``marketcurves.lake.LakeReport``'s fields."""

def compact_recording(
    dest: str | tuple[Any, str],
    before: datetime.date,
    storage_options: dict[str, str] | None = None,
) -> Call[list[CompactedDay]]:
    """Compacts the days of a recording before ``before``, each into one file."""

class _BackfillCounts(TypedDict):
    """``marketcurves.BackfillSummary``'s fields."""

    tasks: int
    requests: int
    values: int
    days_complete: int
    days_skipped: int
    files_written: int
    set_aside: list[str]
    empty: list[tuple[str, str, datetime.date, datetime.date]]

class _BackfillTask(TypedDict):
    """One curve's tenors over at most 30 days: a task of a plan."""

    curve_id: str
    tenors: list[str]
    start: datetime.date
    end: datetime.date

def backfill(client: CoreClient, options: BackfillOptions) -> Call[_BackfillCounts]:
    """Plans and runs a backfill on this machine; progress is ``(done, total)`` requests."""

def backfill_plan(client: CoreClient, options: BackfillOptions) -> tuple[list[_BackfillTask], int]:
    """A backfill's tasks, and the days of a tenor the lake already holds complete."""

@final
class BackfillLock:
    """A destination's backfill lock, held while a cluster's workers write."""

    def release(self) -> None:
        """Lets go of the lock at once."""

def backfill_lock(
    dest: str | tuple[Any, str], storage_options: dict[str, str] | None = None
) -> BackfillLock:
    """Takes ``dest``'s backfill lock, or raises ``DestinationError`` naming its holder."""

def secret_storage_options(scheme: str, options: dict[str, str]) -> list[str]:
    """The keys of ``options`` whose value is a secret for a store of ``scheme``
    (``s3``, ``gs``, ``az``, …), by any alias object_store takes."""

def backfill_task(
    client: CoreClient,
    dest: str | tuple[Any, str],
    task: _BackfillTask,
    storage_options: dict[str, str] | None = None,
) -> _BackfillCounts:
    """Runs one task of a plan into ``dest`` (on a worker); what it did."""

@final
class Tick:
    """One price from the live feed (``marketcurves.Tick``): what iterating
    a :class:`~marketcurves.LiveFeed` gives, and what ``on_price`` is
    called with.

    Examples:
        >>> with client.live() as feed:
        ...     feed.subscribe(curve, "Feb 26")
        ...     tick = feed.next(timeout=10)
        >>> tick.tenor, tick.source
        ('Feb 26', 'snapshot')
        >>> tick.generated_on
        datetime.datetime(2026, 1, 15, ..., tzinfo=datetime.timezone.utc)
    """

    @property
    def curve_id(self) -> str:
        """The curve's id."""
    @property
    def tenor(self) -> str:
        """The tenor's name."""
    @property
    def generated_on(self) -> datetime.datetime:
        """When the value was published (UTC): milliseconds from the feed,
        microseconds from the intraday endpoints for backfilled values."""
    @property
    def price(self) -> float:
        """The price, in the curve's units."""
    @property
    def source(self) -> Literal["snapshot", "update", "backfill"]:
        """``snapshot`` (the latest value, sent when a subscription is made
        or renewed), ``update`` (a value as it is published) or
        ``backfill`` (fetched from the intraday endpoints after a
        reconnect)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class LiveFeed:
    """The live feed's core. Use :meth:`marketcurves.Client.live`, which wraps it.

    The defaults (``...`` here) are the core's: ``LiveConfig::DEFAULT_*`` of
    ``crates/live/src/config.rs``, and ``CHUNK``, ``DEFAULT_BATCH_ROWS``
    and ``DEFAULT_BATCH_TIMEOUT`` of ``crates/client/src/live/reader.rs``. The
    core checks the values, raising ``InvalidRequest`` that names the argument.
    """

    def __new__(
        cls,
        client: CoreClient,
        live_url: str,
        options: LiveOptions,
    ) -> LiveFeed: ...
    @staticmethod
    def replay(client: CoreClient, options: ReplayOptions) -> LiveFeed:
        """A replay behind a feed's handle: of a lake (``source``), or of the
        service's historical intraday endpoint (``source`` None)."""
    def now(self, unread: int = 0) -> datetime.datetime | None:
        """A replay's current time, the last ``unread`` ticks of the last
        ``take`` not handed out; None for the live feed."""
    def give_back(self, unread: int) -> None:
        """A replay takes back the last ``unread`` ticks of the last ``take``
        (the caller drops them) and any it held for later reads: a
        subscription change then takes effect at the last value handed out.
        No-op on the live feed."""
    def subscribe(self, curve_id: str, tenor: str, strict: bool = True) -> Call[None]:
        """Subscribes; the call ends once the service has taken the
        subscription. With ``strict``, the curve and tenor must be listed in
        the catalogue."""
    def unsubscribe(self, curve_id: str, tenor: str) -> Call[None]: ...
    def next(self, timeout: float | None = None) -> Call[Tick | None]:
        """The next tick, or None if ``timeout`` seconds pass first or the feed
        is closed. Ticks come from the queue a chunk at a time; the rest wait
        in the core for the next reads. Waited for, a read whose ticks are
        there already is answered without a task."""
    def take(self, max: int = ..., timeout: float | None = None) -> Call[list[Tick]]:
        """Up to ``max`` ticks (default: the core's chunk), waiting up to
        ``timeout`` seconds (None: until one arrives); an empty list when the
        time passes or the feed is closed."""
    def next_batch(
        self, max_rows: int = ..., timeout: float | None = ...
    ) -> Call[pyarrow.RecordBatch | None]:
        """Up to ``max_rows`` ticks as a record batch, returned when full or
        ``timeout`` seconds (> 0; None: only when full) after its first row;
        None once closed and drained. Rows gathered before an error are
        returned first and the error raised by the next read; Ctrl-C
        interrupts at once, and the rows gathered go back to the next read.
        Its schema's metadata names every curve subscribed to so far under
        ``marketcurves.curves``."""
    def ticks_batch(self, ticks: list[Tick]) -> pyarrow.RecordBatch:
        """Ticks as a batch of the feed's, built as ``next_batch``'s are and
        naming the feed's curves."""
    def events(self) -> list[FeedEvent]:
        """Events since the last call, oldest first, each a dict whose ``kind``
        says what happened:

        - ``connected``: authenticated; ``attempt``, the failed tries before;
        - ``disconnected``: the connection was lost; ``reason``;
        - ``reconnected``: connected again; ``downtime`` (seconds), ``attempts``;
        - ``gap_filled``: a backfill delivered values a disconnection had kept
          from the feed; ``curve_id``, ``tenor``, ``count``, and ``start`` and
          ``end``, when the first and last of them were published (UTC);
        - ``conflated``: the consumer is slow; ``count`` values replaced by
          newer ones of their tenor since the last such event;
        - ``error``: a failure the feed carries on after; ``message``.

        The core keeps the latest events in one bounded buffer: unread ones
        past its size are dropped, oldest first (every event is logged)."""
    def stats(self) -> FeedStats:
        """Counters: ``messages``, ``ticks_delivered``, ``reconnects``,
        ``gaps_filled``, ``backfilled``, ``backfill_requests``,
        ``backfill_failures``, ``gaps_skipped``, ``conflated``,
        ``duplicates_dropped``, ``last_message``, ``subscriptions``,
        ``connected``, ``queued``."""
    def subscriptions(self) -> list[tuple[str, str]]: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None:
        """Stops the feed, leaving no task, timer or socket behind."""
    def close_async(self) -> Awaitable[None]: ...
