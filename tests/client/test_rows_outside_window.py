"""A service that answers a history request with rows outside the days asked
for (it breaks the interface): the table holds the window asked for and
nothing else, with or without a cache."""

from __future__ import annotations

import datetime as dt
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

import marketcurves as mc

SUMMER = ["Jul 25", "Aug 25"]
FIRST, LAST = "2025-06-02", "2025-06-04"


def widened(path: str) -> str:
    """``path`` asking for three days more on each side."""
    parts = urlsplit(path)
    query = dict(parse_qsl(parts.query))
    for key, shift in (("startDate", -3), ("endDate", 3)):
        if key in query:
            day = dt.date.fromisoformat(query[key]) + dt.timedelta(days=shift)
            query[key] = day.isoformat()
    return f"{parts.path}?{urlencode(query)}"


class Widening(ThreadingHTTPServer):
    """Forwards every GET to ``upstream``, widening the history windows."""

    daemon_threads = True

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.widened = 0

        class Handler(BaseHTTPRequestHandler):
            def do_GET(handler) -> None:
                self.forward(handler)

            def log_message(handler, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)

    def forward(self, handler: BaseHTTPRequestHandler) -> None:
        path = handler.path
        if "/historical/" in path:
            path = widened(path)
            self.widened += 1
        request = urllib.request.Request(self.upstream + path)
        if handler.headers.get("Authorization"):
            request.add_header("Authorization", handler.headers["Authorization"])
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, body, headers = answer.status, answer.read(), answer.headers
        except urllib.error.HTTPError as error:
            status, body, headers = error.code, error.read(), error.headers
        handler.send_response(status)
        for name in ("Content-Type", "Date"):
            if headers.get(name):
                handler.send_header(name, headers[name])
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)


@pytest.fixture
def widening(em: Any) -> Iterator[mc.Client]:
    server = Widening(em.base_url.removesuffix("/v2"))
    thread = threading.Thread(target=server.serve_forever, name="widening")
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield server, f"http://{host}:{port}/v2"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.parametrize("cached", [False, True], ids=["no-cache", "cache"])
def test_rows_outside_the_days_asked_for_are_left_out(
    em, client, fob, coarse, widening, tmp_path, cached
):
    server, base_url = widening
    cache = {"cache_dir": tmp_path / "cache"} if cached else {}
    through = mc.Client(base_url=base_url, token=em.token(), **cache)

    expected = client.settlements(fob["id"], FIRST, LAST, SUMMER)
    wider = client.settlements(fob["id"], "2025-05-30", "2025-06-07", SUMMER)
    assert wider.num_rows > expected.num_rows > 0, "the widened answer holds more"
    assert through.settlements(fob["id"], FIRST, LAST, SUMMER).equals(expected)

    expected = client.intraday_history(coarse["id"], FIRST, LAST, "Aug 25")
    assert through.intraday_history(coarse["id"], FIRST, LAST, "Aug 25").equals(expected)
    assert server.widened >= 2
