"""The awaitable twins of bulk download, end to end against the emulator:
each gives what its blocking form gives, raises what it raises, and waits
without blocking the event loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from support import BULK_TIME_SCALE

import marketcurves as mc

FULL = {"email": "full@marketcurves.test", "password": "full-password"}

#: What every wait of these tests is bound by, in seconds.
BOUND = 120


@pytest.fixture()
def full(fresh_em):
    # The emulator's jobs run on its clock: let it run fast so jobs finish.
    fresh_em.time_scale = BULK_TIME_SCALE
    return fresh_em.client(**FULL)


def relative(paths, root: Path) -> list[str]:
    return sorted(Path(p).relative_to(root).as_posix() for p in paths)


def run(coroutine):
    async def bounded():
        return await asyncio.wait_for(coroutine, BOUND)

    return asyncio.run(bounded())


def test_bulk_download_async_gives_what_bulk_download_gives(full, tmp_path):
    blocking = full.bulk_download("JET", "2025-01", "2025-02", tmp_path / "a", poll_interval=0.05)
    awaited = run(
        full.bulk_download_async("JET", "2025-01", "2025-02", tmp_path / "b", poll_interval=0.05)
    )
    assert isinstance(awaited, mc.BulkResult)
    assert relative(awaited.files, tmp_path / "b") == relative(blocking.files, tmp_path / "a")
    assert awaited.rows == blocking.rows > 0
    assert (awaited.effective, awaited.jobs, awaited.narrowed) == (("2025-01", "2025-02"), 1, False)
    assert mc.read_bulk(tmp_path / "b").equals(mc.read_bulk(tmp_path / "a"))


def test_a_job_submitted_awaited_and_downloaded_with_the_twins(full, tmp_path):
    async def steps():
        job = await full.bulk_submit_async("NAPHTHA", "2025-01", "2025-02")
        assert isinstance(job, mc.BulkJob) and job.effective == ("2025-01", "2025-02")
        first = await job.status_async()
        assert await job.wait_async(poll_interval=0.05) is job
        result = await job.download_async(tmp_path)
        return first, await job.status_async(), result

    first, last, result = run(steps())
    assert first in ("RUNNING", "SUCCEEDED") and last == "SUCCEEDED"
    assert [p.name for p in result.files] == ["naphtha-2025-01.parquet", "naphtha-2025-02.parquet"]
    assert result.rows == mc.read_bulk(tmp_path).num_rows > 0


def test_read_bulk_async_reads_what_read_bulk_reads(full, tmp_path):
    full.bulk_download("JET", "2025-01", "2025-02", tmp_path, poll_interval=0.05)
    awaited = run(mc.read_bulk_async(tmp_path, vertical="Jet", start="2025-02"))
    assert awaited.equals(mc.read_bulk(tmp_path, vertical="Jet", start="2025-02"))
    assert set(awaited.column("month").to_pylist()) == {2}


def test_the_twins_raise_what_the_blocking_forms_raise(fresh_em, full, tmp_path):
    with pytest.raises(mc.InvalidRequest, match="vertical"):
        run(full.bulk_download_async("NOT_A_VERTICAL", "2025-01", "2025-01", tmp_path))
    with pytest.raises(mc.InvalidRequest, match="vertical"):
        run(full.bulk_submit_async("NOT_A_VERTICAL", "2025-01", "2025-01"))
    fresh_em.fail_next_job(1)
    job = full.bulk_submit("NAPHTHA", "2025-01", "2025-01")
    with pytest.raises(mc.BulkJobFailed, match="FAILED"):
        run(job.wait_async(poll_interval=0.05, timeout=30))
    job = full.bulk_submit("NAPHTHA", "2025-01", "2025-01").wait(poll_interval=0.05)
    fresh_em.expire_urls()
    with pytest.raises(mc.BulkJobFailed, match="expired"):
        run(job.download_async(tmp_path))
    assert not list(tmp_path.rglob("*.parquet"))


def test_the_narrowed_range_warns_from_the_awaited_submit(fresh_em, tmp_path):
    fresh_em.time_scale = BULK_TIME_SCALE
    client = fresh_em.client()

    async def submit() -> mc.BulkJob:
        # Awaited here, not in a task of its own: the warning names this line.
        return await client.bulk_submit_async("Jet", "2024-01", "2024-06")

    with pytest.warns(UserWarning, match=r"2024-01\.\.2024-06.*2024-03\.\.2024-06") as caught:
        job = asyncio.run(submit())  # one request, within the client's timeout
    assert caught[0].filename == __file__, "the warning names the caller's line"
    assert job.narrowed and job.effective == ("2024-03", "2024-06")


def test_awaited_downloads_leave_the_event_loop_free(fresh_em, full, tmp_path):
    """Two downloads and a ticking task share the loop: the task ticks while
    the downloads wait on the service, each of whose responses takes 0.2 s."""
    fresh_em.set_latency(0.2)

    async def together():
        ticks = 0
        done = asyncio.Event()

        async def ticking():
            nonlocal ticks
            while not done.is_set():
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.create_task(ticking())
        results = await asyncio.gather(
            full.bulk_download_async("JET", "2025-01", "2025-01", tmp_path / "jet"),
            full.bulk_download_async("NAPHTHA", "2025-01", "2025-01", tmp_path / "naphtha"),
        )
        done.set()
        await ticker
        return results, ticks

    (jet, naphtha), ticks = run(together())
    assert [p.name for p in jet.files] == ["jet-2025-01.parquet"]
    assert [p.name for p in naphtha.files] == ["naphtha-2025-01.parquet"]
    # A blocked loop would let the ticker run once, after the downloads.
    assert ticks > 3
