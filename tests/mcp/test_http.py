"""The streamable HTTP transport: on loopback by default, behind its
bearer token (401 without it), refused on a non-loopback host without
one; a slow service is a tool error within ``--timeout``, and the results
folder is gone when the server stops."""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import requests
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_helpers import BOUND, INITIALIZE, server_env

TOKEN = "http-token-7d3b9a51e0"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "marketcurves", "mcp", *args]


@pytest.fixture(scope="module")
def http_server(em, tmp_path_factory) -> Iterator[tuple[str, Path, list[str]]]:
    """The server on 127.0.0.1 (any free port), its token in the
    environment, a 3 s bound on each call; its URL, TMPDIR and stderr."""
    folder = tmp_path_factory.mktemp("mcp-http")
    env = {**os.environ, **server_env(em, MARKETCURVES_MCP_TOKEN=TOKEN, TMPDIR=str(folder))}
    process = subprocess.Popen(
        _command("--http", "127.0.0.1:0", "--timeout", "3"),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(
        target=lambda: [lines.put(line) for line in process.stderr], daemon=True
    )
    reader.start()
    seen: list[str] = []
    try:
        while True:
            line = lines.get(timeout=BOUND)
            seen.append(line)
            if "serving http://" in line:
                url = line.split("serving ", 1)[1].strip()
                break
        yield url, folder, seen
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(BOUND)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(BOUND)
        reader.join(BOUND)
        assert process.stdout is not None
        assert process.stdout.read() == "", "stdout carries only the protocol (none over HTTP)"
        process.stdout.close()
        process.stderr.close()
        while not lines.empty():
            seen.append(lines.get())
        stderr = "".join(seen)
        assert TOKEN not in stderr and em.credentials["password"] not in stderr
        # The results folder went with the server.
        assert not list(folder.glob("marketcurves-mcp-*"))


def _call(url: str, name: str, arguments: dict[str, Any]) -> Any:
    async def run() -> Any:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with httpx2.AsyncClient(headers=headers, timeout=BOUND) as http:
            async with streamable_http_client(url, http_client=http) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    tools = await session.list_tools()
                    return tools, await session.call_tool(name, arguments)

    return asyncio.run(asyncio.wait_for(run(), BOUND))


def test_a_request_without_the_token_is_refused(http_server):
    url = http_server[0]
    assert url.startswith("http://127.0.0.1:")
    for headers in ({}, {"Authorization": "Bearer wrong-token"}, {"Authorization": TOKEN}):
        answer = requests.post(url, json=INITIALIZE, headers={**HEADERS, **headers}, timeout=BOUND)
        assert answer.status_code == 401, answer.text
        assert TOKEN not in answer.text


def test_with_the_token_the_tools_answer(http_server):
    tools, result = _call(http_server[0], "describe_curve", {"curve": "Jet Fob AG"})
    assert {tool.name for tool in tools.tools} >= {"price_history", "build_curve"}
    assert not result.is_error and result.structured_content["units"] == "$/mt"


def test_a_slow_service_is_a_tool_error_within_the_timeout(http_server, em):
    _call(http_server[0], "describe_curve", {"curve": "Jet Fob AG"})  # the catalogue, kept
    em.set_latency(10)
    try:
        args = {
            "curve": "Jet Fob AG",
            "start": "2025-05-01",
            "end": "2025-05-02",
            "tenors": ["Oct 25"],
        }
        _, result = _call(http_server[0], "price_history", args)
    finally:
        em.clear_faults()
    assert result.is_error
    assert "no answer within 3 s" in result.content[0].text
    # The server goes on.
    _, again = _call(http_server[0], "describe_curve", {"curve": "Jet Fob AG"})
    assert not again.is_error


def test_a_host_not_loopback_needs_a_token(em):
    env = {k: v for k, v in os.environ.items() if k != "MARKETCURVES_MCP_TOKEN"}
    env.update(server_env(em))
    done = subprocess.run(
        _command("--http", "0.0.0.0:0"), env=env, capture_output=True, text=True, timeout=BOUND
    )
    assert done.returncode == 2
    assert "not loopback" in done.stderr and "MARKETCURVES_MCP_TOKEN" in done.stderr
