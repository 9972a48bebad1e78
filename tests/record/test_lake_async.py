"""The awaitable twins of the lake's readers and compaction, end to end on
a recording: ``read_ticks_async``, ``check_lake_async`` and
``record.compact_async`` give what their blocking forms give, and raise
what they raise."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

import pytest
from support import start_emulator

import marketcurves as mc
from marketcurves.record import compact, compact_async

#: The emulator's clock, stopped: the recorder writes each tenor's snapshot.
CLOCK = "2025-06-11T12:00:00Z"
DAY = dt.date(2025, 6, 11)

#: What every wait of these tests is bound by, in seconds.
BOUND = 60


def run(coroutine):
    async def bounded():
        return await asyncio.wait_for(coroutine, BOUND)

    return asyncio.run(bounded())


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """Two recordings of the same snapshots, a file each (``rotate_rows=1``),
    and the curve recorded."""
    with start_emulator(start=CLOCK) as emulator, emulator.client() as client:
        curve = next(c for c in client.catalogue(vertical="Jet") if c.quotation != "Sales")
        tenors = (curve.contracts or [])[:2]
        folders = []
        for name in ("a", "b"):
            folder = tmp_path_factory.mktemp(name)
            summary = client.record(
                folder,
                [(curve, t) for t in tenors],
                duration=2,
                rotate_rows=1,
                compact=False,
            )
            assert summary.ticks_written == summary.files_written == 2, summary
            folders.append(folder)
    return folders[0], folders[1], curve.id


def test_read_ticks_async_reads_what_read_ticks_reads(recordings):
    a, _, curve_id = recordings
    whole = mc.read_ticks(a)
    assert whole.num_rows == 2
    assert run(mc.read_ticks_async(a)).equals(whole)
    tenor = whole.column("tenor")[0].as_py()
    picked = run(mc.read_ticks_async(a, curve_id, tenor, start="2000-01-01"))
    assert picked.equals(mc.read_ticks(a, curve_id, tenor, start="2000-01-01"))
    assert picked.column("tenor").to_pylist() == [tenor]


def test_check_lake_async_reports_what_check_lake_reports(recordings):
    a, _, _ = recordings
    report = run(mc.check_lake_async(a, start=DAY, end=DAY))
    assert isinstance(report, mc.LakeReport)
    assert report == mc.check_lake(a, start=DAY, end=DAY)
    assert report.ok and len(report.tenors) == 2


def test_compact_async_merges_as_compact_does(recordings):
    a, b, _ = recordings
    before = mc.read_ticks(b)
    merged = run(compact_async(b, "2025-06-12"))
    assert merged == compact(a, "2025-06-12") == [{"day": DAY, "files": 2, "rows": 2}]
    assert [p.name for p in b.glob("date=2025-06-11/*")] == ["day-2025-06-11.parquet"]
    assert mc.read_ticks(b).equals(before)
    assert run(compact_async(b, "2025-06-12")) == []


def test_the_twins_raise_what_the_blocking_forms_raise(tmp_path):
    refused = {"storage_options": {"aws_region": "eu-west-1"}}  # not for a folder
    for blocking, twin in [
        (mc.read_ticks, mc.read_ticks_async),
        (mc.check_lake, mc.check_lake_async),
        (compact, compact_async),
    ]:
        with pytest.raises(mc.InvalidRequest) as raised:
            blocking(tmp_path, **refused)
        with pytest.raises(mc.InvalidRequest) as awaited:
            run(twin(tmp_path, **refused))
        assert str(awaited.value) == str(raised.value)
        assert "storage_options" in str(raised.value)
    with pytest.raises(mc.InvalidRequest, match="curve"):
        run(mc.read_ticks_async(tmp_path, curve_id=5))  # type: ignore[arg-type]
