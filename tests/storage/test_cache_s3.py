"""The history cache in a bucket (moto's S3 on loopback): the tables a
folder cache gives, a second client (of another account) served with no
request to the service, processes racing on one range leaving whole objects
only, a planted corrupt object ignored and replaced, and ``cache_info`` /
``clear_cache`` on the bucket."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "cache"))
from cache_helpers import (
    HANG_GUARD,
    SUMMER,
    TWO,
    assert_same_table,
    count_requests,
    pick_curves,
    worker_command,
)
from storage_helpers import environment, list_keys

import marketcurves as mc

#: Final days of settlements (over more than one file's worth) and of
#: intraday values, on the emulator's stopped clock (2025-06-13 17:00 UTC).
SETTLEMENTS = ("2025-04-01", "2025-05-30")
INTRADAY = ("2025-06-02", "2025-06-06")
PREFIX = "desk/history"
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


@pytest.fixture
def url(bucket: str) -> str:
    return f"s3://{bucket}/{PREFIX}"


def _pulls(client: mc.Client, curve: str, **kwargs: Any) -> list:
    return [
        client.settlements(curve, *SETTLEMENTS, SUMMER, **kwargs),
        client.intraday_history(curve, *INTRADAY, TWO, **kwargs),
    ]


def _segments(s3: Any, bucket: str) -> list[str]:
    """The keys of the history's objects (not the catalogues')."""
    return [
        k
        for k in list_keys(bucket, PREFIX, s3=s3)
        if k.endswith(".parquet") and "/catalogue/" not in k
    ]


def _cache_warnings(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "marketcurves.cache" and r.levelno == logging.WARNING
    ]


def test_a_bucket_cache_gives_the_tables_a_folder_cache_gives(
    em, curve, url, s3, bucket, s3_options, tmp_path
):
    with em.client() as plain:
        expected = _pulls(plain, curve)
    with (
        em.client(cache_dir=url, storage_options=s3_options) as in_bucket,
        em.client(cache_dir=tmp_path / "folder") as in_folder,
    ):
        for got in (_pulls(in_bucket, curve), _pulls(in_folder, curve)):
            for table, wanted in zip(got, expected, strict=True):
                assert_same_table(table, wanted)
        again, sent = count_requests(em, lambda: _pulls(in_bucket, curve))
        assert (sent.settlements, sent.intraday) == (0, 0), sent
        for table, wanted in zip(again, expected, strict=True):
            assert_same_table(table, wanted)
        offline = _pulls(in_bucket, curve, cache="offline")
        for table, wanted in zip(offline, expected, strict=True):
            assert_same_table(table, wanted)
    # The history is the service's, whatever the account: no account in its key.
    segments = _segments(s3, bucket)
    assert segments and all(k.startswith(f"{PREFIX}/v1/services/") for k in segments), segments
    catalogues = [k for k in list_keys(bucket, PREFIX, s3=s3) if "/catalogue/" in k]
    assert catalogues and all(k.startswith(f"{PREFIX}/v1/accounts/") for k in catalogues)


def test_another_account_reads_what_one_filled_with_no_request_for_those_days(
    em, curve, url, s3_options
):
    with em.client(cache_dir=url, storage_options=s3_options) as first:
        filled = _pulls(first, curve)
    token = em.token(FULL)
    with em.client(cache_dir=url, storage_options=s3_options, token=token) as second:
        got, sent = count_requests(em, lambda: _pulls(second, curve))
    assert (sent.settlements, sent.intraday) == (0, 0), sent
    for table, wanted in zip(got, filled, strict=True):
        assert_same_table(table, wanted)


def test_a_cache_dir_url_from_the_environment_with_the_clouds_variables(
    em, curve, url, s3_env, s3_options, monkeypatch
):
    with em.client(cache_dir=url, storage_options=s3_options) as first:
        filled = _pulls(first, curve)
    monkeypatch.setenv("MARKETCURVES_CACHE_DIR", url)
    with em.client() as client:
        got, sent = count_requests(em, lambda: _pulls(client, curve))
    assert (sent.settlements, sent.intraday) == (0, 0), sent
    for table, wanted in zip(got, filled, strict=True):
        assert_same_table(table, wanted)


def test_an_obstore_store_is_a_cache_as_its_url_is(em, curve, url, moto_server, bucket, s3_options):
    obstore_store = pytest.importorskip("obstore.store")
    from test_obstore_s3 import s3_store

    with em.client(cache_dir=url, storage_options=s3_options) as first:
        filled = _pulls(first, curve)
    with em.client(cache_dir=s3_store(moto_server, bucket, PREFIX)) as client:
        got, sent = count_requests(em, lambda: _pulls(client, curve))
    assert obstore_store is not None
    assert (sent.settlements, sent.intraday) == (0, 0), sent
    for table, wanted in zip(got, filled, strict=True):
        assert_same_table(table, wanted)


#: (method, start, end, tenors): the same and overlapping ranges, both
#: histories, the settlements over enough runs for a merge.
RACE = [
    ("settlements", "2025-01-01", "2025-03-31", SUMMER),
    ("settlements", "2025-02-15", "2025-05-30", SUMMER),
    ("settlements", "2025-01-01", "2025-06-12", SUMMER),
    ("intraday_history", "2025-06-02", "2025-06-06", TWO),
    ("intraday_history", "2025-06-05", "2025-06-12", TWO),
]


def test_two_processes_racing_on_one_range_leave_whole_objects_only(
    em, curve, url, s3, bucket, moto_server, s3_options, tmp_path
):
    def job(pulls: list, modes: list, name: str) -> dict:
        return {
            "base_url": em.base_url,
            **em.credentials,
            "cache_dir": url,
            "curve": curve,
            "pulls": pulls,
            "modes": modes,
            "ready": str(tmp_path / f"{name}.ready"),
            "go": str(tmp_path / "go"),
        }

    jobs = [job(RACE, ["use", "use"], "a"), job(RACE[::-1], ["use", "refresh"], "b")]
    # The store's settings come from the cloud's variables, as on a worker.
    env = {**os.environ, **environment(moto_server)}
    workers = [
        subprocess.Popen(
            worker_command(j), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        for j in jobs
    ]
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not all(Path(j["ready"]).exists() for j in jobs):
            assert all(w.poll() is None for w in workers), "a worker died before starting"
            assert time.monotonic() < deadline, "the workers never got ready"
            time.sleep(0.01)
        Path(jobs[0]["go"]).touch()
        outputs = [w.communicate(timeout=HANG_GUARD) for w in workers]
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()
    for worker, (out, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, f"a worker failed: {out}\n{err}"
        report = json.loads(out.strip().splitlines()[-1])
        assert report == {"pulls": 2 * len(RACE), "failures": []}

    # Every object is whole Parquet, and says what it holds.
    segments = _segments(s3, bucket)
    assert segments
    for key in segments:
        body = s3.get_object(Bucket=bucket, Key=key)["Body"].read()
        metadata = pq.read_metadata(io.BytesIO(body)).metadata
        assert b"marketcurves.cache" in metadata, key
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        for method, start, end, tenors in RACE:
            pull = getattr(client, method)
            got, sent = count_requests(
                em, lambda p=pull, s=start, e=end, t=tenors: p(curve, s, e, t)
            )
            assert (sent.settlements, sent.intraday) == (0, 0), (method, start, end, sent)
            assert_same_table(got, pull(curve, start, end, tenors, cache="off"))


def test_a_planted_corrupt_object_is_ignored_with_a_warning_and_replaced(
    em, curve, url, s3, bucket, s3_options, caplog
):
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        expected = client.settlements(curve, *SETTLEMENTS, SUMMER)
        (victim,) = [k for k in _segments(s3, bucket) if "/Aug%252025/" in k]
        s3.put_object(Bucket=bucket, Key=victim, Body=b"PAR1 planted, not a segment PAR1")
        caplog.set_level(logging.WARNING, logger="marketcurves.cache")
        got, sent = count_requests(em, lambda: client.settlements(curve, *SETTLEMENTS, SUMMER))
    assert sent.settlements == 1, f"Aug 25's days alone: {sent}"
    assert_same_table(got, expected)
    (warning,) = _cache_warnings(caplog)
    assert "is corrupt" in warning and victim in warning, warning
    body = s3.get_object(Bucket=bucket, Key=victim)["Body"].read()
    assert pq.read_table(io.BytesIO(body)).num_rows > 0


def test_cache_info_and_clear_cache_on_a_bucket(em, curve, url, s3, bucket, s3_options):
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        assert client.cache_info()["curves"] == []
        _pulls(client, curve)
        info = client.cache_info()
        assert info["dir"].startswith(f"{url}/v1/services/")
        assert info["files"] >= len(_segments(s3, bucket)) > 0
        assert info["bytes"] > 0
        kinds = {(c["curve_id"], c["history"]): c for c in info["curves"]}
        settled = kinds[(curve, "settlements")]
        assert settled["tenors"] == len(SUMMER)
        assert (str(settled["first"]), str(settled["last"])) == SETTLEMENTS
        assert kinds[(curve, "intraday")]["tenors"] == len(TWO)

        cleared = client.clear_cache(curve_id=curve, before="2025-05-01")
        assert cleared["files"] > 0
        after = {c["history"]: c for c in client.cache_info()["curves"]}
        assert str(after["settlements"]["first"]) == "2025-05-01"

        cleared = client.clear_cache()
        assert cleared["files"] > 0
        assert client.cache_info()["curves"] == []
    assert _segments(s3, bucket) == []
