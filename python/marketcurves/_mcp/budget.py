"""Each tool call's requests, planned before any is sent. A history call
made with ``max_requests=0`` sends nothing: it either returns (every day it
needs is cached) or raises ``BudgetExceeded`` naming what it would send.
The tool adds these up with its other requests and refuses the whole call
above ``--max-requests``; within it, each call runs with what the others
leave, so the library itself holds the line (a curve's contracts, which
the library reads from the catalogue first, are checked there)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from marketcurves._mcp.problems import ToolProblem
from marketcurves.exceptions import BudgetExceeded

#: A history call, given its ``max_requests``.
Pull = Callable[[int], Any]


class Budget:
    def __init__(self, allowed: int) -> None:
        self.allowed = allowed

    def check(self, needed: int, what: str) -> None:
        if needed > self.allowed:
            raise refused(needed, self.allowed, what)

    def run(self, pulls: Sequence[Pull], *, fixed: int = 0, what: str) -> list[Any]:
        """Each pull's result; ``fixed``, requests of the call besides them
        (the catalogue, today's settlement)."""
        done: list[Any] = [None] * len(pulls)
        needs = [0] * len(pulls)
        for index, pull in enumerate(pulls):
            try:
                done[index] = (pull(0),)
            except BudgetExceeded as error:
                needs[index] = error.needed
        self.check(fixed + sum(needs), what)
        for index, pull in enumerate(pulls):
            if done[index] is None:
                others = fixed + sum(needs) - needs[index]
                try:
                    done[index] = (pull(self.allowed - others),)
                except BudgetExceeded as error:
                    raise refused(others + error.needed, self.allowed, what) from None
        return [result[0] for result in done]


def refused(needed: int, allowed: int, what: str) -> ToolProblem:
    return ToolProblem(
        f"refused: {what} needs {needed} requests, more than this server's limit of "
        f"{allowed} (--max-requests); nothing was sent. Narrow it: fewer tenors, a shorter "
        "range, settlements rather than intraday values; days the cache holds cost nothing"
    )
