"""Fixtures of the MCP server's suite: one emulator and one server
subprocess (over stdio, through the SDK's client) per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_helpers import STORE_SECRET, Session, server_env

import marketcurves as mc
from marketcurves.testing import Emulator


@pytest.fixture(scope="module")
def server_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's temporary folder (its TMPDIR) and cache, and its stderr."""
    return tmp_path_factory.mktemp("mcp-server")


@pytest.fixture(scope="module")
def env(em: Emulator, server_dir: Path) -> dict[str, str]:
    (server_dir / "tmp").mkdir()
    return server_env(
        em,
        MARKETCURVES_CACHE_DIR=str(server_dir / "cache"),
        TMPDIR=str(server_dir / "tmp"),
        AWS_SECRET_ACCESS_KEY=STORE_SECRET,
    )


@pytest.fixture(scope="module")
def session(env: dict[str, str], server_dir: Path) -> Iterator[Session]:
    server = Session([], env, server_dir / "stderr.txt")
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module")
def library(em: Emulator) -> Iterator[mc.Client]:
    """The library's own client, asking the same questions."""
    with em.client() as client:
        yield client
