"""The whole catalogue on one feed: every curve subscribed with ``*``
(about 5,900 tenors), then abrupt drops, each while a known set of tenors
publishes. A reconnect costs what changed: a tenor whose resubscription
snapshot is its last delivered value needs no request (live rule 1), and
what every other needs is counted on the emulator."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from live_helpers import (
    TokenGate,
    assert_delivered_exactly_published,
    backfill_requests,
    missed_values,
)
from support import LIVE_START

import marketcurves as mc
from marketcurves.testing import Emulator


@pytest.fixture
def stopped_em(make_emulator: Callable[..., Emulator]) -> Emulator:
    """The clock stands still: values are published only when a test moves it."""
    return make_emulator(start=LIVE_START)


def drain(feed: mc.LiveFeed, until, timeout: float = 60.0) -> list[mc.Tick]:
    """Ticks until ``until(ticks)`` holds."""
    ticks: list[mc.Tick] = []
    deadline = time.monotonic() + timeout
    while not until(ticks):
        assert time.monotonic() < deadline, f"timed out after {len(ticks)} ticks"
        tick = feed.next(timeout=0.05)
        if tick is not None:
            ticks.append(tick)
    return ticks


def test_a_reconnect_of_the_whole_catalogue_costs_only_what_changed(stopped_em):
    em = stopped_em
    tokens = TokenGate(em)
    client = em.client(token_provider=tokens)
    catalogue = client.catalogue()
    outside = {c.id for c in catalogue if c.quotation == "Sales"}
    with client.live(reconnect_max=0.25) as feed:
        refused = set()
        for curve in catalogue:
            try:
                feed.subscribe(curve, "*")
            except mc.AccessDenied as denied:
                assert curve.id in str(denied)
                refused.add(curve.id)
        # Those outside the licence are reported; the rest go on.
        assert refused == outside
        assert len(feed.subscriptions) == len(catalogue) - len(outside)
        expected_tenors = sum(
            len([t for t in c.contracts if not t.startswith("C ")])
            for c in catalogue
            if c.id not in outside
        )
        ticks = drain(feed, lambda got: len(got) >= expected_tenors)
        tenors = {(t.curve_id, t.tenor) for t in ticks}
        assert len(tenors) == expected_tenors > 5_000
        assert {t.source for t in ticks} == {"snapshot"}

        # Away for no time, 2 and 8 emulated seconds: nothing, a few and
        # many curves publish while the feed is away.
        for outage in (0.0, 2.0, 8.0):
            before = em.now()
            stats = feed.stats()
            requests = em.request_count()
            tokens.drop_and_advance(outage)
            missed = missed_values(em, tenors, before, em.now())
            expected = sum(len(values) for values in missed.values())
            unchanged = len(tenors) - len(missed)

            def settled(got, stats=stats, unchanged=unchanged, expected=expected) -> bool:
                now = feed.stats()
                skipped = now["gaps_skipped"] - stats["gaps_skipped"]
                return skipped == unchanged and len(got) >= expected

            if outage == 8.0:
                assert len(missed) > 500, "many tenors changed"
            elif outage == 2.0:
                assert 0 < len(missed) < 500, "a few tenors changed"
            got = drain(feed, settled)
            assert len(got) == expected
            assert {(t.curve_id, t.tenor) for t in got} == set(missed)
            assert all(t.source == "backfill" for t in got)
            needed = backfill_requests(em, missed, before, em.now())
            assert em.request_count() - requests == needed
            now = feed.stats()
            assert now["backfill_requests"] - stats["backfill_requests"] == needed
            assert now["gaps_skipped"] - stats["gaps_skipped"] == unchanged
            assert now["backfill_failures"] == 0
            ticks += got
        assert feed.stats()["reconnects"] == 3
    # Every tenor, from its snapshot on: each value published once, none lost.
    assert_delivered_exactly_published(em, ticks)


def test_a_storm_of_backfills_keeps_to_the_bound_waits_out_429_and_holds_no_one_else_up(
    stopped_em,
):
    em = stopped_em
    tokens = TokenGate(em)
    client = em.client(token_provider=tokens, max_concurrency=4)
    licensed = [c for c in client.catalogue() if c.quotation != "Sales"]
    with client.live(reconnect_max=0.25) as feed:
        for curve in licensed:
            feed.subscribe(curve, "*")
        count = sum(len([t for t in c.contracts if not t.startswith("C ")]) for c in licensed)
        ticks = drain(feed, lambda got: len(got) >= count)
        tenors = {(t.curve_id, t.tenor) for t in ticks}

        em.set_latency(0.02)
        em.peak_in_flight(reset=True)
        # The service asks to be left alone for a second, three times.
        em.fail_next(3, 429, path="/ongoing/intraday", retry_after=1)
        before = em.now()
        tokens.drop_and_advance(2.0)
        missed = missed_values(em, tenors, before, em.now())
        expected = sum(len(values) for values in missed.values())
        unchanged = len(tenors) - len(missed)
        assert len(missed) > 20
        after_drop = drain(feed, lambda _: feed.stats()["gaps_skipped"] == unchanged)
        # While the backfills wait out the 429s, the tenors without a gap are live.
        em.advance(1.0)
        live_meanwhile = False

        def settled(got) -> bool:
            nonlocal live_meanwhile
            backfilled = sum(t.source == "backfill" for t in after_drop + got)
            live_meanwhile |= backfilled < expected and any(
                t.source == "update" and (t.curve_id, t.tenor) not in missed for t in got[-1:]
            )
            return backfilled >= expected

        after_drop += drain(feed, settled)
        ticks += after_drop
        assert live_meanwhile, "no live value came while the backfills waited"
        assert em.peak_in_flight() <= 4
        assert em.request_count("/ongoing/intraday") >= len(missed) + 3
        assert feed.stats()["backfill_failures"] == 0
    assert_delivered_exactly_published(em, ticks)
