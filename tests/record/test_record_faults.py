"""A destination that refuses writes while the recorder runs: ticks are held
and written once it takes them again; past ``hold_limit`` the recorder stops
with ``DestinationError``, and a restart fetches what it held."""

from __future__ import annotations

import shutil
import threading
import time

import pytest
from record_helpers import check_exactly_once, keepalive, recorded, wait_for

import marketcurves as mc

DAY = "date=2025-06-11"


def _block(dest):
    """Moves the day's folder away and puts a file in its place: no write
    into it can succeed, whoever runs the test (root ignores permissions)."""
    folder = dest / DAY
    shutil.move(folder, dest / "moved-away")
    folder.write_text("in the way")


def _unblock(dest):
    (dest / DAY).unlink()
    shutil.move(dest / "moved-away", dest / DAY)


def _last(dest, curve):
    rows = recorded(dest, curve)
    return max(t for tenor in rows.values() for t, _, _ in tenor)


def test_ticks_are_held_while_the_destination_refuses_them(em, busy_curve, tmp_path):
    dest = tmp_path / "rec"
    result = {}

    def run():
        with em.client() as client:
            result["summary"] = client.record(
                dest, [(busy_curve, "*")], rotate="1s", duration=7, **keepalive()
            )

    thread = threading.Thread(target=run)
    thread.start()
    wait_for(lambda: (dest / DAY).is_dir() and any((dest / DAY).iterdir()), 30, "a file")
    _block(dest)
    time.sleep(3)  # Writes fail and are tried again after 1 s, then 2 s.
    _unblock(dest)
    thread.join(30)
    summary = result["summary"]
    assert summary.write_failures >= 1 and summary.unwritten == 0, summary
    assert summary.restarts == 0
    check_exactly_once(em, dest, busy_curve, until=_last(dest, busy_curve))


def test_past_the_hold_limit_it_stops_and_a_restart_fetches_what_it_held(em, busy_curve, tmp_path):
    dest = tmp_path / "rec"
    with em.client() as client:
        client.record(dest, [(busy_curve, "*")], rotate="1s", duration=2, **keepalive())
        _block(dest)
        with pytest.raises(mc.DestinationError, match="hold_limit") as raised:
            client.record(
                dest, [(busy_curve, "*")], rotate="1s", hold_limit=20, duration=30, **keepalive()
            )
        assert "cannot write" in str(raised.value)
        _unblock(dest)
        second = client.record(dest, [(busy_curve, "*")], duration=3, **keepalive())
    assert second.backfilled >= 20
    check_exactly_once(em, dest, busy_curve, until=_last(dest, busy_curve))


def test_a_first_write_that_fails_makes_no_promise_a_restart_cannot_keep(em, busy_curve, tmp_path):
    """No file holds any tenor yet, so a restart cannot tell what it missed:
    the message says those ticks are not fetched again rather than
    promising they are."""
    dest = tmp_path / "rec"
    dest.mkdir()
    (dest / DAY).write_text("in the way")  # the first file cannot be written
    with em.client() as client, pytest.raises(mc.DestinationError) as raised:
        client.record(dest, [(busy_curve, "*")], rotate="1s", duration=3, **keepalive())
    message = str(raised.value)
    assert "unwritten" in message and "not lost" not in message, message
    assert "no file holds yet" in message and busy_curve in message, message
