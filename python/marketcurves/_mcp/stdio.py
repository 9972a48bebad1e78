"""The stdio wire, read and written by the event loop.

The SDK's stdio transport reads and writes each message through a worker
thread (``anyio.wrap_file``): three thread hops a call, which took longer
than the library's own answer on a warm cache (``benches/mcp.py``). Here
the SDK's transport is handed streams over asyncio pipes instead. While it
serves, fd 0 reads the null device and fd 1 writes to stderr, as the SDK
arranges for its own streams, so that a stray print never corrupts the
protocol; both are restored after. Where stdin or stdout is a file rather
than a pipe, socket or terminal, or on Windows, the SDK's streams serve."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

#: The longest the server waits, as it stops, for its last answers to go.
LAST_WRITE_BOUND = 5.0
#: The longest message read: a request is a few kilobytes, and a longer
#: line is refused rather than held.
LONGEST_LINE = 4 * 1024 * 1024


class Lines:
    """The requests, a line each, as the SDK's transport iterates them."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> Lines:
        return self

    async def __anext__(self) -> str:
        try:
            line = await self._reader.readline()
        except ValueError:
            # Longer than LONGEST_LINE: dropped by the reader. Not JSON, so
            # the transport reports it as a parse error and reads on.
            return "a line longer than the server reads\n"
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class Out:
    """The responses, written as the SDK's transport writes them."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, text: str) -> None:
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._writer.drain()


def _streamable(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


def loop_can_serve() -> bool:
    """Whether stdin and stdout are what the event loop reads and writes."""
    return sys.platform != "win32" and _streamable(0) and _streamable(1)


@asynccontextmanager
async def wire() -> AsyncIterator[tuple[Any, Any]]:
    """``(lines, out)`` over private copies of fds 0 and 1."""
    import fcntl

    sys.stdout.flush()
    wire_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    wire_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
    devnull = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    loop = asyncio.get_running_loop()
    transports: list[asyncio.BaseTransport] = []
    put: asyncio.WriteTransport | None = None
    try:
        reader = asyncio.StreamReader(limit=LONGEST_LINE)
        read_pipe = os.fdopen(wire_in, "rb", buffering=0, closefd=False)
        got, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), read_pipe
        )
        transports.append(got)
        write_pipe = os.fdopen(wire_out, "wb", buffering=0, closefd=False)
        put, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, write_pipe)
        transports.append(put)
        writer = asyncio.StreamWriter(put, protocol, None, loop)
        yield Lines(reader), Out(writer)
    finally:
        if put is not None:
            # What is written but still buffered goes out first, unless the
            # client has stopped reading.
            deadline = loop.time() + LAST_WRITE_BOUND
            while put.get_write_buffer_size() and not put.is_closing() and loop.time() < deadline:
                await asyncio.sleep(0.01)
        for transport in transports:
            transport.close()
        # The pipes' descriptions are shared with fds 0 and 1: blocking
        # again, as whoever reads them after expects.
        for private, fd in ((wire_in, 0), (wire_out, 1)):
            try:
                os.set_blocking(private, True)
            except OSError:
                pass
            os.dup2(private, fd)
            os.close(private)
