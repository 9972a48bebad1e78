"""bulk_download into object storage (issue 15): each file streamed from its
pre-signed URL into a multipart upload on moto's S3, completed only once its
size is checked; the objects read back as the same export downloaded to a
local folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import marketcurves as mc
from marketcurves.testing import Emulator

MONTHS = ("JET", "2024-03", "2024-05")
SUBMIT = "/bulk-download/job-submit"


@pytest.fixture(scope="module")
def local(em: Emulator, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("local")
    with em.client() as client:
        client.bulk_download(*MONTHS, folder, progress=False, poll_interval=0.05)
    return folder


def _download(em: Emulator, dest: str, options: dict[str, str]) -> mc.BulkResult:
    with em.client() as client:
        return client.bulk_download(
            *MONTHS, dest, progress=False, poll_interval=0.05, storage_options=options
        )


def test_a_download_into_s3_reads_back_as_the_local_one(em, local, bucket, s3, s3_options):
    result = _download(em, f"s3://{bucket}/exports", s3_options)
    keys = sorted(o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"])
    local_files = sorted(p.relative_to(local).as_posix() for p in local.rglob("*.parquet"))
    assert keys == [f"exports/{name}" for name in local_files]
    assert sorted(result.objects) == [f"s3://{bucket}/exports/{name}" for name in local_files]
    assert result.files == ()
    from_s3 = mc.read_bulk(f"s3://{bucket}/exports", storage_options=s3_options)
    from_disk = mc.read_bulk(local)
    assert from_s3.equals(from_disk)
    assert result.rows == from_disk.num_rows > 0
    for name in local_files:
        body = s3.get_object(Bucket=bucket, Key=f"exports/{name}")["Body"].read()
        assert body == (local / name).read_bytes()


def test_a_rerun_skips_the_objects_already_there(em, bucket, s3_options):
    first = _download(em, f"s3://{bucket}/again", s3_options)
    second = _download(em, f"s3://{bucket}/again", s3_options)
    assert first.bytes > 0 and second.bytes == 0
    assert second.rows == first.rows and second.objects == first.objects


def test_a_job_downloads_into_s3_with_the_aws_variables(em, bucket, s3_env):
    with em.client() as client:
        job = client.bulk_submit(*MONTHS)
        result = job.download(f"s3://{bucket}/by-job", progress=False)
    assert len(result.objects) == 3 and result.rows > 0
    assert mc.read_bulk(f"s3://{bucket}/by-job").num_rows == result.rows


def test_a_missing_bucket_is_refused_before_a_job_is_submitted(em, s3_options, moto):
    submitted = em.request_count(SUBMIT)
    secret = s3_options["aws_secret_access_key"]
    with pytest.raises(mc.InvalidRequest) as caught:
        _download(em, "s3://no-such-bucket-here/exports", s3_options)
    assert "no-such-bucket-here" in str(caught.value)
    assert secret not in str(caught.value)
    assert em.request_count(SUBMIT) == submitted


@pytest.mark.parametrize(
    ("dest", "named"),
    [("ftp://host/exports", "ftp"), ("s3:///exports", "no bucket")],
)
def test_a_bad_destination_is_refused_before_anything_is_sent(em, dest, named, s3_options: Any):
    before = em.request_count()
    with pytest.raises(mc.InvalidRequest, match=named):
        _download(em, dest, s3_options if dest.startswith("s3") else {})
    assert em.request_count() == before
