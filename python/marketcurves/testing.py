"""An emulator of the whole market curve service, for tests and offline work.

>>> from marketcurves.testing import Emulator
>>> with Emulator(seed=0) as emulator:
...     url = emulator.base_url          # http://127.0.0.1:<port>/v2
...     token = emulator.token()         # a JWT of the demo account

The emulator runs in this process on a loopback port. Its world is a pure
function of ``seed``: the same seed gives the same catalogue and prices. Its
clock reads real time unless ``start`` and ``time_scale`` say otherwise.
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypedDict

from marketcurves import _args, _core

if TYPE_CHECKING:
    import pyarrow

    from marketcurves.client import Client

__all__ = [
    "Credentials",
    "Emulator",
    "PublishedValue",
    "decode_table",
    "probe_live",
    "table_schema",
]


class Credentials(TypedDict):
    """A login for ``POST /authenticate``, or for :class:`marketcurves.Client`."""

    email: str
    password: str


class PublishedValue(NamedTuple):
    """One value the emulator's live feed published, with the microseconds
    the intraday endpoints carry (the feed prints ``generatedOn`` truncated
    to milliseconds)."""

    generated_on: _dt.datetime
    price: float


class Emulator:
    """The service on loopback, started at construction and stopped by
    :meth:`stop` or at the end of a ``with`` block.

    Args:
        seed: chooses the synthetic world (catalogue, prices).
        time_scale: emulated seconds per real second; 0 stops the clock.
        start: where the clock starts (naive times are UTC); default now.
        port: the port to listen on; 0 picks a free one.
        early_close: days whose snapshots are taken at 12:30 (13:30 in New
            York); default 24 and 31 December.

    Accounts: ``credentials`` (the demo account) is licensed for every
    quotation except ``Sales``, and for bulk download from 2024-03 on;
    ``full@marketcurves.test`` with password ``full-password`` for everything;
    ``rest-only@marketcurves.test`` with password ``rest-only-password`` for
    every quotation over REST and bulk download, but not for the live feed.

    Bulk jobs run on the emulator's clock (2 s plus 0.5 s per month requested)
    and list URLs served by the emulator itself under ``/files``, valid for an
    hour after the job succeeded.

    The live feed (``live_url`` + ``/v2/customer/socket/websocket``) publishes
    the intraday values the REST endpoints serve, as the clock passes them;
    its timers (60 s idle drop, 3 minutes without a subscription, the Sunday
    12:00 UTC restart) run on the emulator's clock too.

    Every control checks its values (a count of at least 1, an HTTP status, a
    known account...) and raises :class:`marketcurves.InvalidRequest` naming
    the argument; Rust code gets the same controls from
    ``emulator::Controls``.
    """

    def __init__(
        self,
        seed: int = 0,
        time_scale: float = 1.0,
        *,
        start: _dt.datetime | str | None = None,
        port: int = 0,
        early_close: list[_dt.date] | None = None,
    ) -> None:
        self._server = _core.EmulatorServer(
            seed=seed,
            time_scale=time_scale,
            start=_args.optional_instant(start, "start"),
            port=port,
            early_close=early_close,
        )

    def __enter__(self) -> Emulator:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self._server.running else "stopped"
        return f"Emulator(base_url={self.base_url!r}, {state})"

    @property
    def base_url(self) -> str:
        """The REST base address, ending in ``/v2``."""
        return self._server.base_url

    @property
    def live_url(self) -> str:
        """The live feed base address (``ws://127.0.0.1:<port>``)."""
        return self._server.live_url

    @property
    def credentials(self) -> Credentials:
        """``{"email", "password"}`` of the demo account, for ``POST /authenticate``."""
        return self._server.credentials

    def token(self, email: str | None = None) -> str:
        """A fresh JWT (valid 12 hours on the emulator's clock) for an account,
        by default the demo account."""
        return self._server.token(email)

    def client(self, **kwargs: Any) -> Client:
        """A :class:`marketcurves.Client` of this emulator, logged in as the demo
        account unless ``kwargs`` bring other credentials."""
        from marketcurves.client import Client

        kwargs.setdefault("base_url", self.base_url)
        kwargs.setdefault("live_url", self.live_url)
        if not {"token", "token_provider", "email", "password"} & kwargs.keys():
            kwargs.update(self.credentials)
        return Client(**kwargs)

    # The clock.

    def now(self) -> _dt.datetime:
        """The emulator's current time (UTC)."""
        return self._server.now()

    def set_time(self, when: _dt.datetime | str) -> None:
        """Moves the clock to ``when``; it keeps its speed."""
        self._server.set_time(_args.instant(when, "when"))

    def advance(self, seconds: float) -> None:
        """Moves the clock forward by ``seconds`` (back, if negative)."""
        self._server.advance(seconds)

    @property
    def time_scale(self) -> float:
        """Emulated seconds per real second."""
        return self._server.time_scale

    @time_scale.setter
    def time_scale(self, value: float) -> None:
        self._server.time_scale = value

    # Faults.

    def fail_next(
        self,
        count: int = 1,
        status: int = 503,
        *,
        path: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        """The next ``count`` requests (whose path starts with ``path``, with or
        without ``/v2``) fail with ``status``, with a ``Retry-After`` header if given."""
        self._server.fail_next(count, status, path=path, retry_after=retry_after)

    def reset_next(self, count: int = 1, *, path: str | None = None) -> None:
        """The next ``count`` matching responses break off halfway through the body."""
        self._server.reset_next(count, path=path)

    def corrupt_next(
        self,
        count: int = 1,
        *,
        path: str | None = None,
        kind: Literal["truncated", "malformed"] = "truncated",
    ) -> None:
        """The next ``count`` matching responses arrive whole, with their status,
        but with a body that is not the JSON the route made: ``"truncated"``
        sends its first half, ``"malformed"`` an HTML page in its place (as a
        proxy's error page)."""
        self._server.corrupt_next(count, path=path, kind=kind)

    def set_latency(self, seconds: float) -> None:
        """Delays every response by ``seconds`` of real time (0 removes it)."""
        self._server.set_latency(seconds)

    def clear_faults(self) -> None:
        """Removes pending failures, resets and latency, the bulk faults
        (failing jobs, truncated downloads, malicious paths) and the live
        faults (failing auths and commands, unanswered pings, silence, the
        firehose)."""
        self._server.clear_faults()

    def request_count(self, path: str | None = None) -> int:
        """REST requests received since the emulator started, every one
        counted (retries, failures and ``/authenticate`` included), only those
        whose path starts with ``path`` (with or without ``/v2``) when given.
        The live feed's WebSocket upgrade is not counted. Take differences:
        the count is never reset."""
        return self._server.request_count(path)

    def peak_in_flight(self, reset: bool = False) -> int:
        """The most REST requests in progress at once (from their arrival to
        their answer, :meth:`set_latency`'s delay included) since the emulator
        started or the last reset, to test a client's concurrency bound. With
        ``reset``, returns that peak and starts counting again from the
        requests in progress now."""
        return self._server.peak_in_flight(reset)

    def expire_tokens(self) -> None:
        """Every token issued so far stops working (401 on the next request;
        403 on the bulk download endpoints)."""
        self._server.expire_tokens()

    def revoke_licence(self, email: str | None = None, *, quotation: str | None = None) -> None:
        """Takes ``quotation`` (or, if None, everything) out of an account's licence."""
        self._server.revoke_licence(email, quotation=quotation)

    def restore_licence(self, email: str | None = None) -> None:
        """Gives an account a licence for everything."""
        self._server.restore_licence(email)

    # Bulk download.

    def fail_next_job(self, count: int = 1) -> None:
        """The next ``count`` bulk jobs submitted end ``FAILED`` instead of
        ``SUCCEEDED`` (after running as long as they would have)."""
        self._server.fail_next_job(count)

    def truncate_next_download(self, count: int = 1) -> None:
        """The next ``count`` bulk file downloads send their headers and part
        of the body, then break the connection."""
        self._server.truncate_next_download(count)

    def expire_urls(self) -> None:
        """Every pre-signed URL issued so far (by jobs that have succeeded)
        expires now: downloads get 403 and the job must be run again."""
        self._server.expire_urls()

    def malicious_paths(self, enabled: bool) -> None:
        """While on, bulk jobs submitted also list files whose ``path`` is
        ``../../x`` and ``/etc/x`` (with working URLs), to test that a client
        never writes outside its destination."""
        self._server.malicious_paths(enabled)

    def bulk_rows(self, vertical: str, month: str, *, email: str | None = None) -> int:
        """How many rows the bulk file of ``vertical`` (``JET`` or ``Jet``) and
        ``month`` (``YYYY-MM``) holds for an account's quotation licence (by
        default the demo account's): one per end-of-day London snapshot of
        every licensed curve of the vertical, for every tenor it offered that
        day, over the month's business days. The month is not checked against
        the account's bulk licence start."""
        return self._server.bulk_rows(vertical, month, email=email)

    def add_curves(self, vertical: str, count: int) -> None:
        """Lists ``count`` more curves in ``vertical`` (``CRUDE`` or
        ``Crude``), after the others, as a service lists new quotations:
        variants of the vertical's quotations and regions, taken in turn,
        each with its own id, name (ending ``#<n>``), grade, ports and prices,
        served like every curve by the catalogue, the history, the live feed
        and bulk downloads.

        Bulk files hold every curve of their vertical, so this is how to get
        big ones that are still what the interface describes (one file per
        vertical and month, one row per snapshot): a month grows by 40 to
        45 kB per curve added, so ``add_curves("CRUDE", 5500)`` makes a
        month of ``CRUDE`` over 200 MB. Jobs submitted before keep the
        catalogue they were submitted with. The catalogue holds at most
        100,000 curves; each costs about 2.5 kB of the emulator's memory."""
        self._server.add_curves(vertical, count)

    # The live feed.

    def revoke_live(self, email: str | None = None) -> None:
        """Takes the live feed out of an account's licence (by default the demo
        account's): its later subscriptions get ``NO_ACCESS``; subscriptions
        already made go on. :meth:`restore_licence` gives it back."""
        self._server.revoke_live(email)

    def drop_live_connections(self) -> None:
        """Ends every live connection abruptly: the TCP connection closes with
        no close frame, so clients see code 1006."""
        self._server.drop_live_connections()

    def restart_feed(self) -> None:
        """Disconnects every live client as the weekly restart (Sundays 12:00
        UTC) does: a close frame with code 1012, "service restart"."""
        self._server.restart_feed()

    def fail_next_auth(self, count: int = 1) -> None:
        """The next ``count`` live ``auth`` commands answer ``auth-failed``,
        whatever the token."""
        self._server.fail_next_auth(count)

    def fail_next_live_command(self, count: int = 1) -> None:
        """The next ``count`` valid commands of authenticated live connections
        answer ``UNEXPECTED_ERROR`` and are not carried out."""
        self._server.fail_next_live_command(count)

    def answer_pings(self, enabled: bool) -> None:
        """While off, live ``ping`` commands get no ``pong`` (they still count
        as activity for the 60-second idle timer), to test a client's watchdog."""
        self._server.answer_pings(enabled)

    def silence_live(self, enabled: bool) -> None:
        """While on, live connections stay open but the feed writes nothing to
        them: no prices, no pongs, no answer to ``auth`` (as a connection
        that died on the way without either end seeing it). Values published
        meanwhile are lost to those connections and kept in the intraday
        history. Close frames (a restart) still go out."""
        self._server.silence_live(enabled)

    def firehose(self, enabled: bool) -> None:
        """For benchmarks: while on, every live connection gets synthetic values
        of each subscribed tenor as fast as it reads them, ignoring the world's
        schedule. Each value of a tenor is strictly later than the last
        (``generatedOn`` is the clock's time or 1 ms after the previous value,
        whichever is later), prices vary, and a slow reader still gets only
        the latest value per tenor. These values are not in the intraday
        history, so a client's backfill finds nothing for them: benchmark with
        backfill off. The world's values resume, after the last synthetic one,
        once it is off."""
        self._server.firehose(enabled)

    @property
    def live_connections(self) -> int:
        """How many live connections are open (to test that clients close them)."""
        return self._server.live_connections

    def published(
        self,
        curve_id: str,
        tenor: str,
        start: _dt.datetime | str | None = None,
        end: _dt.datetime | str | None = None,
    ) -> list[PublishedValue]:
        """Every value the live feed published for a curve and tenor, oldest
        first, as :class:`PublishedValue` ``(generated_on, price)`` tuples with
        ``generated_on`` at microsecond
        precision as the intraday endpoints carry it (the feed prints it
        truncated to milliseconds). From ``start`` to ``end``, both included;
        by default from the start of the emulator's current UTC day to now.
        Firehose values are not included."""
        start, end = _args.optional_instant(start, "start"), _args.optional_instant(end, "end")
        values = self._server.published(curve_id, tenor, start, end)
        return [PublishedValue(*value) for value in values]

    def stop(self) -> None:
        """Stops the server. Calling it again does nothing."""
        self._server.stop()


def probe_live(
    live_url: str,
    token: str,
    subscriptions: list[tuple[str, str]],
    seconds: float,
    *,
    decode: bool = False,
) -> float:
    """Frames per second that a Rust reader which only counts them gets from
    the live feed at ``live_url``, subscribed to ``(curve_id, tenor)`` pairs,
    over ``seconds``: the feed's own limit, for benchmarks.

    With ``decode=True`` the reader also reads every frame with the client's
    own frame reader (and raises ``mc.InvalidRequest`` on one it refuses):
    the most a client that decodes each price, with nothing behind it, gets.

    The probe is test code, built only for benchmarks (the cargo feature
    ``probe``): a wheel without it raises ``RuntimeError`` saying how to
    build one with it."""
    probe = getattr(_core, "_probe_live", None)
    if probe is None:
        raise RuntimeError(
            "this build of marketcurves has no live probe, which only benchmarks "
            "use: build one with `maturin build --profile release-fast "
            "--features python,probe`"
        )
    rate: float = probe(live_url, token, subscriptions, seconds, decode=decode)
    return rate


def table_schema(kind: str) -> pyarrow.Schema:
    """The schema of a table kind: ``prices`` (last settlement, intraday),
    ``settlements`` (adds ``date``), ``assessments`` (adds ``snapshot``) or
    ``live``; for checking what a client returns."""
    return _core._table_schema(kind)  # type: ignore[arg-type]


def decode_table(
    endpoint: str, body: bytes, curve_id: str, tenor: str | None = None
) -> pyarrow.Table:
    """Decodes the JSON body of a price endpoint (``settlements``,
    ``intraday``, ``last_assessments_all``, …) into a table of the package's
    schema, as the client does; ``tenor`` is that of the request path. A body
    that does not follow the interface raises ``mc.DecodeError`` naming the
    endpoint and field."""
    return _core._decode_table(endpoint, body, curve_id, tenor)  # type: ignore[arg-type]
