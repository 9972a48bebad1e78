"""Closing a client during bulk work: a wait between polls and a download
mid-transfer end promptly with ClientClosed, and no file is left under its
final name unless it is complete."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from concurrency_helpers import (
    HANG_GUARD,
    connections_to,
    port_of,
    thread_idents,
    wait_until,
)

import marketcurves as mc

FULL = "full@marketcurves.test"


def in_thread(run: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """Runs ``run`` on a daemon thread (so that a close that failed to cut it
    cannot hold the test run), recording what it returned or raised."""
    outcome: list[Any] = []

    def target() -> None:
        try:
            outcome.append(run())
        except Exception as error:
            outcome.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, outcome


def assert_ended_with_client_closed(thread: threading.Thread, outcome: list[Any]) -> None:
    thread.join(HANG_GUARD)
    assert not thread.is_alive(), "the call was not cut short by close()"
    assert len(outcome) == 1 and isinstance(outcome[0], mc.ClientClosed), outcome


def final_files(dest: Path) -> list[Path]:
    return [p for p in dest.rglob("*.parquet") if not p.name.startswith(".")]


@pytest.mark.parametrize("how", ["job.wait", "bulk_download"])
def test_close_ends_a_wait_between_polls(fresh_em, tmp_path, how):
    # The clock is stopped, so the job never ends; the poll interval outlasts the test.
    before = thread_idents()
    client = fresh_em.client(token=fresh_em.token(FULL))
    if how == "job.wait":
        job = client.bulk_submit("NAPHTHA", "2025-01", "2025-01")
        thread, outcome = in_thread(lambda: job.wait(poll_interval=600, timeout=None))
    else:
        dest = tmp_path / "dest"
        download = lambda: client.bulk_download(  # noqa: E731
            "NAPHTHA", "2025-01", "2025-01", dest, progress=False, poll_interval=600
        )
        thread, outcome = in_thread(download)
    wait_until(lambda: connections_to(port_of(fresh_em.base_url)) > 0, "the job to be asked for")
    # Not a timing assertion: lets the first poll be answered, so that close()
    # usually finds the wait asleep. Either way it must end it at once.
    time.sleep(0.3)
    client.close()
    assert_ended_with_client_closed(thread, outcome)
    assert thread_idents() == before


def parts_holding_bytes(dest) -> bool:
    """Whether a part file holds bytes (one just made is empty, and removed
    if the download ends before writing into it)."""
    for part in dest.rglob(".*.part"):
        try:
            if part.stat().st_size > 0:
                return True
        except FileNotFoundError:
            pass
    return False


def test_close_during_a_download_leaves_no_incomplete_file_under_its_final_name(fresh_em, tmp_path):
    before = thread_idents()
    fresh_em.time_scale = 100  # the job ends at once; its URLs last 36 s
    # Every first transfer breaks off halfway, leaving a partial temporary
    # file; the request that would resume it is held by the latency.
    fresh_em.truncate_next_download(2)
    fresh_em.set_latency(1.5)
    client = fresh_em.client(token=fresh_em.token(FULL))
    dest = tmp_path / "dest"
    thread, outcome = in_thread(
        lambda: client.bulk_download(
            "NAPHTHA", "2025-01", "2025-02", dest, progress=False, poll_interval=0.05
        )
    )
    wait_until(lambda: parts_holding_bytes(dest), "a transfer to break off")
    client.close()
    assert_ended_with_client_closed(thread, outcome)
    for file in final_files(dest):
        pq.read_metadata(file)  # complete, or it would not have its final name
    assert any(dest.rglob(".*.part"))
    wait_until(lambda: connections_to(port_of(fresh_em.base_url)) == 0, "connections to close")
    assert thread_idents() == before

    # What was left behind is only resumed by the next download.
    fresh_em.clear_faults()
    with fresh_em.client(token=fresh_em.token(FULL)) as again:
        result = again.bulk_download(
            "NAPHTHA", "2025-01", "2025-02", dest, progress=False, poll_interval=0.05
        )
    assert sorted(result.files) == sorted(final_files(dest)) and len(result.files) == 2
    assert mc.read_bulk(dest).num_rows == result.rows > 0
    assert not any(dest.rglob(".*.part"))
