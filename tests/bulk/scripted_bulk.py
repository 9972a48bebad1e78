"""A bulk service of the test's making, for what the emulator never does
(it follows the interface): jobs that succeed listing the files a test
gives (none, for instance), served from its own pre-signed URLs."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class ScriptedBulk:
    """Every job succeeds at once, listing ``files``: ``(path, bytes)``."""

    def __init__(self, files: list[tuple[str, bytes]]) -> None:
        self.files = files
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                query = parse_qs(urlsplit(self.path).query)
                months = {"effective_start": query["startDate"][0]}
                months["effective_end"] = query["endDate"][0]
                self._json(202, {"job_id": "job-1", "date_range": months})

            def do_GET(self) -> None:
                path = urlsplit(self.path).path
                if path.startswith("/v2/bulk-download/job-status/"):
                    urls = [
                        {"url": f"{service.origin}/files/{i}.parquet", "path": p, "size": len(b)}
                        for i, (p, b) in enumerate(service.files)
                    ]
                    self._json(200, {"status": "SUCCEEDED", "presigned_urls": urls})
                    return
                index = int(path.removeprefix("/files/").removesuffix(".parquet"))
                body = service.files[index][1]
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _json(self, status: int, value: object) -> None:
                body = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        host, port = self._server.server_address[:2]
        self.origin = f"http://{host}:{port}"
        self.base_url = f"{self.origin}/v2"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
