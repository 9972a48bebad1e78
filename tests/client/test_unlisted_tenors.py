"""A tenor asked for by name that the catalogue does not list for the curve:
fetched (an expired contract has history), but if it returns nothing the
caller is warned, so that a mistyped name never passes for an empty answer."""

from __future__ import annotations

import asyncio
import warnings

import pytest

UNLISTED = "no rows and are not among the curve's listed contracts"


def test_a_mistyped_month_warns_in_settlements_and_intraday_history(client, fob):
    with pytest.warns(UserWarning, match=f"Jul 99 returned {UNLISTED}"):
        table = client.settlements(fob["id"], "2025-06-01", "2025-06-13", ["Jul 25", "Jul 99"])
    assert set(table["tenor"].to_pylist()) == {"Jul 25"}
    with pytest.warns(UserWarning, match=f"Jul 99 returned {UNLISTED}"):
        assert (
            client.intraday_history(fob["id"], "2025-06-13", "2025-06-13", "Jul 99").num_rows == 0
        )
    with pytest.warns(UserWarning, match="Jul 99"):
        asyncio.run(client.intraday_history_async(fob["id"], "2025-06-13", "2025-06-13", "Jul 99"))
    with pytest.warns(UserWarning, match="Jul 99"):
        asyncio.run(client.settlements_async(fob["id"], "2025-06-13", "2025-06-13", "Jul 99"))


def test_listed_tenors_and_unlisted_ones_with_rows_pass_quietly(client, fob):
    listed = fob["contracts"][0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # A listed contract with no row in the range is an answer, not a typo.
        client.settlements(fob["id"], "2024-01-01", "2024-01-01", listed)
        # An expired month: not listed any more, but its history is there.
        expired = client.settlements(fob["id"], "2025-04-01", "2025-04-30", "May 25")
    assert expired.num_rows > 0
