"""Helpers of the console script's suite: the script run as a user runs it
(``python -m marketcurves`` in a child process, pointed at an emulator by
its environment), and its outputs read back with the readers people use
(the ``csv`` module, ``json``, pyarrow)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from marketcurves.testing import Emulator

#: Days before the emulators' START (a Friday evening, support.py): final.
FIRST, LAST = "2025-06-10", "2025-06-12"
#: A curve id the service does not know.
UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"
#: How every text format writes a time: ISO 8601, UTC as Z, microseconds.
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


def environment(emulator: Emulator | None = None, **variables: str) -> dict[str, str]:
    """This process's environment without any MARKETCURVES_* variable, then
    ``emulator``'s addresses and a token of its demo account, then ``variables``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MARKETCURVES_")}
    if emulator is not None:
        env["MARKETCURVES_BASE_URL"] = emulator.base_url
        env["MARKETCURVES_LIVE_URL"] = emulator.live_url
        env["MARKETCURVES_TOKEN"] = emulator.token()
    return {**env, **variables}


def run_cli(
    args: list[str], env: dict[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "marketcurves", *args]
    return subprocess.run(
        command,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )


def ok(result: subprocess.CompletedProcess[str]) -> str:
    """The stdout of a run that must have succeeded."""
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout


def one_line_error(result: subprocess.CompletedProcess[str], kind: str) -> str:
    """The error line of a run that failed with exit 1 and ``kind``."""
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("marketcurves: ")]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"marketcurves: {kind}: "), lines[0]
    return lines[0]


def plain(value: Any, kind: pa.DataType) -> Any:
    """A ``to_pylist`` value as JSON reads it back: maps as objects, dates
    and times as ISO 8601 text (times in UTC, ``Z``, microseconds)."""
    if value is None:
        return None
    if pa.types.is_map(kind):
        return {k: plain(v, kind.item_type) for k, v in value}
    if pa.types.is_list(kind):
        return [plain(v, kind.value_type) for v in value]
    if pa.types.is_struct(kind):
        return {f.name: plain(value[f.name], f.type) for f in kind}
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def expected_rows(table: pa.Table) -> list[dict[str, Any]]:
    columns = {f.name: [plain(v, f.type) for v in table[f.name].to_pylist()] for f in table.schema}
    return [
        dict(zip(columns, values, strict=False)) for values in zip(*columns.values(), strict=False)
    ]


def json_rows(text: str) -> list[dict[str, Any]]:
    rows = json.loads(text)
    assert isinstance(rows, list)
    return rows


def ndjson_rows(text: str) -> list[dict[str, Any]]:
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def assert_csv_matches(text: str, table: pa.Table) -> None:
    """Every column of the CSV holds ``table``'s values: scalars read by
    their own types, nested columns as JSON text."""
    rows = csv_rows(text)
    assert list(rows[0]) == table.column_names
    assert len(rows) == table.num_rows
    for field in table.schema:
        got = [row[field.name] for row in rows]
        want = table[field.name].to_pylist()
        if pa.types.is_nested(field.type):
            assert [json.loads(g) if g else None for g in got] == [
                plain(w, field.type) for w in want
            ], field.name
        elif pa.types.is_floating(field.type):
            assert [float(g) for g in got] == want, field.name
        elif pa.types.is_integer(field.type):
            assert [int(g) for g in got] == want, field.name
        elif pa.types.is_timestamp(field.type):
            assert all(TIME.match(g) for g in got if g), field.name
            assert [dt.datetime.fromisoformat(g) if g else None for g in got] == want
        elif pa.types.is_date(field.type):
            assert [dt.date.fromisoformat(g) if g else None for g in got] == want
        else:
            assert [g if g else None for g in got] == [w if w else None for w in want]


def assert_parquet_matches(path: Path, table: pa.Table) -> None:
    """The Parquet file holds ``table``: its columns, types and values (a
    dictionary column's dictionary, and the names of nested types' child
    fields, are Parquet's own)."""
    got = pq.read_table(path)
    assert got.column_names == table.column_names
    for read, wanted in zip(got.schema, table.schema, strict=False):
        if pa.types.is_nested(wanted.type):
            assert read.type.id == wanted.type.id, wanted.name
        else:
            assert read.type == wanted.type, wanted.name
    assert got.to_pylist() == table.to_pylist()
