"""Helpers of the recorder suite: a recorder in a process of its own (the
``marketcurves record`` command), and the check that a recording holds
exactly what the emulator published."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import marketcurves as mc
from marketcurves.testing import Emulator

UTC = dt.UTC
#: Emulated seconds per real second: the feed's 60 s idle drop comes every
#: second or so, which the recorder must ride through.
SCALE = 60


def keepalive(scale: float = SCALE) -> dict[str, float]:
    """The recorder's keep-alive for an emulator ``scale`` times real speed."""
    return {"ping_interval": 30.0 / scale, "pong_timeout": 0.5, "reconnect_max": 0.5}


def millis(when: dt.datetime) -> dt.datetime:
    return when.replace(microsecond=when.microsecond - when.microsecond % 1000)


def wait_for(
    condition: Callable[[], bool],
    timeout: float,
    what: str,
    seen: Callable[[], object] | None = None,
) -> None:
    """Waits for ``condition``; on timing out, the failure says what
    ``seen`` returns then (e.g. the recorder's status)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            shown = f"; what was there: {seen()!r}" if seen is not None else ""
            raise AssertionError(f"timed out waiting for {what}{shown}")
        time.sleep(0.05)


def recorded(dest: str | Path, curve_id: str, **options: Any) -> dict[str, list[tuple]]:
    """Per tenor: ``(generated_on truncated to ms, price, source)`` in file order."""
    table = mc.read_ticks(dest, curve_id=curve_id, **options)
    by_tenor: dict[str, list[tuple]] = defaultdict(list)
    for row in table.to_pylist():
        by_tenor[row["tenor"]].append((millis(row["generated_on"]), row["price"], row["source"]))
    return dict(by_tenor)


def check_exactly_once(
    emulator: Emulator,
    dest: str | Path,
    curve_id: str,
    until: dt.datetime | None,
    **options: Any,
) -> dict[str, int]:
    """For every tenor recorded, the recording holds each value the
    emulator published from its first recorded value to ``until`` (None:
    the tenor's own last recorded value, for a recorder stopped before it
    caught up with every tenor), once and in order (times compared truncated
    to milliseconds). Returns the count per tenor."""
    counts = {}
    for tenor, rows in recorded(dest, curve_id, **options).items():
        times = [t for t, _, _ in rows]
        assert times == sorted(set(times)), f"{tenor}: a value twice or out of order"
        last = times[-1] if until is None else until
        # The feed's times are milliseconds; the emulator's, microseconds.
        end = last + dt.timedelta(microseconds=999)
        published = [
            (millis(value.generated_on), value.price)
            for value in emulator.published(curve_id, tenor, start=times[0], end=end)
        ]
        assert [(t, p) for t, p, _ in rows if t <= last] == published, (
            f"{tenor}: {len(rows)} recorded, {len(published)} published"
        )
        counts[tenor] = len(rows)
    return counts


class Recorder:
    """``marketcurves record`` in a child process, pointed at ``emulator``."""

    def __init__(
        self,
        emulator: Emulator,
        dest: str | Path,
        curves: list[str],
        *extra: str,
        env: dict[str, str] | None = None,
    ) -> None:
        argv = [sys.executable, "-m", "marketcurves", "record", "--dest", str(dest)]
        for curve in curves:
            argv += ["--curve", curve]
        ka = keepalive()
        argv += ["--ping-interval", str(ka["ping_interval"]), "--reconnect-max", "0.5"]
        argv += ["--rotate", "1s", *extra]
        credentials = emulator.credentials
        environment = {
            **os.environ,
            "MARKETCURVES_BASE_URL": emulator.base_url,
            "MARKETCURVES_LIVE_URL": emulator.live_url,
            "MARKETCURVES_EMAIL": credentials["email"],
            "MARKETCURVES_PASSWORD": credentials["password"],
            **(env or {}),
        }
        environment.pop("MARKETCURVES_TOKEN", None)
        # Its log goes to a file: a pipe nobody reads would block it once full.
        Recorder.runs += 1
        self.log = Path(dest).parent / f"recorder-{Recorder.runs}.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                argv, env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )

    runs = 0

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def terminate(self, timeout: float = 15) -> tuple[int, str]:
        """SIGTERM; the exit code and what it logged."""
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=timeout)
        return self.process.returncode, self.log.read_text()

    def stop_if_running(self) -> None:
        if self.process.poll() is None:
            self.kill()


def files_of(dest: Path) -> list[Path]:
    return sorted(p for p in dest.rglob("*") if p.is_file())


def status(dest: Path) -> dict[str, Any]:
    import json

    path = dest / "_status.json"
    return json.loads(path.read_text()) if path.exists() else {}


async def started(dest: Path) -> None:
    """Until the recorder writing to ``dest`` has written its first status
    (on a loaded machine its start alone can take seconds), then two seconds
    of ticks."""
    for _ in range(300):
        if status(dest).get("state") is not None:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(2)


def recorder_logs(dest: Path) -> str:
    """The end of what each recorder process beside ``dest`` logged, for a
    failure's message."""
    logs = sorted(dest.parent.glob("recorder-*.log"))
    return "what the recorders logged:\n" + "".join(
        f"--- {log.name}\n{log.read_text()[-2000:]}" for log in logs
    )
