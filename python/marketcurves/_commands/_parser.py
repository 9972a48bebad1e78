"""The console script's argument parser: argparse's, which also names the
nearest flag or command when one is mistyped (``did you mean --tenor?``),
and reports a flag it does not know with the usage of the command it was
given to rather than the top-level one."""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)'")
_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors suggest the nearest flag or
    command; the subcommands' parsers are of this class too."""

    _given: Sequence[str] = ()

    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        # Any namespace, as argparse's: the parsed one is of the class given.
        # A list, read here and by argparse (which reads None as sys.argv[1:]).
        self._given = list(sys.argv[1:] if args is None else args)
        parsed, extras = super().parse_known_args(self._given, namespace)
        if extras:
            # Here, not in the top-level parser, so that the usage shown and
            # the flags suggested are those of the command that was given them.
            self.error("unrecognized arguments: " + " ".join(extras))
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        hints = [] if "did you mean" in message else self._hints(message)
        super().error("; ".join([message, *hints]))

    def _hints(self, message: str) -> list[str]:
        hints = []
        choice = _INVALID_CHOICE.search(message)
        if choice is not None:
            nearest = _nearest(choice.group(1), self._choices())
            if nearest is not None:
                hints.append(f"did you mean {nearest}?")
        flags = [(flag, _nearest(flag, self._flags())) for flag in self._unknown_flags()]
        near_flags = [(flag, near) for flag, near in flags if near is not None]
        if len(near_flags) == 1:
            hints.append(f"did you mean {near_flags[0][1]}?")
        elif near_flags:
            hints.append(
                "did you mean "
                + ", ".join(f"{near} (for {flag})" for flag, near in near_flags)
                + "?"
            )
        return hints

    def _flags(self) -> list[str]:
        return [flag for flag in self._option_string_actions if flag.startswith("--")]

    def _choices(self) -> list[str]:
        names: list[str] = []
        for action in self._actions:
            if action.choices is not None:
                names += [str(choice) for choice in action.choices]
        return names

    def _unknown_flags(self) -> Iterable[str]:
        """The flags given to this parser that it has not, even as an
        abbreviation (``--ten`` is ``--tenor``)."""
        flags = self._flags()
        for text in self._given:
            if text == "--":
                break
            if not text.startswith("-") or text == "-" or _NEGATIVE_NUMBER.match(text):
                if self._subparsers is not None:
                    break  # a command: what follows is its own
                continue
            name = text.split("=", 1)[0]
            if name in self._option_string_actions:
                continue
            if name.startswith("--") and any(flag.startswith(name) for flag in flags):
                continue
            yield name


def _nearest(word: str, candidates: Sequence[str]) -> str | None:
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return close[0] if close else None


def print_help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """A ``run`` for a command given no subcommand: its help, exit 0."""

    def run(args: argparse.Namespace) -> int:
        parser.print_help()
        return 0

    return run
