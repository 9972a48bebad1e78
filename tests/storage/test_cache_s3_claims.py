"""Claims in a bucket cache (moto's S3 on loopback): two processes racing on
one range of final days fetch each tenor's days once between them, and a
claim its claimant left behind (a process killed while fetching) holds no
call beyond its time, and is removed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "cache"))
from cache_helpers import (
    HANG_GUARD,
    SUMMER,
    Requests,
    assert_same_table,
    count_requests,
    pick_curves,
    worker_command,
)
from storage_helpers import environment, list_keys

#: Final days of settlements on the emulator's stopped clock.
DAYS = ("2025-02-03", "2025-05-30")


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """A stopped clock: what is final stays final through the module."""
    return {}


@pytest.fixture(scope="module")
def curve(em) -> str:
    with em.client() as client:
        return pick_curves(client).coarse


def _claims(s3: Any, bucket: str, prefix: str) -> list[str]:
    return [k for k in list_keys(bucket, prefix, s3=s3) if "/claims/" in k]


def test_two_processes_racing_on_one_range_fetch_each_tenors_days_once(
    em, curve, s3, bucket, moto_server, s3_options, tmp_path
):
    url = f"s3://{bucket}/race"
    with em.client() as client:
        _, off = count_requests(em, lambda: client.settlements(curve, *DAYS, SUMMER))
    with em.client(cache_dir=f"s3://{bucket}/alone", storage_options=s3_options) as client:
        _, alone = count_requests(em, lambda: client.settlements(curve, *DAYS, SUMMER))
    assert alone.settlements == off.settlements == len(SUMMER)

    def job(name: str) -> dict:
        return {
            "base_url": em.base_url,
            **em.credentials,
            "cache_dir": url,
            "curve": curve,
            "pulls": [("settlements", *DAYS, SUMMER)],
            "modes": ["use"],
            "ready": str(tmp_path / f"{name}.ready"),
            "go": str(tmp_path / "go"),
        }

    jobs = [job("a"), job("b")]
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
        with Requests(em) as sent:
            Path(jobs[0]["go"]).touch()
            outputs = [w.communicate(timeout=HANG_GUARD) for w in workers]
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()
    for worker, (out, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, f"a worker failed: {out}\n{err}"
        assert json.loads(out.strip().splitlines()[-1]) == {"pulls": 1, "failures": []}
    # Each worker also pulled once without the cache, to compare.
    cached = sent.settlements - 2 * off.settlements
    assert cached == alone.settlements, f"together {cached}, one alone {alone.settlements}"
    assert _claims(s3, bucket, "race") == []


def test_a_claim_left_by_a_dead_claimant_holds_no_one_beyond_its_time(
    em, curve, s3, bucket, s3_options
):
    # Where a tenor's claim would be: learnt from a filled prefix.
    with em.client(cache_dir=f"s3://{bucket}/learn", storage_options=s3_options) as client:
        expected = client.settlements(curve, *DAYS, SUMMER)
    keys = [k for k in list_keys(bucket, "learn", s3=s3) if "/settlements/" in k]
    tenor_dirs = sorted({k.rsplit("/", 1)[0].replace("learn/", "dead/", 1) for k in keys})
    assert len(tenor_dirs) == len(SUMMER)
    planted = []
    for tenor_dir in tenor_dirs:
        service, curve_part, tenor_part = tenor_dir.rsplit("/", 2)
        service = service.removesuffix("/settlements")
        claim = f"{service}/claims/settlements_{curve_part}_{tenor_part}_{DAYS[0]}_{DAYS[1]}"
        # Its time ended a second after the epoch: its claimant is long gone.
        s3.put_object(Bucket=bucket, Key=claim, Body=b"1000")
        planted.append(claim)
    assert sorted(_claims(s3, bucket, "dead")) == sorted(planted)
    with em.client(cache_dir=f"s3://{bucket}/dead", storage_options=s3_options) as client:
        got, sent = count_requests(em, lambda: client.settlements(curve, *DAYS, SUMMER))
        assert client.last_call_stats["days_from_cache"] == 0
    assert sent.settlements == len(SUMMER)
    assert_same_table(got, expected)
    assert _claims(s3, bucket, "dead") == []
