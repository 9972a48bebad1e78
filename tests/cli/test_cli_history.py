"""``marketcurves history`` in every format, compared with the same pull
through ``Client.settlements`` and ``Client.intraday_history``."""

from __future__ import annotations

import pytest
from cli_helpers import (
    FIRST,
    LAST,
    TIME,
    assert_csv_matches,
    assert_parquet_matches,
    csv_rows,
    expected_rows,
    json_rows,
    ndjson_rows,
    ok,
    run_cli,
)

FORMATS = ("csv", "json", "ndjson")


@pytest.fixture(scope="module")
def settlements(client, curve):
    return client.settlements(curve, FIRST, LAST)


@pytest.fixture(scope="module")
def tenors(curve):
    return list(curve.contracts[1:3])


@pytest.fixture(scope="module")
def intraday(client, curve, tenors):
    table = client.intraday_history(curve, LAST, LAST, tenors=tenors)
    assert table.num_rows > 10
    return table


def pull(curve, *extra):
    return ["history", curve.id, FIRST, LAST, *extra]


def test_csv(env, curve, settlements):
    assert_csv_matches(ok(run_cli(pull(curve), env)), settlements)


@pytest.mark.parametrize("fmt", ["json", "ndjson"])
def test_json_and_ndjson(env, curve, settlements, fmt):
    text = ok(run_cli(pull(curve, "--format", fmt), env))
    rows = json_rows(text) if fmt == "json" else ndjson_rows(text)
    assert rows == expected_rows(settlements)
    assert TIME.match(rows[0]["generated_on"]), "times in UTC, saying so, as in csv"
    assert rows[0]["dependencies"] and rows[0]["metadata"], "nested columns kept"


@pytest.mark.parametrize("flags", [["--format", "parquet"], []], ids=["format", "suffix"])
def test_parquet(env, curve, settlements, tmp_path, flags):
    out = tmp_path / "pull.parquet"
    ok(run_cli(pull(curve, *flags, "-o", str(out)), env))
    assert_parquet_matches(out, settlements)


def test_intraday_of_some_tenors_into_files_by_suffix(env, curve, intraday, tenors, tmp_path):
    flags = ["--intraday"] + [f for t in tenors for f in ("--tenor", t)]
    args = ["history", curve.id, LAST, LAST, *flags]
    ok(run_cli([*args, "-o", str(tmp_path / "day.ndjson")], env))
    assert ndjson_rows((tmp_path / "day.ndjson").read_text()) == expected_rows(intraday)
    ok(run_cli([*args, "-o", str(tmp_path / "day.csv")], env))
    assert_csv_matches((tmp_path / "day.csv").read_text(), intraday)
    ok(run_cli([*args, "-o", str(tmp_path / "day.parquet")], env))
    assert_parquet_matches(tmp_path / "day.parquet", intraday)


def test_table_has_a_line_per_row_in_the_tables_order(env, curve, settlements):
    result = run_cli(pull(curve, "--format", "table"), env)
    header, *lines = ok(result).splitlines()
    assert header.split() == ["tenor", "date", "generated_on", "price", "units"]
    assert len(lines) == settlements.num_rows
    rows = zip(
        lines, settlements["tenor"].to_pylist(), settlements["price"].to_pylist(), strict=False
    )
    for line, tenor, price in rows:
        assert line.startswith(tenor + " ")
        assert repr(price) in line.split()
    assert f"{settlements.num_rows} rows" in result.stderr


def test_a_tenor_the_curve_does_not_list_warns_when_it_returns_nothing(env, curve):
    result = run_cli(pull(curve, "--tenor", "Jul 99", "--format", "csv"), env)
    ok(result)
    assert "marketcurves: warning: tenor(s) Jul 99 returned no rows" in result.stderr


def test_times_are_written_alike_in_csv_json_and_ndjson(env, curve):
    texts = {fmt: ok(run_cli(pull(curve, "--format", fmt), env)) for fmt in FORMATS}
    times = {
        "csv": [r["generated_on"] for r in csv_rows(texts["csv"])],
        "json": [r["generated_on"] for r in json_rows(texts["json"])],
        "ndjson": [r["generated_on"] for r in ndjson_rows(texts["ndjson"])],
    }
    assert times["csv"] == times["json"] == times["ndjson"]
    assert all(TIME.match(t) for t in times["csv"]), times["csv"][:3]
    # Dates are days, in every format.
    assert {r["date"] for r in csv_rows(texts["csv"])} == {"2025-06-10", "2025-06-11", "2025-06-12"}


def test_one_row_is_one_row(env, curve):
    tenor = curve.contracts[1]
    result = run_cli(["history", curve.id, LAST, LAST, "--tenor", tenor, "--format", "csv"], env)
    assert len(csv_rows(ok(result))) == 1
    assert result.stderr.strip() == "1 row"
