"""The live feed: ``{live_url}/v2/customer/socket/websocket``, driven by a plain
WebSocket client. Every row of the interface's "Live connection" table, every
error code, the snapshot and update rules, the timers on the emulator's clock
and the live fault controls.

Most tests run on a stopped clock at Friday 2025-06-13 10:00 UTC and move it
by hand; the timer tests run it 100 to 200 times faster than real time.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import time
from urllib.parse import quote

import pytest
import requests
from websockets.exceptions import ConnectionClosed, InvalidStatus

import marketcurves as mc
from marketcurves import _core
from marketcurves.testing import Emulator, probe_live

UTC = dt.UTC
JULY = "Jul 25"


def millis(stamp: dt.datetime) -> str:
    """A datetime as the feed prints generatedOn: milliseconds, truncated."""
    return stamp.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}"


def granularity_minutes(emulator: Emulator, curve_id: str) -> float:
    """Minutes between a curve's intraday values, from a whole weekday."""
    day = emulator.published(curve_id, JULY, "2025-06-12T00:00:00Z", "2025-06-12T23:59:59.999999Z")
    return 1440 / len(day)


def ongoing_intraday(emulator: Emulator, curve_id: str, tenor: str) -> list[dict]:
    """Every record of the ongoing intraday endpoint, all pages."""
    url = f"{emulator.base_url}/ongoing/intraday/{curve_id}/{quote(tenor, safe='')}"
    headers = {"Authorization": f"Bearer {emulator.token()}"}
    items: list[dict] = []
    page = 1
    while True:
        response = requests.get(
            url, params={"page": page, "pageSize": 1000}, headers=headers, timeout=10
        )
        assert response.status_code == 200, response.text
        body = response.json()
        items.extend(body["items"])
        if body["next"] is None:
            return items
        page += 1


@pytest.fixture(scope="module")
def curves(catalogue):
    """Curves of the seed-0 world (the same ids in every emulator of seed 0):
    one with continuous tenors, one updated every minute, one outside the
    demo licence."""
    fob = next(c for c in catalogue if c["quotation"] == "Fob" and "C 00" in c["contracts"])
    with Emulator(seed=0, time_scale=0, start="2025-06-13T10:00:00Z") as emulator:
        licensed = [c for c in catalogue if c["quotation"] != "Sales" and JULY in c["contracts"]]
        minute = [c for c in licensed if granularity_minutes(emulator, c["id"]) == 1]
    sales = next(c for c in catalogue if c["quotation"] == "Sales")
    return {"fob": fob, "minute": minute, "sales": sales}


# Authentication.


def test_auth_success_and_failure_leave_the_connection_open(live_emulator, connect):
    socket = connect(live_emulator, auth=False)
    socket.send("auth", "not-a-token")
    assert socket.recv() == {"type": "auth-failed"}
    socket.send("auth", "")
    assert socket.recv() == {"type": "auth-failed"}
    # Still open and unauthenticated: a later valid token is accepted.
    socket.send("auth", live_emulator.token())
    assert socket.recv() == {"type": "auth-success"}
    socket.ping()


@pytest.mark.parametrize(
    "command",
    [
        ("subscribe", {"id": "x", "tenor": "*", "type": "price"}),
        ("unsubscribe", {"id": "x", "tenor": "*", "type": "price"}),
        ("ping", {"name": "early"}),
    ],
)
def test_a_command_before_auth_is_not_logged_and_closes(live_emulator, connect, command):
    socket = connect(live_emulator, auth=False)
    socket.send(*command)
    socket.error("NOT_LOGGED")
    assert socket.ended() == 1008


def test_a_failed_auth_then_a_command_is_not_logged(live_emulator, connect):
    socket = connect(live_emulator, auth=False)
    socket.send("auth", "expired-or-forged")
    assert socket.recv() == {"type": "auth-failed"}
    socket.send("ping", {"name": "x"})
    socket.error("NOT_LOGGED")
    assert socket.ended() == 1008


def test_frames_that_are_not_commands_get_their_own_error_before_auth(live_emulator, connect):
    socket = connect(live_emulator, auth=False)
    socket.send_raw("{not json")
    socket.error("ERROR_PARSING")
    socket.send("hello", {})
    socket.error("COMMAND_NOT_FOUND")
    socket.send_raw(b"\x00\x01")
    socket.error("BINARY_MESSAGE")
    socket.auth()


def test_the_token_is_checked_only_at_auth(live_emulator, connect, curves):
    token = live_emulator.token()
    socket = connect(live_emulator, token=token)
    live_emulator.expire_tokens()
    # The open connection outlives its token.
    socket.subscribe(curves["fob"]["id"], JULY)
    assert socket.price()["tenor"] == JULY
    socket.ping()
    # A new authentication needs a valid token.
    other = connect(live_emulator, auth=False)
    other.send("auth", token)
    assert other.recv() == {"type": "auth-failed"}
    other.auth(live_emulator.token())


def test_a_token_twelve_hours_old_fails_at_auth(live_emulator, connect):
    token = live_emulator.token()
    live_emulator.advance(12 * 3600)
    socket = connect(live_emulator, auth=False)
    socket.send("auth", token)
    assert socket.recv() == {"type": "auth-failed"}


# Errors.


@pytest.mark.parametrize(
    "frame",
    [
        "{not json",
        "[]",
        '"auth"',
        '{"payload": "x"}',
        '{"type": 3, "payload": "x"}',
        '{"type": "auth", "payload": {"token": "x"}}',
        '{"type": "subscribe", "payload": {"id": "c", "tenor": "*", "type": "settlement"}}',
        '{"type": "subscribe", "payload": {"id": "c", "tenor": "*"}}',
        '{"type": "subscribe", "payload": {"id": "c", "tenor": 5, "type": "price"}}',
        '{"type": "unsubscribe", "payload": "c"}',
        '{"type": "ping", "payload": "x"}',
        '{"type": "ping", "payload": {"nom": "x"}}',
    ],
)
def test_unparseable_messages_and_bad_payloads_are_error_parsing(live_emulator, connect, frame):
    socket = connect(live_emulator)
    socket.send_raw(frame)
    socket.error("ERROR_PARSING")
    socket.ping()


def test_an_unknown_command_is_command_not_found(live_emulator, connect):
    socket = connect(live_emulator)
    for kind in ("hello", "Subscribe", "pong", "price"):
        socket.send(kind, {"name": "x"})
        assert "auth, subscribe, unsubscribe" in socket.error("COMMAND_NOT_FOUND")
    socket.ping()


def test_a_binary_frame_is_binary_message(live_emulator, connect):
    socket = connect(live_emulator)
    socket.send_raw(json.dumps({"type": "ping", "payload": {"name": "x"}}).encode())
    socket.error("BINARY_MESSAGE")
    socket.ping()


def test_no_access_outside_the_licence_and_for_unknown_curves(live_emulator, connect, curves):
    socket = connect(live_emulator)
    socket.subscribe(curves["sales"]["id"], "*")
    assert "Sales" in socket.error("NO_ACCESS")
    socket.subscribe("00000000-0000-4000-8000-000000000000", "*")
    socket.error("NO_ACCESS")
    socket.ping()
    full = connect(live_emulator, token=live_emulator.token("full@marketcurves.test"))
    full.subscribe(curves["sales"]["id"], JULY)
    assert full.price()["id"] == curves["sales"]["id"]


def test_no_access_for_an_account_without_live_data(live_emulator, connect, curves):
    rest_only = connect(live_emulator, token=live_emulator.token("rest-only@marketcurves.test"))
    rest_only.subscribe(curves["fob"]["id"], JULY)
    assert "live" in rest_only.error("NO_ACCESS")
    rest_only.ping()
    live_emulator.revoke_live()
    demo = connect(live_emulator)
    demo.subscribe(curves["fob"]["id"], JULY)
    demo.error("NO_ACCESS")
    live_emulator.restore_licence()
    demo.subscribe(curves["fob"]["id"], JULY)
    assert demo.price()["tenor"] == JULY


# Snapshots.


def test_the_snapshot_is_the_last_intraday_value_at_millisecond_precision(
    live_emulator, connect, curves
):
    curve = curves["fob"]
    socket = connect(live_emulator)
    socket.subscribe(curve["id"], JULY)
    snapshot = socket.price()
    socket.nothing()
    last = ongoing_intraday(live_emulator, curve["id"], JULY)[-1]
    assert snapshot["id"] == curve["id"] and snapshot["tenor"] == JULY
    stamp = dt.datetime.fromisoformat(last["generatedOn"]).replace(tzinfo=UTC)
    assert snapshot["generatedOn"] == millis(stamp)
    assert snapshot["price"] == last["price"]
    published_at, published_price = live_emulator.published(curve["id"], JULY)[-1]
    assert (millis(published_at), published_price) == (snapshot["generatedOn"], snapshot["price"])


def test_subscribing_again_resends_the_snapshot(live_emulator, connect, curves):
    socket = connect(live_emulator)
    socket.subscribe(curves["fob"]["id"], JULY)
    first = socket.price()
    socket.subscribe(curves["fob"]["id"], JULY)
    assert socket.price() == first
    socket.nothing()


def test_over_the_weekend_the_snapshot_is_fridays_last_value(connect, curves):
    with Emulator(seed=0, time_scale=0, start="2025-06-15T09:00:00Z") as emulator:
        socket = connect(emulator)
        socket.subscribe(curves["fob"]["id"], JULY)
        snapshot = socket.price()
        friday = emulator.published(curves["fob"]["id"], JULY, "2025-06-13T00:00:00Z")
        assert snapshot["generatedOn"] == millis(friday[-1][0])
        assert snapshot["generatedOn"].startswith("2025-06-13T23:")


def test_all_tenors_are_the_calendar_tenors_and_continuous_ones_are_explicit(
    live_emulator, connect, curves
):
    curve = curves["fob"]
    socket = connect(live_emulator)
    socket.subscribe(curve["id"], "*")
    prices = socket.prices_until_quiet()
    tenors = [p["tenor"] for p in prices]
    calendar = [t for t in curve["contracts"] if not t.startswith("C ")]
    assert sorted(tenors) == sorted(calendar)
    assert all(p["id"] == curve["id"] for p in prices)
    socket.subscribe(curve["id"], "C 00")
    assert socket.price()["tenor"] == "C 00"
    socket.nothing()


def test_a_tenor_without_a_value_sends_nothing(live_emulator, connect, curves):
    socket = connect(live_emulator)
    for tenor in ("Jan 40", "May 25", "Cal-26", "jul 25", "Q5 25", ""):
        socket.subscribe(curves["fob"]["id"], tenor)
    socket.ping()
    socket.nothing()


# Updates.


def test_updates_arrive_at_the_curves_granularity_as_published(live_emulator, connect, curves):
    curve = curves["minute"][0]
    socket = connect(live_emulator)
    socket.subscribe(curve["id"], JULY)
    snapshot = socket.price()
    live_emulator.advance(10 * 60)
    updates = socket.prices_until_quiet()
    published = live_emulator.published(curve["id"], JULY)
    after = [(millis(at), price) for at, price in published if millis(at) > snapshot["generatedOn"]]
    assert [(u["generatedOn"], u["price"]) for u in updates] == after
    assert 9 <= len(updates) <= 11
    # The same values the intraday endpoint serves, with their microseconds.
    rest = ongoing_intraday(live_emulator, curve["id"], JULY)[-len(updates) :]
    assert [millis(dt.datetime.fromisoformat(r["generatedOn"])) for r in rest] == [
        u["generatedOn"] for u in updates
    ]
    assert [r["price"] for r in rest] == [u["price"] for u in updates]


def test_unsubscribe_stops_updates_and_all_tenors_removes_every_one(live_emulator, connect, curves):
    curve = curves["minute"][0]
    socket = connect(live_emulator)
    for tenor in (JULY, "Aug 25", "Sep 25"):
        socket.subscribe(curve["id"], tenor)
    assert len(socket.prices_until_quiet()) == 3
    socket.unsubscribe(curve["id"], JULY)
    socket.ping()  # the server has read the unsubscribe before the clock moves
    live_emulator.advance(3 * 60)
    tenors = {p["tenor"] for p in socket.prices_until_quiet()}
    assert tenors == {"Aug 25", "Sep 25"}
    # `*` removes the tenors subscribed to by name too.
    socket.unsubscribe(curve["id"], "*")
    socket.ping()
    for _ in range(3):  # pinging, as more than 60 s without a message ends the connection
        live_emulator.advance(45)
        socket.nothing(0.2)
        socket.ping()


def test_ping_gets_a_pong_with_the_same_payload(live_emulator, connect):
    socket = connect(live_emulator)
    payload = {"name": "watchdog é", "sent": 1718272800.5, "tags": [1, None, {"a": True}]}
    socket.send("ping", payload)
    assert socket.recv() == {"type": "pong", "payload": payload}


# Timers on the emulator's clock.


def test_sixty_idle_seconds_drop_the_connection_without_a_close_frame(connect, live):
    with Emulator(seed=0, time_scale=200, start=live.START) as emulator:
        socket = connect(emulator)
        started = emulator.now()
        assert socket.ended() is None
        idle = (emulator.now() - started).total_seconds()
        assert 55 <= idle <= 120
        live.wait_until(lambda: emulator.live_connections == 0)


def test_pings_keep_a_connection_open_past_sixty_seconds(connect, curves, live):
    with Emulator(seed=0, time_scale=100, start=live.START) as emulator:
        socket = connect(emulator)
        # A subscription without values keeps the 3-minute close away.
        socket.subscribe(curves["fob"]["id"], "Jan 40")
        started = emulator.now()
        while (emulator.now() - started).total_seconds() < 150:
            socket.ping()
            socket.nothing(0.3)
        socket.ping()
        assert socket.ended() is None


def test_prices_going_out_keep_a_connection_open(connect, curves, live):
    with Emulator(seed=0, time_scale=100, start=live.START) as emulator:
        socket = connect(emulator)
        socket.subscribe(curves["fob"]["id"], JULY)
        socket.price()
        emulator.firehose(True)
        started = emulator.now()
        while (emulator.now() - started).total_seconds() < 150:
            socket.price()
        emulator.firehose(False)
        assert emulator.live_connections == 1


def test_three_minutes_without_a_subscription_close_with_1000_despite_pings(connect, live):
    with Emulator(seed=0, time_scale=200, start=live.START) as emulator:
        socket = connect(emulator)
        authenticated = emulator.now()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.ping()
                time.sleep(0.05)
        waited = (emulator.now() - authenticated).total_seconds()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1000
        assert 175 <= waited <= 260


def test_the_quiet_time_runs_from_the_last_unsubscribe(connect, curves, live):
    with Emulator(seed=0, time_scale=0, start=live.START) as emulator:
        socket = connect(emulator)
        socket.subscribe(curves["fob"]["id"], "Jan 40")
        for _ in range(7):  # 350 s with a subscription, pinging as asked
            emulator.advance(50)
            socket.ping()
        socket.unsubscribe(curves["fob"]["id"], "*")
        socket.ping()  # the server has read the unsubscribe before the clock moves
        for _ in range(3):
            emulator.advance(50)
            socket.ping()
        emulator.advance(31)
        assert socket.ended() == 1000


def test_the_weekly_restart_disconnects_everyone_with_1012(connect, curves):
    with Emulator(seed=0, time_scale=20, start="2025-06-15T11:59:40Z") as emulator:
        first = connect(emulator)
        second = connect(emulator)
        second.subscribe(curves["fob"]["id"], JULY)
        assert second.price()["generatedOn"].startswith("2025-06-13")
        assert first.ended() == 1012
        assert second.ended() == 1012
        assert emulator.now() >= dt.datetime(2025, 6, 15, 12, tzinfo=UTC)
        # State is not kept: a new connection starts unauthenticated.
        again = connect(emulator, auth=False)
        again.send("ping", {"name": "x"})
        again.error("NOT_LOGGED")


# Fault controls.


def test_drop_live_connections_ends_them_without_a_close_frame(live_emulator, connect, live):
    sockets = [connect(live_emulator) for _ in range(3)]
    live.wait_until(lambda: live_emulator.live_connections == 3)
    live_emulator.drop_live_connections()
    assert [s.ended() for s in sockets] == [None, None, None]
    live.wait_until(lambda: live_emulator.live_connections == 0)
    connect(live_emulator).ping()


def test_connections_closed_by_clients_are_gone(live_emulator, connect, live):
    sockets = [connect(live_emulator) for _ in range(3)]
    live.wait_until(lambda: live_emulator.live_connections == 3)
    for socket in sockets[:2]:
        socket.close()
    live.wait_until(lambda: live_emulator.live_connections == 1)
    sockets[2].ping()


def test_restart_feed_closes_every_connection_with_1012(live_emulator, connect):
    sockets = [connect(live_emulator), connect(live_emulator, auth=False)]
    live_emulator.restart_feed()
    assert [s.ended() for s in sockets] == [1012, 1012]


def test_fail_next_auth_refuses_valid_tokens(live_emulator, connect):
    live_emulator.fail_next_auth(2)
    socket = connect(live_emulator, auth=False)
    for _ in range(2):
        socket.send("auth", live_emulator.token())
        assert socket.recv() == {"type": "auth-failed"}
    socket.auth()


def test_fail_next_live_command_answers_unexpected_error_without_acting(
    live_emulator, connect, curves
):
    socket = connect(live_emulator)
    live_emulator.fail_next_live_command(2)
    socket.subscribe(curves["fob"]["id"], JULY)
    socket.error("UNEXPECTED_ERROR")
    socket.send("ping", {"name": "x"})
    socket.error("UNEXPECTED_ERROR")
    socket.ping()
    socket.subscribe(curves["fob"]["id"], JULY)
    assert socket.price()["tenor"] == JULY


def test_unanswered_pings_and_clear_faults(live_emulator, connect):
    socket = connect(live_emulator)
    live_emulator.answer_pings(False)
    socket.send("ping", {"name": "x"})
    socket.nothing()
    live_emulator.answer_pings(True)
    socket.ping()
    live_emulator.answer_pings(False)
    live_emulator.fail_next_auth(3)
    live_emulator.fail_next_live_command(3)
    live_emulator.clear_faults()
    socket.ping()
    connect(live_emulator).ping()


def test_a_silent_feed_answers_nothing_until_it_speaks_again(live_emulator, connect, curves):
    socket = connect(live_emulator)
    live_emulator.silence_live(True)
    socket.send("ping", {"name": "x"})
    socket.subscribe(curves["fob"]["id"], "*")
    socket.nothing()
    live_emulator.silence_live(False)
    socket.ping()
    socket.subscribe(curves["fob"]["id"], "*")
    assert socket.prices_until_quiet(), "the snapshot comes once the feed speaks"
    live_emulator.silence_live(True)
    live_emulator.clear_faults()
    socket.ping()


def test_rest_faults_reach_the_handshake_only_by_name(live_emulator, connect, live):
    live_emulator.fail_next(1, 503)
    connect(live_emulator).ping()
    live_emulator.fail_next(1, 503, path="/customer/socket")
    with pytest.raises(InvalidStatus) as refused:
        connect(live_emulator)
    assert refused.value.response.status_code == 503
    connect(live_emulator).ping()
    response = requests.get(live_emulator.base_url + "/catalogue", timeout=10)
    assert response.status_code == 503, "the REST fault is still pending"


def test_the_firehose_sends_later_values_of_every_tenor(live_emulator, connect, curves):
    curve = curves["fob"]
    socket = connect(live_emulator)
    socket.subscribe(curve["id"], "*")
    snapshots = {p["tenor"]: p for p in socket.prices_until_quiet()}
    live_emulator.firehose(True)
    last = {t: (p["generatedOn"], None) for t, p in snapshots.items()}
    for _ in range(20_000):
        price = socket.price()
        previous_at, previous_price = last[price["tenor"]]
        assert price["generatedOn"] > previous_at
        assert price["price"] != previous_price
        last[price["tenor"]] = (price["generatedOn"], price["price"])
    live_emulator.firehose(False)
    assert all(price is not None for _, price in last.values()), "every tenor got values"
    socket.prices_until_quiet(0.2)
    socket.ping()


#: The probe is built only for benchmarks (cargo feature `probe`); the release
#: wheel CI tests has none, and src/probe_tests.rs tests it in `cargo test`.
HAS_PROBE = hasattr(_core, "_probe_live")


@pytest.mark.skipif(not HAS_PROBE, reason="a build without the probe (feature `probe`)")
def test_the_probe_counts_the_firehose_and_decodes_it_as_the_client_does(live_emulator, curves):
    subscriptions = [(curves["fob"]["id"], "*")]
    probe = functools.partial(probe_live, live_emulator.live_url, live_emulator.token())
    live_emulator.firehose(True)
    try:
        counted = probe(subscriptions, 0.3)
        # Raises if the client's frame reader refuses a frame.
        decoded = probe(subscriptions, 0.3, decode=True)
    finally:
        live_emulator.firehose(False)
    assert counted > 1_000 and decoded > 1_000
    with pytest.raises(mc.InvalidRequest, match="seconds must be > 0"):
        probe(subscriptions, 0)


@pytest.mark.skipif(HAS_PROBE, reason="a build with the probe (feature `probe`)")
def test_a_build_without_the_probe_says_how_to_get_one(live_emulator, curves):
    with pytest.raises(RuntimeError, match="--features python,probe"):
        probe_live(live_emulator.live_url, live_emulator.token(), [(curves["fob"]["id"], "*")], 0.1)


def test_a_slow_reader_gets_only_the_latest_value_of_each_tenor(live_emulator, connect, curves):
    curve = curves["minute"][0]
    socket = connect(live_emulator)
    socket.subscribe(curve["id"], "*")
    snapshot = {p["tenor"]: p for p in socket.prices_until_quiet()}
    # Fill the socket while the reader reads nothing, then move the clock by
    # 30 minutes: 30 values of each tenor are published while it cannot write.
    live_emulator.firehose(True)
    time.sleep(0.5)
    live_emulator.firehose(False)
    live_emulator.advance(30 * 60)
    time.sleep(0.5)
    received = socket.prices_until_quiet(0.5)
    world = {
        tenor: [
            (millis(at), price)
            for at, price in live_emulator.published(curve["id"], tenor)
            if millis(at) > snapshot[tenor]["generatedOn"]
        ]
        for tenor in snapshot
    }
    for tenor, values in world.items():
        assert len(values) >= 29
        mine = [(p["generatedOn"], p["price"]) for p in received if p["tenor"] == tenor]
        from_world = [value for value in mine if value in values]
        assert from_world == [values[-1]], tenor
    socket.ping()
