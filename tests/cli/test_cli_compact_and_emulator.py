"""``marketcurves compact`` on a recording, and ``marketcurves emulator``
serving the other commands until Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

from cli_helpers import environment, ok, run_cli
from support import START, start_emulator

import marketcurves as mc

SCALE = 300


def test_compact_lists_the_days_it_merged(tmp_path, curve):
    # A recording across midnight, in files of a few ticks each.
    with start_emulator(time_scale=SCALE, start="2025-06-11T23:58:00Z") as em:
        with em.client() as client:
            client.record(
                tmp_path,
                [(curve.id, "*")],
                rotate="1s",
                rotate_rows=20,
                duration=3,
                compact=False,
                ping_interval=30 / SCALE,
                pong_timeout=0.5,
                reconnect_max=0.5,
            )
    parts = list(tmp_path.glob("date=2025-06-11/part-*.parquet"))
    assert len(parts) >= 2
    first_day = mc.read_ticks(tmp_path, end="2025-06-11T23:59:59.999999Z")
    result = run_cli(
        ["compact", str(tmp_path), "--before", "2025-06-12", "--format", "json"], environment()
    )
    days = json.loads(ok(result))
    assert days == [{"day": "2025-06-11", "files": len(parts), "rows": first_day.num_rows}]
    assert "1 days compacted" in result.stderr
    assert mc.read_ticks(tmp_path, end="2025-06-11T23:59:59.999999Z").equals(first_day)


def test_the_emulator_serves_the_other_commands_until_ctrl_c(curve):
    command = [sys.executable, "-m", "marketcurves", "emulator", "--port", "0"]
    command += ["--time-scale", "0", "--start", START]
    emulator = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        printed = {}
        assert emulator.stdout is not None
        for line in emulator.stdout:
            if line.startswith("Press Ctrl-C"):
                break
            key, _, value = line.strip().partition("=")
            printed[key] = value
            if line.strip().startswith("demo login:"):
                email, _, password = line.split(":", 1)[1].strip().partition(" / ")
                printed["email"], printed["password"] = email, password
        env = environment(
            MARKETCURVES_BASE_URL=printed["MARKETCURVES_BASE_URL"],
            MARKETCURVES_EMAIL=printed["email"],
            MARKETCURVES_PASSWORD=printed["password"],
        )
        # The same seed: the same world as the suite's own emulator.
        rows = [
            json.loads(line)
            for line in ok(
                run_cli(["catalogue", "--vertical", "Jet", "--format", "ndjson"], env)
            ).splitlines()
        ]
        assert curve.id in [r["id"] for r in rows]
        emulator.send_signal(signal.SIGINT)
        stdout, stderr = emulator.communicate(timeout=15)
    finally:
        if emulator.poll() is None:
            emulator.kill()
            emulator.wait()
    assert emulator.returncode == 0, stderr
    assert stdout.strip() == "stopped"
    assert "Traceback" not in stderr
