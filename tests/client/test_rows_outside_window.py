"""A service that answers a history request with rows outside the days asked
for (it breaks the interface): the table holds the window asked for and
nothing else, with or without a cache."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from forwarding import Forwarder, serving

import marketcurves as mc

SUMMER = ["Jul 25", "Aug 25"]
FIRST, LAST = "2025-06-02", "2025-06-04"


def widened(path: str) -> str:
    """``path`` asking for three days more on each side."""
    parts = urlsplit(path)
    query = dict(parse_qsl(parts.query))
    for key, shift in (("startDate", -3), ("endDate", 3)):
        if key in query:
            day = dt.date.fromisoformat(query[key]) + dt.timedelta(days=shift)
            query[key] = day.isoformat()
    return f"{parts.path}?{urlencode(query)}"


class Widening(Forwarder):
    """Widens every history window it forwards by three days a side."""

    def __init__(self, upstream: str) -> None:
        super().__init__(upstream)
        self.widened = 0

    def path(self, path: str) -> str:
        if "/historical/" not in path:
            return path
        self.widened += 1
        return widened(path)


@pytest.fixture
def widening(em: Any) -> Iterator[Widening]:
    with serving(Widening(em.base_url.removesuffix("/v2"))) as server:
        yield server


@pytest.mark.parametrize("cached", [False, True], ids=["no-cache", "cache"])
def test_rows_outside_the_days_asked_for_are_left_out(
    em, client, fob, coarse, widening, tmp_path, cached
):
    cache = {"cache_dir": tmp_path / "cache"} if cached else {}
    through = mc.Client(base_url=f"{widening.url}/v2", token=em.token(), **cache)

    expected = client.settlements(fob["id"], FIRST, LAST, SUMMER)
    wider = client.settlements(fob["id"], "2025-05-30", "2025-06-07", SUMMER)
    assert wider.num_rows > expected.num_rows > 0, "the widened answer holds more"
    assert through.settlements(fob["id"], FIRST, LAST, SUMMER).equals(expected)

    expected = client.intraday_history(coarse["id"], FIRST, LAST, "Aug 25")
    assert through.intraday_history(coarse["id"], FIRST, LAST, "Aug 25").equals(expected)
    assert widening.widened >= 2
