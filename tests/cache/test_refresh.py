"""``cache="refresh"`` after the service corrected past values: what the
refresh fetched is what the cache serves from then on.

The emulator's values never change, so a correction is played by a second
emulator on the same port (the same service to the cache) whose calendar
makes 14 and 28 May early-close days: their London settlements are taken
at 12:30 instead of 16:30, at other prices.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from cache_helpers import assert_same_table, count_requests, segment_files
from support import start_emulator

import marketcurves as mc

CORRECTED = [dt.date(2025, 5, 14), dt.date(2025, 5, 28)]
TENORS = ["Jul 25"]


class Service:
    """The service as the cache sees it (one base URL), before and after
    its correction."""

    def __init__(self) -> None:
        self.emulator = start_emulator(early_close=[])
        self.port = int(self.emulator.base_url.rsplit(":", 1)[1].split("/")[0])

    def correct(self) -> None:
        base_url = self.emulator.base_url
        self.emulator.stop()
        self.emulator = start_emulator(port=self.port, early_close=CORRECTED)
        assert self.emulator.base_url == base_url

    def client(self, cache_dir: Path) -> mc.Client:
        return self.emulator.client(cache_dir=cache_dir)


@pytest.fixture
def service() -> Iterator[Service]:
    s = Service()
    yield s
    s.emulator.stop()


def _pull(service: Service, cache_dir: Path, curve: str, first: str, last: str) -> None:
    with service.client(cache_dir) as client:
        client.settlements(curve, first, last, TENORS)


def _check(service: Service, cache_dir: Path, curve: str, first: str, last: str) -> None:
    with service.client(cache_dir) as client:
        served, sent = count_requests(
            service.emulator, lambda: client.settlements(curve, first, last, TENORS)
        )
        corrected = client.settlements(curve, first, last, TENORS, cache="off")
    assert sent.total == 0, sent
    assert_same_table(served, corrected, f"{first}..{last} after the refresh")


def test_the_correction_changes_the_values(service, cache_dir, curve):
    with service.client(cache_dir) as client:
        before = client.settlements(curve, "2025-05-01", "2025-05-31", TENORS, cache="off")
    service.correct()
    with service.client(cache_dir) as client:
        after = client.settlements(curve, "2025-05-01", "2025-05-31", TENORS, cache="off")
    changed = {
        a["date"]
        for a, b in zip(before.to_pylist(), after.to_pylist(), strict=False)
        if a["price"] != b["price"]
    }
    assert changed == set(CORRECTED)


def test_a_refresh_of_a_cached_range_serves_the_corrected_values(service, cache_dir, curve):
    _pull(service, cache_dir, curve, "2025-05-01", "2025-05-31")
    service.correct()
    with service.client(cache_dir) as client:
        client.settlements(curve, "2025-04-01", "2025-06-12", TENORS, cache="refresh")
    assert len(segment_files(cache_dir, "settlements", "Jul 25")) == 1
    _check(service, cache_dir, curve, "2025-05-01", "2025-05-31")


@pytest.mark.parametrize(
    ("cached", "refreshed", "checked"),
    [
        # The refreshed days inside an older, wider file.
        (("2025-05-01", "2025-05-31"), ("2025-05-10", "2025-05-20"), ("2025-05-10", "2025-05-20")),
        # The refreshed days end before the older file does.
        (("2025-05-15", "2025-06-12"), ("2025-05-01", "2025-05-31"), ("2025-05-15", "2025-06-12")),
    ],
    ids=["inside", "ending-before"],
)
def test_a_refresh_of_days_inside_a_wider_cached_file_serves_the_corrected_values(
    service, cache_dir, curve, cached, refreshed, checked
):
    _pull(service, cache_dir, curve, *cached)
    service.correct()
    with service.client(cache_dir) as client:
        got = client.settlements(curve, *refreshed, TENORS, cache="refresh")
        assert_same_table(
            got, client.settlements(curve, *refreshed, TENORS, cache="off"), "the refresh"
        )
    _check(service, cache_dir, curve, *checked)
