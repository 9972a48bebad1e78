"""One strategy, run on the emulator's live feed while the recorder records,
then on a replay of that recording, then on a replay of the service over the
same range: the values after the live feed's snapshots, and the decisions,
are the same in all three."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from replay_helpers import SCALE
from support import LIVE_START, start_emulator

import marketcurves as mc


def strategy() -> tuple[Callable[[mc.Tick], None], list[tuple[Any, ...]]]:
    """A callback that keeps the last price per tenor and decides, at each
    update, to buy a rise and sell a fall; and the decisions it made."""
    last: dict[str, float] = {}
    decisions: list[tuple[Any, ...]] = []

    def on_tick(tick: mc.Tick) -> None:
        before = last.get(tick.tenor)
        if tick.source == "update" and before is not None and tick.price != before:
            side = "buy" if tick.price > before else "sell"
            decisions.append((tick.tenor, _ms(tick.generated_on), side))
        last[tick.tenor] = tick.price

    return on_tick, decisions


def _ms(at: dt.datetime) -> dt.datetime:
    return at.replace(microsecond=at.microsecond // 1000 * 1000)


def run(feed: mc.LiveFeed, on_tick: Callable[[mc.Tick], None], seconds: float) -> list[mc.Tick]:
    """Feeds every tick to ``on_tick`` until the feed ends or ``seconds``
    pass: the same code for the live feed and a replay."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        tick = feed.next(timeout=0.5)
        if tick is None:
            if feed.closed:
                break
            continue
        on_tick(tick)
        seen.append(tick)
    return seen


@pytest.mark.slow
def test_the_same_strategy_decides_the_same_on_live_and_both_replays(tmp_path):
    with start_emulator(time_scale=SCALE, start=LIVE_START) as em, em.client() as client:
        curve = next(c for c in client.catalogue() if c.quotation != "Sales")
        keepalive = {"ping_interval": 30 / SCALE, "pong_timeout": 0.5, "reconnect_max": 0.5}
        recorder = threading.Thread(
            target=client.record,
            args=(tmp_path, [(curve.id, "*")]),
            kwargs={"rotate": "1s", "duration": 11, **keepalive},
        )
        recorder.start()
        time.sleep(1)
        on_live, live_decisions = strategy()
        with client.live(**keepalive) as feed:
            feed.subscribe(curve.id, "*")
            since = em.now()
            ticks = run(feed, on_live, 8)
        recorder.join()
        em.time_scale = 0
        live_updates = [t for t in ticks if t.source == "update" and t.generated_on > since]
        assert live_updates, "the live feed published updates"
        until = max(t.generated_on for t in live_updates)
        expected = [(t.tenor, _ms(t.generated_on), t.price) for t in live_updates]
        decided = [d for d in live_decisions if d[1] > _ms(since)]
        assert decided, "the strategy decided something live"

        for source in (str(tmp_path), "service"):
            on_replay, replay_decisions = strategy()
            end = until + dt.timedelta(milliseconds=1)
            with client.replay(since, end, source=source) as replay:
                replay.subscribe(curve.id, "*")
                replayed = run(replay, on_replay, 60)
            updates = [t for t in replayed if t.source == "update"]
            got = [(t.tenor, _ms(t.generated_on), t.price) for t in updates]
            # The live feed's order within one millisecond is the service's;
            # the replay's is by curve then tenor.
            assert sorted(got) == sorted(expected), source
            assert sorted(replay_decisions) == sorted(decided), source
