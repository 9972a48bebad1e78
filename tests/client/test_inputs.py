"""Bad input raises InvalidRequest (a ValueError too), naming the argument,
before anything is sent.

Most tests use a client of a closed port: any request it sent would fail with
ServiceError, so an InvalidRequest proves the call stopped before sending. One
test also proves it on the emulator, with an injected failure left untouched.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import math
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

import marketcurves as mc

ID = "425934c1-68dd-43eb-b8ee-477999b2f5ec"
RANGE = ("2025-05-01", "2025-05-31")


def call(client: mc.Client, method: str, awaitable: bool, *args: Any, **kw: Any) -> Any:
    if awaitable:
        return asyncio.run(getattr(client, f"{method}_async")(*args, **kw))
    return getattr(client, method)(*args, **kw)


def assert_invalid(run: Callable[[], Any], *names: str) -> mc.InvalidRequest:
    with pytest.raises(mc.InvalidRequest) as caught:
        run()
    assert isinstance(caught.value, ValueError)
    for name in names:
        assert name in str(caught.value), (name, str(caught.value))
    return caught.value


BOTH = pytest.mark.parametrize("awaitable", [False, True], ids=["sync", "async"])

# How each price method is called, given a curve id (and a tenor or tenors).
WITH_ID: dict[str, Callable[[Any], tuple]] = {
    "last_settlement": lambda cid: (cid,),
    "last_assessments": lambda cid: (cid, "Jul 25"),
    "intraday": lambda cid: (cid, "Jul 25"),
    "settlements": lambda cid: (cid, *RANGE, ["Jul 25"]),
    "intraday_history": lambda cid: (cid, *RANGE, ["Jul 25"]),
}


def test_the_closed_client_fails_any_request(closed_client):
    with pytest.raises(mc.ServiceError):
        closed_client.last_settlement(ID, "Jul 25")
    with pytest.raises(mc.ServiceError):
        asyncio.run(closed_client.catalogue_async())


@BOTH
@pytest.mark.parametrize("method", list(WITH_ID))
@pytest.mark.parametrize(
    "bad",
    [None, 3, "", "   ", object(), SimpleNamespace(id=None), SimpleNamespace(id=7), "ab\ncd"],
    ids=["none", "int", "empty", "blank", "object", "id-none", "id-int", "control"],
)
def test_bad_curve_ids(closed_client, method, bad, awaitable):
    assert_invalid(
        lambda: call(closed_client, method, awaitable, *WITH_ID[method](bad)), "curve_id"
    )


BAD_TENORS = ["Q5 25", "", "  ", 5, "3-7 Jan 25", "32-EOM Jan 25", "26-31 Jan 25"]
TENOR_CASES = [
    (method, bad)
    for method in ("last_settlement", "last_assessments", "intraday")
    for bad in BAD_TENORS
] + [("intraday", None)]  # elsewhere tenor=None means every tenor


@BOTH
@pytest.mark.parametrize(("method", "bad"), TENOR_CASES, ids=repr)
def test_bad_tenors(closed_client, method, bad, awaitable):
    assert_invalid(lambda: call(closed_client, method, awaitable, ID, bad), "tenor")


@BOTH
@pytest.mark.parametrize("method", ["settlements", "intraday_history"])
@pytest.mark.parametrize(
    "bad",
    [[], (), [5], "Q0 25", ["Jul 25", "Q5 25"], 5, [""], [None], ""],
    ids=repr,
)
def test_bad_tenor_lists(closed_client, method, bad, awaitable):
    assert_invalid(lambda: call(closed_client, method, awaitable, ID, *RANGE, bad), "tenor")


BAD_DATES = ["garbage", "2025-02-30", "2025-13-01", "", 20250501, 2025.5, b"2025-05-01", None]


@BOTH
@pytest.mark.parametrize("method", ["settlements", "intraday_history"])
@pytest.mark.parametrize("bad", BAD_DATES, ids=repr)
@pytest.mark.parametrize("which", ["start", "end"])
def test_bad_dates(closed_client, method, bad, which, awaitable):
    start, end = (bad, RANGE[1]) if which == "start" else (RANGE[0], bad)
    assert_invalid(lambda: call(closed_client, method, awaitable, ID, start, end, "Jul 25"), which)


@BOTH
@pytest.mark.parametrize("method", ["settlements", "intraday_history"])
def test_start_after_end(closed_client, method, awaitable):
    for start, end in [
        ("2025-05-31", "2025-05-01"),
        (dt.date(2025, 5, 2), dt.datetime(2025, 5, 1, 23, 59)),
    ]:
        assert_invalid(
            lambda s=start, e=end: call(closed_client, method, awaitable, ID, s, e, "Jul 25"),
            "start",
            "end",
        )


@BOTH
@pytest.mark.parametrize(
    ("filters", "names"),
    [
        ({"vertical": "Coal"}, ["vertical", "Coal", "Gasoline", "Fuel Oil"]),
        ({"vertical": 5}, ["vertical"]),
        ({"vertical": ""}, ["vertical"]),
        ({"quotation": "Nope"}, ["quotation", "Nope", "Fob", "Blend", "GPW Simple Setup"]),
        ({"quotation": 1.5}, ["quotation"]),
        ({"region": "Mars"}, ["region", "Mars", "ARA", "WCMEX"]),
        ({"region": ["ARA"]}, ["region"]),
        ({"vertical": "Jet", "quotation": "Blend"}, ["quotation", "Blend", "Jet", "Fob"]),
        ({"vertical": "jet", "region": "ARA"}, ["region", "ARA", "Jet", "WCI"]),
        ({"grade": 5}, ["grade"]),
        ({"grade": ""}, ["grade"]),
        ({"loadPort": ["Houston"]}, ["loadPort"]),
    ],
    ids=repr,
)
def test_bad_catalogue_filters(closed_client, filters, names, awaitable):
    error = assert_invalid(lambda: call(closed_client, "catalogue", awaitable, **filters), *names)
    if "valid:" in str(error) and "vertical" in filters:
        # Only the values of the vertical asked for are listed as valid.
        assert filters.get("quotation", filters.get("region")) not in str(error).split("valid:")[1]


def test_a_custom_filter_of_none_is_not_a_type_error(closed_client):
    """``grade=None`` either means no filter (as ``vertical=None`` does) or is bad
    input; it must not escape as a TypeError."""
    try:
        closed_client.catalogue(grade=None)
    except mc.InvalidRequest as error:
        assert "grade" in str(error)
    except mc.ServiceError:
        pass  # it was read as "no filter" and sent: the closed port refused it


def test_nothing_is_sent_for_bad_input(fresh_em):
    client = fresh_em.client(token=fresh_em.token(), max_retries=0)
    fresh_em.fail_next(1, 500)
    bad_calls = [
        lambda: client.last_settlement(None),
        lambda: client.last_assessments(ID, "Q5 25"),
        lambda: client.intraday(ID, ""),
        lambda: client.settlements(ID, "2025-02-30", "2025-03-01"),
        lambda: client.settlements(ID, *RANGE, []),
        lambda: client.settlements(ID, *RANGE, "Q0 25"),
        lambda: client.intraday_history(ID, "2025-05-31", "2025-05-01"),
        lambda: client.intraday_history(ID, *RANGE, [5]),
        lambda: client.catalogue(vertical="Coal"),
        lambda: client.catalogue(region="Mars"),
        lambda: client.catalogue(grade=5),
        lambda: asyncio.run(client.settlements_async(ID, "garbage", "2025-05-01")),
        lambda: asyncio.run(client.intraday_history_async(ID, *RANGE, ["Q5 25"])),
        lambda: asyncio.run(client.catalogue_async(quotation="Nope")),
    ]
    for bad in bad_calls:
        assert_invalid(bad)
    # The injected failure is still waiting for the first request actually sent.
    with pytest.raises(mc.ServiceError, match="500"):
        client.last_settlement(ID, "Jul 25")
    assert client.last_settlement(ID, "Jul 25").num_rows == 1


# The client's own arguments.

URL = "http://127.0.0.1:9/v2"


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"max_concurrency": 0}, "max_concurrency"),
        ({"max_concurrency": -1}, "max_concurrency"),
        ({"max_concurrency": True}, "max_concurrency"),
        ({"max_concurrency": "4"}, "max_concurrency"),
        ({"max_concurrency": 2.5}, "max_concurrency"),
        ({"max_concurrency": 2**70}, "max_concurrency"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": -1}, "timeout"),
        ({"timeout": "x"}, "timeout"),
        ({"timeout": True}, "timeout"),
        ({"timeout": math.nan}, "timeout"),
        ({"max_retries": -1}, "max_retries"),
        ({"max_retries": "3"}, "max_retries"),
        ({"max_retries": 1.5}, "max_retries"),
        ({"max_retries": 2**70}, "max_retries"),
        ({"base_url": "ftp://x"}, "base_url"),
        ({"base_url": "127.0.0.1:9/v2"}, "base_url"),
        ({"base_url": 5}, "base_url"),
        ({"base_url": "http://"}, "base_url"),
        ({"live_url": "http://127.0.0.1:9"}, "live_url"),
        ({"token": ""}, "token"),
        ({"token": 5}, "token"),
        ({"token": None, "token_provider": "not callable"}, "token_provider"),
        ({"token": None, "email": "demo@marketcurves.test"}, "password"),
        ({"token": None, "password": "secret"}, "email"),
    ],
    ids=repr,
)
def test_bad_client_arguments(no_env, kwargs, name):
    arguments = {"base_url": URL, "token": "t", **kwargs}
    assert_invalid(lambda: mc.Client(**arguments), name)


def test_a_bad_url_message_shows_the_valid_schemes(no_env):
    error = assert_invalid(lambda: mc.Client(base_url="ftp://x", token="t"), "ftp://x")
    assert "http://" in str(error) and "https://" in str(error)
    assert "////" not in str(error), str(error)


def test_base_url_and_credentials_are_required(no_env):
    assert_invalid(lambda: mc.Client(token="t"), "base_url", "MARKETCURVES_BASE_URL")
    assert_invalid(lambda: mc.Client(base_url=URL), "token", "email", "password")
    no_env.setenv("MARKETCURVES_EMAIL", "demo@marketcurves.test")
    assert_invalid(lambda: mc.Client(base_url=URL), "MARKETCURVES_PASSWORD")


def test_the_environment_fills_in_what_is_not_given(no_env, em, fob):
    no_env.setenv("MARKETCURVES_BASE_URL", em.base_url)
    no_env.setenv("MARKETCURVES_TOKEN", em.token())
    expected = em.client().last_settlement(fob["id"], "Jul 25")
    client = mc.Client()
    assert client.base_url == em.base_url
    assert client.last_settlement(fob["id"], "Jul 25").equals(expected)

    no_env.delenv("MARKETCURVES_TOKEN")
    no_env.setenv("MARKETCURVES_EMAIL", em.credentials["email"])
    no_env.setenv("MARKETCURVES_PASSWORD", em.credentials["password"])
    assert mc.Client().last_settlement(fob["id"], "Jul 25").equals(expected)

    # Explicit arguments win over the environment.
    no_env.setenv("MARKETCURVES_BASE_URL", URL)
    no_env.setenv("MARKETCURVES_TOKEN", "not-a-valid-token")
    client = mc.Client(base_url=em.base_url, token=em.token())
    assert client.last_settlement(fob["id"], "Jul 25").equals(expected)
    with pytest.raises(mc.ServiceError):
        mc.Client(max_retries=0).last_settlement(fob["id"], "Jul 25")
