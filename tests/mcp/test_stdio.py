"""The stdio wire as bytes: requests read from a pipe by the event loop or
from a file by the SDK's streams, and a line too long to read refused
without ending the server."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from mcp_helpers import BOUND, INITIALIZE, server_env

from marketcurves._mcp.stdio import LONGEST_LINE
from marketcurves.testing import Emulator

SERVER = [sys.executable, "-m", "marketcurves", "mcp"]
OPENING = [INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


def lines(*messages: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def listed(response: dict[str, Any]) -> set[str]:
    return {tool["name"] for tool in response["result"]["tools"]}


SIX = {"find_curves", "describe_curve", "forward_curve", "price_history", "spread", "build_curve"}


class Server:
    """``marketcurves mcp`` on pipes, its stdout read by a thread; stdin is
    closed only once the answers awaited are in (at the end of its input the
    server cancels what it has not answered yet)."""

    def __init__(self, em: Emulator) -> None:
        self._process = subprocess.Popen(
            SERVER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=server_env(em),
        )
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def send(self, data: bytes) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(data)
        self._process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        """The next response (notifications skipped)."""
        while True:
            line = self._lines.get(timeout=BOUND)
            assert line, "the server ended"
            message = json.loads(line)
            if "id" in message:
                return message

    def close(self) -> int:
        assert self._process.stdin is not None
        self._process.stdin.close()
        try:
            return self._process.wait(BOUND)
        finally:
            self._process.kill()
            self._reader.join(BOUND)
            assert self._process.stdout is not None
            self._process.stdout.close()


def test_requests_from_a_file_are_served_by_the_sdks_streams(em: Emulator, tmp_path: Path):
    # A file is not what the event loop reads (asyncio pipes take pipes,
    # sockets and terminals): the SDK's own streams serve it. Its end comes
    # at once, and the server cancels what it has not answered by then, so
    # only what is answered is checked: each line a response, and the exit.
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(lines(*OPENING, LIST))
    with open(requests, "rb") as stdin:
        done = subprocess.run(
            SERVER, stdin=stdin, capture_output=True, env=server_env(em), timeout=BOUND
        )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    for line in done.stdout.decode().splitlines():
        assert json.loads(line)["id"] in (1, 2), line
    probe = "from marketcurves._mcp.stdio import loop_can_serve; print(loop_can_serve())"
    with open(requests, "rb") as stdin:
        from_a_file = subprocess.run(
            [sys.executable, "-c", probe], stdin=stdin, capture_output=True, timeout=BOUND
        )
    from_a_pipe = subprocess.run(
        [sys.executable, "-c", probe], input=b"", capture_output=True, timeout=BOUND
    )
    assert (from_a_file.stdout, from_a_pipe.stdout) == (b"False\n", b"True\n")


def test_a_line_longer_than_the_server_reads_is_refused_and_the_next_answered(em: Emulator):
    server = Server(em)
    try:
        server.send(lines(*OPENING))
        assert server.answer()["id"] == 1
        too_long = b'{"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {"x": "'
        server.send(too_long + b"a" * LONGEST_LINE + b'"}}\n' + lines(LIST))
        answer = server.answer()
        assert answer["id"] == 2
        assert listed(answer) == SIX
    finally:
        assert server.close() == 0
