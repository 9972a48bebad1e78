"""Authentication, the bearer check of every endpoint, and error bodies."""

import base64
import json
import re

import pytest
import requests

from marketcurves.testing import Emulator

BASE64URL = re.compile(r"^[A-Za-z0-9_-]+$")
# 2025-06-13T17:00:00Z, where every emulator of this suite starts its clock.
START_EPOCH = 1_749_834_000


def post_auth(emulator, **kw):
    return requests.post(emulator.base_url + "/authenticate", timeout=30, **kw)


def test_authenticate_returns_a_token_that_opens_the_data_endpoints(shared_emulator, api):
    response = post_auth(shared_emulator, json=shared_emulator.credentials)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"token"}
    assert isinstance(body["token"], str) and body["token"]
    assert api.get("/catalogue", token=body["token"]).status_code == 200


def test_the_full_account_authenticates_too(shared_emulator, api, check):
    response = post_auth(shared_emulator, json={"email": check.FULL, "password": "full-password"})
    assert response.status_code == 200, response.text
    token = response.json()["token"]
    assert check.jwt_part(token, 1)["sub"] == check.FULL
    assert api.get("/catalogue", token=token).status_code == 200


@pytest.mark.parametrize(
    "login",
    [
        {"email": "demo@marketcurves.test", "password": "wrong-password"},
        {"email": "demo@marketcurves.test", "password": ""},
        {"email": "nobody@marketcurves.test", "password": "demo-password"},
        {"email": "full@marketcurves.test", "password": "demo-password"},
    ],
    ids=["wrong-password", "empty-password", "unknown-email", "other-accounts-password"],
)
def test_bad_credentials_are_401(shared_emulator, check, login):
    response = post_auth(shared_emulator, json=login)
    body = check.error(response, 401)
    assert "token" not in body


@pytest.mark.parametrize(
    "request_kw",
    [
        {"data": "email=demo@marketcurves.test&password=demo-password"},
        {"data": "not json", "headers": {"Content-Type": "application/json"}},
        {"data": "{", "headers": {"Content-Type": "application/json"}},
        {},
        {"json": {"email": "demo@marketcurves.test"}},
        {"json": {"password": "demo-password"}},
        {"json": {}},
        {"json": ["demo@marketcurves.test", "demo-password"]},
        {"json": {"email": 1, "password": "demo-password"}},
    ],
    ids=[
        "form-body",
        "text-as-json",
        "truncated-json",
        "no-body",
        "no-password",
        "no-email",
        "empty-object",
        "array",
        "email-not-a-string",
    ],
)
def test_malformed_authenticate_bodies_are_400(shared_emulator, check, request_kw):
    check.error(post_auth(shared_emulator, **request_kw), 400)


def test_tokens_are_hs256_jwts_valid_twelve_hours(shared_emulator, check):
    issued = post_auth(shared_emulator, json=shared_emulator.credentials).json()["token"]
    for token, email in [
        (issued, check.DEMO),
        (shared_emulator.token(), check.DEMO),
        (shared_emulator.token(email=check.FULL), check.FULL),
    ]:
        parts = token.split(".")
        assert len(parts) == 3
        assert all(BASE64URL.match(p) for p in parts), token
        header, payload = check.jwt_part(token, 0), check.jwt_part(token, 1)
        assert header["alg"] == "HS256"
        assert payload["sub"] == email
        assert payload["iat"] == START_EPOCH
        assert payload["exp"] - payload["iat"] == 43200


def test_a_token_expires_after_twelve_hours_on_the_emulator_clock(emulator, own_api, check):
    assert own_api.get("/catalogue").status_code == 200
    emulator.advance(12 * 3600 - 1)
    assert own_api.get("/catalogue").status_code == 200
    emulator.advance(1)
    check.error(own_api.get("/catalogue"), 401)
    fresh = post_auth(emulator, json=emulator.credentials)
    assert fresh.status_code == 200
    payload = check.jwt_part(fresh.json()["token"], 1)
    assert payload["iat"] == START_EPOCH + 12 * 3600
    assert own_api.get("/catalogue", token=fresh.json()["token"]).status_code == 200


def test_expire_tokens_ends_issued_tokens_only(emulator, own_api, check):
    old_full = emulator.token(email=check.FULL)
    emulator.expire_tokens()
    check.error(own_api.get("/catalogue"), 401)
    check.error(own_api.get("/catalogue", token=old_full), 401)
    assert own_api.get("/catalogue", token=emulator.token()).status_code == 200
    fresh = post_auth(emulator, json=emulator.credentials).json()["token"]
    assert own_api.get("/catalogue", token=fresh).status_code == 200


def forged_token(token, **changes):
    """The token with its payload changed and its signature kept."""
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims.update(changes)
    encoded = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    return f"{header}.{encoded}.{signature}"


def unsigned_token(token):
    header = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
    return f"{header}.{token.split('.')[1]}."


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        "Bearer garbage",
        "Bearer a.b.c",
        "Basic {token}",
        "Token {token}",
        "{token}",
        "Bearer {forged}",
        "Bearer {unsigned}",
        "Bearer {token}x",
    ],
    ids=[
        "missing",
        "empty",
        "scheme-only",
        "scheme-and-space",
        "garbage",
        "three-garbage-parts",
        "basic-scheme",
        "token-scheme",
        "no-scheme",
        "payload-changed",
        "alg-none",
        "signature-changed",
    ],
)
def test_every_endpoint_refuses_a_request_without_a_valid_bearer_token(
    api, fob_curve, check, authorization
):
    token = api.token
    values = {
        "token": token,
        "forged": forged_token(token, sub=check.FULL),
        "unsigned": unsigned_token(token),
    }
    headers = {} if authorization is None else {"Authorization": authorization.format(**values)}
    for path, query in [("/catalogue", {}), *check.data_endpoints(fob_curve["id"], "Jul 25")]:
        check.error(api.get(path, query, headers=headers), 401)
        # The same request with the real token is fine, so the header alone made the 401.
        assert api.get(path, query).status_code == 200, path


def test_a_token_of_another_emulator_is_refused(api, check):
    with Emulator(seed=1, time_scale=0, start=check.START) as other:
        check.error(api.get("/catalogue", token=other.token()), 401)


@pytest.mark.parametrize(
    "path",
    [
        "/nothing",
        "/catalogues",
        "/catalogue/extra",
        "/historical",
        "/historical/settlements",
        "/ongoing/last-settlement",
        "/ongoing/intraday/{id}",
        "/ongoing/last-assessments/{id}/Jul%2025/extra",
        "/bulk-downloads",
    ],
)
def test_unknown_paths_are_404(api, fob_curve, check, path):
    check.error(api.get(path.format(id=fob_curve["id"])), 404)


def test_paths_outside_v2_are_404(api, check):
    root = api.base_url.removesuffix("/v2")
    for path in ["/v1/catalogue", "/catalogue", "/", "/v3/catalogue"]:
        check.error(api.get(root + path), 404)


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/authenticate"), ("POST", "/catalogue"), ("DELETE", "/catalogue")],
)
def test_a_wrong_method_gets_a_4xx_with_the_json_error_body(api, method, path):
    response = api.session.request(method, api.base_url + path, headers=api.headers(), timeout=30)
    assert 400 <= response.status_code < 500
    body = response.json() if response.content else None
    assert body is not None, f"{method} {path}: {response.status_code} with an empty body"
    assert body["status"] == response.status_code
    assert isinstance(body["message"], str) and body["message"].strip()
