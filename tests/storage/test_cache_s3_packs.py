"""Packs in a bucket cache (moto's S3 on loopback): a call of a curve's many
tenors keeps their final days in one object as well as in each tenor's
segments, and the next call over those days reads that one object. A pack
that is not what it says is ignored, removed with a warning and replaced;
packs and segments of overlapping days give the exact table a cold pull
gives; ``cache_info`` counts a day once; ``clear_cache(curve, before)``
clears packs too."""

from __future__ import annotations

import io
import logging
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "cache"))
from cache_helpers import assert_same_table, count_requests
from storage_helpers import list_keys

import marketcurves as mc

PREFIX = "desk/packs"
MAY = ("2025-05-01", "2025-05-31")
#: The emulator's second account, licensed for everything.
FULL = "full@marketcurves.test"
#: A call of more tenors than this is packed (one round of a store's reads).
ONE_ROUND = 16


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """A stopped clock: what is final stays final through the module."""
    return {}


@pytest.fixture(scope="module")
def big(em) -> str:
    """A curve with more listed tenors than one round of reads."""
    with em.client() as client:
        curves = [c for c in client.catalogue() if c.quotation != "Sales"]
    curve = max(curves, key=lambda c: len(c.contracts or []))
    assert len(curve.contracts) > ONE_ROUND, "the emulator lists no curve of many tenors"
    return curve.id


@pytest.fixture
def url(bucket: str) -> str:
    return f"s3://{bucket}/{PREFIX}"


def _packs(s3: Any, bucket: str) -> list[str]:
    return sorted(k for k in list_keys(bucket, PREFIX, s3=s3) if k.endswith(".pack.parquet"))


def _cache_warnings(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "marketcurves.cache" and r.levelno == logging.WARNING
    ]


def _history_gets(requests: list[str]) -> list[str]:
    """The GETs of history objects (no listing, no catalogue)."""
    return [
        r
        for r in requests
        if r.startswith("GET ") and "/settlements/" in r and "list-type" not in r
    ]


def test_a_call_whose_days_a_pack_holds_reads_that_one_object(
    em, big, url, s3, bucket, s3_options, moto, tmp_path
):
    with em.client(cache_dir=url, storage_options=s3_options) as filler:
        expected = filler.settlements(big, *MAY)
    (pack,) = _packs(s3, bucket)
    assert f"/{MAY[0]}_{MAY[1]}_" in pack
    # Another account, another session: one GET of history, the pack's.
    with em.client(cache_dir=url, storage_options=s3_options, token=em.token(FULL)) as other:
        before = len(moto.requests())
        got, sent = count_requests(em, lambda: other.settlements(big, *MAY))
        seen = moto.requests()[before:]
        stats = other.last_call_stats
        info = other.cache_info()
    assert sent.settlements == 0
    assert_same_table(got, expected)
    gets = _history_gets(seen)
    assert len(gets) == 1 and gets[0].split("?")[0].endswith(pack), gets
    tenors = len({t for t in expected.column("tenor").to_pylist()})
    assert stats["days_from_service"] == 0 and stats["days_from_cache"] >= tenors * 31
    # The days a pack and the segments both hold count once, as in a folder.
    with em.client(cache_dir=tmp_path / "folder") as in_folder:
        in_folder.settlements(big, *MAY)
        folder_info = in_folder.cache_info()
    (settled,) = [c for c in info["curves"] if c["history"] == "settlements"]
    (in_a_folder,) = [c for c in folder_info["curves"] if c["history"] == "settlements"]
    for field in ("tenors", "days", "first", "last"):
        assert settled[field] == in_a_folder[field], field
    assert settled["files"] == in_a_folder["files"] + 1


def test_a_pack_that_is_not_what_it_says_is_ignored_removed_with_a_warning_and_replaced(
    em, big, url, s3, bucket, s3_options, caplog
):
    with em.client(cache_dir=url, storage_options=s3_options) as filler:
        expected = filler.settlements(big, *MAY)
    (pack,) = _packs(s3, bucket)
    whole = s3.get_object(Bucket=bucket, Key=pack)["Body"].read()
    # Not Parquet.
    s3.put_object(Bucket=bucket, Key=pack, Body=b"PAR1 planted, not a pack PAR1")
    caplog.set_level(logging.WARNING, logger="marketcurves.cache")
    with em.client(cache_dir=url, storage_options=s3_options) as reader:
        got, sent = count_requests(em, lambda: reader.settlements(big, *MAY))
    assert sent.settlements == 0, "the tenors' segments hold the days"
    assert_same_table(got, expected)
    (warning,) = _cache_warnings(caplog)
    assert "is corrupt" in warning and pack in warning, warning
    assert _packs(s3, bucket) == [pack], "replaced"
    replaced = s3.get_object(Bucket=bucket, Key=pack)["Body"].read()
    assert pq.read_table(io.BytesIO(replaced)).num_rows == expected.num_rows

    # Whole Parquet, whose note holds days its name does not: it lies.
    directory, name = pack.rsplit("/", 1)
    liar = f"{directory}/{MAY[0]}_2025-05-15_{name.split('_', 2)[2]}"
    s3.put_object(Bucket=bucket, Key=liar, Body=whole)
    caplog.clear()
    with em.client(cache_dir=url, storage_options=s3_options) as reader:
        got, sent = count_requests(em, lambda: reader.settlements(big, MAY[0], "2025-05-15"))
        half = reader.settlements(big, MAY[0], "2025-05-15", cache="off")
    assert sent.settlements == 0
    assert_same_table(got, half)
    (warning,) = _cache_warnings(caplog)
    assert "is corrupt" in warning and liar in warning, warning
    assert liar not in _packs(s3, bucket)


def test_packs_and_segments_of_overlapping_days_give_the_table_a_cold_pull_gives(
    em, big, url, s3, bucket, s3_options
):
    with em.client(cache_dir=url, storage_options=s3_options) as one:
        one.settlements(big, *MAY)
    with em.client(cache_dir=url, storage_options=s3_options) as two:
        # May's first days from the pack, April's last fetched.
        got = two.settlements(big, "2025-04-15", "2025-05-20")
        assert_same_table(got, two.settlements(big, "2025-04-15", "2025-05-20", cache="off"))
    assert len(_packs(s3, bucket)) == 2, "a pack of each call's days"
    with em.client(cache_dir=url, storage_options=s3_options) as three:
        got, sent = count_requests(em, lambda: three.settlements(big, "2025-04-20", "2025-05-31"))
        assert sent.settlements == 0
        assert_same_table(got, three.settlements(big, "2025-04-20", "2025-05-31", cache="off"))
    # The third call's pack holds all of May's: May's is removed.
    packs = _packs(s3, bucket)
    assert len(packs) == 2 and not any(f"/{MAY[0]}_{MAY[1]}_" in k for k in packs), packs


def test_clear_cache_before_a_day_clears_packs_too(em, big, url, s3, bucket, s3_options):
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        client.settlements(big, *MAY)
        client.clear_cache(big, before="2025-05-16")
        (pack,) = _packs(s3, bucket)
        assert "/2025-05-16_2025-05-31_" in pack, pack
        (settled,) = [c for c in client.cache_info()["curves"] if c["history"] == "settlements"]
        assert str(settled["first"]) == "2025-05-16"
        assert settled["days"] == settled["tenors"] * 16
        late = client.settlements(big, "2025-05-16", MAY[1], cache="offline")
        assert_same_table(late, client.settlements(big, "2025-05-16", MAY[1], cache="off"))
        with pytest.raises(mc.CacheMiss):
            client.settlements(big, *MAY, cache="offline")
        client.clear_cache(big)
    assert _packs(s3, bucket) == []


def test_a_refresh_removes_the_packs_over_its_days(em, big, url, s3, bucket, s3_options):
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        client.settlements(big, *MAY)
        assert len(_packs(s3, bucket)) == 1
        tenors = client.settlements(big, *MAY).column("tenor").unique().to_pylist()[:2]
        client.settlements(big, "2025-05-10", "2025-05-12", tenors, cache="refresh")
        # Too few tenors to pack: May's pack is gone, its days in segments.
        assert _packs(s3, bucket) == []
        got, sent = count_requests(em, lambda: client.settlements(big, *MAY))
        assert sent.settlements == 0
        assert_same_table(got, client.settlements(big, *MAY, cache="off"))
    assert len(_packs(s3, bucket)) == 1, "packed anew"
