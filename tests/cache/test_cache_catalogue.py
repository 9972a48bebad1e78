"""The cached catalogue: one fetch per set of filters, served until the next
contracts refresh (Monday to Friday, 02:30 UTC, on the service's clock);
offline without one, a ``CacheMiss``, unless the tenors are named."""

from __future__ import annotations

import logging

import pytest
from cache_helpers import (
    YESTERDAY,
    Requests,
    assert_same_table,
    catalogue_files,
    count_requests,
    curves_of,
    set_clock,
    without_curves,
)

import marketcurves as mc


def test_the_catalogue_is_fetched_once_per_filter_set(em, client):
    with Requests(em) as sent:
        first = client.catalogue()
    pages = sent.catalogue
    assert pages >= 2, f"the whole catalogue is paged: {sent}"
    with Requests(em) as sent:
        second = client.catalogue()
    assert sent.total == 0, sent
    assert second.to_arrow().equals(first.to_arrow())
    assert list(second) == list(first)

    # Another filter set is another query: fetched once, then served.
    with Requests(em) as sent:
        jet = client.catalogue(vertical="Jet")
    assert sent.catalogue >= 1, sent
    with Requests(em) as sent:
        jet_again = client.catalogue(vertical="Jet")
    assert sent.total == 0, sent
    uncached = client.catalogue(vertical="Jet", cache="off")
    assert jet_again.to_arrow().equals(uncached.to_arrow())
    assert jet.to_arrow().equals(uncached.to_arrow())
    assert list(jet_again) == list(uncached)
    assert 0 < len(jet) < len(first)

    with Requests(em) as sent:
        refreshed = client.catalogue(cache="refresh")
    assert sent.catalogue == pages, sent
    assert refreshed.to_arrow().equals(first.to_arrow())
    with Requests(em) as sent:
        client.catalogue(cache="off")
    assert sent.catalogue == pages, sent
    with Requests(em) as sent:
        client.catalogue()
    assert sent.total == 0, sent


def test_the_catalogue_serves_until_the_next_contracts_refresh(fresh_em, cache_dir, curve):
    client = fresh_em.client(cache_dir=cache_dir)
    with Requests(fresh_em) as sent:
        friday = client.catalogue()
    pages = sent.catalogue

    def at(when: str) -> Requests:
        set_clock(fresh_em, when, client, curve)
        with Requests(fresh_em) as sent:
            client.catalogue()
        return sent

    # No refresh on Saturday or Sunday; Monday's runs at 02:30.
    assert at("2025-06-14T03:00:00Z").catalogue == 0
    assert at("2025-06-16T02:00:00Z").catalogue == 0
    assert at("2025-06-16T02:31:00Z").catalogue == pages
    assert at("2025-06-16T12:00:00Z").catalogue == 0
    assert at("2025-06-17T02:31:00Z").catalogue == pages
    assert len(friday) > 0
    client.close()


def test_offline_an_expired_catalogue_still_serves_with_a_warning(
    fresh_em, cache_dir, curve, caplog
):
    client = fresh_em.client(cache_dir=cache_dir)
    friday = client.catalogue()
    set_clock(fresh_em, "2025-06-16T03:00:00Z", client, curve)
    caplog.set_level(logging.WARNING, logger="marketcurves.cache")
    with Requests(fresh_em) as sent:
        served = client.catalogue(cache="offline")
    assert sent.total == 0, sent
    assert served.to_arrow().equals(friday.to_arrow())
    warnings = [r for r in caplog.records if r.name == "marketcurves.cache"]
    assert warnings and "refresh" in warnings[0].getMessage(), caplog.text
    client.close()


def test_offline_without_a_cached_catalogue(em, client, cache_dir, curve):
    # Named out of calendar order: a table lists them in calendar order.
    tenors = ["Aug 25", "Q3 25", "Jul 25"]
    settlements = client.settlements(curve, "2025-06-01", YESTERDAY, tenors)
    files = catalogue_files(cache_dir)
    assert files, "the catalogue the pull needed was kept"
    for path in files:
        path.unlink()
    offline = em.client(cache_dir=cache_dir, cache="offline")

    with Requests(em) as sent, pytest.raises(mc.CacheMiss) as caught:
        offline.catalogue()
    assert sent.total == 0, sent
    assert caught.value.curve_id is None and caught.value.missing == {}
    assert "catalogue" in str(caught.value)

    # Every contract of a curve needs the catalogue to list them.
    with Requests(em) as sent, pytest.raises(mc.CacheMiss) as caught:
        offline.settlements(curve, "2025-06-01", YESTERDAY)
    assert sent.total == 0, sent
    assert "catalogue" in str(caught.value)

    # Named tenors do not.
    with Requests(em) as sent:
        named = offline.settlements(curve, "2025-06-01", YESTERDAY, tenors)
    assert sent.total == 0, sent
    # Without the catalogue the table still names its curve, by id alone:
    # the name and units the deleted catalogue held are not made up.
    assert curves_of(named) == [{"id": curve, "name": None, "units": None, "quotation": None}]
    unnamed = without_curves(named)
    assert_same_table(unnamed, without_curves(settlements), "offline without a catalogue")
    uncached = client.settlements(curve, "2025-06-01", YESTERDAY, tenors, cache="off")
    assert_same_table(unnamed, without_curves(uncached), "offline without a catalogue")


def test_the_catalogue_a_pull_needed_serves_catalogue_calls(em, cache_dir, curve):
    with em.client(cache_dir=cache_dir) as first:
        first.settlements(curve, "2025-06-09", YESTERDAY)
    with em.client(cache_dir=cache_dir) as second:
        served, sent = count_requests(em, second.catalogue)
        assert sent.total == 0, sent
        assert list(served) == list(second.catalogue(cache="off"))
