"""The emulator's fault controls, seen from the wire."""

import time

import pytest
import requests

BROKEN = (requests.exceptions.ChunkedEncodingError, requests.exceptions.ConnectionError)


def settlement_path(curve):
    return f"/historical/settlements/{curve['id']}/Jul%2025"


SETTLEMENT_QUERY = {"startDate": "2025-06-09", "endDate": "2025-06-13"}


def test_fail_next_fails_exactly_the_next_requests(emulator, own_api, check):
    emulator.fail_next(2, 503)
    check.error(own_api.get("/catalogue"), 503)
    check.error(own_api.get("/catalogue"), 503)
    assert own_api.get("/catalogue").status_code == 200
    assert own_api.get("/catalogue").status_code == 200


@pytest.mark.parametrize("status", [500, 502, 504, 429, 400])
def test_fail_next_uses_the_status_it_is_given(emulator, own_api, check, status):
    emulator.fail_next(1, status)
    check.error(own_api.get("/catalogue"), status)
    assert own_api.get("/catalogue").status_code == 200


def test_a_429_carries_retry_after(emulator, own_api, check):
    emulator.fail_next(1, 429, retry_after=3)
    response = own_api.get("/catalogue")
    check.error(response, 429)
    assert response.headers["Retry-After"] == "3"
    assert "Retry-After" not in own_api.get("/catalogue").headers


def test_a_failure_without_retry_after_has_no_such_header(emulator, own_api, check):
    emulator.fail_next(1, 503)
    response = own_api.get("/catalogue")
    check.error(response, 503)
    assert "Retry-After" not in response.headers


def test_failures_hit_every_endpoint_including_authenticate(emulator, own_api, fob_curve, check):
    emulator.fail_next(1, 503)
    response = requests.post(
        emulator.base_url + "/authenticate", json=emulator.credentials, timeout=30
    )
    check.error(response, 503)
    emulator.fail_next(1, 503)
    check.error(own_api.get(settlement_path(fob_curve), SETTLEMENT_QUERY), 503)
    assert own_api.get(settlement_path(fob_curve), SETTLEMENT_QUERY).status_code == 200


@pytest.mark.parametrize("prefix", ["/catalogue", "/v2/catalogue"])
def test_a_failure_with_a_path_prefix_spares_other_paths(
    emulator, own_api, fob_curve, check, prefix
):
    emulator.fail_next(1, 503, path=prefix)
    for path, query in check.data_endpoints(fob_curve["id"], "Jul 25"):
        assert own_api.get(path, query).status_code == 200, path
    check.error(own_api.get("/catalogue"), 503)
    assert own_api.get("/catalogue").status_code == 200


def test_a_prefix_matches_every_path_below_it(emulator, own_api, fob_curve, check):
    emulator.fail_next(2, 502, path="/ongoing")
    assert own_api.get(settlement_path(fob_curve), SETTLEMENT_QUERY).status_code == 200
    check.error(own_api.get(f"/ongoing/last-settlement/{fob_curve['id']}"), 502)
    check.error(own_api.get(f"/ongoing/intraday/{fob_curve['id']}/Jul%2025"), 502)
    assert own_api.get(f"/ongoing/last-settlement/{fob_curve['id']}").status_code == 200


def test_reset_next_breaks_the_response_and_the_next_one_succeeds(emulator, own_api):
    emulator.reset_next()
    with pytest.raises(BROKEN):
        own_api.get("/catalogue")
    body = own_api.ok("/catalogue")
    assert len(body["items"]) == 50


def test_reset_next_counts_and_prefix(emulator, own_api, fob_curve):
    emulator.reset_next(2, path="/historical/settlements")
    assert own_api.get("/catalogue").status_code == 200
    for _ in range(2):
        with pytest.raises(BROKEN):
            own_api.get(settlement_path(fob_curve), SETTLEMENT_QUERY)
    entries = own_api.ok(settlement_path(fob_curve), SETTLEMENT_QUERY)
    assert len(entries) == 5


def test_corrupt_next_truncated_sends_a_whole_response_with_half_the_json(emulator, own_api):
    whole = own_api.get("/catalogue")
    emulator.corrupt_next(1, path="/catalogue", kind="truncated")
    response = own_api.get("/catalogue")
    assert response.status_code == 200
    assert response.content == whole.content[: len(whole.content) // 2]
    with pytest.raises(ValueError):
        response.json()
    assert own_api.get("/catalogue").content == whole.content


def test_corrupt_next_malformed_sends_a_page_that_is_not_json(emulator, own_api, fob_curve):
    emulator.corrupt_next(2, path="/historical/settlements", kind="malformed")
    assert own_api.get("/catalogue").status_code == 200
    for _ in range(2):
        response = own_api.get(settlement_path(fob_curve), SETTLEMENT_QUERY)
        assert response.status_code == 200
        assert response.headers["Content-Type"] == "text/html"
        assert response.text.startswith("<html>")
    assert len(own_api.ok(settlement_path(fob_curve), SETTLEMENT_QUERY)) == 5


def test_corrupt_next_refuses_an_unknown_kind(emulator):
    with pytest.raises(ValueError, match="kind"):
        emulator.corrupt_next(1, kind="reset")


def test_latency_delays_every_response_until_cleared(emulator, own_api):
    emulator.set_latency(0.3)
    began = time.monotonic()
    assert own_api.get("/catalogue").status_code == 200
    assert time.monotonic() - began >= 0.3
    emulator.clear_faults()
    began = time.monotonic()
    assert own_api.get("/catalogue").status_code == 200
    assert time.monotonic() - began < 0.3


def test_clear_faults_drops_pending_failures_and_resets(emulator, own_api):
    emulator.fail_next(5, 503)
    emulator.reset_next(5)
    emulator.clear_faults()
    for _ in range(3):
        assert own_api.get("/catalogue").status_code == 200
