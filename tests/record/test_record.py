"""``Client.record`` in this process: what a recording holds, how it is laid
out, and the arguments it refuses."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from concurrent.futures import ThreadPoolExecutor

import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from record_helpers import (
    SCALE,
    check_exactly_once,
    keepalive,
    millis,
    recorded,
    started,
    status,
    wait_for,
)
from support import start_emulator

import marketcurves as mc
from marketcurves import cli


def test_a_recording_holds_each_published_value_once(em, busy_curve, tmp_path):
    with em.client() as client:
        summary = client.record(
            tmp_path, [(busy_curve, "*")], rotate="1s", duration=4, **keepalive()
        )
    assert summary.files_written >= 2 and summary.unwritten == 0
    rows = recorded(tmp_path, busy_curve)
    last = max(t for tenor in rows.values() for t, _, _ in tenor)
    counts = check_exactly_once(em, tmp_path, busy_curve, until=last)
    assert sum(counts.values()) == summary.ticks_written >= 10
    # Read by name too, as when the summary was a dict.
    assert summary["ticks_written"] == summary.ticks_written
    assert summary["files_written"] == summary.files_written
    # Any engine reads it: Hive partitions by UTC day, the columns of the design.
    dataset = ds.dataset(tmp_path, format="parquet", partitioning="hive")
    table = dataset.to_table()
    assert table.num_rows == summary.ticks_written
    assert table.column_names == [
        "curve_id",
        "tenor",
        "generated_on",
        "price",
        "source",
        "recorded_at",
        "date",
    ]
    assert set(table["source"].to_pylist()) <= {"snapshot", "update", "backfill"}
    assert status(tmp_path)["state"] == "stopped"
    # Licensed data, for its owner alone: folders 0700, files 0600.
    made = list(tmp_path.rglob("*"))
    assert made and {p.stat().st_mode & 0o777 for p in made if p.is_file()} == {0o600}
    assert {p.stat().st_mode & 0o777 for p in made if p.is_dir()} == {0o700}


def test_read_ticks_selects_and_sorts(em, busy_curve, tmp_path):
    with em.client() as client:
        client.record(tmp_path, [(busy_curve, "*")], rotate="1s", duration=3, **keepalive())
    table = mc.read_ticks(tmp_path)
    keys = list(zip(table["curve_id"].to_pylist(), table["tenor"].to_pylist(), strict=False))
    order = [(c, mc.Tenor.parse(t).sort_key) for c, t in keys]
    assert order == sorted(order)
    tenor = keys[0][1]
    times = [t for t, _, _ in recorded(tmp_path, busy_curve)[tenor]]
    middle = times[len(times) // 2]
    picked = mc.read_ticks(tmp_path, curve_id=busy_curve, tenor=tenor, start=middle)
    assert set(picked["tenor"].to_pylist()) == {tenor}
    assert [millis(t) for t in picked["generated_on"].to_pylist()] == [
        t for t in times if t >= middle
    ]
    assert mc.read_ticks(tmp_path, curve_id=busy_curve, end="2000-01-01").num_rows == 0


def test_a_restart_fetches_what_was_published_while_stopped(em, busy_curve, tmp_path):
    with em.client() as client:
        first = client.record(tmp_path, [(busy_curve, "*")], duration=2, **keepalive())
        em.advance(600)  # ten minutes of values published while nobody listens
        # A Curve of the catalogue names the curve as well as its id does.
        curve = next(c for c in client.catalogue() if c.id == busy_curve)
        second = client.record(tmp_path, [(curve, "*")], duration=3, **keepalive())
    assert second.backfilled >= 10, second
    rows = recorded(tmp_path, busy_curve)
    last = max(t for tenor in rows.values() for t, _, _ in tenor)
    counts = check_exactly_once(em, tmp_path, busy_curve, until=last)
    assert sum(counts.values()) == first.ticks_written + second.ticks_written


def test_a_restart_fetches_what_every_curve_missed_not_only_the_first_subscribed(
    em, busy_curves, tmp_path
):
    # The feed subscribes one at a time: all but the first subscription are
    # made once connected, and each must still be backfilled. A recorder
    # stopped by its duration may not have caught up with every tenor yet,
    # so each tenor is checked up to its own last value: none skipped before.
    subscriptions = [(curve, "*") for curve in busy_curves[:3]]
    with em.client() as client:
        client.record(tmp_path, subscriptions, duration=2, **keepalive())
        em.advance(600)
        # Long enough for the backfills of 80 tenors on a busy machine.
        client.record(tmp_path, subscriptions, duration=6, **keepalive())
    for curve, _ in subscriptions:
        rows = recorded(tmp_path, curve)
        sources = {source for tenor in rows.values() for _, _, source in tenor}
        assert "backfill" in sources, curve
        check_exactly_once(em, tmp_path, curve, until=None)


def test_files_rotate_by_size(em, busy_curve, tmp_path):
    with em.client() as client:
        summary = client.record(
            tmp_path, [(busy_curve, "*")], rotate="1h", rotate_rows=5, duration=3, **keepalive()
        )
    parts = sorted(tmp_path.glob("date=*/part-*.parquet"))
    assert len(parts) == summary.files_written >= 3
    assert all(pq.read_metadata(p).num_rows <= 5 for p in parts)


def test_a_run_across_midnight_splits_the_days_and_compacts_the_closed_one(busy_curve, tmp_path):
    scale = 600
    # Five minutes before midnight, and an hour after it in 6.5 seconds: the
    # run lasts twelve, so that on a busy machine the feed may lag by a few
    # seconds and still bring a value of past one o'clock.
    with start_emulator(time_scale=scale, start="2025-06-11T23:55:00Z") as emulator:
        with emulator.client() as client:
            summary = client.record(
                tmp_path,
                [(busy_curve, "*")],
                rotate="1s",
                rotate_rows=50,
                duration=12,
                **keepalive(scale),
            )
        assert summary.compacted_days == 1, summary
        days = sorted(p.name for p in tmp_path.glob("date=*"))
        assert days == ["date=2025-06-11", "date=2025-06-12"]
        assert [p.name for p in (tmp_path / days[0]).iterdir()] == ["day-2025-06-11.parquet"]
        rows = recorded(tmp_path, busy_curve)
        last = max(t for tenor in rows.values() for t, _, _ in tenor)
        check_exactly_once(emulator, tmp_path, busy_curve, until=last)
        first_day = mc.read_ticks(tmp_path, end="2025-06-11T23:59:59.999Z")
        assert first_day.num_rows > 0
        assert {t.date() for t in first_day["generated_on"].to_pylist()} == {dt.date(2025, 6, 11)}


def test_the_compact_command_merges_closed_days(busy_curve, tmp_path, capsys):
    scale = 300
    # The clock runs only once the recorder listens: at 300 times, midnight
    # is 0.4 s away, which a loaded machine may spend connecting, and the
    # day would hold nothing to compact.
    with start_emulator(time_scale=0, start="2025-06-11T23:58:00Z") as emulator:
        with emulator.client() as client, ThreadPoolExecutor(1) as pool:
            recording = pool.submit(
                client.record,
                tmp_path,
                [(busy_curve, "*")],
                rotate="1s",
                rotate_rows=20,
                duration=4,
                compact=False,
                **keepalive(scale),
            )
            wait_for(lambda: emulator.live_connections > 0, 30, "the recorder's connection")
            emulator.time_scale = scale
            recording.result(timeout=60)
    before = mc.read_ticks(tmp_path)
    assert len(list(tmp_path.glob("date=2025-06-11/part-*.parquet"))) >= 2
    assert cli.main(["compact", str(tmp_path), "--before", "2025-06-12"]) == 0
    assert "1 day compacted" in capsys.readouterr().err
    assert [p.name for p in tmp_path.glob("date=2025-06-11/*")] == ["day-2025-06-11.parquet"]
    assert mc.read_ticks(tmp_path).equals(before)
    # Nothing left to merge: a second run does nothing.
    assert mc.record.compact(tmp_path, "2025-06-12") == []


def test_record_async_and_its_cancellation(em, busy_curve, tmp_path):
    async def main() -> mc.RecordSummary:
        async with em.client() as client:
            summary = await client.record_async(
                tmp_path / "a", [(busy_curve, "*")], duration=2, **keepalive()
            )
            task = asyncio.ensure_future(
                client.record_async(tmp_path / "b", [(busy_curve, "*")], **keepalive())
            )
            # Cancelled once it has started and has had time to receive ticks.
            await started(tmp_path / "b")
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            return summary

    summary = asyncio.run(main())
    assert isinstance(summary, mc.RecordSummary) and summary.ticks_written > 0
    # Cancelled, the recorder wrote what it held in the background.
    from record_helpers import wait_for

    # Generous: on a loaded machine the background stop waits for the disk.
    wait_for(
        lambda: status(tmp_path / "b").get("state") == "stopped",
        30,
        "the stop",
        seen=lambda: status(tmp_path / "b"),
    )
    rows = recorded(tmp_path / "b", busy_curve)
    last = max(t for tenor in rows.values() for t, _, _ in tenor)
    check_exactly_once(em, tmp_path / "b", busy_curve, until=last)


@pytest.mark.parametrize(
    ("subscriptions", "options", "said"),
    [
        ([], {}, "at least one"),
        ("C1", {}, "list of (curve_id, tenor) pairs"),
        ([("C1",)], {}, "(curve_id, tenor) pair"),
        ([(42, "*")], {}, "curve_id must be a str or a Curve"),
        ([("C1", 3)], {}, "a subscription's tenor must be a str or a Tenor"),
        ([("no-such-curve", "*")], {}, "not in the catalogue"),
        ([("<busy>", "Q5 26")], {}, "Q5 26"),
        ([("<busy>", "*")], {"rotate": "often"}, "rotate"),
        ([("<busy>", "*")], {"rotate_rows": 0}, "rotate_rows"),
        ([("<busy>", "*")], {"hold_limit": 0}, "hold_limit"),
        ([("<busy>", "*")], {"storage_options": {"aws_region": "x"}}, "storage_options"),
    ],
)
def test_bad_arguments_are_refused_before_anything_connects(
    em, busy_curve, tmp_path, subscriptions, options, said
):
    if isinstance(subscriptions, list):
        subscriptions = [
            tuple(busy_curve if part == "<busy>" else part for part in pair)
            for pair in subscriptions
        ]
    with em.client() as client, pytest.raises(mc.InvalidRequest, match=re.escape(said)):
        client.record(tmp_path / "rec", subscriptions, **options)
    assert em.live_connections == 0
    assert not (tmp_path / "rec").exists()


def test_a_destination_that_cannot_be_written_is_refused_before_connecting(
    em, busy_curve, tmp_path
):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    with em.client() as client, pytest.raises(mc.DestinationError, match="a-file"):
        client.record(blocked, [(busy_curve, "*")], duration=1)
    assert em.live_connections == 0


def test_without_live_url_the_recorder_says_so(em, busy_curve, tmp_path):
    with mc.Client(base_url=em.base_url, token=em.token()) as client:
        with pytest.raises(mc.InvalidRequest, match="live_url"):
            client.record(tmp_path, [(busy_curve, "*")])
    assert SCALE > 0


def test_a_recorded_tenor_the_service_no_longer_lists_does_not_stall_the_rest(
    em, busy_curve, tmp_path
):
    """A tenor recorded by an earlier run that has since expired: its
    backfill finds nothing, and the other tenors are recorded as usual."""
    import pyarrow as pa

    expired = pa.table(
        {
            "curve_id": [busy_curve],
            "tenor": ["Retired 19"],
            "generated_on": pa.array([dt.datetime(2020, 1, 10, tzinfo=dt.UTC)]).cast(
                pa.timestamp("us", "UTC")
            ),
            "price": [1.0],
            "source": ["update"],
            "recorded_at": pa.array([dt.datetime(2020, 1, 10, tzinfo=dt.UTC)]).cast(
                pa.timestamp("us", "UTC")
            ),
        }
    )
    note = f'{{"rows":1,"last":[["{busy_curve}","Retired 19",1578614400000000]]}}'
    expired = expired.replace_schema_metadata({"marketcurves.ticks": note})
    (tmp_path / "date=2020-01-10").mkdir()
    pq.write_table(
        expired, tmp_path / "date=2020-01-10" / "part-20200110T000000.000000Z-0-1.parquet"
    )
    with em.client() as client:
        summary = client.record(tmp_path, [(busy_curve, "*")], duration=3, **keepalive())
    assert summary.restarts == 0 and summary.ticks_written > 0, summary
    rows = recorded(tmp_path, busy_curve)
    assert len(rows["Retired 19"]) == 1
    last = max(t for tenor in rows.values() for t, _, _ in tenor)
    check_exactly_once(em, tmp_path, busy_curve, until=last, start="2025-01-01")
