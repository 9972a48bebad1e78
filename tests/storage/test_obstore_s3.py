"""obstore's store objects wherever an object store URL is taken: a bulk
download, a job's download, read_bulk, the recorder and read_ticks, against
moto's S3 on loopback, each equal to the same call with the URL."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import marketcurves as mc
from marketcurves.testing import Emulator

sys.path.insert(0, str(Path(__file__).parent.parent / "record"))
from record_helpers import SCALE, keepalive
from storage_helpers import ACCESS_KEY_ID, REGION, SECRET_ACCESS_KEY
from support import LIVE_START, start_emulator

obstore_store = pytest.importorskip("obstore.store")

MONTHS = ("JET", "2024-03", "2024-04")


def s3_store(moto_server: str, bucket: str, prefix: str | None) -> Any:
    """An obstore S3Store of moto's bucket, with obstore's own configuration."""
    return obstore_store.S3Store(
        bucket,
        prefix=prefix,
        config={
            "endpoint": moto_server,
            "access_key_id": ACCESS_KEY_ID,
            "secret_access_key": SECRET_ACCESS_KEY,
            "region": REGION,
        },
        client_options={"allow_http": True},
    )


def _download(em: Emulator, dest: Any, options: dict[str, str] | None = None) -> mc.BulkResult:
    with em.client() as client:
        return client.bulk_download(
            *MONTHS, dest, progress=False, poll_interval=0.05, storage_options=options
        )


def _keys(s3: Any, bucket: str) -> list[str]:
    return sorted(o["Key"] for o in s3.list_objects_v2(Bucket=bucket).get("Contents", []))


def test_a_download_into_a_store_is_the_download_into_its_url(
    em, moto_server, bucket, s3, s3_options
):
    by_url = _download(em, f"s3://{bucket}/by-url", s3_options)
    by_store = _download(em, s3_store(moto_server, bucket, "by-store"))
    assert by_store.objects == tuple(
        o.replace(f"s3://{bucket}/by-url", f"s3://{bucket}/by-store") for o in by_url.objects
    )
    assert by_store.rows == by_url.rows > 0 and by_store.files == ()
    keys = _keys(s3, bucket)
    url_keys = [k.removeprefix("by-url/") for k in keys if k.startswith("by-url/")]
    store_keys = [k.removeprefix("by-store/") for k in keys if k.startswith("by-store/")]
    assert store_keys == url_keys and url_keys
    # Read back through the store, through its URL, and through a store
    # whose prefix is the bucket's root: the same table.
    from_store = mc.read_bulk(s3_store(moto_server, bucket, "by-store"))
    from_url = mc.read_bulk(f"s3://{bucket}/by-url", storage_options=s3_options)
    assert from_store.equals(from_url) and from_store.num_rows == by_url.rows


def test_a_jobs_download_takes_a_store_and_skips_what_is_there(em, moto_server, bucket):
    store = s3_store(moto_server, bucket, "job")
    with em.client() as client:
        job = client.bulk_submit(*MONTHS)
        first = job.download(store, progress=False)
        again = job.download(store, progress=False)
    assert first.bytes > 0 and again.bytes == 0 and again.objects == first.objects
    assert all(o.startswith(f"s3://{bucket}/job/vertical=") for o in first.objects)


def test_a_recording_into_a_store_reads_back_as_through_its_url(
    moto_server, bucket, s3, s3_options
):
    store = s3_store(moto_server, bucket, "desk/ticks")
    with start_emulator(time_scale=SCALE, start=LIVE_START) as em, em.client() as client:
        curve = next(c for c in client.catalogue() if len(c.contracts or []) >= 3)
        summary = client.record(store, [(curve.id, "*")], rotate="1s", duration=2, **keepalive())
    assert summary.ticks_written > 0
    assert "desk/ticks/_status.json" in _keys(s3, bucket)
    from_store = mc.read_ticks(store, curve.id)
    from_url = mc.read_ticks(f"s3://{bucket}/desk/ticks", curve.id, storage_options=s3_options)
    assert from_store.equals(from_url)
    assert from_store.num_rows == summary.ticks_written


def test_a_store_with_storage_options_is_refused_before_anything_is_sent(
    em, moto_server, bucket, s3, s3_options
):
    store = s3_store(moto_server, bucket, "refused")
    with pytest.raises(mc.InvalidRequest, match="storage_options") as raised:
        _download(em, store, s3_options)
    assert s3_options["aws_secret_access_key"] not in str(raised.value)
    with pytest.raises(mc.InvalidRequest, match="storage_options"):
        mc.read_bulk(store, storage_options=s3_options)
    assert _keys(s3, bucket) == []


def test_a_memory_store_is_refused_by_name(em):
    with pytest.raises(mc.InvalidRequest, match="MemoryStore"):
        _download(em, obstore_store.MemoryStore())


def test_a_local_store_reads_as_its_folder(em, tmp_path):
    folder = tmp_path / "local"
    by_folder = _download(em, folder)
    store = obstore_store.LocalStore(folder)
    assert mc.read_bulk(store).equals(mc.read_bulk(folder)) and by_folder.rows > 0
