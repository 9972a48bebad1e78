"""The error a tool returns to the model: bad input or a refusal, named,
with what to do instead. The server turns it into a tool error (the call
fails, the server goes on)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class ToolProblem(Exception):
    """A tool error whose message is for the model to read."""


def close_names(word: str, names: Iterable[str], count: int = 5) -> list[str]:
    """The names nearest ``word``, case aside."""
    by_folded: dict[str, str] = {}
    for name in names:
        by_folded.setdefault(name.casefold(), name)
    near = difflib.get_close_matches(word.casefold(), list(by_folded), n=count, cutoff=0.5)
    return [by_folded[folded] for folded in near]


def unknown(what: str, given: str, names: Iterable[str]) -> ToolProblem:
    """``unknown tenor 'Jul25'; close names: 'Jul 25', 'Jun 25'``."""
    near = close_names(given, names)
    hint = "; close names: " + ", ".join(repr(n) for n in near) if near else ""
    return ToolProblem(f"unknown {what} {given!r}{hint}")
