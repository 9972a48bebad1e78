"""An emulator of the whole market curve service, for tests and offline work.

>>> from marketcurves.testing import Emulator
>>> with Emulator(seed=0) as emulator:
...     url = emulator.base_url          # http://127.0.0.1:<port>/v2
...     token = emulator.token()         # a JWT of the demo account

The emulator runs in this process on a loopback port. Its world is a pure
function of ``seed``: the same seed gives the same catalogue and prices. Its
clock reads real time unless ``start`` and ``time_scale`` say otherwise.
See [Testing with the emulator](../testing.md).
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypedDict

from marketcurves import _args, _core, _deprecation

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

#: Emulated seconds of quiet after which a feed made with
#: :meth:`Emulator.keepalive` pings: a third of the feed's 60 s idle limit.
_KEEPALIVE_SECONDS = 20.0


class Credentials(TypedDict):
    """A login for ``POST /authenticate``, or for :class:`marketcurves.Client`."""

    email: str
    """The account's email."""
    password: str
    """Its password."""


class PublishedValue(NamedTuple):
    """One value the emulator's live feed published, with the microseconds
    the intraday endpoints carry (the feed prints ``generatedOn`` truncated
    to milliseconds)."""

    generated_on: _dt.datetime
    """When it was published (UTC), to the microsecond."""
    price: float
    """The price."""


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

    Raises:
        InvalidRequest: a malformed argument.
        OSError: the port is taken.

    Examples:
        >>> with Emulator(seed=0, time_scale=0, start="2026-01-15T17:00:00Z") as emulator:
        ...     with emulator.client() as client:
        ...         client.catalogue(vertical="Jet", quotation="Fob")[0].name
        'Jet Fob AG'
    """

    @_deprecation.positional_options("seed", "time_scale")
    def __init__(
        self,
        *,
        seed: int = 0,
        time_scale: float = 1.0,
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
        """A fresh JWT for an account, valid 12 hours on the emulator's clock:
        for ``token=`` or ``MARKETCURVES_TOKEN``.

        Args:
            email: the account; None for the demo account.

        Returns:
            The token.

        Examples:
            >>> with Emulator(time_scale=0) as emulator:
            ...     token = emulator.token("full@marketcurves.test")
            ...     with mc.Client(base_url=emulator.base_url, token=token) as client:
            ...         len(client.catalogue())
            233
        """
        return self._server.token(email)

    def client(self, **kwargs: Any) -> Client:
        """A client of this emulator, with its ``base_url`` and ``live_url``.
        With a clock faster than real time, its live feeds and recorders
        need :meth:`keepalive`'s settings to keep their connections.

        Args:
            **kwargs: the client's arguments (as for
                :class:`marketcurves.Client`); without credentials, it logs
                in as the demo account.

        Returns:
            The client; close it when done.

        Raises:
            InvalidRequest: a malformed argument.

        Examples:
            >>> with Emulator(time_scale=0) as emulator, emulator.client(max_retries=0) as client:
            ...     client.base_url == emulator.base_url
            True
        """
        from marketcurves.client import Client

        kwargs.setdefault("base_url", self.base_url)
        kwargs.setdefault("live_url", self.live_url)
        if not {"token", "token_provider", "email", "password"} & kwargs.keys():
            kwargs.update(self.credentials)
        return Client(**kwargs)

    # The clock.

    def now(self) -> _dt.datetime:
        """The emulator's current time.

        Returns:
            The time, in UTC.

        Examples:
            >>> with Emulator(time_scale=0, start="2026-01-15T17:00:00Z") as emulator:
            ...     emulator.advance(90)
            ...     emulator.now()
            datetime.datetime(2026, 1, 15, 17, 1, 30, tzinfo=datetime.timezone.utc)
        """
        return self._server.now()

    def set_time(self, when: _dt.datetime | str) -> None:
        """Moves the clock; it keeps its speed.

        Args:
            when: the new time (a datetime or ISO text; naive times are UTC).

        Raises:
            InvalidRequest: a malformed time.

        Examples:
            >>> with Emulator(time_scale=0) as emulator:
            ...     emulator.set_time("2026-01-16T09:00")
            ...     emulator.now()
            datetime.datetime(2026, 1, 16, 9, 0, tzinfo=datetime.timezone.utc)
        """
        self._server.set_time(_args.instant(when, "when"))

    def advance(self, seconds: float) -> None:
        """Moves the clock forward; it keeps its speed.

        Args:
            seconds: how far (back, if negative).
        """
        self._server.advance(seconds)

    @property
    def time_scale(self) -> float:
        """Emulated seconds per real second."""
        return self._server.time_scale

    @time_scale.setter
    def time_scale(self, value: float) -> None:
        self._server.time_scale = value

    def keepalive(self) -> dict[str, float]:
        """The live feed's keep-alive for this emulator's clock, to pass to
        :meth:`Client.live <marketcurves.Client.live>` and
        :meth:`Client.record <marketcurves.Client.record>`.

        The feed drops a connection quiet for 60 seconds of the emulator's
        clock, as the service does. A clock 300 times real speed gets there
        in a fifth of a real second, long before the client's default ping
        (after 40 real seconds of quiet). This pings after 20 of the clock's
        seconds, a third of the limit, so that a busy machine's delays do
        not lose the connection. Ask again after changing :attr:`time_scale`.

        Returns:
            ``{"ping_interval": seconds}`` for a clock faster than real time;
            no setting (the defaults do) for a clock at real time or slower,
            or stopped.

        Examples:
            >>> with Emulator(time_scale=300) as emulator, emulator.client() as client:
            ...     emulator.keepalive()
            ...     with client.live(**emulator.keepalive()) as feed:
            ...         pass
            {'ping_interval': 0.06666666666666667}
            >>> with Emulator(time_scale=1) as emulator:
            ...     emulator.keepalive()
            {}
        """
        scale = self.time_scale
        if scale <= 1.0:
            return {}
        return {"ping_interval": _KEEPALIVE_SECONDS / scale}

    # Faults.

    def fail_next(
        self,
        count: int = 1,
        status: int = 503,
        *,
        path: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        """Makes the next requests fail, as a failing or busy service does.

        Args:
            count: how many requests fail.
            status: the HTTP status they get.
            path: only requests whose path starts with this (with or
                without ``/v2``); None for any.
            retry_after: seconds for a ``Retry-After`` header; None sends none.

        Raises:
            InvalidRequest: a count below 1 or a status that is not one.

        Examples:
            >>> with Emulator(time_scale=0) as emulator, emulator.client(max_retries=1) as client:
            ...     emulator.fail_next(2, 503, path="/catalogue")
            ...     client.catalogue()
            Traceback (most recent call last):
              ...
            marketcurves.exceptions.ServiceError: GET /catalogue: HTTP 503: ...
        """
        self._server.fail_next(count, status, path=path, retry_after=retry_after)

    def reset_next(self, count: int = 1, *, path: str | None = None) -> None:
        """Makes the next responses break off halfway through their body.

        Args:
            count: how many responses.
            path: only requests whose path starts with this (with or
                without ``/v2``); None for any.
        """
        self._server.reset_next(count, path=path)

    def corrupt_next(
        self,
        count: int = 1,
        *,
        path: str | None = None,
        kind: Literal["truncated", "malformed"] = "truncated",
    ) -> None:
        """Makes the next responses arrive whole, with their status, but with a
        body that is not the JSON the route made.

        Args:
            count: how many responses.
            path: only requests whose path starts with this (with or
                without ``/v2``); None for any.
            kind: ``"truncated"`` sends the body's first half,
                ``"malformed"`` an HTML page in its place (as a proxy's
                error page).
        """
        self._server.corrupt_next(count, path=path, kind=kind)

    def set_latency(self, seconds: float) -> None:
        """Delays every response, as a slow network does.

        Args:
            seconds: the delay, in real time; 0 removes it.
        """
        self._server.set_latency(seconds)

    def clear_faults(self) -> None:
        """Removes pending failures, resets and latency, the bulk faults
        (failing jobs, truncated downloads, malicious paths) and the live
        faults (failing auths and commands, unanswered pings, silence, the
        firehose)."""
        self._server.clear_faults()

    def request_count(self, path: str | None = None) -> int:
        """Counts the REST requests received since the emulator started:
        retries, failures and ``/authenticate`` included, the live feed's
        WebSocket upgrade not. Take differences: the count is never reset.

        Args:
            path: only requests whose path starts with this (with or
                without ``/v2``); None for every one.

        Returns:
            The count.

        Examples:
            >>> with Emulator(time_scale=0) as emulator, emulator.client() as client:
            ...     _ = client.catalogue(vertical="Jet")
            ...     emulator.request_count("/catalogue"), emulator.request_count("/authenticate")
            (1, 1)
        """
        return self._server.request_count(path)

    def peak_in_flight(self, reset: bool = False) -> int:
        """The most REST requests in progress at once (from their arrival to
        their answer, :meth:`set_latency`'s delay included) since the emulator
        started or the last reset, to test a client's concurrency bound.

        Args:
            reset: start counting again from the requests in progress now.

        Returns:
            The peak, before any reset.
        """
        return self._server.peak_in_flight(reset)

    def expire_tokens(self) -> None:
        """Every token issued so far stops working (401 on the next request;
        403 on the bulk download endpoints)."""
        self._server.expire_tokens()

    def revoke_licence(self, email: str | None = None, *, quotation: str | None = None) -> None:
        """Takes a quotation, or everything, out of an account's licence: its
        requests get 403 (:class:`~marketcurves.AccessDenied`).

        Args:
            email: the account; None for the demo account.
            quotation: the quotation (``"Fob"``...); None for everything.

        Raises:
            InvalidRequest: an account the emulator does not have.
        """
        self._server.revoke_licence(email, quotation=quotation)

    def restore_licence(self, email: str | None = None) -> None:
        """Gives an account a licence for everything.

        Args:
            email: the account; None for the demo account.

        Raises:
            InvalidRequest: an account the emulator does not have.
        """
        self._server.restore_licence(email)

    # Bulk download.

    def fail_next_job(self, count: int = 1) -> None:
        """Makes the next bulk jobs submitted end ``FAILED`` instead of
        ``SUCCEEDED`` (after running as long as they would have).

        Args:
            count: how many jobs.
        """
        self._server.fail_next_job(count)

    def truncate_next_download(self, count: int = 1) -> None:
        """Makes the next bulk file downloads send their headers and part of
        the body, then break the connection.

        Args:
            count: how many downloads.
        """
        self._server.truncate_next_download(count)

    def expire_urls(self) -> None:
        """Every pre-signed URL issued so far (by jobs that have succeeded)
        expires now: downloads get 403 and the job must be run again."""
        self._server.expire_urls()

    def malicious_paths(self, enabled: bool) -> None:
        """Makes bulk jobs list files outside any destination, to test that a
        client never writes there.

        Args:
            enabled: while on, jobs submitted also list files whose ``path``
                is ``../../x`` and ``/etc/x`` (with working URLs).
        """
        self._server.malicious_paths(enabled)

    def bulk_rows(self, vertical: str, month: str, *, email: str | None = None) -> int:
        """How many rows a bulk file holds for an account's quotation
        licence: one per end-of-day London snapshot of every licensed curve
        of the vertical, for every tenor it offered that day, over the
        month's business days. The month is not checked against the
        account's bulk licence start.

        Args:
            vertical: the vertical (``JET`` or ``Jet``).
            month: the month, ``"YYYY-MM"``.
            email: the account; None for the demo account.

        Returns:
            The rows.

        Raises:
            InvalidRequest: an unknown vertical or account, or a malformed month.

        Examples:
            >>> with Emulator(time_scale=0) as emulator:
            ...     emulator.bulk_rows("Jet", "2025-01")
            22972
        """
        return self._server.bulk_rows(vertical, month, email=email)

    def add_curves(self, vertical: str, count: int) -> None:
        """Lists more curves in a vertical, after the others, as a service
        lists new quotations: variants of the vertical's quotations and
        regions, taken in turn, each with its own id, name (ending ``#<n>``),
        grade, ports and prices, served like every curve by the catalogue,
        the history, the live feed and bulk downloads.

        Bulk files hold every curve of their vertical, so this is how to get
        big ones that are still what the interface describes (one file per
        vertical and month, one row per snapshot): a month grows by 40 to
        45 kB per curve added, so ``add_curves("CRUDE", 5500)`` makes a
        month of ``CRUDE`` over 200 MB. Jobs submitted before keep the
        catalogue they were submitted with. The catalogue holds at most
        100,000 curves; each costs about 2.5 kB of the emulator's memory.

        Args:
            vertical: the vertical (``CRUDE`` or ``Crude``).
            count: how many curves.

        Raises:
            InvalidRequest: an unknown vertical, or more curves than the
                catalogue holds.
        """
        self._server.add_curves(vertical, count)

    # The live feed.

    def revoke_live(self, email: str | None = None) -> None:
        """Takes the live feed out of an account's licence: its later
        subscriptions get ``NO_ACCESS``; subscriptions already made go on.
        :meth:`restore_licence` gives it back.

        Args:
            email: the account; None for the demo account.

        Raises:
            InvalidRequest: an account the emulator does not have.
        """
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
        """Makes the next live ``auth`` commands answer ``auth-failed``,
        whatever the token.

        Args:
            count: how many commands.
        """
        self._server.fail_next_auth(count)

    def fail_next_live_command(self, count: int = 1) -> None:
        """Makes the next valid commands of authenticated live connections
        answer ``UNEXPECTED_ERROR``, not carried out.

        Args:
            count: how many commands.
        """
        self._server.fail_next_live_command(count)

    def answer_pings(self, enabled: bool) -> None:
        """Stops or resumes answering live pings, to test a client's watchdog.

        Args:
            enabled: while off, ``ping`` commands get no ``pong`` (they still
                count as activity for the 60-second idle timer).
        """
        self._server.answer_pings(enabled)

    def silence_live(self, enabled: bool) -> None:
        """Silences the live feed, as a connection that died on the way
        without either end seeing it. Values published meanwhile are lost to
        those connections and kept in the intraday history. Close frames (a
        restart) still go out.

        Args:
            enabled: while on, live connections stay open but the feed
                writes nothing to them: no prices, no pongs, no answer to
                ``auth``.
        """
        self._server.silence_live(enabled)

    def firehose(self, enabled: bool) -> None:
        """For benchmarks: floods every live connection with synthetic values
        of each subscribed tenor, as fast as it reads them, ignoring the
        world's schedule. Each value of a tenor is strictly later than the
        last (``generatedOn`` is the clock's time or 1 ms after the previous
        value, whichever is later), prices vary, and a slow reader still
        gets only the latest value per tenor. These values are not in the
        intraday history, so a client's backfill finds nothing for them:
        benchmark with backfill off.

        Args:
            enabled: on, or off (the world's values resume, after the last
                synthetic one).
        """
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
        """Every value the live feed published for a curve and tenor (firehose
        values aside): what a client's feed should have delivered.

        Args:
            curve_id: the curve's id.
            tenor: the tenor's name.
            start: from this time, included (a datetime or ISO text; naive
                times are UTC); None from the start of the emulator's
                current UTC day.
            end: up to this time, included; None up to now.

        Returns:
            The values, oldest first, with ``generated_on`` at microsecond
            precision as the intraday endpoints carry it (the feed prints it
            truncated to milliseconds).

        Raises:
            InvalidRequest: a malformed argument.

        Examples:
            >>> with Emulator(time_scale=0, start="2026-01-15T17:00:00Z") as emulator:
            ...     emulator.published(curve.id, "Feb 26", start="2026-01-15T16:55")
            [PublishedValue(generated_on=datetime.datetime(2026, 1, 15, 16, 56, 20, 151883, tzinfo=datetime.timezone.utc), price=779.764), PublishedValue(generated_on=datetime.datetime(2026, 1, 15, 16, 58, 18, 314000, tzinfo=datetime.timezone.utc), price=780.131)]
        """
        start, end = _args.optional_instant(start, "start"), _args.optional_instant(end, "end")
        values = self._server.published(curve_id, tenor, start, end)
        return [PublishedValue(*value) for value in values]

    def stop(self) -> None:
        """Stops the server, ending its connections. Calling it again does
        nothing."""
        self._server.stop()


def probe_live(
    live_url: str,
    token: str,
    subscriptions: list[tuple[str, str]],
    seconds: float,
    *,
    decode: bool = False,
) -> float:
    """Measures the live feed's own limit, for benchmarks: the frames per
    second that a Rust reader which only counts them gets.

    The probe is test code, built only for benchmarks (the cargo feature
    ``probe``).

    Args:
        live_url: the live feed's base address.
        token: a token for it.
        subscriptions: ``(curve_id, tenor)`` pairs to subscribe to.
        seconds: how long to read.
        decode: also read every frame with the client's own frame reader:
            the most a client that decodes each price, with nothing behind
            it, gets.

    Returns:
        Frames per second.

    Raises:
        RuntimeError: this build has no probe (the message says how to
            build one with it).
        InvalidRequest: (``decode``) a frame the client's reader refuses.
    """
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
    """The schema of a kind of table the client returns, for checking what
    it returns.

    Args:
        kind: ``"prices"`` (last settlement, intraday), ``"settlements"``
            (adds ``date``), ``"assessments"`` (adds ``snapshot``) or
            ``"live"`` (a live batch).

    Returns:
        The schema, its columns in order.

    Raises:
        InvalidRequest: an unknown kind.

    Examples:
        >>> table_schema("live").names
        ['curve_id', 'tenor', 'tenor_kind', 'tenor_start', 'tenor_end', 'generated_on', 'price', 'source']
        >>> client.settlements(curve, "2026-01-13", "2026-01-14").schema.equals(table_schema("settlements"))
        True
    """
    # The ignore: any str is taken, as documented; the core refuses an
    # unknown kind with InvalidRequest, which its stub's Literal cannot say.
    return _core._table_schema(kind)  # type: ignore[arg-type]


def decode_table(
    endpoint: str, body: bytes, curve_id: str, tenor: str | None = None
) -> pyarrow.Table:
    """Decodes the JSON body of a price endpoint into a table of the
    package's schema, as the client does: to test what the client makes of
    a body.

    Args:
        endpoint: the endpoint (``"settlements"``, ``"intraday"``,
            ``"last_assessments_all"``, …).
        body: the response body.
        curve_id: the curve's id of the request path.
        tenor: the tenor of the request path, if it has one.

    Returns:
        The table.

    Raises:
        DecodeError: a body that does not follow the interface, naming the
            endpoint and the field.
        InvalidRequest: an unknown endpoint.

    Examples:
        >>> decode_table("settlements", b"[]", curve.id, "Feb 26").num_rows
        0
        >>> decode_table("settlements", b'[{"price": "high"}]', curve.id, "Feb 26")
        Traceback (most recent call last):
          ...
        marketcurves.exceptions.DecodeError: unexpected response from GET /historical/settlements/<curve_id>/<tenor>: field `[0].value`: missing or null
    """
    # The ignore: any str is taken, as documented; the core refuses an
    # unknown endpoint with InvalidRequest, which its stub's Literal cannot say.
    return _core._decode_table(endpoint, body, curve_id, tenor)  # type: ignore[arg-type]
