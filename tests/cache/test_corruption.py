"""A damaged cache file is never trusted: it is logged as a WARNING on
``marketcurves.cache`` naming the file, its days are fetched again, the
table is the uncached one, and the file is whole again afterwards."""

from __future__ import annotations

import logging
import random
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from cache_helpers import (
    SUMMER,
    TWO,
    assert_same_table,
    catalogue_files,
    count_requests,
    segment_files,
    temporaries,
)

RANGE = ("2025-04-01", "2025-05-31")


def _damage(victim: Path, how: str) -> None:
    data = victim.read_bytes()
    if how == "truncated":
        victim.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        victim.write_bytes(b"")
    elif how == "garbage":
        victim.write_bytes(random.Random(7).randbytes(len(data)))
    elif how == "another tenor's":
        # A whole Parquet file, with a note that says it is of Jul 25.
        (other,) = [p for p in victim.parent.parent.glob("Jul%2025/*.parquet")]
        shutil.copyfile(other, victim)
    else:
        raise AssertionError(how)


def _warnings(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "marketcurves.cache" and r.levelno == logging.WARNING
    ]


@pytest.mark.parametrize("how", ["truncated", "empty", "garbage", "another tenor's"])
def test_a_damaged_settlements_file_is_fetched_again(em, client, cache_dir, curve, caplog, how):
    first = client.settlements(curve, *RANGE, SUMMER)
    (victim,) = segment_files(cache_dir, "settlements", "Aug 25")
    _damage(victim, how)
    caplog.set_level(logging.WARNING, logger="marketcurves.cache")

    got, sent = count_requests(em, lambda: client.settlements(curve, *RANGE, SUMMER))
    assert sent.settlements == 1 and sent.total == 1, f"Aug 25's days alone: {sent}"
    (warning,) = _warnings(caplog)
    assert victim.name in warning and "Aug%2025" in warning, warning
    assert_same_table(got, client.settlements(curve, *RANGE, SUMMER, cache="off"), how)
    assert_same_table(got, first, how)

    # Whole again: any Parquet reader takes it, and the cache serves it.
    assert pq.read_table(victim).num_rows > 0
    caplog.clear()
    again, sent = count_requests(em, lambda: client.settlements(curve, *RANGE, SUMMER))
    assert sent.total == 0, sent
    assert not _warnings(caplog)
    assert_same_table(again, first, f"after mending a file {how}")
    assert not temporaries(cache_dir)


def test_a_damaged_file_partly_asked_for_fetches_only_the_days_asked(
    em, client, cache_dir, curve, caplog
):
    client.settlements(curve, *RANGE, TWO)
    (victim,) = segment_files(cache_dir, "settlements", "Jul 25")
    _damage(victim, "truncated")
    caplog.set_level(logging.WARNING, logger="marketcurves.cache")
    got, sent = count_requests(
        em, lambda: client.settlements(curve, "2025-04-10", "2025-04-20", TWO)
    )
    assert sent.settlements == 1, sent
    assert len(_warnings(caplog)) == 1
    assert_same_table(
        got, client.settlements(curve, "2025-04-10", "2025-04-20", TWO, cache="off"), "inside"
    )


def test_a_damaged_intraday_file_is_fetched_again(em, client, cache_dir, curve, caplog):
    args = (curve, "2025-06-02", "2025-06-12", TWO)
    client.intraday_history(*args)
    (victim,) = segment_files(cache_dir, "intraday", "Aug 25")
    _damage(victim, "truncated")
    caplog.set_level(logging.WARNING, logger="marketcurves.cache")

    got, sent = count_requests(em, lambda: client.intraday_history(*args))
    _, one_tenor = count_requests(
        em, lambda: client.intraday_history(curve, *args[1:3], ["Aug 25"], cache="off")
    )
    assert sent.intraday == one_tenor.intraday >= 1, (sent, one_tenor)
    (warning,) = _warnings(caplog)
    assert victim.name in warning
    assert_same_table(got, client.intraday_history(*args, cache="off"), "intraday")
    assert pq.read_table(victim).num_rows > 0


def test_a_damaged_catalogue_is_fetched_again(em, client, cache_dir, caplog):
    first = client.catalogue()
    (victim,) = catalogue_files(cache_dir)
    _damage(victim, "truncated")
    caplog.set_level(logging.WARNING, logger="marketcurves.cache")
    got, sent = count_requests(em, client.catalogue)
    assert sent.catalogue >= 1, sent
    (warning,) = _warnings(caplog)
    assert victim.name in warning
    assert got.to_arrow().equals(first.to_arrow())
    again, sent = count_requests(em, client.catalogue)
    assert sent.total == 0, sent
    assert again.to_arrow().equals(first.to_arrow())
