"""``marketcurves history`` with the history cache: ``--cache-dir`` keeps
what a pull fetched, ``--offline`` pulls it again with the service gone, and
``--offline`` with no cache directory is a usage error.

The console script runs as a subprocess, as a user runs it, with the
service's address and login in its environment."""

from __future__ import annotations

import pytest
from cli_helpers import environment, run_cli
from support import start_emulator

#: Days that are final on the emulator's clock (the current day never is).
FIRST, LAST = "2025-06-02", "2025-06-12"
EARLIER = "2025-05-26"


@pytest.mark.parametrize("offline_dir_from", ["flag", "environment"])
def test_offline_pull_with_the_service_stopped_gives_the_same_csv(tmp_path, offline_dir_from):
    cache_dir = tmp_path / "cache"
    with start_emulator() as emulator:
        login = emulator.credentials
        env = environment(
            MARKETCURVES_BASE_URL=emulator.base_url,
            MARKETCURVES_EMAIL=login["email"],
            MARKETCURVES_PASSWORD=login["password"],
        )
        with emulator.client() as client:
            curve = next(c for c in client.catalogue(vertical="Jet") if c.quotation != "Sales")
        pull = ["history", curve.id, FIRST, LAST]
        online = run_cli([*pull, "--cache-dir", str(cache_dir)], env)
        assert online.returncode == 0, online.stderr
        assert emulator.request_count("/historical/settlements") > 0
    # The service is gone: any request would fail after its retries.
    if offline_dir_from == "flag":
        flags, offline_env = ["--cache-dir", str(cache_dir), "--offline"], env
    else:
        flags, offline_env = ["--offline"], {**env, "MARKETCURVES_CACHE_DIR": str(cache_dir)}
    offline = run_cli([*pull, *flags], offline_env)
    assert offline.returncode == 0, offline.stderr
    assert offline.stdout == online.stdout
    rows = online.stdout.count("\n") - 1
    assert rows > 0
    assert f"{rows} rows" in offline.stderr
    # Days the cache lacks: offline says so at once, rather than asking the
    # stopped service (which would end in ServiceError, after retries).
    wider = run_cli(["history", curve.id, EARLIER, LAST, *flags], offline_env)
    assert wider.returncode == 1
    error = wider.stderr
    assert "CacheMiss" in error, error
    assert EARLIER in error, error


def test_offline_without_a_cache_dir_is_a_usage_error(tmp_path):
    # A closed port: nothing may be sent, and nothing is.
    env = environment(
        MARKETCURVES_BASE_URL="http://127.0.0.1:9/v2", MARKETCURVES_TOKEN="never-sent"
    )
    for blank in ({}, {"MARKETCURVES_CACHE_DIR": "  "}):
        result = run_cli(["history", "some-id", FIRST, LAST, "--offline"], {**env, **blank})
        assert result.returncode == 2
        error = result.stderr
        assert "usage: marketcurves history" in error, error
        assert "--cache-dir" in error, error
        assert "MARKETCURVES_CACHE_DIR" in error, error
        assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []
