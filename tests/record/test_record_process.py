"""``marketcurves record`` as a process of its own, stopped by SIGTERM and
killed by SIGKILL at random moments: what it leaves is each published value
once."""

from __future__ import annotations

import random
import time

import pytest
from record_helpers import (
    Recorder,
    check_exactly_once,
    files_of,
    recorded,
    recorder_logs,
    status,
    wait_for,
)

import marketcurves as mc


def _parts(dest):
    return [p for p in files_of(dest) if p.name.startswith("part-")]


def test_sigterm_writes_what_is_held_and_exits_zero(em, busy_curve, tmp_path):
    recorder = Recorder(em, tmp_path, [busy_curve])
    try:
        wait_for(lambda: len(_parts(tmp_path)) >= 2, 30, "two files")
        started = time.monotonic()
        code, err = recorder.terminate()
        assert code == 0, err
        assert time.monotonic() - started < 10
    finally:
        recorder.stop_if_running()
    assert "ticks in" in err
    assert not [p for p in files_of(tmp_path) if p.name.startswith(".")]
    assert status(tmp_path)["state"] == "stopped"
    rows = recorded(tmp_path, busy_curve)
    last = max(t for tenor in rows.values() for t, _, _ in tenor)
    check_exactly_once(em, tmp_path, busy_curve, until=last)


def test_three_sigkills_and_dropped_connections_lose_nothing_and_repeat_nothing(
    em, busy_curve, tmp_path
):
    moments = random.Random(20261124)
    for _ in range(3):
        recorder = Recorder(em, tmp_path, [busy_curve])
        try:
            time.sleep(moments.uniform(1.0, 2.5))
            em.drop_live_connections()
            time.sleep(moments.uniform(0.2, 2.0))
        finally:
            recorder.kill()
        assert recorder.process.returncode == -9
    # The clock stops: what was published is final, and the last run must
    # bring all of it, from the first value recorded on.
    em.time_scale = 0
    end = em.now()
    recorder = Recorder(em, tmp_path, [busy_curve])
    try:

        def caught_up() -> bool:
            rows = recorded(tmp_path, busy_curve) if _parts(tmp_path) else {}
            return bool(rows) and all(
                tenor[-1][0] >= _last_published(em, busy_curve, name, end)
                for name, tenor in rows.items()
            )

        try:
            wait_for(caught_up, 30, "the last run to catch up")
        except AssertionError as failure:
            raise AssertionError(f"{failure}\n{recorder_logs(tmp_path)}") from None
        code, err = recorder.terminate()
        assert code == 0, err
    finally:
        recorder.stop_if_running()
    try:
        counts = check_exactly_once(em, tmp_path, busy_curve, until=end)
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{recorder_logs(tmp_path)}") from None
    assert len(counts) >= 5 and sum(counts.values()) >= 50
    assert not [p for p in files_of(tmp_path) if p.name.startswith(".")]


def _last_published(em, curve, tenor, end):
    from record_helpers import millis

    values = em.published(curve, tenor, end=end)
    return millis(values[-1].generated_on) if values else end


def test_a_second_recorder_on_one_folder_is_refused_until_the_first_is_gone(
    em, busy_curve, tmp_path
):
    first = Recorder(em, tmp_path, [busy_curve])
    try:
        wait_for(lambda: len(_parts(tmp_path)) >= 1, 30, "the first to write")
        with em.client() as client, pytest.raises(mc.DestinationError) as refused:
            client.record(tmp_path, [(busy_curve, "*")], duration=5)
        message = str(refused.value)
        assert "another recorder" in message and f"process {first.process.pid}" in message
        assert first.process.poll() is None, "the first goes on"
        time.sleep(1.5)
    finally:
        first.kill()
    # Killed, it holds nothing: the lock is the system's, let go with the process.
    second = Recorder(em, tmp_path, [busy_curve])
    try:
        wait_for(lambda: len(_parts(tmp_path)) >= 3, 30, "the second to write")
        code, err = second.terminate()
        assert code == 0, err
    finally:
        second.stop_if_running()
    rows = recorded(tmp_path, busy_curve)
    last = max(t for tenor in rows.values() for t, _, _ in tenor)
    check_exactly_once(em, tmp_path, busy_curve, until=last)
