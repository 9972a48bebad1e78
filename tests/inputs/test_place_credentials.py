"""Credentials in a place's URL (``s3://KEY:SECRET@bucket/…``) are refused
by every function and command that takes a place, before anything is sent
or made, and no message, repr or log line shows them."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inputs_helpers import CLOSED_LIVE_URL, CLOSED_URL, ID, assert_invalid, tree

import marketcurves as mc
from marketcurves import cli

KEY, SECRET = "AKIAEXAMPLEKEY", "wJalrXUtn/K7MDENG+bPxRfiCY"
#: A login in every form a place's URL may carry it; a secret with `/` or
#: `+`, as AWS's often have, ends the URL's authority early.
URLS = [
    f"s3://{KEY}:{SECRET}@bucket/lake",
    f"s3://{KEY}:wJalrXUtnK7MDENG@bucket/lake",
    f"gs://{KEY}:{SECRET}@bucket/lake",
    f"az://{KEY}:{SECRET}@container/lake",
    f"abfs://{KEY}:{SECRET}@account.dfs.core.windows.net/lake",
    f"s3://{KEY}@bucket/lake",
    f"az://container/lake?sv=2024-01-01&sig={KEY}",
]

CALLS: dict[str, Callable[[mc.Client, str], Any]] = {
    "bulk_download": lambda c, u: c.bulk_download("JET", "2025-01", "2025-01", u, progress=False),
    "read_bulk": lambda c, u: mc.read_bulk(u),
    "record": lambda c, u: c.record(u, [(ID, "Jul 25")]),
    "read_ticks": lambda c, u: mc.read_ticks(u),
    "backfill": lambda c, u: c.backfill(u, [(ID, "Jul 25")], "2025-01-01", "2025-01-02"),
    "check_lake": lambda c, u: mc.check_lake(u),
    "replay": lambda c, u: c.replay("2025-01-01", "2025-01-02", source=u),
    "cache_dir": lambda c, u: mc.Client(base_url=CLOSED_URL, token="t", cache_dir=u),
}


def _secret_free(text: str) -> None:
    for part in (KEY, SECRET, "wJalr", "K7MDENG"):
        assert part not in text, text


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("entry", sorted(CALLS))
def test_a_login_in_a_place_url_is_refused_unsent_and_unechoed(
    unsent, entry, url, caplog, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # a URL taken for a folder would be made here
    with caplog.at_level(logging.DEBUG):
        error = assert_invalid(lambda: CALLS[entry](unsent, url))
    _secret_free(str(error))
    _secret_free(repr(error))
    _secret_free(caplog.text)
    assert tree(Path(tmp_path)) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["backfill", "--curve", ID, "--start", "2025-01-01", "--end", "2025-01-02", "--dest"],
        ["bulk", "--vertical", "JET", "--start", "2025-01", "--end", "2025-01", "--dest"],
        ["record", "--curve", ID, "--dest"],
        ["lake", "check"],
        ["cache", "info", "--cache-dir"],
    ],
    ids=lambda argv: argv[0],
)
def test_the_console_script_refuses_a_login_in_a_place_url_unechoed(
    no_env, capsys, caplog, tmp_path, monkeypatch, argv
):
    no_env.setenv("MARKETCURVES_BASE_URL", CLOSED_URL)
    no_env.setenv("MARKETCURVES_LIVE_URL", CLOSED_LIVE_URL)
    no_env.setenv("MARKETCURVES_TOKEN", "never-sent")
    monkeypatch.chdir(tmp_path)
    url = f"s3://{KEY}:{SECRET}@bucket/lake"
    argv = [*argv, url]
    with caplog.at_level(logging.DEBUG):
        assert cli.main(argv) == 1
    out = capsys.readouterr()
    assert "credentials" in out.err or "not a URL" in out.err, out.err
    _secret_free(out.err + out.out + caplog.text)
    assert tree(Path(tmp_path)) == []
