"""``marketcurves catalogue`` in every format, compared with ``Client.catalogue``."""

from __future__ import annotations

import pytest
from cli_helpers import (
    assert_csv_matches,
    assert_parquet_matches,
    expected_rows,
    json_rows,
    ndjson_rows,
    ok,
    run_cli,
)

FILTERS = ["--vertical", "Jet", "--region", "AG"]


@pytest.fixture(scope="module")
def expected(client):
    table = client.catalogue(vertical="Jet", region="AG").to_arrow()
    assert table.num_rows >= 2
    return table


def test_csv_into_a_pipe_by_default(env, expected):
    assert_csv_matches(ok(run_cli(["catalogue", *FILTERS], env)), expected)


@pytest.mark.parametrize("fmt", ["json", "ndjson"])
def test_json_and_ndjson(env, expected, fmt):
    text = ok(run_cli(["catalogue", *FILTERS, "--format", fmt], env))
    rows = json_rows(text) if fmt == "json" else ndjson_rows(text)
    assert rows == expected_rows(expected)
    # Maps are objects, contracts a list: the nested columns survive.
    assert isinstance(rows[0]["filters"], dict) and rows[0]["filters"]["vertical"] == "Jet"
    assert rows[0]["contracts"] and isinstance(rows[0]["contracts"], list)


def test_parquet_into_a_file(env, expected, tmp_path):
    result = run_cli(["catalogue", *FILTERS, "-o", str(tmp_path / "ag.parquet")], env)
    assert ok(result) == ""
    assert_parquet_matches(tmp_path / "ag.parquet", expected)
    assert f"{expected.num_rows} curves" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["ag.parquet"], "no temporary file left"


def test_table_shows_the_main_columns_aligned(env, expected):
    text = ok(run_cli(["catalogue", *FILTERS, "--format", "table"], env))
    header, *lines = text.splitlines()
    assert header.split() == ["id", "vertical", "quotation", "region", "units", "name"]
    assert len(lines) == expected.num_rows
    for line, curve_id, units in zip(
        lines, expected["id"].to_pylist(), expected["units"], strict=False
    ):
        assert line.startswith(curve_id + " ")
        # Each column starts where its header does.
        assert line[header.index("units") :].startswith(str(units))
