"""The command line guide (docs/cli.md) keeps up with the commands: a
section for every subcommand ``marketcurves --help`` lists, and every flag
of every subcommand's ``--help`` named on the page."""

from __future__ import annotations

import re

import pytest
from docs_helpers import DOCS

from marketcurves.cli import main

PAGE = DOCS / "cli.md"


def help_text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def subcommands(text: str) -> list[str]:
    """The subcommands a help lists under its positional argument (``COMMAND``
    or ``ACTION``), indented by four spaces, one a line."""
    listed = text.split("positional arguments:\n", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^    ([a-z]+)\b", listed, re.MULTILINE)


def test_every_command_has_a_section(capsys: pytest.CaptureFixture[str]) -> None:
    commands = subcommands(help_text([], capsys))
    assert len(commands) == 12  # mcp, the twelfth
    headings = re.findall(r"^## (\S+)$", PAGE.read_text(encoding="utf-8"), re.MULTILINE)
    assert [c for c in commands if c not in headings] == []


def test_every_flag_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    page = PAGE.read_text(encoding="utf-8")
    commands: list[list[str]] = []
    for command in subcommands(help_text([], capsys)):
        text = help_text([command], capsys)
        if command in ("cache", "lake"):
            commands += [[command, action] for action in subcommands(text)]
        else:
            commands.append([command])
    missing = []
    for argv in commands:
        usage = help_text(argv, capsys).split("\n\n")[0]
        for flag in sorted(set(re.findall(r"--[a-z][\w-]*", usage)) - {"--help"}):
            if f"`{flag}" not in page:
                missing.append(f"{' '.join(argv)} {flag}")
    assert missing == [], f"flags not in docs/cli.md: {missing}"
