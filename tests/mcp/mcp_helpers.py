"""A client of ``marketcurves mcp`` as an assistant would be: the SDK's own
(``stdio_client`` + ``ClientSession``), running the server as a subprocess.
The session lives in a thread of its own, so that one server serves a whole
module; every wait is bounded. Every result received is kept, for the
secret scan."""

from __future__ import annotations

import asyncio
import base64
import io
import sys
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

#: A store secret in the server's environment, which must never show.
STORE_SECRET = "store-secret-4f1c9e2a"
#: A client's first request, as JSON-RPC (for the tests that speak it raw).
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}
#: The longest any step waits: only so that a broken server fails, not hangs.
BOUND = 120.0


class Session:
    def __init__(self, args: list[str], env: dict[str, str], errlog: Path) -> None:
        self.transcript: list[str] = []
        self._params = StdioServerParameters(
            command=sys.executable, args=["-m", "marketcurves", "mcp", *args], env=env
        )
        self._errlog = errlog
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._session: ClientSession | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="mcp-session", daemon=True)
        self._thread.start()
        if not self._ready.wait(BOUND) or self._session is None:
            raise AssertionError(f"the server did not start: {self._failed!r}")

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except BaseException as error:
            self._failed = error
        finally:
            self._ready.set()
            self._loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        with open(self._errlog, "w") as errlog:
            async with stdio_client(self._params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    self._session = session
                    self._ready.set()
                    await self._stop.wait()

    def _wait(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        result = asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(BOUND)
        self.transcript.append(result.model_dump_json())
        return result

    def tools(self) -> Any:
        assert self._session is not None
        return self._wait(self._session.list_tools()).tools

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        assert self._session is not None
        return self._wait(self._session.call_tool(name, arguments))

    def ok(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The structured output of a call that must succeed."""
        result = self.call(name, arguments)
        assert not result.is_error, result.content[0].text
        assert result.content[0].text, "no text summary"
        structured: dict[str, Any] = result.structured_content
        return structured

    def error(self, name: str, arguments: dict[str, Any]) -> str:
        """The message of a call that must be a tool error."""
        result = self.call(name, arguments)
        assert result.is_error, result.structured_content
        text: str = result.content[0].text
        return text

    def resources(self) -> Any:
        assert self._session is not None
        return self._wait(self._session.list_resources()).resources

    def read_table(self, uri: str) -> pa.Table:
        assert self._session is not None
        result = self._wait(self._session.read_resource(uri))
        blob = base64.b64decode(result.contents[0].blob)
        return pq.read_table(io.BytesIO(blob))

    def close(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(BOUND)
        assert not self._thread.is_alive(), "the session did not end"
        if self._failed is not None:
            raise self._failed


def server_env(em: Any, **more: str) -> dict[str, str]:
    """The environment a desk would give the server: the emulator's
    address, a token and a login (the token wins), and ``more``."""
    return {
        "MARKETCURVES_BASE_URL": em.base_url,
        "MARKETCURVES_TOKEN": em.token(),
        "MARKETCURVES_EMAIL": em.credentials["email"],
        "MARKETCURVES_PASSWORD": em.credentials["password"],
        **more,
    }
