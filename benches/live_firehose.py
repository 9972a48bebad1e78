"""Messages per second the emulator's live feed sends to one fast reader.

The emulator runs with the firehose on (synthetic values of every subscribed
tenor, as fast as the reader takes them). The reader is a raw socket that
does the WebSocket handshake by hand and then only counts frames, so that the
number measures the emulator, not a client. Run it on an optimised build
(``maturin build --profile release-fast``)::

    python benches/live_firehose.py [seconds]
"""

from __future__ import annotations

import base64
import json
import os
import socket
import sys
import time
from urllib.parse import urlsplit

import requests

from marketcurves.testing import Emulator

PATH = "/v2/customer/socket/websocket"


def client_frame(text: str) -> bytes:
    """A masked text frame, as a client must send it."""
    data = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(data) < 126:
        header += bytes([0x80 | len(data)])
    else:
        header += bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    return header + mask + masked


def open_socket(live_url: str) -> socket.socket:
    address = urlsplit(live_url)
    sock = socket.create_connection((address.hostname, address.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {PATH} HTTP/1.1\r\nHost: {address.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(4096)
    assert response.startswith(b"HTTP/1.1 101"), response
    return sock


class Frames:
    """Counts the server's (unmasked) frames in a byte stream."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.count = 0
        self.last = b""

    def feed(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        at = 0
        end = len(buffer)
        while end - at >= 2:
            length = buffer[at + 1] & 0x7F
            start = at + 2
            if length == 126:
                if end - at < 4:
                    break
                length = int.from_bytes(buffer[at + 2 : at + 4], "big")
                start = at + 4
            elif length == 127:
                if end - at < 10:
                    break
                length = int.from_bytes(buffer[at + 2 : at + 10], "big")
                start = at + 10
            if end < start + length:
                break
            self.count += 1
            at = start + length
            last = (start, at)
        if self.count and at:
            self.last = bytes(buffer[last[0] : last[1]])
        del buffer[:at]


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    with Emulator(seed=0, time_scale=1, start="2025-06-13T10:00:00Z") as emulator:
        headers = {"Authorization": f"Bearer {emulator.token()}"}
        catalogue = requests.get(
            emulator.base_url + "/catalogue", params={"pageSize": 500}, headers=headers, timeout=30
        ).json()["items"]
        curve = next(c for c in catalogue if c["quotation"] == "Fob")
        sock = open_socket(emulator.live_url)
        sock.sendall(client_frame(json.dumps({"type": "auth", "payload": emulator.token()})))
        subscribe = {"id": curve["id"], "tenor": "*", "type": "price"}
        sock.sendall(client_frame(json.dumps({"type": "subscribe", "payload": subscribe})))
        frames = Frames()
        emulator.firehose(True)
        started = time.perf_counter()
        received = 0
        while time.perf_counter() - started < seconds:
            data = sock.recv(1 << 20)
            received += len(data)
            frames.feed(data)
        elapsed = time.perf_counter() - started
        emulator.firehose(False)
        sock.close()
    print(f"{frames.count:,} messages ({received / 1e6:.1f} MB) in {elapsed:.1f} s")
    print(f"{frames.count / elapsed:,.0f} messages/s to one reader")
    print(f"last: {frames.last.decode(errors='replace')}")


if __name__ == "__main__":
    main()
