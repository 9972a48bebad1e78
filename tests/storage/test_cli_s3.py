"""`marketcurves bulk --dest s3://… --storage-option KEY=VALUE`."""

from __future__ import annotations

import pytest
from support import BULK_TIME_SCALE, start_emulator

import marketcurves as mc
from marketcurves import cli


def _argv(dest: str, options: dict[str, str]) -> list[str]:
    argv = ["bulk", "--vertical", "JET", "--start", "2024-03", "--end", "2024-04", "--dest", dest]
    for key, value in options.items():
        argv += ["--storage-option", f"{key}={value}"]
    return argv


def test_the_cli_downloads_into_s3_with_storage_options(monkeypatch, bucket, s3_options, capsys):
    with start_emulator(time_scale=BULK_TIME_SCALE) as em:
        monkeypatch.setenv("MARKETCURVES_BASE_URL", em.base_url)
        monkeypatch.setenv("MARKETCURVES_TOKEN", em.token())
        assert cli.main(_argv(f"s3://{bucket}/cli", s3_options)) == 0
    assert "2 files" in capsys.readouterr().err
    table = mc.read_bulk(f"s3://{bucket}/cli", storage_options=s3_options)
    assert sorted(set(table["month"].to_pylist())) == [3, 4]


def test_an_option_without_a_key_is_a_usage_error_that_does_not_echo_it(capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(
            [
                "bulk",
                "--vertical",
                "JET",
                "--start",
                "2024-03",
                "--end",
                "2024-04",
                "--dest",
                "s3://b/x",
                "--storage-option",
                "s3cr3t-typed-alone",
            ]
        )
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "KEY=VALUE" in error and "s3cr3t-typed-alone" not in error
