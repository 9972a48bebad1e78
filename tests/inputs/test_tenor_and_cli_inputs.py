"""``mc.Tenor`` and the console script, given bad input."""

from __future__ import annotations

import pytest
from inputs_helpers import CLOSED_URL, assert_invalid

import marketcurves as mc
from marketcurves import cli


@pytest.mark.parametrize(
    ("args", "kwargs", "words"),
    [
        ((5,), {}, ["name", "str", "int"]),
        ((None,), {}, ["name", "str"]),
        ((b"Jan 25",), {}, ["name", "str", "bytes"]),
        (("",), {}, ["name", "empty"]),
        (("   ",), {}, ["name", "empty"]),
        (("",), {"strict": False}, ["name", "empty"]),
        (("Q5 25",), {}, ["Q5 25", "Q1 to Q4"]),
        (("Jan 25",), {"strict": "yes"}, ["strict"]),
        (("Jan 25",), {"strict": 0}, ["strict"]),
    ],
    ids=repr,
)
def test_tenor_parse(args, kwargs, words):
    assert_invalid(lambda: mc.Tenor.parse(*args, **kwargs), *words)


@pytest.mark.parametrize("bad", [5, "", "Q5 25"], ids=repr)
def test_tenor_constructor(bad):
    assert_invalid(lambda: mc.Tenor(bad))


def test_tenor_parse_still_takes_its_defaults():
    assert mc.Tenor.parse("Jan 25").kind == "month"
    assert mc.Tenor.parse("Q5 25", strict=False).kind == "other"
    assert mc.Tenor.parse(name="Q1 25", strict=True).kind == "quarter"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["history", "some-id", "garbage", "2025-01-31"], ["InvalidRequest", "start"]),
        (["history", "some-id", "2025-02-01", "2025-01-31"], ["InvalidRequest", "after"]),
        (["history", "some-id", "2025-01-01", "2025-01-31", "--tenor", "Q5 25"], ["tenor"]),
        (["catalogue", "--vertical", "Coal"], ["InvalidRequest", "vertical"]),
        (["catalogue", "--region", "Mars"], ["InvalidRequest", "region"]),
        (["bulk", "--vertical", "Coal", "--start", "2025-01", "--end", "2025-02"], ["vertical"]),
        (["bulk", "--vertical", "JET", "--start", "2025-1", "--end", "2025-02"], ["start"]),
    ],
    ids=repr,
)
def test_cli_reports_bad_input_and_exits_1(no_env, tmp_path, capsys, argv, words):
    no_env.setenv("MARKETCURVES_BASE_URL", CLOSED_URL)
    no_env.setenv("MARKETCURVES_TOKEN", "never-sent")
    dest = tmp_path / "dest"
    if argv[0] == "bulk":
        argv = [*argv, "--dest", str(dest)]
    assert cli.main(argv) == 1
    error = capsys.readouterr().err
    for word in words:
        assert word in error, error
    assert not dest.exists()


def test_cli_without_a_service_says_what_to_set(no_env, capsys):
    assert cli.main(["catalogue"]) == 1
    assert "MARKETCURVES_BASE_URL" in capsys.readouterr().err
