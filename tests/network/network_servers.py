"""Small servers on loopback for the network tests: a forward proxy that
records what it carried, and a TLS-terminating forwarder in front of the
emulator's plain port.

Each serves every connection on a thread of its own and, when closed, shuts
down the connections still open and joins every thread, so a test leaves
nothing running behind it.
"""

from __future__ import annotations

import base64
import os
import select
import socket
import ssl
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

_CHUNK = 65536


class _LoopbackServer:
    """Accepts connections on 127.0.0.1 and serves each on its own thread."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._closing = False
        self._open: set[socket.socket] = set()
        self._threads: list[threading.Thread] = []
        self._acceptor = threading.Thread(target=self._accept, name=f"{self}-accept")
        self._acceptor.start()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.port})"

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                if self._closing:
                    conn.close()
                    return
                self._open.add(conn)
                thread = threading.Thread(target=self._serve_and_close, args=(conn,))
                self._threads.append(thread)
            thread.start()

    def _serve_and_close(self, conn: socket.socket) -> None:
        upstream: list[socket.socket] = []
        try:
            self._serve(conn, upstream)
        except (OSError, ValueError):
            pass  # a peer went away, or the server is closing
        finally:
            with self._lock:
                for s in [conn, *upstream]:
                    self._open.discard(s)
                    s.close()

    def _serve(self, conn: socket.socket, upstream: list[socket.socket]) -> None:
        raise NotImplementedError

    def connect(self, host: str, port: int, upstream: list[socket.socket]) -> socket.socket:
        """A connection onwards, closed with the one it serves."""
        sock = socket.create_connection((host, port))
        with self._lock:
            if self._closing:
                sock.close()
                raise OSError("closing")
            self._open.add(sock)
        upstream.append(sock)
        return sock

    def close(self) -> None:
        with self._lock:
            self._closing = True
            # Wakes the connections' threads wherever they wait. The shutdown
            # goes through a copy of the descriptor, so that it reaches the
            # socket without touching the TLS state another thread is using.
            for sock in self._open:
                try:
                    with socket.socket(fileno=os.dup(sock.fileno())) as copy:
                        copy.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        # Wakes the acceptor, which then sees the flag.
        try:
            socket.create_connection(("127.0.0.1", self.port)).close()
        except OSError:
            pass
        self._acceptor.join()
        self._listener.close()
        for thread in self._threads:
            thread.join()


def read_head(conn: socket.socket) -> tuple[bytes, bytes]:
    """The head of a request (up to the blank line) and what came after it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(_CHUNK)
        if not chunk:
            raise OSError("closed before the end of the head")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    return head + b"\r\n\r\n", rest


def pipe(a: socket.socket, b: socket.socket) -> None:
    """Copies bytes both ways until either side closes."""
    peers = {a: b, b: a}
    while True:
        # Bytes TLS already decrypted do not make the socket readable.
        ready = [s for s in peers if isinstance(s, ssl.SSLSocket) and s.pending()]
        if not ready:
            ready, _, _ = select.select(list(peers), [], [])
        for sock in ready:
            data = sock.recv(_CHUNK)
            if not data:
                return
            peers[sock].sendall(data)


@dataclass
class Carried:
    """One request a proxy received: ``CONNECT host:port``, or a forwarded
    ``GET http://host:port/path``, with the credentials it came with."""

    method: str
    target: str
    credentials: str | None


class RecordingProxy(_LoopbackServer):
    """A forward proxy: ``CONNECT`` tunnels, and absolute-form requests
    (``GET http://host/path``) forwarded one per connection.

    ``refuse`` answers every request with that status instead (``407`` with a
    ``Proxy-Authenticate: Basic`` challenge), ``refuse_first`` only the first
    that many; ``user`` and ``password`` make it ask for Basic credentials.
    """

    def __init__(
        self,
        refuse: int | None = None,
        refuse_first: int = 0,
        user: str | None = None,
        password: str | None = None,
    ) -> None:
        self.refuse = refuse
        self.refuse_first = refuse_first
        self.expected = None
        if user is not None:
            pair = f"{user}:{password or ''}".encode()
            self.expected = "Basic " + base64.b64encode(pair).decode()
        self.carried: list[Carried] = []
        super().__init__()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def targets(self, method: str | None = None) -> list[str]:
        return [c.target for c in list(self.carried) if method in (None, c.method)]

    def _answer(self, conn: socket.socket, status: int, reason: str, extra: str = "") -> None:
        conn.sendall(
            f"HTTP/1.1 {status} {reason}\r\n{extra}Content-Length: 0\r\n"
            "Connection: close\r\n\r\n".encode()
        )

    def _serve(self, conn: socket.socket, upstream: list[socket.socket]) -> None:
        head, rest = read_head(conn)
        lines = head.decode("latin-1").split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        headers = [line.split(":", 1) for line in lines[1:] if ":" in line]
        credentials = next(
            (v.strip() for k, v in headers if k.strip().lower() == "proxy-authorization"), None
        )
        with self._lock:
            self.carried.append(Carried(method, target, credentials))
            refusing = self.refuse_first > 0
            self.refuse_first = max(0, self.refuse_first - 1)
        status = self.refuse or (502 if refusing else None)
        if status is not None:
            challenge = 'Proxy-Authenticate: Basic realm="test"\r\n' if status == 407 else ""
            self._answer(conn, status, "Refused by the test proxy", challenge)
            return
        if self.expected is not None and credentials != self.expected:
            self._answer(
                conn,
                407,
                "Proxy Authentication Required",
                'Proxy-Authenticate: Basic realm="t"\r\n',
            )
            return
        if method == "CONNECT":
            host, port = target.rsplit(":", 1)
            onward = self.connect(host.strip("[]"), int(port), upstream)
            conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        else:
            url = urlsplit(target)
            assert url.scheme == "http" and url.hostname and url.port, target
            onward = self.connect(url.hostname, url.port, upstream)
            path = url.path + (f"?{url.query}" if url.query else "")
            # One request per connection, so that each is seen and recorded.
            kept = [
                f"{k}:{v}"
                for k, v in headers
                if k.strip().lower()
                not in {"proxy-authorization", "proxy-connection", "connection"}
            ]
            request = "\r\n".join([f"{method} {path} HTTP/1.1", *kept, "Connection: close"])
            onward.sendall(request.encode("latin-1") + b"\r\n\r\n")
        if rest:
            onward.sendall(rest)
        pipe(conn, onward)


class TlsForwarder(_LoopbackServer):
    """Terminates TLS with ``context`` and pipes the bytes to
    ``127.0.0.1:<target_port>`` (the emulator's plain port), so that
    ``https://`` and ``wss://`` URLs reach the emulator.

    A plain HTTP request on the same port (the emulator's pre-signed bulk
    URLs are ``http://`` on the host they were asked on) gets a redirect to
    the same URL over ``https://``, as web servers do.
    """

    def __init__(self, context: ssl.SSLContext, target_port: int) -> None:
        self.context = context
        self.target_port = target_port
        self.handshakes = 0
        self.failed_handshakes = 0
        self.redirected: list[str] = []
        super().__init__()

    def _serve(self, conn: socket.socket, upstream: list[socket.socket]) -> None:
        first = conn.recv(1, socket.MSG_PEEK)
        if first != b"\x16":  # not a TLS handshake record: plain HTTP
            head, _ = read_head(conn)
            path = head.split(b" ", 2)[1].decode("latin-1")
            with self._lock:
                self.redirected.append(path)
            location = f"https://127.0.0.1:{self.port}{path}"
            conn.sendall(
                f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {location}\r\n"
                "Content-Length: 0\r\nConnection: close\r\n\r\n".encode()
            )
            return
        try:
            secure = self.context.wrap_socket(conn, server_side=True)
        except ssl.SSLError:
            with self._lock:
                self.failed_handshakes += 1
            return
        upstream.append(secure)
        with self._lock:
            self._open.discard(conn)
            self._open.add(secure)
            self.handshakes += 1
            if self._closing:
                return
        onward = self.connect("127.0.0.1", self.target_port, upstream)
        pipe(secure, onward)
