"""The recorder writing into S3 (moto on loopback), read back by
``read_ticks`` and by pyarrow as a Hive-partitioned dataset."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pyarrow.dataset as ds
import pyarrow.fs
import pytest

import marketcurves as mc

# The recorder suite's checks, shared rather than written twice.
sys.path.insert(0, str(Path(__file__).parent.parent / "record"))
from record_helpers import SCALE, check_exactly_once, keepalive, recorded
from support import LIVE_START, start_emulator

CURVE_TENORS = 5


def test_a_recording_in_s3_holds_each_published_value_once(bucket, s3, s3_options):
    with start_emulator(time_scale=SCALE, start=LIVE_START) as em, em.client() as client:
        curve = next(c for c in client.catalogue() if len(c.contracts or []) >= CURVE_TENORS)
        dest = f"s3://{bucket}/desk/ticks"
        summary = client.record(
            dest,
            [(curve.id, "*")],
            rotate="1s",
            storage_options=s3_options,
            duration=3,
            **keepalive(),
        )
        rows = recorded(dest, curve.id, storage_options=s3_options)
        last = max(t for tenor in rows.values() for t, _, _ in tenor)
        counts = check_exactly_once(em, dest, curve.id, until=last, storage_options=s3_options)
    assert sum(counts.values()) == summary.ticks_written > 0
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]]
    assert "desk/ticks/_status.json" in keys
    assert any(k.startswith("desk/ticks/date=2025-06-11/part-") for k in keys)
    filesystem = pyarrow.fs.S3FileSystem(
        access_key=s3_options["aws_access_key_id"],
        secret_key=s3_options["aws_secret_access_key"],
        endpoint_override=s3_options["aws_endpoint"],
        region=s3_options["aws_region"],
        scheme="http",
    )
    dataset = ds.dataset(
        f"{bucket}/desk/ticks", filesystem=filesystem, format="parquet", partitioning="hive"
    )
    assert dataset.count_rows() == summary.ticks_written


def test_a_second_recorder_on_one_prefix_is_refused_until_the_first_lets_go(bucket, s3, s3_options):
    with start_emulator(time_scale=SCALE, start=LIVE_START) as em, em.client() as client:
        curve = next(c for c in client.catalogue() if len(c.contracts or []) >= CURVE_TENORS)
        dest = f"s3://{bucket}/desk/leased"
        args = ([(curve.id, "*")],)
        options = {"storage_options": s3_options, **keepalive()}
        finished: dict[str, object] = {}

        def first() -> None:
            finished["summary"] = client.record(dest, *args, duration=4, **options)

        thread = threading.Thread(target=first)
        thread.start()
        lease = {"Bucket": bucket, "Key": "desk/leased/_lock"}
        deadline = time.monotonic() + 30
        while "Contents" not in s3.list_objects_v2(Bucket=bucket, Prefix=lease["Key"]):
            assert time.monotonic() < deadline, "the first recorder took no lease"
            time.sleep(0.05)
        with pytest.raises(mc.DestinationError) as refused:
            client.record(dest, *args, duration=1, **options)
        message = str(refused.value)
        assert "another recorder" in message and f"process {os.getpid()} on " in message
        thread.join(timeout=60)
        assert finished["summary"].ticks_written > 0, "the first went on"
        listed = s3.list_objects_v2(Bucket=bucket, Prefix=lease["Key"])
        assert "Contents" not in listed, "a recorder that stops lets go of its lease"
        # The next recorder starts at once (a refusal would raise).
        client.record(dest, *args, duration=1, **options)
