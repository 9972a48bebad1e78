"""A live feed server that takes WebSocket connections and every message
sent to it, and never answers: not ``auth``, not ``subscribe``."""

from __future__ import annotations

import threading

from websockets.sync.server import ServerConnection, serve


class SilentFeed:
    def __init__(self) -> None:
        self._server = serve(self._swallow, "127.0.0.1", 0)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def live_url(self) -> str:
        host, port = self._server.socket.getsockname()[:2]
        return f"ws://{host}:{port}"

    @staticmethod
    def _swallow(connection: ServerConnection) -> None:
        for _ in connection:
            pass

    def close(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=5)
