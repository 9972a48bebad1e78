"""Helpers of the history cache suite: counting the requests a block of code
sends to the emulator, comparing tables, finding the cache's files, and a
worker that pulls through a shared cache in another process.

Run as a script, this module is that worker (see :func:`worker_main`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pyarrow as pa
import pyarrow.compute as pc

import marketcurves as mc

#: The day of the emulators' START (support.py), on a stopped clock.
TODAY = dt.date(2025, 6, 13)
YESTERDAY = TODAY - dt.timedelta(days=1)
#: Three contracts every curve of the suite offers all through 2024-2025.
SUMMER = ["Jul 25", "Aug 25", "Q3 25"]
TWO = ["Jul 25", "Aug 25"]

SETTLEMENTS = "/historical/settlements"
INTRADAY = "/historical/intraday"
CATALOGUE = "/catalogue"
#: Generous bounds, only so that a broken cache fails instead of hanging.
HANG_GUARD = 60.0


def day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


class Requests:
    """The requests the emulator received in a ``with`` block, in total and
    by path prefix: ``with Requests(emu) as sent: ...``, then
    ``sent.total``, ``sent.settlements``, ``sent.intraday``, ``sent.catalogue``."""

    PREFIXES: ClassVar[dict[str, str]] = {
        "settlements": SETTLEMENTS,
        "intraday": INTRADAY,
        "catalogue": CATALOGUE,
    }

    def __init__(self, emulator: Any) -> None:
        self._emulator = emulator
        self._before = self._counts()
        self._after: dict[str, int] | None = None

    def _counts(self) -> dict[str, int]:
        counts = {"total": self._emulator.request_count()}
        for name, prefix in self.PREFIXES.items():
            counts[name] = self._emulator.request_count(prefix)
        return counts

    def __enter__(self) -> Requests:
        self._before = self._counts()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._after = self._counts()

    def _delta(self, name: str) -> int:
        after = self._after if self._after is not None else self._counts()
        return after[name] - self._before[name]

    @property
    def total(self) -> int:
        return self._delta("total")

    @property
    def settlements(self) -> int:
        return self._delta("settlements")

    @property
    def intraday(self) -> int:
        return self._delta("intraday")

    @property
    def catalogue(self) -> int:
        return self._delta("catalogue")

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={self._delta(n)}" for n in ("total", *self.PREFIXES))
        return f"Requests({shown})"


def set_clock(emulator: Any, when: str, client: mc.Client, curve: str) -> None:
    """Moves the emulator's clock to ``when``, and lets ``client`` hear it
    (any answer's ``Date`` says it, a 404 as well as data) and renew its
    token if the jump outlived it, so that later counts hold only the
    requests of the calls counted."""
    emulator.set_time(when)
    try:
        client.last_settlement(curve, "Jul 25")
    except mc.NotFound:
        pass


def count_requests(emulator: Any, call: Callable[[], Any]) -> tuple[Any, Requests]:
    """The result of ``call()`` and the requests it sent."""
    with Requests(emulator) as sent:
        result = call()
    return result, sent


def describe(table: pa.Table) -> str:
    """Rows per tenor and the days they span, for a failure's message."""
    if table.num_rows == 0:
        return "no rows"
    shown = []
    column = "date" if "date" in table.column_names else "generated_on"
    for tenor in dict.fromkeys(table["tenor"].to_pylist()):
        rows = table.filter(pc.equal(table["tenor"], tenor))
        times = rows[column].to_pylist()
        shown.append(f"{tenor}: {rows.num_rows} rows {min(times)}..{max(times)}")
    return "; ".join(shown)


CURVES_KEY = b"marketcurves.curves"


def curves_of(table: pa.Table) -> list[dict]:
    """The curves ``table``'s schema metadata names (see ``client.py``)."""
    return json.loads((table.schema.metadata or {})[CURVES_KEY])


def without_curves(table: pa.Table) -> pa.Table:
    """``table`` without the metadata naming its curves."""
    metadata = dict(table.schema.metadata or {})
    metadata.pop(CURVES_KEY, None)
    return table.replace_schema_metadata(metadata or None)


def assert_same_table(got: pa.Table, expected: pa.Table, what: str = "") -> None:
    """``got`` is the very table ``expected`` is: schema and values."""
    assert got.schema.equals(expected.schema, check_metadata=True), (
        f"{what}: schema differs\n{got.schema}\n---\n{expected.schema}"
    )
    if got.equals(expected):
        return
    detail = f"got {describe(got)}\nexpected {describe(expected)}"
    if got.num_rows == expected.num_rows:
        for i, (a, b) in enumerate(zip(got.to_pylist(), expected.to_pylist(), strict=False)):
            if a != b:
                detail += f"\nfirst difference at row {i}:\n{a}\n{b}"
                break
        else:
            detail += "\nsame rows as Python values: the Arrow layouts differ"
    raise AssertionError(f"{what}: tables differ\n{detail}")


def rows_on(table: pa.Table, when: dt.date) -> int:
    """How many rows of a history table are of the UTC day ``when``."""
    if "date" in table.column_names:
        return sum(1 for d in table["date"].to_pylist() if d == when)
    return sum(1 for t in table["generated_on"].to_pylist() if t.date() == when)


# The cache's files.


def segment_files(cache_dir: Path, history: str = "*", tenor: str | None = None) -> list[Path]:
    """Segment files of every service under ``cache_dir``; of one history
    (``settlements`` or ``intraday``), and of one tenor, if given."""
    folder = "*" if tenor is None else tenor.replace(" ", "%20")
    return sorted(cache_dir.glob(f"v1/*/{history}/*/{folder}/*.parquet"))


def catalogue_files(cache_dir: Path) -> list[Path]:
    return sorted(cache_dir.glob("v1/*/catalogue/*.parquet"))


def temporaries(cache_dir: Path) -> list[Path]:
    """Files a writer left under a temporary name."""
    return sorted(p for p in cache_dir.rglob(".tmp-*"))


def segment_days(path: Path) -> tuple[dt.date, dt.date]:
    """The days a segment file's name says it holds."""
    first, last = path.stem.split("_")
    return day(first), day(last)


# Curves of the emulator's world.


@dataclasses.dataclass(frozen=True)
class Curves:
    """Ids of two curves of the emulator's world (seed 0) this suite pulls:
    licensed, offering the contracts of ``SUMMER``, with intraday values
    every 15 minutes (a month of them is a few dozen pages)."""

    coarse: str
    other: str


def pick_curves(client: mc.Client) -> Curves:
    found: list[mc.Curve] = []
    for curve in client.catalogue():
        if curve.quotation == "Sales" or not set(SUMMER) <= set(curve.contracts):
            continue
        table = client.intraday_history(curve.id, YESTERDAY, YESTERDAY, ["Aug 25"])
        if 0 < table.num_rows <= 100:
            found.append(curve)
        if len(found) == 2:
            return Curves(found[0].id, found[1].id)
    raise AssertionError("the emulator's catalogue lacks the curves this suite needs")


# A worker in another process.


def race_job(
    em: Any, cache_dir: str | Path, curve: str, pulls: list, modes: list, folder: Path, name: str
) -> dict[str, Any]:
    """What :func:`worker_main` is to do: ``pulls`` (``[method, start, end,
    tenors]``) once a round, a round per mode of ``modes``, through the cache
    in ``cache_dir``, once every worker of ``folder`` may go."""
    return {
        "base_url": em.base_url,
        **em.credentials,
        "cache_dir": str(cache_dir),
        "curve": curve,
        "pulls": pulls,
        "modes": modes,
        "ready": str(folder / f"{name}.ready"),
        "go": str(folder / "go"),
    }


def race(
    jobs: list[dict[str, Any]],
    env: dict[str, str] | None = None,
    around: contextlib.AbstractContextManager[Any] | None = None,
) -> list[dict[str, Any]]:
    """Runs a worker process per job, lets them go at once when all are
    ready, and gives each one's report, once each has exited 0. Every wait
    is bounded by ``HANG_GUARD``. ``around`` is entered just before they go
    and left once they have all ended (to count what they sent)."""
    workers = [
        subprocess.Popen(
            worker_command(job), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        for job in jobs
    ]
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not all(Path(job["ready"]).exists() for job in jobs):
            assert all(w.poll() is None for w in workers), "a worker died before starting"
            assert time.monotonic() < deadline, "the workers never got ready"
            time.sleep(0.01)
        with around if around is not None else contextlib.nullcontext():
            Path(jobs[0]["go"]).touch()
            outputs = [w.communicate(timeout=HANG_GUARD) for w in workers]
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()
    reports = []
    for worker, (out, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, f"a worker failed: {out}\n{err}"
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports


def worker_command(job: dict[str, Any]) -> list[str]:
    """The command that runs :func:`worker_main` on ``job`` in a new process."""
    return [sys.executable, str(Path(__file__).resolve()), json.dumps(job)]


def worker_main(job: dict[str, Any]) -> int:
    """Waits for the file ``job["go"]``, then pulls each of ``job["pulls"]``
    (``[method, start, end, tenors]``) once a round, each round in its cache
    mode of ``job["modes"]`` (``"refresh"`` rewrites the files another
    process may be reading), through the cache in ``job["cache_dir"]``, and
    compares each table with the same pull made without the cache. Exits 0 if all are equal, 1 (saying which) if not."""
    client = mc.Client(
        base_url=job["base_url"],
        email=job["email"],
        password=job["password"],
        cache_dir=job["cache_dir"],
    )
    Path(job["ready"]).touch()
    deadline = time.monotonic() + HANG_GUARD
    while not Path(job["go"]).exists():
        if time.monotonic() > deadline:
            print("never told to go", file=sys.stderr)
            return 2
        time.sleep(0.005)
    failures = []
    pulls = 0
    uncached: dict[int, pa.Table] = {}
    for mode in job["modes"]:
        for i, (method, start, end, tenors) in enumerate(job["pulls"]):
            args = (job["curve"], start, end, tenors)
            cached = getattr(client, method)(*args, cache=mode)
            if i not in uncached:
                uncached[i] = getattr(client, method)(*args, cache="off")
            pulls += 1
            if not cached.equals(uncached[i]) or not cached.schema.equals(uncached[i].schema):
                failures.append(
                    f"{method} {start}..{end} ({mode}): {describe(cached)} != {describe(uncached[i])}"
                )
    client.close()
    print(json.dumps({"pulls": pulls, "failures": failures}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(worker_main(json.loads(sys.argv[1])))
