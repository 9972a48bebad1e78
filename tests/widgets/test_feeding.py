"""The widgets show what the feed delivered: each tenor's last value, on
the live feed and on a replay, with every widget of a feed seeing every
tick; and what a replay, a closed feed and a closed widget end in."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from support import LIVE_START
from widget_helpers import wait_ended, wait_for

import marketcurves as mc
from marketcurves.testing import Emulator

#: A replay of an hour of the morning before LIVE_START, from the lake.
REPLAY = ("2025-06-10T09:00", "2025-06-10T10:00")


def curve_of(client: mc.Client) -> mc.Curve:
    return next(c for c in client.catalogue() if c.quotation != "Sales")


def replay(client: mc.Client, lake: dict[str, Any], **options: Any) -> mc.LiveFeed:
    return client.replay(*REPLAY, source=lake["path"], **options)


def last_per_tenor(ticks: list[mc.Tick], curve_id: str) -> dict[str, float]:
    last: dict[str, float] = {}
    for tick in ticks:
        if tick.curve_id == curve_id:
            last[tick.tenor] = tick.price
    return last


def first_per_tenor(ticks: list[mc.Tick], curve_id: str) -> dict[str, float]:
    first: dict[str, float] = {}
    for tick in ticks:
        if tick.curve_id == curve_id:
            first.setdefault(tick.tenor, tick.price)
    return first


def replayed(client: mc.Client, lake: dict[str, Any], curve: mc.Curve) -> list[mc.Tick]:
    """Every tick of the replay, read by iteration: the truth the widgets
    are held to."""
    with replay(client, lake) as feed:
        feed.subscribe(curve)
        return list(feed)


def replay_and_truth(
    client: mc.Client, lake: dict[str, Any]
) -> tuple[mc.Curve, list[mc.Tick], mc.LiveFeed]:
    """The lake's curve, every tick of its replay, and a second replay of
    it subscribed to that curve, for widgets to read."""
    curve = curve_of(client)
    ticks = replayed(client, lake, curve)
    feed = replay(client, lake)
    feed.subscribe(curve)
    return curve, ticks, feed


def test_a_replay_ends_with_each_tenors_last_value(em: Emulator, lake: dict[str, Any]) -> None:
    with em.client() as client:
        curve, ticks, feed = replay_and_truth(client, lake)
        chart = mc.widgets.LiveCurve(feed, curve, kinds="all")
        board = mc.widgets.LiveBoard(feed)
        assert wait_ended(chart) == "end of replay"
        assert wait_ended(board) == "end of replay"
        last, first = last_per_tenor(ticks, curve.id), first_per_tenor(ticks, curve.id)
        assert len(ticks) > len(last), "the replay holds updates, not only snapshots"
        assert chart.latest == last
        assert dict(zip(chart.tenors, chart.snapshot, strict=True)) == first
        assert chart.ticks == len(ticks)
        # Calendar order: what the tenors' own ordering says.
        assert chart.tenors == [t.name for t in sorted(mc.Tenor.parse(n) for n in last)]
        assert chart.title == curve.name and chart.units == curve.units
        # Both widgets saw every tick: they share the feed's one reader.
        assert board.latest == {(curve.id, t): p for t, p in last.items()}
        assert {r["tenor"]: r["change"] for r in board.rows} == pytest.approx(
            {t: last[t] - first[t] for t in last}
        )
        assert sum(r["ticks"] for r in board.rows) == len(ticks)
        assert all(r["curve"] == curve.name for r in board.rows)
        chart.close()
        board.close()
        feed.close()


def test_a_widget_shown_after_the_replay_ended_shows_what_it_delivered(
    em: Emulator, lake: dict[str, Any]
) -> None:
    # The feed was read to its end by the first widget: the second, shown
    # only then, is handed what that reading gave, not an empty board.
    with em.client() as client:
        curve, ticks, feed = replay_and_truth(client, lake)
        chart = mc.widgets.LiveCurve(feed, curve, kinds="all")
        assert wait_ended(chart) == "end of replay"
        board = mc.widgets.LiveBoard(feed)
        later = mc.widgets.LiveCurve(feed, curve, kinds="all")
        assert wait_ended(board) == "end of replay"
        assert wait_ended(later) == "end of replay"
        last, first = last_per_tenor(ticks, curve.id), first_per_tenor(ticks, curve.id)
        assert board.latest == {(curve.id, t): p for t, p in last.items()}
        assert sum(r["ticks"] for r in board.rows) == len(ticks)
        assert all(r["curve"] == curve.name for r in board.rows)
        assert later.latest == chart.latest == last
        assert dict(zip(later.tenors, later.snapshot, strict=True)) == first
        assert later.title == curve.name
        for widget in (chart, board, later):
            widget.close()
        feed.close()


def test_the_kinds_drawn(em: Emulator, lake: dict[str, Any]) -> None:
    with em.client() as client:
        curve = curve_of(client)
        with replay(client, lake) as feed:
            feed.subscribe(curve)
            months = feed.widget(curve)
            quarters = mc.widgets.LiveCurve(feed, curve.id, kinds=["quarters", "month"])
            wait_ended(months)
            wait_ended(quarters)
            assert isinstance(months, mc.widgets.LiveCurve)
            assert months.kinds == ["month"] and set(months.tenor_kinds) == {"month"}
            assert quarters.kinds == ["month", "quarter"]
            assert set(quarters.tenor_kinds) == {"month", "quarter"}
            # By id alone, the widget names the curve from the feed's batches.
            assert quarters.title == curve.name and quarters.units == curve.units


def test_the_live_feed_shows_each_tenors_last_published_value(em: Emulator) -> None:
    em.set_time(LIVE_START)
    with em.client() as client:
        curve = curve_of(client)
        feed = client.live()
        feed.subscribe(curve)
        chart = feed.widget(curve, kinds="all")
        wait_for(lambda: chart.state == "live" and chart.tenors, "the snapshots")
        snapshots = chart.ticks
        em.advance(15 * 60)  # a quarter of an hour of values, published
        start = dt.datetime.fromisoformat(LIVE_START) - dt.timedelta(days=30)

        def published() -> dict[str, float]:
            return {t: em.published(curve.id, t, start=start)[-1].price for t in chart.tenors}

        wait_for(lambda: chart.latest == published(), "each tenor's last published value")
        assert chart.ticks > snapshots
        feed.close()
        assert wait_ended(chart) == "closed"
        assert chart.latest == published()


def test_closing_the_widget_stops_its_reader_and_leaves_the_feed(
    em: Emulator, lake: dict[str, Any]
) -> None:
    with em.client() as client, replay(client, lake, speed=60) as feed:
        curve = curve_of(client)
        feed.subscribe(curve)
        chart = feed.widget(curve)
        wait_for(lambda: chart.ticks, "a tick")
        reader = chart._feed_reader
        assert reader is not None and reader.thread.is_alive()
        chart.close()
        assert not reader.thread.is_alive()
        ticks = chart.ticks
        # The feed goes on, read by whoever reads it next.
        assert feed.next(timeout=10) is not None
        assert chart.ticks == ticks and chart.state == "live"
        # A new widget reads it again.
        again = feed.widget(curve)
        wait_for(lambda: again.ticks, "a tick to the new widget")
        again.close()


def test_closing_a_replay_early_says_closed(em: Emulator, lake: dict[str, Any]) -> None:
    with em.client() as client:
        curve = curve_of(client)
        feed = replay(client, lake, speed=1)
        feed.subscribe(curve)
        board = mc.widgets.LiveBoard(feed)
        wait_for(lambda: board.rows, "the snapshots")
        feed.close()
        assert wait_ended(board) == "closed"


def test_closing_the_client_ends_the_widget(em: Emulator) -> None:
    client = em.client()
    feed = client.live()
    curve = curve_of(client)
    feed.subscribe(curve)
    chart = feed.widget(curve)
    client.close()
    assert wait_ended(chart) == "closed"


@pytest.mark.parametrize(
    ("arguments", "error", "words"),
    [
        ({"kinds": "weeks"}, mc.InvalidRequest, "kinds must name tenor kinds"),
        ({"kinds": []}, mc.InvalidRequest, "names no tenor kind"),
        ({"kinds": 3}, mc.InvalidType, "kinds must be"),
        ({"max_fps": 0}, mc.InvalidRequest, "max_fps must be above 0"),
        ({"max_fps": "10"}, mc.InvalidType, "max_fps must be a number"),
    ],
)
def test_bad_arguments_are_refused(
    em: Emulator,
    lake: dict[str, Any],
    arguments: dict[str, Any],
    error: type[Exception],
    words: str,
) -> None:
    with em.client() as client, replay(client, lake) as feed:
        curve = curve_of(client)
        feed.subscribe(curve)
        with pytest.raises(error, match=words):
            mc.widgets.LiveCurve(feed, curve, **arguments)


def test_a_curve_not_subscribed_to_is_refused(em: Emulator, lake: dict[str, Any]) -> None:
    with em.client() as client, replay(client, lake) as feed:
        curves = lake["curves"]
        feed.subscribe(curves[0])
        with pytest.raises(mc.InvalidRequest, match=f"not subscribed to curve {curves[1].id}"):
            feed.widget(curves[1])


def test_a_feed_of_callbacks_or_no_feed_is_refused(em: Emulator, lake: dict[str, Any]) -> None:
    with em.client() as client:
        with replay(client, lake, on_price=lambda tick: None) as feed:
            with pytest.raises(mc.InvalidRequest, match="on_price"):
                mc.widgets.LiveBoard(feed)
        with pytest.raises(mc.InvalidType, match="feed must be a LiveFeed"):
            mc.widgets.LiveBoard(client)  # type: ignore[arg-type]
