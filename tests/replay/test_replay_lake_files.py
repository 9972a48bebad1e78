"""A lake's readers (``read_ticks`` and a replay) facing files that are not
the lake's, files filed under the wrong day, and a lake being written while
it is read."""

from __future__ import annotations

import datetime as dt
import logging
import shutil
import threading

import pyarrow as pa
import pyarrow.parquet as pq

import marketcurves as mc


def _replayed(em, lake, curve_id, start, end):
    with em.client() as client, client.replay(start, end, source=lake) as feed:
        feed.subscribe(curve_id, "*")
        return [(t.tenor, t.generated_on, t.price, t.source) for t in feed]


def test_files_not_of_the_lake_are_skipped_with_a_warning(days_lake, tmp_path, caplog):
    em, curve_id = days_lake["em"], days_lake["curve_id"]
    start, end = days_lake["start"], days_lake["end"]
    lake = tmp_path / "lake"
    shutil.copytree(days_lake["lake"], lake)
    day = sorted(p for p in lake.iterdir() if p.name.startswith("date="))[1]
    bad = day / "part-20250603T120000.000000Z-bad-000001.parquet"
    bad.write_bytes(b"PAR1 not a footer")
    foreign = day / "part-20250603T120000.000000Z-foreign-000001.parquet"
    pq.write_table(pa.table({"a": [1, 2], "b": ["x", "y"]}), foreign)
    with caplog.at_level(logging.WARNING, logger="marketcurves"):
        table = mc.read_ticks(lake)
        ranged = mc.read_ticks(lake, start=start, end=end)
        replayed = _replayed(em, lake, curve_id, start, end)
    assert table.equals(mc.read_ticks(days_lake["lake"]))
    assert ranged.equals(mc.read_ticks(days_lake["lake"], start=start, end=end))
    assert replayed == _replayed(em, days_lake["lake"], curve_id, start, end) != []
    warned = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)
    assert bad.name in warned and foreign.name in warned


def test_a_lake_being_rewritten_never_fails_a_read(days_lake, tmp_path):
    em, curve_id = days_lake["em"], days_lake["curve_id"]
    start, end = days_lake["start"], days_lake["end"]
    lake = tmp_path / "lake"
    shutil.copytree(days_lake["lake"], lake)
    days = sorted(p for p in lake.iterdir() if p.name.startswith("date="))
    # A writer that keeps adding and removing a copy of a day's file, as a
    # recorder rotating and a backfill rewriting do: listed, then gone. Each
    # lives a few milliseconds, a reader's time between listing and reading;
    # a writer with no pause at all would outrun any bound on re-listing.
    source = next(days[1].glob("*.parquet")).read_bytes()
    stop = threading.Event()

    def churn():
        n = 0
        while not stop.is_set():
            for day in days:
                name = day / f"part-20250603T120000.000000Z-churn-{n:06d}.parquet"
                name.write_bytes(source)
                stop.wait(0.003)
                name.unlink()
            stop.wait(0.003)
            n += 1

    writer = threading.Thread(target=churn, daemon=True)
    writer.start()
    try:
        clean = mc.read_ticks(days_lake["lake"])
        expected = _replayed(em, days_lake["lake"], curve_id, start, end)
        for _ in range(5):
            assert mc.read_ticks(lake).equals(clean)
            assert _replayed(em, lake, curve_id, start, end) == expected
    finally:
        stop.set()
        writer.join(timeout=10)


def _misfile(clean, lake, how):
    """A copy of the lake ``clean`` at ``lake`` whose middle day's file is
    also filed under the days before and after it (``copied``: each value
    then held three times), or split between them (``moved``: its own
    folder left without it). Returns the middle day."""
    shutil.copytree(clean, lake)
    days = sorted(p for p in lake.iterdir() if p.name.startswith("date="))
    before, day, after = days
    (source,) = day.glob("*.parquet")
    if how == "copied":
        shutil.copy(source, before / source.name)
        shutil.copy(source, after / source.name)
    else:
        table = pq.read_table(source).replace_schema_metadata(None)
        half = table.num_rows // 2
        # Written by another tool: no note, times only in the statistics.
        pq.write_table(table.slice(0, half), before / source.name)
        pq.write_table(table.slice(half), after / source.name)
        source.unlink()
    return dt.date.fromisoformat(day.name.removeprefix("date="))


def test_a_value_in_the_wrong_days_folder_is_read_once_at_its_time(days_lake, tmp_path):
    em, curve_id, clean = days_lake["em"], days_lake["curve_id"], days_lake["lake"]
    for how in ("copied", "moved"):
        lake = tmp_path / how
        day = _misfile(clean, lake, how)
        midnight = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
        spans = [
            (days_lake["start"], days_lake["end"]),
            (midnight, midnight + dt.timedelta(days=1, microseconds=-1)),
            (midnight + dt.timedelta(hours=12), days_lake["end"]),
        ]
        assert mc.read_ticks(lake).equals(mc.read_ticks(clean)), how
        for start, end in spans:
            for bounds in ({"start": start, "end": end}, {"start": start}, {"end": end}):
                expected = mc.read_ticks(clean, **bounds)
                assert expected.num_rows > 0
                assert mc.read_ticks(lake, **bounds).equals(expected), (how, bounds)
            replayed = _replayed(em, lake, curve_id, start, end)
            assert replayed == _replayed(em, clean, curve_id, start, end) != [], (how, start)
            times = [t[1] for t in replayed]
            assert times == sorted(times)
            assert len(set(replayed)) == len(replayed)


def test_a_replays_last_batch_comes_however_few_its_rows(days_lake):
    em, curve_id, lake = days_lake["em"], days_lake["curve_id"], days_lake["lake"]
    start, end = days_lake["start"], days_lake["end"]
    expected = _replayed(em, lake, curve_id, start, end)
    got = []

    def consume():
        # Full batches only (timeout=None), of more rows than the replay
        # holds: the last, shorter one comes once every value is pushed.
        with em.client() as client, client.replay(start, end, source=lake) as feed:
            feed.subscribe(curve_id, "*")
            for batch in feed.batches(max_rows=100_000, timeout=None):
                got.extend(batch.to_pylist())

    consumer = threading.Thread(target=consume, daemon=True)
    consumer.start()
    consumer.join(timeout=60)
    assert not consumer.is_alive(), "the replay's last batch never came"
    assert [(r["tenor"], r["generated_on"], r["price"], r["source"]) for r in got] == expected
