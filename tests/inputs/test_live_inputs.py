"""The live feed: ``client.live(...)``, ``subscribe``, ``unsubscribe``,
``next``, ``batches`` and ``wait``. Each bad argument raises InvalidRequest
naming it. A refused ``client.live`` starts no feed (its token provider,
which every connection attempt calls first, is never called, and no thread
starts); a refused subscription changes nothing."""

from __future__ import annotations

import asyncio
import functools
import math
from typing import Any

import pytest
from inputs_helpers import ID, assert_invalid, thread_idents

import marketcurves as mc

LIVE_CASES: list[tuple[dict[str, Any], str]] = [
    ({"backfill": "yes"}, "backfill"),
    ({"backfill": None}, "backfill"),
    ({"backfill": 0}, "backfill"),
    ({"on_price": 5}, "on_price"),
    ({"on_price": "print"}, "on_price"),
    ({"on_event": 5}, "on_event"),
    ({"queue_size": 0}, "queue_size"),
    ({"queue_size": 2.5}, "queue_size"),
    ({"queue_size": None}, "queue_size"),
    ({"queue_size": 10**12}, "queue_size"),
    ({"ping_interval": 0}, "ping_interval"),
    ({"ping_interval": math.inf}, "ping_interval"),
    ({"ping_interval": "40"}, "ping_interval"),
    ({"pong_timeout": -1}, "pong_timeout"),
    ({"pong_timeout": None}, "pong_timeout"),
    ({"reconnect_max": math.nan}, "reconnect_max"),
    ({"reconnect_max": 0}, "reconnect_max"),
    ({"on_price": print, "reconnect_max": 0}, "reconnect_max"),
]


@pytest.mark.parametrize(("kwargs", "name"), LIVE_CASES, ids=repr)
def test_client_live_starts_no_feed_on_bad_input(provider, unsent, kwargs, name):
    before = thread_idents()
    assert_invalid(lambda: unsent.live(**kwargs), name)
    assert thread_idents() == before


def test_the_proof_is_sound_a_feed_does_ask_for_a_token(provider, unsent):
    with unsent.live(backfill=False):
        assert provider.called.wait(30), "a started feed never asked for a token"
    provider.calls = 0  # the fixture's check is for the bad calls of other tests


def test_a_client_without_live_url_cannot_open_the_feed(no_env):
    client = mc.Client(base_url="http://127.0.0.1:9/v2", token="t")
    assert_invalid(client.live, "live_url", "MARKETCURVES_LIVE_URL")


BAD_SUBSCRIPTIONS: list[tuple[Any, Any, str]] = [
    ("", "*", "curve_id"),
    (None, "*", "curve_id"),
    (5, "*", "curve_id"),
    ("ab\ncd", "*", "curve_id"),
    (ID, "", "tenor"),
    (ID, None, "tenor"),
    (ID, 5, "tenor"),
    (ID, "Q5 25", "tenor"),
    (ID, "Jan\n25", "tenor"),
    # Refused as the REST methods refuse them, not trimmed.
    (ID, "Jan 25\n", "tenor"),
    (ID, "*\n", "tenor"),
    # A lone surrogate (a name decoded from bytes that are not UTF-8).
    ("a\udc80b", "*", "curve_id"),
    (ID, "Jan\udc80", "tenor"),
]


@pytest.fixture
def feed(em):
    """A connected feed with one subscription."""
    with em.client(token=em.token()) as client, client.live(backfill=False) as feed:
        curve = next(c for c in client.catalogue(vertical="Jet") if c.quotation != "Sales")
        feed.subscribe(curve, "*")
        yield feed


@pytest.mark.parametrize("method", ["subscribe", "unsubscribe"])
@pytest.mark.parametrize(("curve_id", "tenor", "name"), BAD_SUBSCRIPTIONS, ids=repr)
def test_bad_subscriptions_change_nothing(feed, method, curve_id, tenor, name):
    before = feed.subscriptions
    assert_invalid(lambda: getattr(feed, method)(curve_id, tenor), name)
    assert_invalid(lambda: asyncio.run(getattr(feed, f"{method}_async")(curve_id, tenor)), name)
    assert feed.subscriptions == before


@pytest.mark.parametrize("closing", ["feed", "client"])
def test_a_closed_feed_names_the_bad_argument_too(em, closing):
    """The values are checked before the feed is: bad input is an
    InvalidRequest once the feed, or its client, is closed too."""
    client = em.client(token=em.token())
    feed = client.live(backfill=False)
    (feed if closing == "feed" else client).close()

    def attempt(method: str, curve_id: Any, tenor: Any) -> None:
        getattr(feed, method)(curve_id, tenor)

    def attempt_async(method: str, curve_id: Any, tenor: Any) -> None:
        asyncio.run(getattr(feed, f"{method}_async")(curve_id, tenor))

    for curve_id, tenor, name in BAD_SUBSCRIPTIONS:
        for method in ("subscribe", "unsubscribe"):
            for run in (attempt, attempt_async):
                assert_invalid(functools.partial(run, method, curve_id, tenor), name)
    client.close()


@pytest.mark.parametrize("bad", [-1, "1", math.inf, math.nan, True, b"1"], ids=repr)
def test_next_timeout(feed, bad):
    assert_invalid(lambda: feed.next(timeout=bad), "timeout")


def test_next_with_no_wait_is_allowed(feed):
    feed.next(timeout=0)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"max_rows": 0}, "max_rows"),
        ({"max_rows": "10"}, "max_rows"),
        ({"max_rows": 1.5}, "max_rows"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": "1"}, "timeout"),
        ({"timeout": -1}, "timeout"),
    ],
    ids=repr,
)
def test_batches(feed, kwargs, name):
    assert_invalid(lambda: next(feed.batches(**kwargs)), name)


def test_wait_timeout_and_the_forms_a_callback_feed_refuses(em):
    with em.client(token=em.token()) as client:
        with client.live(backfill=False, on_price=lambda tick: None) as feed:
            for bad in (0, -1, "1", math.inf):
                assert_invalid(lambda b=bad: feed.wait(timeout=b), "timeout")
            assert_invalid(lambda: next(iter(feed)), "on_price")
            assert_invalid(lambda: feed.next(), "on_price")
        with client.live(backfill=False) as plain:
            assert_invalid(plain.wait, "on_price")
