"""``marketcurves cache info`` and ``cache clear``, compared with
``Client.cache_info`` of the same cache."""

from __future__ import annotations

import json

import pytest
from cli_helpers import FIRST, LAST, csv_rows, ndjson_rows, ok, run_cli

import marketcurves as mc


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory, env, curve):
    folder = tmp_path_factory.mktemp("cache")
    ok(run_cli(["history", curve.id, FIRST, LAST, "--cache-dir", str(folder)], env))
    return folder


def cache_info(env, cache_dir):
    """What the Python API says of the cache, logged in as the script is."""
    client = mc.Client(
        base_url=env["MARKETCURVES_BASE_URL"], token=env["MARKETCURVES_TOKEN"], cache_dir=cache_dir
    )
    with client:
        return client.cache_info()


def as_json(value):
    return json.loads(json.dumps(value, default=lambda v: v.isoformat()))


def test_info_in_each_format(env, cache_dir, curve):
    info = cache_info(env, cache_dir)
    assert [c["curve_id"] for c in info["curves"]] == [curve.id]
    flag = ["--cache-dir", str(cache_dir)]
    got = json.loads(ok(run_cli(["cache", "info", *flag, "--format", "json"], env)))
    assert got == as_json(info)
    # The other formats have a row per curve and kind of history.
    rows = as_json(info["curves"])
    ndjson = ok(run_cli(["cache", "info", *flag, "--format", "ndjson"], env))
    assert ndjson_rows(ndjson) == rows
    csv_text = ok(run_cli(["cache", "info", *flag], env))
    assert csv_rows(csv_text) == [{k: str(v) for k, v in row.items()} for row in rows]
    from_env = {**env, "MARKETCURVES_CACHE_DIR": str(cache_dir)}
    header, line = ok(run_cli(["cache", "info", "--format", "table"], from_env)).splitlines()
    assert header.split() == list(rows[0])
    assert line.split() == [str(v) for v in rows[0].values()]


def test_clear_one_curves_older_days(env, cache_dir, curve):
    before = cache_info(env, cache_dir)
    flags = ["--cache-dir", str(cache_dir), "--curve", curve.id, "--before", LAST]
    cleared = json.loads(ok(run_cli(["cache", "clear", *flags, "--format", "json"], env)))
    after = cache_info(env, cache_dir)
    assert cleared["files"] > 0 and cleared["bytes"] > 0
    # Files holding earlier days and the last are rewritten with the last only.
    assert after["bytes"] < before["bytes"]
    assert [str(c["first"]) for c in after["curves"]] == [LAST]
    assert [str(c["last"]) for c in after["curves"]] == [LAST]
    # Nothing is left to remove: the table format says so.
    again = ok(run_cli(["cache", "clear", *flags], env))
    assert again == "removed 0 files, 0 bytes\n"
