"""Faults of the service: retried when they are transient, and otherwise the
exception of the design's tree with a message that says what failed."""

from __future__ import annotations

import re
import time

import pytest

import marketcurves as mc

SETTLEMENTS = "/historical/settlements"
INTRADAY = "/historical/intraday"
RANGE = ("2025-05-01", "2025-06-13")
TENORS = ["Jul 25", "Aug 25", "Q3 25"]


def _settlements(client, fob, tenors=TENORS):
    return client.settlements(fob["id"], *RANGE, tenors)


def test_three_503s_are_survived(fresh_em, fresh_wire, fob):
    client = fresh_em.client()
    clean = _settlements(client, fob)
    fresh_em.fail_next(3, 503, path=SETTLEMENTS)
    assert _settlements(client, fob).equals(clean)
    # The client met all three: none is left for the next request.
    assert fresh_wire.settlements(fob["id"], "Jul 25", *RANGE)


def test_two_429s_with_retry_after_are_survived_and_honoured(fresh_em, fresh_wire, fob):
    client = fresh_em.client()
    clean = _settlements(client, fob, ["Jul 25"])
    fresh_em.fail_next(2, 429, path=SETTLEMENTS, retry_after=1)
    began = time.monotonic()
    assert _settlements(client, fob, ["Jul 25"]).equals(clean)
    assert time.monotonic() - began >= 1.5, "Retry-After: 1 was honoured twice"
    assert fresh_wire.settlements(fob["id"], "Jul 25", *RANGE)


def test_429_forever_is_rate_limited_naming_endpoint_and_attempts(fresh_em, fob):
    client = fresh_em.client(max_retries=2)
    fresh_em.fail_next(100, 429, path=SETTLEMENTS)
    with pytest.raises(mc.RateLimited) as caught:
        _settlements(client, fob, ["Jul 25"])
    message = str(caught.value)
    assert "/historical/settlements" in message
    assert re.search(r"\b3 attempts\b", message), message
    assert "429" in message
    assert isinstance(caught.value, mc.MarketCurvesError)


def test_503_beyond_max_retries_is_a_service_error(fresh_em, fob):
    client = fresh_em.client(max_retries=1)
    fresh_em.fail_next(100, 503, path=SETTLEMENTS)
    with pytest.raises(mc.ServiceError) as caught:
        _settlements(client, fob, ["Jul 25"])
    message = str(caught.value)
    assert "/historical/settlements" in message
    assert "503" in message
    assert re.search(r"\b2 attempts\b", message), message


def test_responses_cut_halfway_are_survived(fresh_em, fresh_wire, coarse):
    client = fresh_em.client()
    args = (coarse["id"], "2025-05-20", "2025-06-13", ["Aug 25", "Jul 25"])
    clean = client.intraday_history(*args)
    fresh_em.reset_next(3, path=INTRADAY)
    assert client.intraday_history(*args).equals(clean)
    assert fresh_wire.intraday_records(coarse["id"], "Aug 25", "2025-06-12", "2025-06-12")


def _assert_times_out(client, fresh_em, fob):
    assert client.last_settlement(fob["id"], "Jul 25").num_rows == 1
    fresh_em.set_latency(1.0)
    began = time.monotonic()
    with pytest.raises(mc.ServiceError) as caught:
        client.last_settlement(fob["id"], "Jul 25")
    assert time.monotonic() - began < 5.0
    assert re.search(r"time(d)? ?out", str(caught.value), re.I), str(caught.value)
    fresh_em.clear_faults()
    assert client.last_settlement(fob["id"], "Jul 25").num_rows == 1


def test_latency_beyond_the_timeout_is_a_service_error(fresh_em, fob):
    _assert_times_out(fresh_em.client(timeout=0.3, max_retries=1), fresh_em, fob)


def test_latency_beyond_the_timeout_with_a_fixed_token(fresh_em, fob):
    client = fresh_em.client(token=fresh_em.token(), timeout=0.3, max_retries=1)
    _assert_times_out(client, fresh_em, fob)


def test_expired_tokens_mid_session_are_renewed(fresh_em, fob):
    issued = []

    def provider():
        issued.append(fresh_em.token())
        return issued[-1]

    by_provider, by_login = fresh_em.client(token_provider=provider), fresh_em.client()
    before = by_provider.settlements(fob["id"], *RANGE, TENORS)
    assert by_login.settlements(fob["id"], *RANGE, TENORS).equals(before)
    calls = len(issued)
    assert calls >= 1
    fresh_em.expire_tokens()
    assert by_provider.settlements(fob["id"], *RANGE, TENORS).equals(before)
    assert by_login.settlements(fob["id"], *RANGE, TENORS).equals(before)
    assert len(issued) > calls, "the provider was asked for a fresh token"


def test_a_token_is_reused_while_it_is_valid(fresh_em, fob):
    """Emulator tokens are valid 12 hours on its clock: one is enough for a session."""
    issued = []

    def provider():
        issued.append(fresh_em.token())
        return issued[-1]

    client = fresh_em.client(token_provider=provider)
    client.catalogue()
    client.settlements(fob["id"], *RANGE, TENORS)
    client.last_settlement(fob["id"])
    assert len(issued) == 1, f"the provider was called {len(issued)} times for one session"


def test_a_refused_token_is_replaced_once(fresh_em, fob):
    client = fresh_em.client(token_provider=fresh_em.token)
    clean = client.last_settlement(fob["id"], "Jul 25")
    for status in (401, 403):
        fresh_em.fail_next(1, status, path="/ongoing")
        assert client.last_settlement(fob["id"], "Jul 25").equals(clean)
    # Refused again with the fresh token: an error, not a loop.
    fresh_em.fail_next(10, 401, path="/ongoing")
    began = time.monotonic()
    with pytest.raises(mc.AuthError):
        client.last_settlement(fob["id"], "Jul 25")
    assert time.monotonic() - began < 5.0
    fresh_em.clear_faults()
    fresh_em.fail_next(10, 403, path="/ongoing")
    with pytest.raises(mc.AccessDenied):
        client.last_settlement(fob["id"], "Jul 25")


@pytest.mark.parametrize("expire", ["expire_tokens", "clock"])
def test_an_expired_fixed_token_is_an_auth_error(fresh_em, fob, expire):
    token = fresh_em.token()
    client = fresh_em.client(token=token)
    assert client.last_settlement(fob["id"], "Jul 25").num_rows == 1
    if expire == "clock":
        fresh_em.advance(13 * 3600)
    else:
        fresh_em.expire_tokens()
    with pytest.raises(mc.AuthError) as caught:
        client.last_settlement(fob["id"], "Jul 25")
    assert token not in str(caught.value)


def test_a_wrong_password_is_an_auth_error(fresh_em):
    client = fresh_em.client(email=fresh_em.credentials["email"], password="not-the-password")
    with pytest.raises(mc.AuthError) as caught:
        client.catalogue()
    assert "not-the-password" not in str(caught.value)


def test_the_token_provider_is_called(fresh_em, fob):
    calls = []

    def provider():
        calls.append(1)
        return fresh_em.token()

    client = fresh_em.client(token_provider=provider)
    assert client.last_settlement(fob["id"], "Jul 25").num_rows == 1
    assert calls


def _raises():
    raise RuntimeError("the vault is closed")


@pytest.mark.parametrize(
    "provider",
    [_raises, lambda: 5, lambda: None, lambda: b"bytes", lambda: ""],
    ids=["raises", "int", "none", "bytes", "empty"],
)
def test_a_failing_token_provider_is_an_auth_error(fresh_em, fob, provider):
    client = fresh_em.client(token_provider=provider)
    with pytest.raises(mc.AuthError):
        client.last_settlement(fob["id"], "Jul 25")
    with pytest.raises(mc.AuthError):
        client.catalogue()


def test_curves_outside_the_licence_are_access_denied(fresh_em, fob, sales):
    client = fresh_em.client()
    with pytest.raises(mc.AccessDenied):
        client.last_settlement(sales["id"])
    with pytest.raises(mc.AccessDenied):
        client.settlements(sales["id"], *RANGE, [sales["contracts"][0]])
    fresh_em.revoke_licence(quotation="Fob")
    with pytest.raises(mc.AccessDenied) as caught:
        client.intraday(fob["id"], "Jul 25")
    assert "/ongoing/intraday" in str(caught.value)
    fresh_em.restore_licence()
    assert client.intraday(fob["id"], "Jul 25").num_rows > 0
    assert client.last_settlement(sales["id"]).num_rows > 0


UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.last_settlement(UNKNOWN),
        lambda c: c.last_assessments(UNKNOWN, "Jul 25"),
        lambda c: c.intraday(UNKNOWN, "Jul 25"),
        lambda c: c.settlements(UNKNOWN, *RANGE, ["Jul 25"]),
        lambda c: c.intraday_history(UNKNOWN, *RANGE),
    ],
    ids=["last_settlement", "last_assessments", "intraday", "settlements", "intraday_history"],
)
def test_an_unknown_curve_is_not_found(client, call):
    with pytest.raises(mc.NotFound) as caught:
        call(client)
    assert UNKNOWN in str(caught.value)


@pytest.mark.parametrize(
    ("status", "error"),
    [(404, mc.NotFound), (400, mc.InvalidRequest), (422, mc.InvalidRequest)],
)
def test_refusals_of_the_service_map_to_exceptions(fresh_em, fob, status, error):
    client = fresh_em.client()
    fresh_em.fail_next(1, status, path=SETTLEMENTS)
    with pytest.raises(error) as caught:
        _settlements(client, fob, ["Jul 25"])
    assert "/historical/settlements" in str(caught.value)
    assert _settlements(client, fob, ["Jul 25"]).num_rows > 0


def test_an_unreachable_service_is_a_service_error(closed_client):
    began = time.monotonic()
    with pytest.raises(mc.ServiceError) as caught:
        closed_client.last_settlement(UNKNOWN, "Jul 25")
    assert time.monotonic() - began < 5.0
    assert "/ongoing/last-settlement" in str(caught.value)
    assert "cannot connect to 127.0.0.1:9 " in str(caught.value), "the host is named"


def test_a_login_to_an_unreachable_service_names_the_host():
    client = mc.Client(
        base_url="http://127.0.0.1:9/v2", email="a@b.test", password="pw", max_retries=0
    )
    with pytest.raises(mc.ServiceError, match=r"/authenticate: cannot connect to 127\.0\.0\.1:9 "):
        client.catalogue()


def test_a_base_url_without_its_version_segment_is_said_to_be_so_not_a_bad_password(em):
    credentials = em.credentials
    client = mc.Client(
        base_url=em.base_url.removesuffix("/v2"),
        email=credentials["email"],
        password=credentials["password"],
        max_retries=0,
    )
    with pytest.raises(mc.AuthError) as refused:
        client.catalogue()
    message = str(refused.value)
    assert "HTTP 404" in message and "/v2" in message and "version segment" in message
    assert "refused" not in message and credentials["password"] not in message
    client.close()
