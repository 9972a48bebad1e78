"""bulk_download into S3 when the store fails (issue 15), with moto behind
the fault proxy. A 503 that passes, on any step of an upload, is tried
again and the objects come out whole; a lasting one ends the download with
an error naming the object, leaving no object under a final key and no
multipart upload open (each was aborted). A CLI download killed while an
object is in transit leaves no object under its key, and the same command
run again completes it without uploading the others again; a client
closed mid-upload aborts its uploads."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from s3_fault_proxy import FaultProxy
from storage_helpers import SECRET_ACCESS_KEY, list_keys, open_uploads, storage_options

import marketcurves as mc
from marketcurves.testing import Emulator

MONTHS = ("JET", "2024-03", "2024-04")

#: The requests of a multipart upload, in the order each object makes them.
UPLOAD_STEPS = ("CreateMultipartUpload", "UploadPart", "CompleteMultipartUpload")


@pytest.fixture(scope="module")
def local(em: Emulator, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The export downloaded to a local folder: each file's bytes by its path."""
    folder = tmp_path_factory.mktemp("local")
    with em.client() as client:
        client.bulk_download(*MONTHS, folder, progress=False, poll_interval=0.05)
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.parquet")}


def _download(em: Emulator, dest: str, options: dict[str, str]) -> mc.BulkResult:
    with em.client() as client:
        return _download_with(client, dest, options)


def _download_with(client: mc.Client, dest: str, options: dict[str, str]) -> mc.BulkResult:
    return client.bulk_download(
        *MONTHS, dest, progress=False, poll_interval=0.05, storage_options=options
    )


def _cli(dest: str, options: dict[str, str]) -> list[str]:
    """The command line of ``marketcurves bulk`` for ``MONTHS`` into ``dest``."""
    vertical, start, end = MONTHS
    argv = [sys.executable, "-m", "marketcurves", "bulk", "--vertical", vertical]
    argv += ["--start", start, "--end", end, "--dest", dest]
    for key, value in options.items():
        argv += ["--storage-option", f"{key}={value}"]
    return argv


def _wait_until(
    condition: Callable[[], bool],
    what: str,
    process: subprocess.Popen[bytes] | None = None,
    output: Path | None = None,
    seconds: float = 30.0,
) -> None:
    """Waits for ``condition``; fails naming ``what``, and if ``process``
    ended or outlived the wait, kills it and shows its ``output``."""
    deadline = time.monotonic() + seconds
    while not condition():
        ended = process is not None and process.poll() is not None
        if ended or time.monotonic() > deadline:
            said = ""
            if process is not None:
                process.kill()
                process.wait()
            if output is not None:
                said = f"; the command said: {output.read_text(errors='replace')[-2000:]}"
            raise AssertionError(f"never saw {what}{said}")
        time.sleep(0.05)


@pytest.mark.parametrize("step", UPLOAD_STEPS)
def test_a_passing_5xx_is_tried_again_and_the_objects_are_whole(
    em, local, bucket, s3, fault_proxy: FaultProxy, proxy_options, step
):
    fault_proxy.fail(step, 2, key=bucket)
    result = _download(em, f"s3://{bucket}/x", proxy_options)
    assert sorted(result.objects) == [f"s3://{bucket}/x/{name}" for name in sorted(local)]
    assert list_keys(bucket, s3=s3) == [f"x/{name}" for name in sorted(local)]
    for name, body in local.items():
        assert s3.get_object(Bucket=bucket, Key=f"x/{name}")["Body"].read() == body
    statuses = [r["status"] for r in fault_proxy.requests(step, key=bucket)]
    assert statuses.count(503) == 2
    assert len(statuses) == len(local) + 2  # each failure was sent again
    assert open_uploads(bucket, s3=s3) == []


@pytest.mark.parametrize("step", ["UploadPart", "CompleteMultipartUpload"])
def test_a_lasting_5xx_fails_naming_the_object_and_leaves_nothing_behind(
    em, bucket, s3, fault_proxy: FaultProxy, proxy_options, step
):
    fault_proxy.fail(step, -1, key=bucket)
    with pytest.raises(mc.BulkJobFailed) as caught:
        _download(em, f"s3://{bucket}/x", proxy_options)
    message = str(caught.value)
    assert f"s3://{bucket}/x/vertical=Jet/" in message
    assert "503" in message
    assert SECRET_ACCESS_KEY not in message
    assert list_keys(bucket, s3=s3) == []
    assert open_uploads(bucket, s3=s3) == []
    failed = fault_proxy.requests(step, key=bucket)
    objects = {r["path"] for r in failed}
    assert len(objects) == len(MONTHS) - 1
    assert len(failed) > len(objects)  # each was tried again before giving up
    aborts = fault_proxy.requests("AbortMultipartUpload", key=bucket)
    assert {r["path"] for r in aborts if r["status"] == 204} == objects


def test_a_client_closed_mid_upload_aborts_its_uploads(
    em, bucket, s3, fault_proxy: FaultProxy, proxy_options
):
    fault_proxy.hold("CompleteMultipartUpload", key=bucket)
    client = em.client()
    outcome: list[Any] = []

    def download() -> None:
        try:
            outcome.append(_download_with(client, f"s3://{bucket}/c", proxy_options))
        except Exception as error:
            outcome.append(error)

    thread = threading.Thread(target=download, daemon=True)
    thread.start()
    try:
        held = lambda: len(fault_proxy.requests("CompleteMultipartUpload", key=bucket)) == 2  # noqa: E731
        _wait_until(held, "every object's completion held")
        assert len(open_uploads(bucket, s3=s3)) == 2
    finally:
        client.close()
    thread.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], mc.ClientClosed), outcome
    # The uploads the closed download had open are aborted behind it.
    _wait_until(lambda: open_uploads(bucket, s3=s3) == [], "the uploads aborted", seconds=10)
    assert list_keys(bucket, s3=s3) == []


def test_a_download_killed_mid_upload_leaves_no_object_and_the_rerun_completes_it(
    em, local, bucket, s3, fault_proxy: FaultProxy, tmp_path
):
    first, last = sorted(local)  # months 03 and 04: 04 is the one killed in transit
    made, in_transit = f"/{bucket}/k/{first}", f"/{bucket}/k/{last}"
    env = {**os.environ, "MARKETCURVES_BASE_URL": em.base_url, "MARKETCURVES_TOKEN": em.token()}
    argv = _cli(f"s3://{bucket}/k", storage_options(fault_proxy.endpoint))
    # The completion of the object in transit never reaches the store: its
    # bytes are all uploaded (its one part went through), the object is not made.
    fault_proxy.hold("CompleteMultipartUpload", key=in_transit)
    # Its output goes to a file: a pipe nobody reads while it runs could fill.
    with (tmp_path / "killed.log").open("w") as output:
        process = subprocess.Popen(argv, env=env, stdout=output, stderr=output)

    def caught_in_transit() -> bool:
        completed = fault_proxy.requests("CompleteMultipartUpload", key=bucket)
        parts = fault_proxy.requests("UploadPart", key=in_transit)
        return {r["status"] for r in completed} == {200, "held"} and len(parts) == 1

    _wait_until(caught_in_transit, "the object in transit held", process, tmp_path / "killed.log")
    process.kill()  # SIGKILL: nothing of the process runs after it
    process.wait()
    fault_proxy.clear()

    assert list_keys(bucket, s3=s3) == [f"k/{first}"]
    # A dead process cannot abort its upload: it stays open, for the
    # bucket's AbortIncompleteMultipartUpload rule to end (see docs/bulk.md).
    assert open_uploads(bucket, s3=s3) == [f"k/{last}"]

    rerun = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert list_keys(bucket, s3=s3) == [f"k/{name}" for name in sorted(local)]
    for name, body in local.items():
        assert s3.get_object(Bucket=bucket, Key=f"k/{name}")["Body"].read() == body
    # The object made before the kill was not sent again; the other was, whole.
    assert len(fault_proxy.requests("CreateMultipartUpload", key=made)) == 1
    assert len(fault_proxy.requests("UploadPart", key=made)) == 1
    assert len(fault_proxy.requests("CreateMultipartUpload", key=in_transit)) == 2
    assert [
        r["status"] for r in fault_proxy.requests("CompleteMultipartUpload", key=in_transit)
    ] == ["held", 200]
