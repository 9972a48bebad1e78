"""Fixtures and checks for the conformance suite of the emulator.

The suite talks to the emulator with plain ``requests`` and, for the live
feed, a plain ``websockets`` client, never through the marketcurves client,
and checks the wire protocol of ``docs/protocol.md`` plus the
design's choices for what the interface leaves open (bearer tokens,
``POST /authenticate``, status codes, close codes).

Every REST emulator here runs on a stopped clock (``time_scale=0``) that
starts on Friday 2025-06-13 at 17:00 UTC, after the London close, so results
are fixed; the live ones start at 10:00 the same day, mid-session.
"""

from __future__ import annotations

import base64
import datetime as dt
import http
import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest
import requests
from support import START, start_emulator
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from marketcurves.testing import Emulator

TODAY = dt.date(2025, 6, 13)
DEMO = "demo@marketcurves.test"
FULL = "full@marketcurves.test"
UTC = dt.UTC

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
GENERATED_ON = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?$")
METADATA_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
MONTH_NAME = "(" + "|".join(MONTHS) + ")"
MONTHLY = re.compile(r"^" + MONTH_NAME + r" (\d{2})$")
QUARTERLY = re.compile(r"^Q([1-4]) (\d{2})$")
WINDOW = re.compile(r"^(1-5|6-10|11-15|16-20|21-25|26-EOM) " + MONTH_NAME + r" (\d{2})$")
CONTINUOUS = re.compile(r"^C 0[0-2]$")


def tenor_kind(name: str) -> str | None:
    """The interface's shape of a tenor name, or None if it has none."""
    for kind, pattern in (
        ("month", MONTHLY),
        ("quarter", QUARTERLY),
        ("window", WINDOW),
        ("continuous", CONTINUOUS),
    ):
        if pattern.match(name):
            return kind
    return None


def tenor_period(name: str) -> tuple[dt.date, dt.date] | None:
    """First and last day of a calendar tenor; None for continuous tenors."""
    m = MONTHLY.match(name)
    if m:
        first = dt.date(2000 + int(m[2]), MONTHS.index(m[1]) + 1, 1)
        return first, _month_end(first)
    m = QUARTERLY.match(name)
    if m:
        first = dt.date(2000 + int(m[2]), 3 * int(m[1]) - 2, 1)
        return first, _month_end(dt.date(first.year, first.month + 2, 1))
    m = WINDOW.match(name)
    if m:
        month = dt.date(2000 + int(m[3]), MONTHS.index(m[2]) + 1, 1)
        low, high = m[1].split("-")
        end = _month_end(month) if high == "EOM" else month.replace(day=int(high))
        return month.replace(day=int(low)), end
    return None


def _month_end(first: dt.date) -> dt.date:
    following = (first.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return following - dt.timedelta(days=1)


def parse_generated_on(text: str) -> dt.datetime:
    """A generatedOn value as an aware UTC datetime (it must match the interface's shape)."""
    m = GENERATED_ON.match(text)
    assert m, f"generatedOn {text!r} is not UTC ISO 8601 without suffix"
    stamp = dt.datetime.strptime(m[1], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
    micros = int((m[2] or "0").ljust(6, "0"))
    return stamp + dt.timedelta(microseconds=micros)


def fraction_digits(text: str) -> int:
    m = GENERATED_ON.match(text)
    assert m, text
    return len(m[2] or "")


def weekdays(first: dt.date, last: dt.date) -> list[dt.date]:
    days = []
    day = first
    while day <= last:
        if day.weekday() < 5:
            days.append(day)
        day += dt.timedelta(days=1)
    return days


def jwt_part(token: str, index: int) -> dict[str, Any]:
    part = token.split(".")[index]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def seg(tenor: str) -> str:
    """A tenor as one URL-encoded path segment."""
    return quote(tenor, safe="")


def query_of(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


# Checks shared by the test modules.


def check_error(response: requests.Response, status: int) -> dict[str, Any]:
    """The response has ``status`` and the JSON error body of the design."""
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers.get("Content-Type", "").startswith("application/json")
    body = response.json()
    assert body["status"] == status
    assert body["error"] == http.HTTPStatus(status).phrase
    assert isinstance(body["message"], str) and body["message"].strip()
    return body


def check_price_record(
    record: dict[str, Any], tenor: str | None = None, units: str | None = None
) -> dt.datetime:
    """A Price record of the interface; returns its generatedOn."""
    assert set(record) == {
        "generatedOn",
        "price",
        "units",
        "tenor",
        "dependencies",
        "metadata",
    }, record.keys()
    generated_on = parse_generated_on(record["generatedOn"])
    assert isinstance(record["price"], (int, float)) and not isinstance(record["price"], bool)
    assert isinstance(record["units"], str) and record["units"]
    assert isinstance(record["tenor"], str) and record["tenor"]
    if tenor is not None:
        assert record["tenor"] == tenor
    if units is not None:
        assert record["units"] == units
    assert isinstance(record["dependencies"], list)
    for dep in record["dependencies"]:
        assert set(dep) == {"id", "name", "value", "units", "tenorName"}, dep
        assert UUID.match(dep["id"]), dep
        assert isinstance(dep["name"], str) and dep["name"]
        assert isinstance(dep["value"], (int, float)) and not isinstance(dep["value"], bool)
        assert isinstance(dep["units"], str) and dep["units"]
        assert isinstance(dep["tenorName"], str) and tenor_kind(dep["tenorName"]), dep
    assert isinstance(record["metadata"], list)
    for entry in record["metadata"]:
        assert set(entry) == {"name", "value"}, entry
        assert isinstance(entry["name"], str) and isinstance(entry["value"], str)
    return generated_on


def check_envelope(body: dict[str, Any], url_prefix: str) -> None:
    """A Page envelope whose links are absolute URLs under ``url_prefix``."""
    assert set(body) == {"items", "self", "next", "prev", "last"}, body.keys()
    assert isinstance(body["items"], list)
    for key in ("self", "last"):
        assert isinstance(body[key], str)
    for key in ("self", "next", "prev", "last"):
        link = body[key]
        if link is None:
            assert key in ("next", "prev")
            continue
        assert link.startswith(url_prefix + "?"), (key, link, url_prefix)
        query = query_of(link)
        for name in ("page", "pageSize"):
            values = query.get(name, [])
            assert len(values) == 1 and values[0].isdigit() and int(values[0]) >= 1, (name, link)


def page_number(link: str) -> int:
    return int(query_of(link)["page"][0])


# Talking to an emulator.


class Api:
    """A requests session bound to one emulator and one token."""

    def __init__(self, emulator: Emulator, email: str | None = None) -> None:
        self.emulator = emulator
        self.email = email
        self.base_url = emulator.base_url
        self.token = emulator.token(email=email)
        self.session = requests.Session()

    def set_time(self, when: str) -> None:
        """Moves the emulator's clock and takes a token valid at the new time."""
        self.emulator.set_time(when)
        self.token = self.emulator.token(email=self.email)

    def close(self) -> None:
        self.session.close()

    def headers(self, token: str | None = None) -> dict[str, str]:
        token = token or self.token
        return {"Authorization": f"Bearer {token}"} if token else {}

    def get(
        self,
        path: str,
        params: dict[str, Any] | None = None,
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> requests.Response:
        """GET ``{base_url}{path}``, or ``path`` itself if it is an absolute URL."""
        url = path if path.startswith("http") else self.base_url + path
        sent = self.headers(token) if headers is None else headers
        return self.session.get(url, params=params, headers=sent, timeout=30)

    def ok(self, path: str, params: dict[str, Any] | None = None, **kw: Any) -> Any:
        response = self.get(path, params, **kw)
        assert response.status_code == 200, (path, params, response.status_code, response.text)
        assert response.headers.get("Content-Type", "").startswith("application/json")
        return response.json()

    def pages(self, path: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every page from the first, following ``next``."""
        bodies = [self.ok(path, params)]
        while bodies[-1]["next"] is not None:
            assert len(bodies) < 1000, "next never ends"
            bodies.append(self.ok(bodies[-1]["next"]))
        return bodies

    def catalogue(self, **params: Any) -> list[dict[str, Any]]:
        """Every curve of the catalogue (with the given query), all pages."""
        query = {"pageSize": 500, **params}
        return [item for body in self.pages("/catalogue", query) for item in body["items"]]

    def settlements(self, curve_id: str, tenor: str, start: str, end: str) -> Any:
        return self.ok(
            f"/historical/settlements/{curve_id}/{seg(tenor)}",
            {"startDate": start, "endDate": end},
        )


def find_curve(curves: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> dict:
    """The first curve that passes ``test``; fails the test if there is none."""
    for curve in curves:
        if test(curve):
            return curve
    pytest.fail("the catalogue has no curve of the kind this test needs")


@pytest.fixture(scope="session")
def shared_emulator() -> Iterator[Emulator]:
    """One emulator for every test that does not change it (clock, faults, licences)."""
    with start_emulator() as emulator:
        yield emulator


@pytest.fixture(scope="session")
def api(shared_emulator: Emulator) -> Iterator[Api]:
    """The shared emulator, as the demo account."""
    client = Api(shared_emulator)
    yield client
    client.close()


@pytest.fixture(scope="session")
def full_api(shared_emulator: Emulator) -> Iterator[Api]:
    """The shared emulator, as the fully licensed account."""
    client = Api(shared_emulator, FULL)
    yield client
    client.close()


@pytest.fixture(scope="session")
def catalogue(api: Api) -> list[dict[str, Any]]:
    """Every curve of the shared emulator (seed 0, clock at START)."""
    return api.catalogue()


@pytest.fixture(scope="session")
def fob_curve(catalogue: list[dict[str, Any]]) -> dict[str, Any]:
    """A curve in the demo licence with a continuous and a monthly tenor."""
    return find_curve(catalogue, lambda c: c["quotation"] == "Fob" and "C 00" in c["contracts"])


@pytest.fixture(scope="session")
def fine_curve(api: Api, catalogue: list[dict[str, Any]]) -> dict[str, Any]:
    """A curve in the demo licence with intraday values every minute or two
    (more than 700 on a weekday), so that its intraday history spans many pages."""
    query = {"startDate": "2025-06-12", "endDate": "2025-06-12", "pageSize": 100}
    for curve in catalogue:
        if curve["quotation"] == "Sales":
            continue
        body = api.ok(f"/historical/intraday/{curve['id']}/Jul%2025", query)
        if page_number(body["last"]) > 7:
            return curve
    pytest.fail("no curve has intraday values every minute or two")


@pytest.fixture
def emulator(make_emulator: Callable[..., Emulator]) -> Emulator:
    """A fresh emulator of its own, for tests that move its clock or inject faults."""
    return make_emulator()


@pytest.fixture
def own_api(emulator: Emulator) -> Iterator[Api]:
    """The fresh emulator, as the demo account."""
    client = Api(emulator)
    yield client
    client.close()


@pytest.fixture
def make_api(make_emulator: Callable[..., Emulator]) -> Iterator[Callable[..., Api]]:
    """Starts further emulators (any seed, start) and gives a demo-account Api on each."""
    made: list[Api] = []

    def make(seed: int = 0, start: str = START, email: str | None = None) -> Api:
        client = Api(make_emulator(seed=seed, start=start), email)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


def data_endpoints(curve_id: str, tenor: str) -> list[tuple[str, dict[str, str]]]:
    """Every data endpoint of the interface for one curve (path and query)."""
    t = seg(tenor)
    return [
        (
            f"/historical/settlements/{curve_id}/{t}",
            {"startDate": "2025-06-09", "endDate": "2025-06-13"},
        ),
        (
            f"/historical/intraday/{curve_id}/{t}",
            {"startDate": "2025-06-12", "endDate": "2025-06-12"},
        ),
        (f"/ongoing/last-settlement/{curve_id}/{t}", {}),
        (f"/ongoing/last-settlement/{curve_id}", {}),
        (f"/ongoing/last-assessments/{curve_id}/{t}", {}),
        (f"/ongoing/last-assessments/{curve_id}", {}),
        (f"/ongoing/intraday/{curve_id}/{t}", {}),
    ]


class Check:
    """What the test modules share, reached through the ``check`` fixture so
    that no test module imports this conftest."""

    START = START
    TODAY = TODAY
    DEMO = DEMO
    FULL = FULL
    UUID = UUID
    GENERATED_ON = GENERATED_ON
    METADATA_TIME = METADATA_TIME
    MONTHS = MONTHS

    error = staticmethod(check_error)
    price_record = staticmethod(check_price_record)
    envelope = staticmethod(check_envelope)
    tenor_kind = staticmethod(tenor_kind)
    tenor_period = staticmethod(tenor_period)
    parse_generated_on = staticmethod(parse_generated_on)
    fraction_digits = staticmethod(fraction_digits)
    weekdays = staticmethod(weekdays)
    jwt_part = staticmethod(jwt_part)
    seg = staticmethod(seg)
    query_of = staticmethod(query_of)
    page_number = staticmethod(page_number)
    find_curve = staticmethod(find_curve)
    data_endpoints = staticmethod(data_endpoints)


@pytest.fixture(scope="session")
def check() -> type[Check]:
    return Check


# The live feed, through a plain WebSocket client.

LIVE_PATH = "/v2/customer/socket/websocket"
MIDSESSION = "2025-06-13T10:00:00Z"  # a Friday: where the live emulators start
LIVE_GENERATED_ON = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$")


class LiveSocket:
    """One connection to the live feed, speaking the interface's JSON frames."""

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        opening = ws_connect(
            emulator.live_url + LIVE_PATH,
            open_timeout=5,
            close_timeout=0.5,
            ping_interval=None,
            compression=None,
            proxy=None,
        )
        # Entered as a context manager, as recent websockets versions ask.
        self.ws = opening.__enter__()

    def send(self, kind: str, payload: Any = None) -> None:
        message = {"type": kind} if payload is None else {"type": kind, "payload": payload}
        self.ws.send(json.dumps(message))

    def send_raw(self, frame: str | bytes) -> None:
        self.ws.send(frame)

    def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next message; fails the test if none comes within ``timeout`` s."""
        try:
            frame = self.ws.recv(timeout=timeout)
        except TimeoutError:
            pytest.fail(f"no live message within {timeout} s")
        assert isinstance(frame, str), f"binary frame from the server: {frame!r}"
        message = json.loads(frame)
        assert isinstance(message, dict) and isinstance(message.get("type"), str), message
        return message

    def nothing(self, within: float = 0.4) -> None:
        """Asserts that no message comes within ``within`` seconds."""
        try:
            frame = self.ws.recv(timeout=within)
        except TimeoutError:
            return
        pytest.fail(f"unexpected live message {frame!r}")

    def error(self, code: str, timeout: float = 5.0) -> str:
        """The next message is the error ``code``; returns its text."""
        message = self.recv(timeout)
        assert message["type"] == code, message
        assert set(message) == {"type", "message"}, message
        assert isinstance(message["message"], str) and message["message"].strip()
        return message["message"]

    def auth(self, token: str | None = None) -> None:
        self.send("auth", token or self.emulator.token())
        assert self.recv() == {"type": "auth-success"}

    def subscribe(self, curve_id: str, tenor: str) -> None:
        self.send("subscribe", {"id": curve_id, "tenor": tenor, "type": "price"})

    def unsubscribe(self, curve_id: str, tenor: str) -> None:
        self.send("unsubscribe", {"id": curve_id, "tenor": tenor, "type": "price"})

    def price(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next message is a price; returns its payload, checked."""
        message = self.recv(timeout)
        assert message["type"] == "price", message
        assert set(message) == {"type", "payload"}, message
        payload = message["payload"]
        assert set(payload) == {"id", "tenor", "generatedOn", "price"}, payload
        assert LIVE_GENERATED_ON.match(payload["generatedOn"]), payload
        assert isinstance(payload["price"], (int, float)), payload
        return payload

    def prices_until_quiet(self, quiet: float = 0.4) -> list[dict[str, Any]]:
        """Every price that comes until none has come for ``quiet`` seconds."""
        prices = []
        while True:
            try:
                frame = self.ws.recv(timeout=quiet)
            except TimeoutError:
                return prices
            message = json.loads(frame)
            assert message["type"] == "price", message
            prices.append(message["payload"])

    def ping(self, name: str = "keep-alive") -> None:
        """Sends a ping and checks its pong (after any prices on the way)."""
        self.send("ping", {"name": name})
        while (message := self.recv())["type"] == "price":
            pass
        assert message == {"type": "pong", "payload": {"name": name}}

    def ended(self, timeout: float = 5.0) -> int | None:
        """Waits for the server to end the connection, skipping messages;
        returns the close code it sent, or None if it sent no close frame."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"the connection is still open after {timeout} s")
            try:
                self.ws.recv(timeout=left)
            except TimeoutError:
                continue
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd is not None else None

    def close(self) -> None:
        self.ws.close()


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


@pytest.fixture
def live_emulator(make_emulator: Callable[..., Emulator]) -> Emulator:
    """An emulator of its own on a stopped clock at Friday 10:00 UTC."""
    return make_emulator(start=MIDSESSION)


@pytest.fixture
def connect() -> Iterator[Callable[..., LiveSocket]]:
    """Opens live connections (authenticated unless ``auth=False``), closed at teardown."""
    opened: list[LiveSocket] = []

    def open_socket(emulator: Emulator, auth: bool = True, token: str | None = None) -> LiveSocket:
        socket = LiveSocket(emulator)
        opened.append(socket)
        if auth:
            socket.auth(token)
        return socket

    yield open_socket
    for socket in opened:
        socket.close()


class Live:
    """What the live tests share, through the ``live`` fixture."""

    PATH = LIVE_PATH
    START = MIDSESSION
    GENERATED_ON = LIVE_GENERATED_ON
    wait_until = staticmethod(wait_until)


@pytest.fixture(scope="session")
def live() -> type[Live]:
    return Live
