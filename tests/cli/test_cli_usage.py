"""The console script's contract: ``--help`` with examples for every
command, the exit codes (2 bad usage, 1 an error on one line of stderr with
no traceback and no secret), and tables for people on a terminal."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

import pytest
from cli_helpers import FIRST, LAST, UNKNOWN_ID, one_line_error, run_cli

from marketcurves import cli

COMMANDS = ["catalogue", "history", "bulk", "live", "record", "compact", "cache", "emulator"]


def test_help_lists_the_commands_and_the_exit_codes(capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    for command in COMMANDS:
        assert f"\n    {command}" in text, command
    for code, meaning in [
        ("0", "done"),
        ("1", "an error"),
        ("2", "bad usage"),
        ("130", "interrupted"),
    ]:
        assert f"  {code}" in text and meaning in text


@pytest.mark.parametrize(
    "command", [[c] for c in COMMANDS if c != "cache"] + [["cache", "info"], ["cache", "clear"]]
)
def test_each_command_has_examples_in_its_help(capsys, command):
    with pytest.raises(SystemExit) as exited:
        cli.main([*command, "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    examples = text.split("\nexamples:\n", 1)[1].splitlines()
    assert any(line.strip().startswith(f"marketcurves {' '.join(command)}") for line in examples)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["history", "ID", FIRST, LAST, "--format", "parquet"], ["parquet", "-o FILE"]),
        (["history", "ID", FIRST, LAST, "-o", "pull.xlsx"], ["pull.xlsx", "--format"]),
        (["history", "ID", FIRST, LAST, "--format", "yaml"], ["--format", "yaml"]),
        (["catalogue", "--format", "xml"], ["--format", "xml"]),
        (["live", "--count", "3"], ["--curve"]),
        (["live", "--curve", "ID", "--format", "json"], ["--format", "json"]),
        (["live", "--curve", "ID", "--count", "0"], ["--count", "1 or more"]),
        (["live", "--curve", "ID", "--duration", "-1"], ["--duration"]),
        (["bulk", "--vertical", "JET", "--start", "2024-03", "--end", "2024-04"], ["--dest"]),
        (
            [
                "bulk",
                "--vertical",
                "JET",
                "--start",
                "2024-03",
                "--end",
                "2024-04",
                "--dest",
                "d",
                "--format",
                "csv",
            ],
            ["--format"],
        ),
        (["cache", "info"], ["--cache-dir", "MARKETCURVES_CACHE_DIR"]),
        (["cache", "clear", "--curve", "ID"], ["--cache-dir", "MARKETCURVES_CACHE_DIR"]),
    ],
    ids=repr,
)
def test_bad_usage_exits_2_naming_the_flag(monkeypatch, capsys, tmp_path, argv, words):
    # A closed port: a usage error is found before anything is sent.
    monkeypatch.setenv("MARKETCURVES_BASE_URL", "http://127.0.0.1:9/v2")
    monkeypatch.setenv("MARKETCURVES_TOKEN", "never-sent")
    monkeypatch.delenv("MARKETCURVES_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "usage: marketcurves" in captured.err
    for word in words:
        assert word in captured.err, captured.err
    assert list(tmp_path.iterdir()) == []


def test_bad_usage_exits_2_from_a_shell(env):
    result = run_cli(["history", "ID", FIRST, LAST, "--format", "parquet"], env)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("argv", "kind", "words"),
    [
        (["history", UNKNOWN_ID, FIRST, LAST], "NotFound", [UNKNOWN_ID]),
        (
            ["live", "--curve", UNKNOWN_ID, "--count", "1"],
            "InvalidRequest",
            [UNKNOWN_ID, "not in the catalogue", "--no-strict"],
        ),
        (
            ["live", "--curve", UNKNOWN_ID, "--count", "1", "--no-strict"],
            "AccessDenied",
            [UNKNOWN_ID],
        ),
        (["history", "CURVE", "2025-06-12", "2025-06-10"], "InvalidRequest", ["after"]),
        (
            ["cache", "clear", "--cache-dir", "CACHE", "--before", "June"],
            "InvalidRequest",
            ["before"],
        ),
    ],
    ids=repr,
)
def test_errors_exit_1_on_one_line(em, env, curve, tmp_path, argv, kind, words):
    argv = [a.replace("CURVE", curve.id).replace("CACHE", str(tmp_path)) for a in argv]
    line = one_line_error(run_cli(argv, env), kind)
    for word in words:
        assert word in line, line


def test_a_refused_token_is_an_error_that_does_not_show_it(em, env):
    secret = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2VuLXRleHQ.c2lnbmF0dXJl"
    result = run_cli(["catalogue"], {**env, "MARKETCURVES_TOKEN": secret})
    one_line_error(result, "AuthError")
    assert secret not in result.stderr and secret not in result.stdout
    assert "c2VjcmV0" not in result.stderr


def test_a_folder_that_does_not_exist_is_said_before_any_request(em, env, curve, tmp_path):
    sent = em.request_count()
    out = tmp_path / "missing" / "pull.csv"
    line = one_line_error(
        run_cli(["history", curve.id, FIRST, LAST, "-o", str(out)], env), "FileNotFoundError"
    )
    assert str(out.parent) in line
    assert em.request_count() == sent
    assert list(tmp_path.iterdir()) == []


def test_a_terminal_gets_an_aligned_table(env, client):
    expected = client.catalogue(vertical="Jet", region="AG")
    main, terminal = pty.openpty()
    command = [
        sys.executable,
        "-m",
        "marketcurves",
        "catalogue",
        "--vertical",
        "Jet",
        "--region",
        "AG",
    ]
    process = subprocess.Popen(
        command, env=env, stdin=subprocess.DEVNULL, stdout=terminal, stderr=subprocess.PIPE
    )
    os.close(terminal)
    out = b""
    try:
        while True:
            ready, _, _ = select.select([main], [], [], 60)
            assert ready, "no output"
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            out += chunk
        _, errors = process.communicate(timeout=60)
    finally:
        os.close(main)
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, errors
    header, *lines = out.decode().replace("\r\n", "\n").splitlines()
    assert header.split() == ["id", "vertical", "quotation", "region", "units", "name"]
    assert [line.split()[0] for line in lines] == [c.id for c in expected]
