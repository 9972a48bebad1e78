"""``marketcurves compact`` on a recording, and ``marketcurves emulator``
serving the other commands until Ctrl-C, its banner pasted into a shell."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import sys
from collections.abc import Iterator

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
    assert "1 day compacted" in result.stderr
    assert mc.read_ticks(tmp_path, end="2025-06-11T23:59:59.999999Z").equals(first_day)


def exported(banner: str) -> dict[str, str]:
    """The variables a shell holds after running ``banner``, as a user pasting it."""
    script = banner + '\nenv -0 | grep -z "^MARKETCURVES_"'
    result = subprocess.run(
        ["bash", "-c", script], env={"PATH": "/usr/bin:/bin"}, capture_output=True, check=True
    )
    pairs = [item.decode().partition("=") for item in result.stdout.split(b"\0") if item]
    return {name: value for name, _, value in pairs}


@contextlib.contextmanager
def serving(*flags: str) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """``marketcurves emulator`` with ``flags``, running, and its banner's lines."""
    command = [sys.executable, "-m", "marketcurves", "emulator", "--port", "0", *flags]
    emulator = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        banner = []
        assert emulator.stdout is not None
        for line in emulator.stdout:
            banner.append(line)
            if line.startswith("# Press Ctrl-C"):
                break
        yield emulator, banner
    finally:
        if emulator.poll() is None:
            emulator.kill()
            emulator.wait()
        if emulator.stdout is not None:
            emulator.stdout.close()
        if emulator.stderr is not None:
            emulator.stderr.close()


def test_the_emulator_serves_the_other_commands_until_ctrl_c(curve):
    with serving("--time-scale", "0", "--start", START) as (emulator, banner):
        # Every line can be pasted into a shell: export lines, and comments.
        assert all(line.startswith(("export ", "# ")) for line in banner), banner
        # A stopped clock never idles a connection out: no keep-alive to give.
        assert "--ping-interval" not in "".join(banner)
        variables = exported("".join(banner))
        assert sorted(variables) == [
            "MARKETCURVES_BASE_URL",
            "MARKETCURVES_EMAIL",
            "MARKETCURVES_LIVE_URL",
            "MARKETCURVES_PASSWORD",
        ]
        assert variables["MARKETCURVES_LIVE_URL"].startswith("ws://127.0.0.1:")
        # The same seed: the same world as the suite's own emulator.
        rows = [
            json.loads(line)
            for line in ok(
                run_cli(
                    ["catalogue", "--vertical", "Jet", "--format", "ndjson"],
                    environment(**variables),
                )
            ).splitlines()
        ]
        assert curve.id in [r["id"] for r in rows]
        emulator.send_signal(signal.SIGINT)
        stdout, stderr = emulator.communicate(timeout=15)
    assert emulator.returncode == 0, stderr
    assert stdout.strip() == "# stopped"
    assert "Traceback" not in stderr


def test_a_fast_emulator_names_the_ping_interval_that_keeps_live_connected(curve):
    with serving("--time-scale", str(SCALE), "--start", START) as (_, banner):
        assert all(line.startswith(("export ", "# ")) for line in banner), banner
        hint = re.search(r"--ping-interval ([0-9.]+)\.$", "".join(banner), re.MULTILINE)
        assert hint, banner
        # The feed's 60 s idle limit is a fifth of a real second at this
        # speed; at the pace the banner gives, the connection lasts.
        arguments = ["live", "--curve", curve.id, "--duration", "3", "--format", "ndjson"]
        result = run_cli(
            [*arguments, "--ping-interval", hint.group(1)],
            environment(**exported("".join(banner))),
        )
    ticks = [json.loads(line) for line in ok(result).splitlines()]
    assert {tick["source"] for tick in ticks} >= {"snapshot"}
    assert "disconnected" not in result.stderr, result.stderr
