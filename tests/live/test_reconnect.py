"""Drops, restarts and expired tokens: the feed reconnects, authenticates
with a fresh token, resubscribes and backfills, so that what it delivers is
exactly what was published, none missing and none repeated."""

from __future__ import annotations

import threading
import time

import pytest
from live_helpers import (
    TokenGate,
    assert_delivered_exactly_published,
    assert_strictly_increasing,
    collect,
    open_feed,
    wait_connected,
)

import marketcurves as mc


class CountingTokens:
    """A token source that counts its calls."""

    def __init__(self, emulator) -> None:
        self.emulator = emulator
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self) -> str:
        with self.lock:
            self.calls += 1
        return self.emulator.token()


def test_five_abrupt_drops_in_a_busy_hour_lose_and_repeat_nothing(fast_em, curves):
    curve = curves.fast
    events: list[dict] = []
    with open_feed(fast_em, on_event=events.append) as feed:
        feed.subscribe(curve["id"], "*")
        feed.subscribe(curve["id"], "C 00")
        ticks = collect(feed, 0.8)
        for _ in range(5):
            wait_connected(feed)
            fast_em.drop_live_connections()
            ticks += collect(feed, 0.9)
        ticks += collect(feed, 0.5)
        stats = feed.stats()
    assert stats["reconnects"] >= 5
    assert stats["backfilled"] > 0, "values published while disconnected come from REST"
    assert {t.source for t in ticks} == {"snapshot", "update", "backfill"}
    checked = assert_delivered_exactly_published(fast_em, ticks)
    assert checked >= 5 * len({t.tenor for t in ticks})
    kinds = {e["kind"] for e in events}
    assert {"disconnected", "reconnected", "gap_filled"} <= kinds


def test_without_backfill_a_reconnect_takes_the_latest_values(fast_em, curves):
    curve = curves.fast
    with open_feed(fast_em, backfill=False) as feed:
        feed.subscribe(curve["id"], "*")
        ticks = collect(feed, 0.5)
        fast_em.drop_live_connections()
        ticks += collect(feed, 1.0)
        assert feed.stats()["backfilled"] == 0
    assert "backfill" not in {t.source for t in ticks}
    assert_strictly_increasing(ticks)


def test_the_weekly_restart_is_survived(em, curves):
    em.set_time("2025-06-15T11:59:30Z")  # a Sunday, half a minute before noon
    curve = curves.fast
    with open_feed(em) as feed:
        feed.subscribe(curve["id"], "*")
        ticks = collect(feed, 3.0)
        assert feed.stats()["reconnects"] >= 1
    assert ticks, "the snapshot, however old"
    # No values are published on a Sunday: after the restart, the same snapshots are dropped.
    assert_delivered_exactly_published(em, ticks)


def test_a_restart_of_the_feed_is_followed_by_a_backfilled_reconnect(em, curves):
    with open_feed(em) as feed:
        feed.subscribe(curves.fast["id"], "*")
        ticks = collect(feed, 1.0)
        em.restart_feed()
        ticks += collect(feed, 2.0)
        assert feed.stats()["reconnects"] >= 1
    assert_delivered_exactly_published(em, ticks)


def test_every_connection_authenticates_with_a_fresh_token(em, curves):
    tokens = CountingTokens(em)
    with open_feed(em, token_provider=tokens) as feed:
        feed.subscribe(curves.fast["id"], "*")
        ticks = collect(feed, 0.5)
        # Tokens expire: the open connection is not affected (checked only at auth)...
        em.expire_tokens()
        ticks += collect(feed, 1.0)
        assert feed.stats()["reconnects"] == 0
        before = tokens.calls
        # ...and each reconnect asks the source for a new one.
        for _ in range(2):
            em.drop_live_connections()
            ticks += collect(feed, 1.0)
        assert tokens.calls >= before + 2
    assert_delivered_exactly_published(em, ticks)


def test_a_refused_auth_asks_the_token_source_once_more(em, curves):
    tokens = CountingTokens(em)
    with open_feed(em, token_provider=tokens) as feed:
        feed.subscribe(curves.fast["id"], "*")
        collect(feed, 0.3)
        before = tokens.calls
        em.fail_next_auth(1)
        em.drop_live_connections()
        assert collect(feed, 1.5), "the feed goes on with the second token"
        assert tokens.calls >= before + 2


def test_a_second_refusal_raises_auth_error_to_the_consumer(em, curves):
    with open_feed(em, token=em.token()) as feed:
        feed.subscribe(curves.fast["id"], "*")
        collect(feed, 0.3)
        em.fail_next_auth(2)
        em.drop_live_connections()
        began = time.monotonic()
        with pytest.raises(mc.AuthError):
            collect(feed, 10.0)
        assert time.monotonic() - began < 10.0
        assert feed.closed


def test_pings_keep_a_quiet_connection_open(em, curves):
    """A 15-minute curve is silent for minutes at a time; the emulator drops
    a connection after 60 s without a message, unless the client pings."""
    with open_feed(em) as feed:
        feed.subscribe(curves.slow["id"], curves.slow["contracts"][-1])
        collect(feed, 4.0)  # four emulated minutes
        assert feed.stats()["reconnects"] == 0


def test_without_pings_the_idle_drop_is_repaired(em, curves):
    # Pings far apart: the service drops the silent connection; the feed reconnects.
    with open_feed(em, ping_interval=30.0) as feed:
        feed.subscribe(curves.slow["id"], curves.slow["contracts"][-1])
        collect(feed, 2.5)
        assert feed.stats()["reconnects"] >= 1


def test_a_connection_without_subscriptions_closed_by_the_service_is_reopened(em, curves):
    with open_feed(em) as feed:
        time.sleep(4.0)  # the service closes it (1000) after about 3 emulated minutes
        assert feed.stats()["reconnects"] >= 1
        feed.subscribe(curves.fast["id"], "*")
        assert feed.next(timeout=5) is not None


def test_a_feed_that_stops_answering_pings_is_replaced(em, curves):
    with open_feed(em) as feed:
        feed.subscribe(curves.slow["id"], curves.slow["contracts"][-1])
        em.answer_pings(False)
        deadline = time.monotonic() + 5.0
        while feed.stats()["reconnects"] == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert feed.stats()["reconnects"] >= 1


def test_a_gap_across_midnight_is_filled_from_the_history(em, curves):
    em.set_time("2025-06-11T23:58:00Z")
    curve, tenor = curves.fast, curves.fast["contracts"][-1]
    tokens = TokenGate(em)
    with open_feed(em, token_provider=tokens) as feed:
        feed.subscribe(curve["id"], tenor)
        ticks = collect(feed, 0.5)
        tokens.drop_and_advance(5 * 60)  # the feed is away while midnight passes
        ticks += collect(feed, 1.5)
    backfilled_days = {t.generated_on.date() for t in ticks if t.source == "backfill"}
    assert len(backfilled_days) == 2, "backfill reaches across midnight"
    assert_delivered_exactly_published(em, ticks)
