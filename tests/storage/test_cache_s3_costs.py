"""What a shared cache in a bucket (moto on loopback) holds and saves, as
for a folder: ``cache_info`` per curve (tenor-days, first and last day,
bytes), each call's days from the cache and from the service, and
``marketcurves cache info --cache-dir s3://…`` with the store's settings
from the environment."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "cache"))
from cache_helpers import SUMMER, TWO, count_requests, pick_curves

from marketcurves import cli

WEEK = ("2025-05-05", "2025-05-11")
TWO_WEEKS = ("2025-05-05", "2025-05-18")
#: The emulator's second account, licensed for everything.
FULL = "full@marketcurves.test"


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """A stopped clock: what is final stays final through the module."""
    return {}


@pytest.fixture(scope="module")
def curve(em) -> str:
    with em.client() as client:
        return pick_curves(client).coarse


def test_a_bucket_cache_reports_its_days_and_each_calls_share(em, curve, bucket, s3_options):
    url = f"s3://{bucket}/desk"
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        client.settlements(curve, *WEEK, SUMMER)
        assert client.last_call_stats == {"days_from_cache": 0, "days_from_service": 21}
        client.intraday_history(curve, *WEEK, TWO)
    with em.client(cache_dir=url, storage_options=s3_options, token=em.token(FULL)) as other:
        _, sent = count_requests(em, lambda: other.settlements(curve, *TWO_WEEKS, SUMMER))
        assert sent.settlements == len(SUMMER)
        assert other.last_call_stats == {"days_from_cache": 21, "days_from_service": 21}
        info = other.cache_info()
    kinds = {(c["curve_id"], c["history"]): c for c in info["curves"]}
    settled, intraday = kinds[(curve, "settlements")], kinds[(curve, "intraday")]
    assert (settled["tenors"], settled["days"]) == (len(SUMMER), 3 * 14)
    assert (str(settled["first"]), str(settled["last"])) == TWO_WEEKS
    assert (intraday["tenors"], intraday["days"]) == (len(TWO), 2 * 7)
    assert (str(intraday["first"]), str(intraday["last"])) == WEEK
    assert settled["bytes"] > 0 and intraday["bytes"] > 0
    assert info["bytes"] >= settled["bytes"] + intraday["bytes"]


def test_the_cache_info_command_reads_a_bucket_with_the_clouds_variables(
    em, curve, bucket, s3_options, s3_env, monkeypatch, capsys
):
    url = f"s3://{bucket}/desk"
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        client.settlements(curve, *WEEK, SUMMER)
        info = client.cache_info()
    monkeypatch.setenv("MARKETCURVES_BASE_URL", em.base_url)
    monkeypatch.setenv("MARKETCURVES_TOKEN", em.token())
    capsys.readouterr()
    assert cli.main(["cache", "info", "--cache-dir", url, "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(info, default=lambda v: v.isoformat()))
    assert printed["dir"].startswith(f"{url}/v1/services/")
    assert cli.main(["cache", "info", "--cache-dir", url, "--format", "csv"]) == 0
    (row,) = csv.DictReader(io.StringIO(capsys.readouterr().out))
    assert list(row) == list(info["curves"][0])
    assert row["days"] == str(3 * 7)
