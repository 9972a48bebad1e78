"""``mc.Client(...)``: every parameter, refused with InvalidRequest naming it.
(tests/client/test_inputs.py covers the first cases of each; these fill in
the rest.)"""

from __future__ import annotations

import math

import pytest
from inputs_helpers import CLOSED_URL, assert_invalid

import marketcurves as mc

CASES = [
    # base_url
    ({"base_url": ""}, "base_url"),
    ({"base_url": "   "}, "base_url"),
    ({"base_url": b"http://127.0.0.1:9/v2"}, "base_url"),
    ({"base_url": "http://127.0.0.1:9/v2?x=1"}, "base_url"),
    ({"base_url": "http://127.0.0.1:9/v2#top"}, "base_url"),
    ({"base_url": "http://127.0.0.1:9/v2?"}, "base_url"),
    ({"base_url": "http://127.0.0.1:9/v 2"}, "base_url"),
    ({"base_url": "http://127.0.0.1:9/v2\n"}, "base_url"),
    ({"base_url": "http://user:secret@127.0.0.1:9/v2"}, "base_url"),
    ({"base_url": "ws://127.0.0.1:9/v2"}, "base_url"),
    # live_url
    ({"live_url": ""}, "live_url"),
    ({"live_url": 5}, "live_url"),
    ({"live_url": "ws://"}, "live_url"),
    ({"live_url": "https://127.0.0.1:9"}, "live_url"),
    ({"live_url": "wss://user:secret@127.0.0.1:9"}, "live_url"),
    ({"live_url": "ws://127.0.0.1:9/?token=x"}, "live_url"),
    # token
    ({"token": "   "}, "token"),
    ({"token": b"jwt"}, "token"),
    ({"token": "a.b\nc"}, "token"),
    ({"token": "a.b\x00c"}, "token"),
    ({"token": ["jwt"]}, "token"),
    # token_provider
    ({"token": None, "token_provider": 5}, "token_provider"),
    ({"token": None, "token_provider": "a token"}, "token_provider"),
    # email and password
    ({"token": None, "email": "", "password": "p"}, "email"),
    ({"token": None, "email": 5, "password": "p"}, "email"),
    ({"token": None, "email": "a@b.c", "password": ""}, "password"),
    ({"token": None, "email": "a@b.c", "password": 5}, "password"),
    ({"token": None, "email": "a@b.c", "password": None}, "password"),
    # the numbers
    ({"max_concurrency": None}, "max_concurrency"),
    ({"max_concurrency": 1001}, "max_concurrency"),
    ({"timeout": None}, "timeout"),
    ({"timeout": math.inf}, "timeout"),
    ({"timeout": -math.inf}, "timeout"),
    ({"timeout": 1e300}, "timeout"),
    ({"timeout": "30"}, "timeout"),
    ({"max_retries": None}, "max_retries"),
    ({"max_retries": True}, "max_retries"),
    ({"max_retries": 101}, "max_retries"),
]


@pytest.mark.parametrize(("kwargs", "name"), CASES, ids=repr)
def test_each_bad_argument_is_named(no_env, kwargs, name):
    arguments = {"base_url": CLOSED_URL, "token": "t", **kwargs}
    assert_invalid(lambda: mc.Client(**arguments), name)


def test_a_refused_url_never_shows_the_login_it_carries(no_env):
    for kwargs in (
        {"base_url": "http://user:secret@127.0.0.1:9/v2"},
        {"base_url": "htp://user:secret@127.0.0.1:9/v2"},
        {"base_url": "http://user:secret@127.0.0.1:9/v2?a=1"},
        # A key in the query, as some services take one.
        {"base_url": "http://127.0.0.1:9/v2?api_key=secret"},
        {"base_url": "htp://127.0.0.1:9/v2?api_key=secret"},
        {"base_url": "http://127.0.0.1:9/v2#secret"},
    ):
        error = assert_invalid(lambda k=kwargs: mc.Client(token="t", **k), "base_url")
        assert "secret" not in str(error), str(error)


def test_a_refused_url_from_the_environment_never_shows_its_query(no_env, capsys):
    from marketcurves.cli import main

    no_env.setenv("MARKETCURVES_BASE_URL", "http://127.0.0.1:9/v2?api_key=secret")
    error = assert_invalid(lambda: mc.Client(token="t"), "base_url")
    assert "secret" not in str(error)
    no_env.setenv("MARKETCURVES_TOKEN", "t")
    code = main(["catalogue"])
    assert code != 0
    printed = capsys.readouterr()
    assert "base_url" in printed.err and "secret" not in printed.out + printed.err


def test_a_bad_url_from_the_environment_is_named_too(no_env):
    no_env.setenv("MARKETCURVES_BASE_URL", "ftp://127.0.0.1:9")
    assert_invalid(lambda: mc.Client(token="t"), "base_url")
    no_env.setenv("MARKETCURVES_BASE_URL", CLOSED_URL)
    no_env.setenv("MARKETCURVES_LIVE_URL", "http://127.0.0.1:9")
    assert_invalid(lambda: mc.Client(token="t"), "live_url")


def test_surrounding_whitespace_of_a_token_is_dropped(no_env):
    # A token read from a file ends in a newline; it still makes a client.
    client = mc.Client(base_url=CLOSED_URL, token=" a.b.c\n")
    assert client.closed is False
    client.close()
