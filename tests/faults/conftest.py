"""Fixtures of the fault matrix: the curves it uses, each operation's answer
without faults, and the record of outcomes printed as a table at the end."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The live suite's helpers: feeds with keep-alive scaled to the clock, and
# the check of what was delivered against what was published.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "live"))

from fault_operations import OPERATIONS, Context, client_for, curve_for, emulator_for
from live_helpers import Curves
from support import LIVE_START, start_emulator

#: The name of a test's user property that says what happened to an
#: operation under a fault: carried by the test's report, so that the table
#: is made wherever the tests ran (in worker processes too).
MATRIX_CELL = "fault matrix cell"


@pytest.fixture(scope="session")
def curves() -> Curves:
    with start_emulator(start=LIVE_START) as emulator:
        return Curves(emulator)


@pytest.fixture(scope="session")
def reference(curves: Curves, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """What each REST and bulk operation returns without faults."""
    answers: dict[str, Any] = {}
    for operation in OPERATIONS:
        if operation.kind == "live":
            continue
        with emulator_for(operation.kind) as emulator:
            client = client_for(emulator, operation.kind, {})
            tmp = tmp_path_factory.mktemp(operation.name)
            ctx = Context(emulator, client, tmp, curve_for(operation.kind, curves))
            answers[operation.name] = operation.run(ctx)
    yield answers


@pytest.fixture
def record_outcome(request: pytest.FixtureRequest) -> Any:
    def record(operation: str, fault: str, outcome: str) -> None:
        request.node.user_properties.append((MATRIX_CELL, (operation, fault, outcome)))

    return record


def pytest_terminal_summary(terminalreporter: Any) -> None:
    outcomes: dict[tuple[str, str], str] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            for name, value in getattr(report, "user_properties", ()):
                if name == MATRIX_CELL:
                    operation, fault, outcome = value
                    outcomes[operation, fault] = outcome
    if not outcomes:
        return
    operations = list(dict.fromkeys(op for op, _ in outcomes))
    faults = list(dict.fromkeys(fault for _, fault in outcomes))
    width = max(len(f) for f in faults)
    columns = [max(len(op), 12) for op in operations]
    write = terminalreporter.write_line
    terminalreporter.section("fault matrix")
    write(
        " " * width
        + " | "
        + " | ".join(op.ljust(w) for op, w in zip(operations, columns, strict=False))
    )
    for fault in faults:
        cells = [outcomes.get((op, fault), "-") for op in operations]
        write(
            fault.ljust(width)
            + " | "
            + " | ".join(c.ljust(w) for c, w in zip(cells, columns, strict=False))
        )
    survived = sum(o == "survived" for o in outcomes.values())
    failed = sum(o.startswith("FAILED") for o in outcomes.values())
    reported = len(outcomes) - survived - failed
    write(
        f"{len(operations)} operations x {len(faults)} faults: {len(outcomes)} cells, "
        f"{survived} survived, {reported} reported, {failed} failed"
    )
