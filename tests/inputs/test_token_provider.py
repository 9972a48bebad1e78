"""A ``token_provider`` that raises or returns anything but a non-empty
``str``: the call that needed the token raises AuthError naming
``token_provider``, before its request is sent (a request sent to the closed
port would fail with ServiceError instead). The provider is only called
when a token is needed, so ``mc.Client(...)`` itself accepts any callable.

What it raised is named with its message, from which anything that looks
like a secret is taken out, and chained as the AuthError's ``__cause__``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from inputs_helpers import ID, unsent_client

import marketcurves as mc


class Refusal(Exception):
    pass


def raising() -> str:
    raise Refusal("vault password is hunter2")


def returning(value: Any) -> Callable[[], Any]:
    return lambda: value


PROVIDERS = {
    "raises": (raising, "raised Refusal"),
    "raises ValueError": (lambda: int("x"), "raised ValueError"),
    "returns None": (returning(None), "NoneType"),
    "returns an int": (returning(5), "int"),
    "returns bytes": (returning(b"a.b.c"), "bytes"),
    "returns an empty str": (returning(""), "empty"),
    "returns blanks": (returning("  \n"), "empty"),
    "returns a control character": (returning("a.b\nc"), "control"),
}


def assert_names_the_provider(error: BaseException, detail: str) -> None:
    assert isinstance(error, mc.AuthError), repr(error)
    assert "token_provider" in str(error) and detail in str(error), str(error)
    assert "hunter2" not in str(error)


CALLS: dict[str, Callable[[mc.Client], Any]] = {
    "catalogue": lambda c: c.catalogue(),
    "last_settlement": lambda c: c.last_settlement(ID, "Jul 25"),
    "settlements": lambda c: c.settlements(ID, "2025-05-01", "2025-05-02"),
    "intraday_async": lambda c: asyncio.run(c.intraday_async(ID, "Jul 25")),
    "bulk_submit": lambda c: c.bulk_submit("JET", "2025-01", "2025-02"),
}


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("kind", list(PROVIDERS))
def test_a_bad_provider_is_an_auth_error_before_the_request(kind, call):
    provider, detail = PROVIDERS[kind]
    with unsent_client(provider) as client, pytest.raises(mc.MarketCurvesError) as caught:
        CALLS[call](client)
    assert_names_the_provider(caught.value, detail)


def vault_unavailable() -> str:
    raise ConnectionError("vault unavailable at https://vault.corp/v1?token=hunter2")


@pytest.mark.parametrize("call", list(CALLS))
def test_what_the_provider_raised_is_the_cause_and_its_message_is_shown(call):
    with unsent_client(vault_unavailable) as client, pytest.raises(mc.AuthError) as caught:
        CALLS[call](client)
    error = caught.value
    assert isinstance(error.__cause__, ConnectionError), repr(error.__cause__)
    assert "hunter2" in str(error.__cause__), "the cause is the very exception raised"
    assert "raised ConnectionError: vault unavailable at https://vault.corp/v1?" in str(error)
    assert "hunter2" not in str(error)


def test_a_provider_message_that_names_a_secret_is_redacted():
    with unsent_client(raising) as client, pytest.raises(mc.AuthError) as caught:
        client.catalogue()
    assert "raised Refusal: vault password is ***" in str(caught.value)
    assert isinstance(caught.value.__cause__, Refusal)


def test_the_live_feed_keeps_the_provider_cause():
    with unsent_client(vault_unavailable) as client:
        feed = client.live(backfill=False, reconnect_max=0.1)
        with pytest.raises(mc.AuthError) as caught:
            feed.subscribe(ID, "*")
    assert "vault unavailable" in str(caught.value)
    assert isinstance(caught.value.__cause__, ConnectionError)


def test_a_bad_provider_leaves_no_dest_behind(tmp_path):
    dest = tmp_path / "dest"
    with unsent_client(raising) as client, pytest.raises(mc.AuthError):
        client.bulk_download("JET", "2025-01", "2025-02", dest, progress=False)
    assert not dest.exists()


def test_a_bad_provider_stops_the_live_feed_with_an_auth_error():
    with unsent_client(returning(None)) as client:
        feed = client.live(backfill=False, reconnect_max=0.1)
        with pytest.raises(mc.AuthError) as caught:
            feed.subscribe(ID, "*")
        assert_names_the_provider(caught.value, "NoneType")
        feed.close()


def test_the_provider_is_asked_again_after_it_failed():
    """A provider that failed once is not remembered as broken: the next call asks again."""
    answers = iter([None, "a.b.c"])
    with unsent_client(lambda: next(answers)) as client:
        with pytest.raises(mc.AuthError):
            client.last_settlement(ID, "Jul 25")
        with pytest.raises(mc.ServiceError):  # got a token, and sent to the closed port
            client.last_settlement(ID, "Jul 25")
