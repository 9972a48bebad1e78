"""Every public operation under every fault the emulator can inject: it
completes with exactly the data it gives without the fault, or raises the
documented exception, within a bounded time, leaving no thread, socket or
half-written file behind, and with logging at DEBUG no secret shows in any
record, exception, traceback or repr. The outcomes are printed as a table
at the end."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from fault_injections import FAULTS, Fault
from fault_operations import (
    FULL,
    OPERATIONS,
    Context,
    Operation,
    client_email,
    client_for,
    curve_for,
    emulator_for,
)
from live_helpers import assert_delivered_exactly_published
from secret_scan import leaks, texts_of

from marketcurves.testing import Emulator

#: No operation under any fault may take longer than this.
BOUND = 60.0

CELLS = [
    pytest.param(operation, fault, id=f"{operation.name}-{fault.name}")
    for fault in FAULTS
    for operation in OPERATIONS
    if operation.kind in fault.reaches
]


def python_threads() -> set[threading.Thread]:
    """Threads started from Python. Threads of the Rust runtime that called
    into Python (to log, say) show up as dummies that are never removed."""
    return {t for t in threading.enumerate() if not isinstance(t, threading._DummyThread)}


def run_bounded(operation: Operation, ctx: Context) -> tuple[str, Any]:
    """("returned", value), ("raised", exception) or ("hung", None)."""
    answer: list[tuple[str, Any]] = []

    def run() -> None:
        try:
            answer.append(("returned", operation.run(ctx)))
        except BaseException as error:
            answer.append(("raised", error))

    worker = threading.Thread(target=run, name="fault-matrix-operation", daemon=True)
    worker.start()
    worker.join(BOUND)
    return answer[0] if answer else ("hung", None)


def end_injection(ctx: Context) -> None:
    """Stops the timers and watchers a fault started."""
    for stop in ctx.notes.get("stops", []):
        stop.set()
    for timer in ctx.notes.get("timers", []):
        timer.cancel()
        timer.join()
    for thread in ctx.notes.get("threads", []):
        thread.join()


def check_survived(operation: Operation, ctx: Context, value: Any, reference: Any) -> None:
    if operation.kind == "live":
        assert ctx.notes["stats"]["reconnects"] >= 1, "the fault broke the connection"
        assert len(value) > ctx.notes["before_fault"], "values came after the fault"
        assert_delivered_exactly_published(ctx.emulator, value)
    elif operation.kind == "bulk":
        assert value == reference
    else:
        assert value.equals(reference), f"{operation.name} differs from the answer without faults"


def check_no_half_written_files(emulator: Emulator, dest: Path) -> None:
    """Every file under a final name is whole: as many rows as the emulator holds."""
    for path in dest.rglob("*.parquet"):
        if path.name.startswith("."):
            continue
        month = f"{path.parent.parent.name[5:]}-{path.parent.name[6:]}"
        rows = emulator.bulk_rows("NAPHTHA", month, email=FULL["email"])
        assert pq.read_metadata(path).num_rows == rows, f"{path} is incomplete"


def wait_until(condition: Any, what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


@pytest.mark.parametrize("operation,fault", CELLS)
def test_operation_under_fault(
    operation: Operation,
    fault: Fault,
    curves: Any,
    reference: dict[str, Any],
    tmp_path: Path,
    record_outcome: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    threads_before = python_threads()
    expected = fault.expected(operation.name)
    with emulator_for(operation.kind) as emulator:
        client = client_for(emulator, operation.kind, fault.client)
        ctx = Context(emulator, client, tmp_path, curve_for(operation.kind, curves))
        ctx.notes["kind"] = operation.kind
        ctx.notes["email"] = client_email(emulator, operation.kind)
        if operation.kind == "live":
            ctx.while_running = lambda: fault.inject(ctx)
        else:
            # Faults strike a session under way: the client has its token.
            client.last_settlement(ctx.curve["id"])
            fault.inject(ctx)
        began = time.monotonic()
        how, value = run_bounded(operation, ctx)
        took = time.monotonic() - began
        end_injection(ctx)
        outcome = f"FAILED ({how})"
        try:
            assert how != "hung", f"no answer within {BOUND:.0f} s"
            if expected is None:
                if how == "raised":
                    raise AssertionError(f"raised {value!r}") from value
                check_survived(operation, ctx, value, reference.get(operation.name))
                outcome = "survived"
            else:
                assert how == "raised", f"expected {expected.__name__}, returned"
                if not isinstance(value, expected):
                    raise AssertionError(f"expected {expected.__name__}, got {value!r}") from value
                assert str(value), "the exception says what happened"
                outcome = type(value).__name__
            if operation.kind == "bulk":
                check_no_half_written_files(emulator, tmp_path / "bulk")
            errors = [value] if how == "raised" else []
            texts = [*texts_of(caplog.records, errors), repr(client), str(client)]
            if operation.kind != "rest" and how == "returned":
                texts.append(repr(value))
            passwords = [emulator.credentials["password"], FULL["password"]]
            assert not leaks(texts, passwords), leaks(texts, passwords)
            wait_until(lambda: emulator.live_connections == 0, "live connections left open")
        except AssertionError:
            record_outcome(
                operation.name, fault.name, outcome if outcome != "survived" else "FAILED"
            )
            raise
        finally:
            client.close()
    wait_until(lambda: python_threads() <= threads_before, "threads left running")
    record_outcome(operation.name, fault.name, outcome)
    print(f"{operation.name} / {fault.name}: {outcome} in {took:.2f} s")
