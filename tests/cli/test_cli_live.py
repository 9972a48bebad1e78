"""``marketcurves live``: ticks as they come, in each format, each one a
value the emulator published; it stops by itself after ``--count`` ticks or
``--duration`` seconds, and Ctrl-C (SIGINT) ends it with exit 130, keeping
what it wrote."""

from __future__ import annotations

import datetime as dt
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from cli_helpers import TIME, csv_rows, environment, ndjson_rows, ok, one_line_error, run_cli
from support import start_emulator

from marketcurves.testing import Emulator

#: Emulated seconds per second: a tenor's value every few seconds.
SCALE = 300
#: The keep-alive of a feed at that speed (the service drops a connection
#: silent for 60 emulated seconds).
KEEPALIVE = ["--ping-interval", str(30 / SCALE), "--reconnect-max", "0.5"]
SOURCES = {"snapshot", "update", "backfill"}


@pytest.fixture(scope="module")
def live_em() -> Iterator[Emulator]:
    with start_emulator(time_scale=SCALE, start="2025-06-13T10:00:00Z") as emulator:
        yield emulator


@pytest.fixture(scope="module")
def live_env(live_em: Emulator) -> dict[str, str]:
    return environment(live_em)


@pytest.fixture(scope="module")
def live_curve(live_em: Emulator) -> str:
    with live_em.client() as client:
        return next(c.id for c in client.catalogue(vertical="Jet") if c.quotation != "Sales")


def live(curve_id: str, *extra: str) -> list[str]:
    return ["live", "--curve", curve_id, *KEEPALIVE, *extra]


def assert_published(
    emulator: Emulator, curve_id: str, ticks: list[tuple[str, dt.datetime, float]]
) -> None:
    """Each ``(tenor, generated_on, price)`` is a value the emulator published
    (the feed's times are milliseconds; the emulator's, microseconds)."""
    assert ticks
    for tenor, when, price in ticks:
        assert when.tzinfo is not None and when.utcoffset() == dt.timedelta(0)
        values = emulator.published(
            curve_id, tenor, start=when, end=when + dt.timedelta(microseconds=999)
        )
        assert [v.price for v in values] == [price], (tenor, when)


def test_ndjson_into_a_pipe_stops_after_count(live_em, live_env, live_curve):
    result = run_cli(live(live_curve, "--count", "30"), live_env)
    rows = ndjson_rows(ok(result))
    assert len(rows) == 30
    assert [list(r) for r in rows[:1]] == [["generated_on", "curve_id", "tenor", "price", "source"]]
    assert {r["curve_id"] for r in rows} == {live_curve}
    assert {r["source"] for r in rows} <= SOURCES
    ticks = [(r["tenor"], dt.datetime.fromisoformat(r["generated_on"]), r["price"]) for r in rows]
    assert_published(live_em, live_curve, ticks)
    assert "30 ticks" in result.stderr


def test_csv_of_one_tenor(live_em, live_env, live_curve):
    with live_em.client() as client:
        tenor = client.catalogue().by_id(live_curve).contracts[2]
    result = run_cli(
        live(live_curve, "--tenor", tenor, "--count", "2", "--format", "csv"), live_env
    )
    rows = csv_rows(ok(result))
    assert len(rows) == 2
    assert {r["tenor"] for r in rows} == {tenor}
    ticks = [
        (r["tenor"], dt.datetime.fromisoformat(r["generated_on"]), float(r["price"])) for r in rows
    ]
    assert_published(live_em, live_curve, ticks)


def test_a_tenor_the_curve_does_not_list_is_refused_at_once_not_waited_for(live_env, live_curve):
    result = run_cli(live(live_curve, "--tenor", "Jul 99", "--count", "1"), live_env, timeout=60)
    line = one_line_error(result, "InvalidRequest")
    assert "Jul 99" in line and "--no-strict" in line
    assert not result.stdout


def test_table_stops_after_duration(live_em, live_env, live_curve):
    started = time.monotonic()
    result = run_cli(live(live_curve, "--duration", "2", "--format", "table"), live_env)
    header, *lines = ok(result).splitlines()
    assert time.monotonic() - started < 30
    assert header.split() == ["generated_on", "curve_id", "tenor", "price", "source"]
    ticks = []
    for line in lines:
        day, clock, curve_id, *tenor, price, source = line.split()
        assert curve_id == live_curve and source in SOURCES
        when = dt.datetime.fromisoformat(f"{day}T{clock}+00:00")
        ticks.append((" ".join(tenor), when, float(price)))
    # The subscription's snapshot alone gives a tick per tenor.
    assert len(ticks) >= 10
    assert_published(live_em, live_curve, ticks)
    assert f"{len(ticks)} ticks" in result.stderr


def test_sigint_exits_130_keeping_what_was_written(live_em, live_env, live_curve, tmp_path):
    out = tmp_path / "ticks.ndjson"
    part = tmp_path / ".ticks.ndjson.part"
    command = [sys.executable, "-m", "marketcurves", *live(live_curve, "-o", str(out))]
    process = subprocess.Popen(
        command,
        env=live_env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (part.exists() and part.read_text().count("\n") >= 3):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no tick written"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    assert stdout == ""
    assert not part.exists()
    rows = ndjson_rows(out.read_text())
    assert len(rows) >= 3
    ticks = [(r["tenor"], dt.datetime.fromisoformat(r["generated_on"]), r["price"]) for r in rows]
    assert_published(live_em, live_curve, ticks)


def test_the_snapshot_comes_first_then_stderr_says_updates_are_awaited(em, env, curve):
    # A stopped clock: the snapshot, and then no update at all.
    tenor = curve.contracts[2]
    args = ["live", "--curve", curve.id, "--tenor", tenor, "--count", "5", "--duration", "5"]
    result = run_cli([*args, "--format", "csv"], env)
    rows = csv_rows(ok(result))
    assert [(r["tenor"], r["source"]) for r in rows] == [(tenor, "snapshot")]
    assert TIME.match(rows[0]["generated_on"]), rows[0]
    assert "1 snapshot tick written; waiting for updates" in result.stderr
    assert "every 1 to 15 minutes" in result.stderr
    assert "1 tick, 0 reconnects" in result.stderr


def test_live_times_are_those_of_the_other_commands(live_env, live_curve):
    rows = ndjson_rows(ok(run_cli(live(live_curve, "--count", "3"), live_env)))
    assert all(TIME.match(r["generated_on"]) for r in rows), rows
