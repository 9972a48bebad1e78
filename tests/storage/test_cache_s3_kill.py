"""A process filling the history cache in a bucket is SIGKILLed mid-fill:
one of its segments' PUTs held in flight by the fault proxy (the store never
sees it), others written or under way. The bucket holds only whole objects,
each saying what it holds, and a new client's pull is exact."""

from __future__ import annotations

import io
import json
import os
import signal
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
    assert_same_table,
    count_requests,
    pick_curves,
    worker_command,
)
from storage_helpers import environment, list_keys

PREFIX = "desk/history"
#: Final on the emulator's stopped clock: a tenor's settlements of five
#: months (one request each), then kept as segments.
PULLS = [("settlements", "2025-01-01", "2025-05-30", SUMMER)]
#: What the proxy holds: the PUT of a segment of this tenor ("Q3 25").
HELD = "/Q3%"


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    return {}


@pytest.fixture(scope="module")
def curve(em) -> str:
    with em.client() as client:
        return pick_curves(client).coarse


def _wait_for(what: str, done: Any, worker: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not done():
        assert worker.poll() is None, f"the filler ended before {what}: {worker.communicate()}"
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.01)


def test_a_filler_killed_mid_write_leaves_whole_objects_and_a_new_pull_is_exact(
    em, curve, bucket, s3, s3_options, fault_proxy, tmp_path, monkeypatch
):
    # The killed filler leaves its claim on the held tenor's days behind: a
    # short lifetime lets the new client below wait seconds on it, not a minute.
    monkeypatch.setenv("MARKETCURVES_CLAIM_TTL", "2")
    url = f"s3://{bucket}/{PREFIX}"
    job = {
        "base_url": em.base_url,
        **em.credentials,
        "cache_dir": url,
        "curve": curve,
        "pulls": PULLS,
        "modes": ["use"],
        "ready": str(tmp_path / "ready"),
        "go": str(tmp_path / "go"),
    }
    fault_proxy.hold("PutObject", key=HELD)
    # The store, through the proxy, from the cloud's variables.
    env = {**os.environ, **environment(fault_proxy.endpoint)}
    filler = subprocess.Popen(
        worker_command(job), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        _wait_for("ready", lambda: Path(job["ready"]).exists(), filler)
        Path(job["go"]).touch()

        def held() -> bool:
            return any(r["status"] == "held" for r in fault_proxy.requests("PutObject", key=HELD))

        def others_written() -> bool:
            puts = fault_proxy.requests("PutObject", key=f"/{bucket}/{PREFIX}/v1/services/")
            return any(
                r["status"] == 200 and "/settlements/" in r["path"] and HELD not in r["path"]
                for r in puts
            )

        _wait_for("a segment's PUT held", held, filler)
        _wait_for("another segment written", others_written, filler)
        filler.send_signal(signal.SIGKILL)
        filler.communicate(timeout=HANG_GUARD)
    finally:
        if filler.poll() is None:
            filler.kill()
            filler.wait()
        fault_proxy.clear()
    assert filler.returncode == -signal.SIGKILL

    # Whole objects only, each saying what it holds: its days and rows.
    segments = [
        k
        for k in list_keys(bucket, PREFIX, s3=s3)
        if k.endswith(".parquet") and "/settlements/" in k
    ]
    assert segments and not any(HELD in f"/{k}" for k in segments), segments
    for key in segments:
        body = s3.get_object(Bucket=bucket, Key=key)["Body"].read()
        table = pq.read_table(io.BytesIO(body))
        note = json.loads(pq.read_metadata(io.BytesIO(body)).metadata[b"marketcurves.cache"])
        assert note["rows"] == table.num_rows, key
        assert key.endswith(f"/{note['first']}_{note['last']}.parquet"), (key, note)
        assert note["curve_id"] == curve and note["history"] == "settlements"

    # A new client's pull: exact, the killed process's days from the bucket.
    with em.client(cache_dir=url, storage_options=s3_options) as client:
        _, start, end, tenors = PULLS[0]
        got, sent = count_requests(em, lambda: client.settlements(curve, start, end, tenors))
        stats = client.last_call_stats
        expected = client.settlements(curve, start, end, tenors, cache="off")
    assert_same_table(got, expected)
    assert stats is not None and stats["days_from_cache"] > 0 and stats["days_from_service"] > 0
    assert 0 < sent.settlements < len(SUMMER), sent
