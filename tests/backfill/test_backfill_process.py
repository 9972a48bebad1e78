"""A backfill in a process of its own, killed (SIGKILL) at random moments
and run again: the lake is exact, each value once, and what a killed run
left half-done is never read twice."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest
from backfill_helpers import curve_and_tenors, intraday_requests, lake_rows, served, values

import marketcurves as mc

#: Twelve windows: a run writes its files window by window, long after the
#: first, so that it is killed with some days written and most not.
FIRST, LAST = "2024-06-01", "2025-05-29"

SCRIPT = """
import sys
import marketcurves as mc

base_url, token, dest, curve_id, tenors, first, last = sys.argv[1:]
with mc.Client(base_url=base_url, token=token) as client:
    client.backfill(dest, [(curve_id, t) for t in tenors.split("|")], first, last)
"""


def _files(dest):
    return list(dest.rglob("backfill-*.parquet"))


def _wait_for(condition, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the backfill wrote nothing in time"
        time.sleep(0.02)


@pytest.mark.slow
def test_killed_twice_then_run_again_the_lake_is_exact(fresh_em, tmp_path):
    em = fresh_em
    with em.client() as client:
        curve_id, tenors = curve_and_tenors(client, 6)
        expected = served(client, curve_id, tenors, FIRST, LAST)
        em.set_latency(0.05)
        moments = random.Random(20261127)
        arguments = [em.base_url, em.token(), str(tmp_path), curve_id, "|".join(tenors)]
        for _ in range(2):
            written = len(_files(tmp_path))
            process = subprocess.Popen(
                [sys.executable, "-c", SCRIPT, *arguments, FIRST, LAST],
                stderr=subprocess.PIPE,
            )

            # Killed while it writes: once a file more is there, at a random moment.
            def one_more(written=written, process=process) -> bool:
                return len(_files(tmp_path)) > written or process.poll() is not None

            _wait_for(one_more)
            time.sleep(moments.uniform(0, 0.1))
            process.kill()
            _, err = process.communicate()
            assert process.returncode == -9, err.decode()
        em.set_latency(0)
        partial = mc.read_ticks(tmp_path)
        assert 0 < partial.num_rows < len(expected), "killed mid-run, with some days written"
        summary = client.backfill(tmp_path, [(curve_id, t) for t in tenors], FIRST, LAST)
        assert summary.days_skipped > 0
        assert values(mc.read_ticks(tmp_path)) == expected
        assert lake_rows(tmp_path) == len(expected)
        assert not [p for p in tmp_path.rglob(".*")], "no temporary file is left"
        before = intraday_requests(em)
        client.backfill(tmp_path, [(curve_id, t) for t in tenors], FIRST, LAST)
        assert intraday_requests(em) == before
