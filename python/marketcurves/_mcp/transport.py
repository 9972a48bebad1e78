"""How the server is reached: stdio (the default, which a desktop client
starts as a subprocess; stdout then carries only the protocol), or
streamable HTTP, on loopback unless a host is given, behind a bearer token
that a non-loopback host requires: a request without it is answered 401."""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
PATH = "/mcp"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` (``[::1]:8000`` for IPv6); loopback by default."""
    host, colon, port = text.rpartition(":")
    host = host.strip("[]") if colon else "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"expected [HOST:]PORT, a port from 0 to 65535, not {text!r}")
    return host or "127.0.0.1", int(port)


class BearerGuard:
    """Answers 401 to any HTTP request without ``Authorization: Bearer
    <token>``; compared in constant time."""

    def __init__(self, app: App, token: str) -> None:
        self._app = app
        self._expected = b"Bearer " + token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"www-authenticate", b'Bearer realm="marketcurves"'),
                            (b"content-type", b"text/plain; charset=utf-8"),
                        ],
                    }
                )
                await send(
                    {
                        "type": "http.response.body",
                        "body": b"unauthorized: a bearer token is required\n",
                    }
                )
                return
        await self._app(scope, receive, send)


def serve_stdio(server: Any) -> None:
    from mcp.server.stdio import stdio_server

    from marketcurves._mcp import stdio

    async def run() -> None:
        async with contextlib.AsyncExitStack() as stack:
            given: tuple[Any, Any] = (None, None)
            if stdio.loop_can_serve():
                given = await stack.enter_async_context(stdio.wire())
            read, write = await stack.enter_async_context(stdio_server(*given))
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)


def serve_http(server: Any, host: str, port: int, token: str | None) -> None:
    import uvicorn

    app: App = server.streamable_http_app(streamable_http_path=PATH, host=host)
    if token:
        app = BearerGuard(app, token)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)  # connections wait in the backlog until uvicorn serves them
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    # Logs go to stderr through the root logger (redacted); no access log.
    config = uvicorn.Config(
        app, log_config=None, access_log=False, lifespan="on", timeout_graceful_shutdown=5
    )
    print(f"marketcurves mcp: serving http://{shown}:{bound}{PATH}", file=sys.stderr, flush=True)
    uvicorn.Server(config).run(sockets=[sock])
