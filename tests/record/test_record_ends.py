"""How a recorder ends when its caller or the service ends it: its client
closed, or its licence taken away. Either way, what it received and held
unwritten is written before it returns, and once only."""

from __future__ import annotations

import asyncio

import pytest
from record_helpers import check_exactly_once, keepalive, recorded, started, status

import marketcurves as mc

#: Longer than the tests: until it ends, the recorder holds every tick.
HOLD_ALL = 3600


def _last(dest, curve):
    rows = recorded(dest, curve)
    return max(t for tenor in rows.values() for t, _, _ in tenor)


def test_closing_its_client_stops_the_recorder_which_writes_what_it_holds(em, busy_curve, tmp_path):
    async def main() -> mc.RecordSummary:
        client = em.client()
        task = asyncio.ensure_future(
            client.record_async(tmp_path, [(busy_curve, "*")], rotate=HOLD_ALL, **keepalive())
        )
        await started(tmp_path)
        await client.close_async()
        return await asyncio.wait_for(task, 60)

    summary = asyncio.run(main())
    assert summary.ticks_written > 0 and summary.unwritten == 0, summary
    assert status(tmp_path)["state"] == "stopped"
    check_exactly_once(em, tmp_path, busy_curve, until=_last(tmp_path, busy_curve))


def test_a_licence_taken_away_fails_the_recorder_after_it_writes_what_it_held(
    em, busy_curve, tmp_path
):
    async def main() -> None:
        async with em.client() as client:
            task = asyncio.ensure_future(
                client.record_async(tmp_path, [(busy_curve, "*")], rotate=HOLD_ALL, **keepalive())
            )
            await started(tmp_path)
            # Its next connection is refused the subscriptions it held.
            em.revoke_live()
            em.drop_live_connections()
            await asyncio.wait_for(task, 60)

    with pytest.raises(mc.AccessDenied):
        asyncio.run(main())
    ended = status(tmp_path)
    assert ended["state"] == "failed" and "access" in ended["error"].lower(), ended
    counters = ended["counters"]
    assert counters["ticks_written"] > 0 and counters["unwritten"] == 0, counters
    check_exactly_once(em, tmp_path, busy_curve, until=_last(tmp_path, busy_curve))
