"""A recorder of the whole catalogue killed (SIGKILL) and restarted: the
restart asks only for the tenors whose first snapshot is newer than what
its files hold, and the recording holds each published value once."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from live_helpers import backfill_requests, missed_values
from record_helpers import Recorder, check_exactly_once, recorder_logs, wait_for
from support import LIVE_START

import marketcurves as mc
from marketcurves.testing import Emulator


@pytest.fixture
def stopped_em(make_emulator: Callable[..., Emulator]) -> Emulator:
    """The clock stands still: values are published only when the test moves it."""
    return make_emulator(start=LIVE_START)


def rows_in(dest) -> int:
    try:
        return mc.read_ticks(dest).num_rows
    except mc.MarketCurvesError:
        return 0  # nothing written yet


def intraday_requests(em: Emulator) -> int:
    return em.request_count("/ongoing/intraday") + em.request_count("/historical/intraday")


def test_a_restarted_whole_catalogue_recorder_asks_only_for_what_changed(stopped_em, tmp_path):
    em = stopped_em
    client = em.client()
    licensed = [c for c in client.catalogue() if c.quotation != "Sales"]
    client.close()
    tenors = {(c.id, t) for c in licensed for t in c.contracts if not t.startswith("C ")}
    dest = tmp_path / "lake"
    curves = [c.id for c in licensed]
    # The clock stands still, so the service never idles a connection out:
    # the default keep-alive, which a loaded machine does not mistake for a
    # dead connection (a reconnect would send the gaps' requests again).
    quiet = ("--ping-interval", "40")

    recorder = Recorder(em, dest, curves, *quiet)
    try:
        wait_for(lambda: rows_in(dest) >= len(tenors), 60, "every snapshot written")
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{recorder_logs(tmp_path)}") from None
    finally:
        recorder.kill()
    assert rows_in(dest) == len(tenors)

    before = em.now()
    em.advance(20)
    missed = missed_values(em, tenors, before, em.now())
    assert len(missed) > 1_000
    asked_before = intraday_requests(em)
    recorder = Recorder(em, dest, curves, *quiet)
    try:
        everything = len(tenors) + sum(len(values) for values in missed.values())
        wait_for(lambda: rows_in(dest) >= everything, 60, "the restart to catch up")
        code, err = recorder.terminate()
        assert code == 0, err
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{recorder_logs(tmp_path)}") from None
    finally:
        recorder.stop_if_running()
    assert intraday_requests(em) - asked_before == backfill_requests(em, missed, before, em.now())
    assert rows_in(dest) == everything
    for curve in curves:
        check_exactly_once(em, dest, curve, until=em.now())
