"""Tenor.range and pulling the contracts that left the catalogue's list."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from curves_helpers import column
from support import start_emulator

import marketcurves as mc


def test_tenor_range_lists_the_names_overlapping_a_range() -> None:
    assert mc.Tenor.range("month", "2024-11-15", "2025-02-01") == [
        "Nov 24",
        "Dec 24",
        "Jan 25",
        "Feb 25",
    ]
    assert mc.Tenor.range("quarter", "2025-02-10", "2025-07-01") == ["Q1 25", "Q2 25", "Q3 25"]
    with pytest.raises(mc.InvalidRequest, match="unknown kind"):
        mc.Tenor.range("year", "2025-01-01", "2025-02-01")


def test_expired_and_all(client, crude) -> None:
    listed = set(crude.contracts)
    expired = client.settlements(crude, "2025-01-01", "2025-03-31", tenors="expired")
    names = set(column(expired, "tenor"))
    assert names and not names & listed
    assert {"Jan 25", "Feb 25", "Mar 25"} <= names
    everything = client.settlements(crude, "2025-03-01", "2025-03-31", tenors="all")
    assert "Mar 25" in set(column(everything, "tenor"))
    assert set(column(everything, "tenor")) & listed


def test_a_tenor_the_service_does_not_know_is_skipped_with_a_warning(crude) -> None:
    with start_emulator(seed=7) as em, em.client() as client:
        path = f"/historical/settlements/{crude.id}/{quote('Feb 25')}"
        em.fail_next(1, 404, path=path)
        with pytest.warns(UserWarning, match="skipped: Feb 25"):
            table = client.settlements(crude, "2025-01-01", "2025-03-31", tenors="expired")
    assert "Feb 25" not in set(column(table, "tenor"))
    assert "Jan 25" in set(column(table, "tenor"))
