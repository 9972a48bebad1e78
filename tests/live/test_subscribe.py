"""Subscriptions: snapshots, ``*``, continuous tenors, unsubscribing, the
errors the service answers, and bad input refused before anything is sent."""

from __future__ import annotations

import datetime as dt

import pytest
import requests
from live_helpers import (
    assert_delivered_exactly_published,
    assert_strictly_increasing,
    collect,
    millis,
    open_feed,
)
from silent_feed import SilentFeed

import marketcurves as mc


def first_of_each(ticks: list[mc.Tick]) -> dict[str, mc.Tick]:
    first: dict[str, mc.Tick] = {}
    for tick in ticks:
        first.setdefault(tick.tenor, tick)
    return first


def test_a_subscription_starts_with_one_snapshot_per_tenor_then_updates(em, curves):
    curve = curves.fast
    with open_feed(em) as feed:
        feed.subscribe(curve["id"], "*")
        ticks = collect(feed, 2.5)
    first = first_of_each(ticks)
    assert set(first) == set(curves.calendar_tenors(curve))
    assert all(t.source == "snapshot" for t in first.values())
    assert not [t for t in ticks if t.source == "snapshot" and first[t.tenor] is not t]
    updates = [t for t in ticks if t.source == "update"]
    assert len(updates) >= len(first), "a one-minute curve publishes every real second here"
    assert all(t.curve_id == curve["id"] for t in ticks)
    assert all(t.generated_on.tzinfo is not None for t in ticks)
    assert all(t.generated_on.microsecond % 1000 == 0 for t in ticks), "the feed prints ms"
    assert_strictly_increasing(ticks)
    assert_delivered_exactly_published(em, ticks)


def test_the_snapshot_is_the_last_intraday_value_truncated_to_milliseconds(em, curves):
    curve, tenor = curves.fast, curves.fast["contracts"][-1]
    em.time_scale = 0
    with open_feed(em) as feed:
        feed.subscribe(curve["id"], tenor)
        snapshot = feed.next(timeout=5)
        assert snapshot is not None and snapshot.source == "snapshot"
        assert feed.next(timeout=0.3) is None, "a stopped clock publishes nothing new"
    token = em.token()
    path = f"{em.base_url}/ongoing/intraday/{curve['id']}/{requests.utils.quote(tenor, safe='')}"
    last_page = requests.get(path, headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    while last_page["next"] is not None:
        last_page = requests.get(
            last_page["next"], headers={"Authorization": f"Bearer {token}"}, timeout=10
        ).json()
    last = last_page["items"][-1]
    at = dt.datetime.fromisoformat(last["generatedOn"]).replace(tzinfo=dt.UTC)
    assert snapshot.generated_on == millis(at)
    assert snapshot.price == last["price"]


def test_star_leaves_out_the_continuous_tenors_which_are_named_explicitly(em, curves):
    curve = curves.fast
    with open_feed(em) as feed:
        feed.subscribe(curve["id"])
        feed.subscribe(curve["id"], "C 00")
        ticks = collect(feed, 1.5)
    tenors = {t.tenor for t in ticks}
    assert "C 00" in tenors
    assert not tenors & {"C 01", "C 02"}
    assert feed.closed


def test_subscribing_again_resends_a_snapshot_that_is_not_delivered_twice(em, curves):
    curve, tenor = curves.fast, curves.fast["contracts"][-1]
    em.time_scale = 0
    with open_feed(em) as feed:
        feed.subscribe(curve["id"], tenor)
        assert feed.next(timeout=5) is not None
        feed.subscribe(curve["id"], tenor)
        assert feed.next(timeout=0.5) is None
        assert feed.stats()["duplicates_dropped"] >= 1


def test_unsubscribe_stops_updates_and_star_removes_every_tenor(em, curves):
    curve = curves.fast
    with open_feed(em) as feed:
        feed.subscribe(curve["id"], "*")
        feed.subscribe(curve["id"], "C 01")
        assert collect(feed, 1.2)
        feed.unsubscribe(curve["id"], "*")
        assert feed.subscriptions == []
        collect(feed, 0.3)  # what was on its way
        assert collect(feed, 1.5) == []


def test_a_quotation_outside_the_licence_is_access_denied_naming_it(em, curves):
    with open_feed(em) as feed:
        with pytest.raises(mc.AccessDenied) as raised:
            feed.subscribe(curves.sales["id"], "*")
        assert raised.value.curve_id == curves.sales["id"]
        assert raised.value.tenor == "*"
        assert feed.subscriptions == []
        feed.subscribe(curves.fast["id"], "*")
        assert feed.next(timeout=5) is not None, "the feed goes on after a refusal"


def test_an_account_without_live_data_is_access_denied(em, curves):
    client = em.client(email="rest-only@marketcurves.test", password="rest-only-password")
    with client.live() as feed, pytest.raises(mc.AccessDenied):
        feed.subscribe(curves.fast["id"], "*")


def test_an_unexpected_error_from_the_service_is_retried(em, curves):
    em.fail_next_live_command(1)
    with open_feed(em) as feed:
        feed.subscribe(curves.fast["id"], "*")
        assert feed.next(timeout=5) is not None


@pytest.mark.parametrize(
    ("curve_id", "tenor", "named"),
    [
        ("", "*", "curve_id"),
        ("   ", "*", "curve_id"),
        (42, "*", "curve_id"),
        ("c8a6e2b4-0000-0000-0000-000000000000", "", "tenor"),
        ("c8a6e2b4-0000-0000-0000-000000000000", "Q5 24", "Q5 24"),
        ("c8a6e2b4-0000-0000-0000-000000000000", None, "tenor"),
    ],
)
def test_bad_subscriptions_are_refused_before_anything_is_sent(em, curve_id, tenor, named):
    with open_feed(em) as feed:
        with pytest.raises(mc.InvalidRequest, match=named):
            feed.subscribe(curve_id, tenor)
        with pytest.raises(mc.InvalidRequest, match=named):
            feed.unsubscribe(curve_id, tenor)
        assert feed.subscriptions == []


def test_a_contract_or_curve_the_catalogue_does_not_list_is_refused_unless_not_strict(em, curves):
    curve = curves.fast["id"]
    with open_feed(em) as feed:
        with pytest.raises(mc.InvalidRequest, match=r"tenor 'Jul 99'|tenor \"Jul 99\""):
            feed.subscribe(curve, "Jul 99")
        with pytest.raises(mc.InvalidRequest, match=r"not in the catalogue.*strict=False"):
            feed.subscribe("c8a6e2b4-0000-0000-0000-000000000000", "*")
        assert feed.subscriptions == []
        # Not strict: sent as asked; the service's answer is the only check.
        feed.subscribe(curve, "Jul 99", strict=False)
        assert feed.subscriptions == [(curve, "Jul 99")]


def test_a_subscription_never_answered_gives_up_after_the_clients_timeout(em):
    silent = SilentFeed()
    try:
        client = em.client(live_url=silent.live_url, timeout=1.5)
        with client.live() as feed:
            with pytest.raises(mc.ServiceError, match=r"no answer within 1\.5 s"):
                feed.subscribe("c8a6e2b4-0000-0000-0000-000000000000", "*", strict=False)
    finally:
        silent.close()


def test_live_options_are_checked(em):
    client = em.client()
    for bad in ({"queue_size": 0}, {"ping_interval": 0}, {"pong_timeout": -1}, {"on_price": 3}):
        with pytest.raises(mc.InvalidRequest):
            client.live(**bad)
    with pytest.raises(mc.InvalidRequest, match="live_url"):
        mc.Client(base_url=em.base_url, token="t", live_url=None).live()
