"""What the console script says to someone finding their way: the help of
``marketcurves`` alone, the nearest flag or command for a mistyped one, and
a ``--help`` for every command that says where its arguments come from."""

from __future__ import annotations

import re

import pytest
from cli_helpers import FIRST, LAST, environment, run_cli

from marketcurves import cli


def help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main([*argv, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def commands(capsys: pytest.CaptureFixture[str]) -> list[list[str]]:
    """Every command, and the actions of ``cache`` and ``lake``."""
    listed = help_of([], capsys).split("positional arguments:\n", 1)[1].split("\n\n", 1)[0]
    found: list[list[str]] = []
    for name in re.findall(r"^    ([a-z]+)\b", listed, re.MULTILINE):
        if name in ("cache", "lake"):
            text = help_of([name], capsys).split("positional arguments:\n", 1)[1]
            actions = re.findall(r"^    ([a-z]+)\b", text.split("\n\n", 1)[0], re.MULTILINE)
            found += [[name, action] for action in actions]
        else:
            found.append([name])
    return found


def test_marketcurves_alone_prints_the_help_and_exits_0():
    result = run_cli([], environment())
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: marketcurves")
    assert "history" in result.stdout and "exit codes:" in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("group", ["cache", "lake"])
def test_a_command_group_alone_prints_its_help(capsys, group):
    assert cli.main([group]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: marketcurves {group}")
    assert out == help_of([group], capsys)


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["histroy", "ID", FIRST, LAST], "did you mean history?"),
        (["catalog"], "did you mean catalogue?"),
        (["history", "ID", FIRST, LAST, "--tenr", "Jul 25"], "did you mean --tenor?"),
        (["live", "--curve", "ID", "--cuont", "5"], "did you mean --count?"),
        (["bulk", "--vertcal", "JET"], "did you mean --vertical?"),
        (["cache", "info", "--cache-dri", "x"], "did you mean --cache-dir?"),
        (["--verison"], "did you mean --version?"),
        (
            ["history", "ID", FIRST, LAST, "--formt", "csv", "--intradya"],
            "did you mean --format (for --formt), --intraday (for --intradya)?",
        ),
    ],
    ids=repr,
)
def test_a_mistyped_flag_or_command_gets_the_nearest(capsys, argv, hint):
    err = usage_error(argv, capsys)
    assert hint in err, err


def test_an_unknown_flag_is_shown_with_its_commands_usage(capsys):
    err = usage_error(["history", "ID", FIRST, LAST, "--tenr", "Jul 25"], capsys)
    assert err.startswith("usage: marketcurves history")
    assert "marketcurves history: error: unrecognized arguments: --tenr" in err


def test_a_flag_with_nothing_near_is_only_refused(capsys):
    err = usage_error(["history", "ID", FIRST, LAST, "--zzzz"], capsys)
    assert "unrecognized arguments: --zzzz" in err
    assert "did you mean" not in err


def test_a_flag_missing_its_arguments_still_gets_the_hint(capsys):
    err = usage_error(["history", "--tenr", "Jul 25"], capsys)
    assert "required" in err and "did you mean --tenor?" in err


def test_an_abbreviated_flag_is_taken_as_argparse_takes_it(capsys):
    # --ten is --tenor: not mistyped, so no hint (and the error is another).
    err = usage_error(["history", "ID", FIRST, "--ten", "Jul 25"], capsys)
    assert "did you mean" not in err


def test_format_defaults_read_once(capsys):
    text = " ".join(help_of(["bulk"], capsys).split())
    assert "table on a terminal and table otherwise" not in text
    assert "default: from the -o file's suffix, else table" in text
    cache_dir = arguments(help_of(["history"], capsys))["--cache-dir"]
    assert cache_dir.count("default") == 1, cache_dir
    assert "$MARKETCURVES_CACHE_DIR" in cache_dir and "no cache" in cache_dir


def arguments(text: str) -> dict[str, str]:
    """Each argument of a ``--help`` (its first name, or its metavar for a
    positional) and its help, on one line."""
    found: dict[str, str] = {}
    sections = re.split(r"\n(?:positional arguments|options):\n", text.split("\nexamples:\n")[0])
    for section in sections[1:]:
        name = None
        for line in section.split("\n\n")[0].splitlines():
            entry = re.match(r"^  (\S.*?)(?:\s{2,}(.*))?$", line)
            if entry is not None:
                name = entry.group(1).split(",")[0].split()[0]
                found[name] = entry.group(2) or ""
            elif name is not None:
                found[name] += " " + line.strip()
    return found


#: Arguments that take what another command lists, and the words their help
#: must say it with.
SOURCES = {
    "CURVE_ID": ("marketcurves catalogue",),
    # cache clear takes the curves the cache holds.
    "--curve": ("marketcurves catalogue", "marketcurves cache info"),
    "--tenor": ("marketcurves catalogue",),
    "--vertical": ("Gasoline, ULSD, Jet, Naphtha, Crude or Fuel Oil",),
    "DEST": ("marketcurves record",),
}


def test_every_argument_says_what_it_takes(capsys):
    checked = set()
    for argv in commands(capsys):
        text = help_of(argv, capsys)
        for name, help_text in arguments(text).items():
            assert help_text.strip(), f"{' '.join(argv)} {name} has no help"
            if argv == ["replay"] and name == "--source":
                name = "DEST"  # a lake, or the service
            if name in SOURCES:
                said = " ".join(help_text.split())
                assert any(words in said for words in SOURCES[name]), (argv, name, said)
                checked.add(name)
    assert checked == set(SOURCES)


def test_the_history_help_points_to_the_catalogue(capsys):
    args = arguments(help_of(["history"], capsys))
    assert "marketcurves catalogue" in args["CURVE_ID"]
    assert "UUID" in args["CURVE_ID"]
