"""Tenor.range and pulling the contracts that left the catalogue's list."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import quote

import pyarrow as pa
import pyarrow.compute as pc
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


def test_intraday_history_pulls_expired_and_all(client, crude) -> None:
    listed = set(crude.contracts)
    expired = client.intraday_history(crude, "2025-05-01", "2025-05-03", tenors="expired")
    names = column(expired, "tenor")
    assert set(names) == {"May 25", "1-5 May 25"}
    assert not set(names) & listed
    # The rows of an expired tenor are those a pull naming it gets.
    may = client.intraday_history(crude, "2025-05-01", "2025-05-03", tenors=["May 25"])
    rows = expired.filter(pc.equal(expired.column("tenor"), "May 25"))
    assert may.num_rows > 0
    assert rows.select(["generated_on", "price"]) == may.select(["generated_on", "price"])
    # Tenors in calendar order, each tenor's values in time order.
    assert names == sorted(names, key=mc.Tenor.parse)
    everything = client.intraday_history(crude, "2025-05-30", "2025-06-02", tenors="all")
    everything_names = set(column(everything, "tenor"))
    assert {"May 25", "26-EOM May 25"} <= everything_names
    assert {"Jun 25", "Q2 25"} <= everything_names & listed


def test_intraday_history_expired_through_the_cache(em, crude, tmp_path) -> None:
    with em.client(cache_dir=tmp_path) as cached:
        first = cached.intraday_history(crude, "2025-05-01", "2025-05-03", tenors="expired")
        again = cached.intraday_history(
            crude, "2025-05-01", "2025-05-03", tenors="expired", cache="offline"
        )
    assert set(column(first, "tenor")) == {"May 25", "1-5 May 25"}
    assert again == first


def test_intraday_history_skips_a_tenor_the_service_does_not_know(crude) -> None:
    with start_emulator(seed=7) as em, em.client() as client:
        path = f"/historical/intraday/{crude.id}/{quote('May 25')}"
        em.fail_next(1, 404, path=path)
        with pytest.warns(UserWarning, match="skipped: May 25"):
            table = client.intraday_history(crude, "2025-05-01", "2025-05-03", tenors="expired")
        assert set(column(table, "tenor")) == {"1-5 May 25"}
        metadata = table.schema.metadata or {}
        assert json.loads(metadata[b"marketcurves.skipped_tenors"]) == ["May 25"]
        # A listed pull is not skippable: the same 404 is an error.
        listed_path = f"/historical/intraday/{crude.id}/{quote('Jun 25')}"
        em.fail_next(1, 404, path=listed_path)
        with pytest.raises(mc.NotFound):
            client.intraday_history(crude, "2025-05-01", "2025-05-03", tenors=["Jun 25"])


def test_intraday_history_async_takes_expired(em, crude) -> None:
    async def pull() -> pa.Table:
        async with em.client() as client:
            return await client.intraday_history_async(
                crude, "2025-05-01", "2025-05-03", tenors="expired"
            )

    assert set(column(asyncio.run(pull()), "tenor")) == {"May 25", "1-5 May 25"}
