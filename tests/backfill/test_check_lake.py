"""``mc.check_lake`` and ``marketcurves lake check`` on a lake of recorded
and backfilled files: whole as written, and each planted fault found."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from backfill_helpers import curve_and_tenors
from support import LIVE_START

import marketcurves as mc

SCALE = 60


def _lake_check(dest, env):
    return subprocess.run(
        [sys.executable, "-m", "marketcurves", "lake", "check", str(dest), "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.fixture
def lake(make_emulator, tmp_path):
    """Two weeks backfilled, then a few seconds recorded with each day's
    files left as they are; returns the lake's folder."""
    em = make_emulator(time_scale=SCALE, start=LIVE_START)
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 2)
        pairs = [(curve_id, t) for t in tenors]
        client.backfill(tmp_path, pairs, "2025-05-26", "2025-06-10")
        client.record(
            tmp_path,
            pairs,
            rotate="1s",
            rotate_rows=20,
            duration=3,
            compact=False,
            ping_interval=30 / SCALE,
            pong_timeout=0.5,
            reconnect_max=0.5,
        )
    return tmp_path


def test_a_lake_as_written_is_whole_and_each_planted_fault_is_found(lake):
    report = mc.check_lake(lake)
    assert report.ok, report
    assert all(t["days_backfilled"] >= 12 and not t["missing_days"] for t in report.tenors)
    assert any(t["days_recorded"] for t in report.tenors)
    assert report.recorder is not None and not report.recorder["running"]
    assert report.recorder["state"] == "stopped" and report.recorder["not_recorded_since"]
    result = _lake_check(lake, None)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ok"] is True

    # A day's folder removed, a backfilled file copied, a compaction cut
    # short (the parts it merged put back), and a corrupt file.
    shutil.rmtree(lake / "date=2025-06-03")
    (copied,) = list((lake / "date=2025-06-04").glob("backfill-*.parquet"))[:1]
    shutil.copy(copied, copied.with_name(copied.name.replace(".parquet", "0.parquet")))
    parts = {p: p.read_bytes() for p in (lake / "date=2025-06-11").glob("part-*.parquet")}
    assert len(parts) > 1
    mc.record.compact(lake, before="2025-06-12")
    for part, data in parts.items():
        part.write_bytes(data)
    (lake / "date=2025-06-05" / "part-20250605T000000.000000Z-x-000001.parquet").write_text("no")

    report = mc.check_lake(lake)
    assert not report.ok
    # Each part of the report has its TypedDict's keys (src/python/results.rs builds them).
    for items, typed in [
        (report.tenors, mc.lake.TenorCoverage),
        (report.held_twice, mc.lake.HeldTwice),
        (report.unreadable, mc.lake.Unreadable),
        ([report.recorder], mc.lake.RecorderCoverage),
    ]:
        assert items and all(set(item) == set(typed.__annotations__) for item in items), typed
    missing = {d for t in report.tenors for d in t["missing_days"]}
    assert [d.isoformat() for d in missing] == ["2025-06-03"]
    assert {h["day"].isoformat() for h in report.held_twice} == {"2025-06-04"}
    assert sorted(report.counted_twice) == sorted(f"date=2025-06-11/{p.name}" for p in parts)
    assert [u["file"] for u in report.unreadable] == [
        "date=2025-06-05/part-20250605T000000.000000Z-x-000001.parquet"
    ]
    result = _lake_check(lake, None)
    assert result.returncode == 1
    found = json.loads(result.stdout)
    assert found["ok"] is False and found["counted_twice"] == report.counted_twice
    assert "missing:" in result.stderr and "unreadable:" in result.stderr

    narrow = mc.check_lake(lake, start="2025-05-26", end="2025-05-30")
    assert narrow.ok


def test_a_lake_that_is_not_there_is_refused(tmp_path):
    with pytest.raises(mc.InvalidRequest, match="not a folder"):
        mc.check_lake(tmp_path / "nothing")
    with pytest.raises(mc.InvalidRequest, match="after end"):
        mc.check_lake(tmp_path, start="2025-06-02", end="2025-06-01")
