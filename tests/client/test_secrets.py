"""Tokens and passwords never show: not in logs, exceptions or reprs."""

from __future__ import annotations

import logging
import traceback

import pytest

import marketcurves as mc

RANGE = ("2025-05-01", "2025-05-30")


def test_a_session_with_faults_leaks_no_secret(fresh_em, fob, caplog):
    caplog.set_level(logging.DEBUG)
    issued: list[str] = []

    def provider() -> str:
        issued.append(fresh_em.token())
        return issued[-1]

    password = fresh_em.credentials["password"]
    wrong_password = "wrong-" + password + "-horse-battery"
    fixed = fresh_em.token()
    errors: list[BaseException] = []
    clients = {
        "login": fresh_em.client(max_retries=2),
        "provider": fresh_em.client(token_provider=provider, max_retries=2),
        "fixed": fresh_em.client(token=fixed, max_retries=2),
        "wrong": fresh_em.client(
            email=fresh_em.credentials["email"], password=wrong_password, max_retries=2
        ),
    }

    for client in clients.values():
        fresh_em.fail_next(2, 503, path="/historical")
        try:
            client.settlements(fob["id"], *RANGE, ["Jul 25", "Aug 25"])
        except mc.MarketCurvesError as error:
            errors.append(error)
    fresh_em.expire_tokens()
    for client in clients.values():
        try:
            client.last_settlement(fob["id"], "Jul 25")
        except mc.MarketCurvesError as error:
            errors.append(error)
    fresh_em.fail_next(50, 503, path="/authenticate")
    try:
        fresh_em.client(max_retries=0).catalogue()
    except mc.MarketCurvesError as error:
        errors.append(error)
    fresh_em.clear_faults()
    fresh_em.fail_next(5, 503, path="/ongoing")
    try:
        clients["provider"].last_assessments(fob["id"])
    except mc.MarketCurvesError as error:
        errors.append(error)

    # The session did meet the faults: refused logins, expired tokens, retries.
    kinds = {type(e) for e in errors}
    assert mc.AuthError in kinds and mc.ServiceError in kinds, errors
    assert issued, "the provider handed out tokens"

    secrets = [password, wrong_password, fixed, *issued]
    texts = [r.getMessage() for r in caplog.records]
    texts += [str(a) for r in caplog.records for a in (r.args or ())]
    texts += [str(e) for e in errors] + [repr(e) for e in errors]
    texts += ["".join(traceback.format_exception(type(e), e, e.__traceback__)) for e in errors]
    texts += [repr(c) for c in clients.values()] + [str(c) for c in clients.values()]
    for secret in secrets:
        for text in texts:
            assert secret not in text, f"a secret shows in {text!r}"


@pytest.mark.parametrize("auth", ["token", "login", "token_provider"])
def test_the_repr_shows_the_url_and_hides_the_credentials(em, auth):
    token = em.token()
    credentials = {
        "token": {"token": token},
        "login": dict(em.credentials),
        "token_provider": {"token_provider": lambda: token},
    }[auth]
    client = em.client(**credentials)
    shown = repr(client)
    assert em.base_url in shown
    assert token not in shown
    assert em.credentials["password"] not in shown


def test_retries_go_to_the_marketcurves_logger(fresh_em, fob, caplog):
    """Logging is the design's: Python's ``logging``, loggers named ``marketcurves.*``;
    a retry is worth a record that names the endpoint and the status."""
    caplog.set_level(logging.DEBUG)
    client = fresh_em.client(token=fresh_em.token())
    fresh_em.fail_next(2, 503, path="/historical")
    client.settlements(fob["id"], *RANGE, ["Jul 25"])
    records = [r for r in caplog.records if r.name.startswith("marketcurves")]
    retries = [r for r in records if "503" in r.getMessage()]
    assert retries, f"no retry was logged: {[r.getMessage() for r in caplog.records]}"
    assert all("historical/settlements" in r.getMessage() for r in retries)
