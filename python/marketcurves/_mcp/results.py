"""Whole tables too long to return inline, saved as Parquet and served as
MCP resources (``marketcurves://results/<id>.parquet``). They live in a
folder private to the user (0700), each file 0600 and created exclusively,
taking its name only when whole, and the folder is removed when the server
stops. The oldest files go beyond :data:`KEPT`."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass

import pyarrow
import pyarrow.parquet as pq

SCHEME = "marketcurves://results/"
MIME = "application/vnd.apache.parquet"
#: Results kept at once; a client reads a result soon after the call.
KEPT = 64


@dataclass(frozen=True)
class Saved:
    uri: str
    name: str
    rows: int
    size: int
    description: str


class Results:
    """The saved tables of one server."""

    def __init__(self) -> None:
        # mkdtemp makes the folder 0700, with a name no one else can take.
        self.folder = tempfile.mkdtemp(prefix="marketcurves-mcp-")
        self._saved: OrderedDict[str, tuple[Saved, str]] = OrderedDict()
        self._lock = threading.Lock()

    def save(self, table: pyarrow.Table, description: str) -> Saved:
        key = uuid.uuid4().hex
        name = f"{key}.parquet"
        path = os.path.join(self.folder, name)
        partial = path + ".partial"
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as file:
                pq.write_table(table, file)
            os.link(partial, path)  # fails rather than replace a file of that name
        finally:
            os.unlink(partial)
        saved = Saved(SCHEME + name, name, table.num_rows, os.path.getsize(path), description)
        with self._lock:
            self._saved[saved.uri] = (saved, path)
            while len(self._saved) > KEPT:
                _, (_, old) = self._saved.popitem(last=False)
                os.unlink(old)
        return saved

    def listed(self) -> list[Saved]:
        with self._lock:
            return [saved for saved, _ in self._saved.values()]

    def read(self, uri: str) -> bytes:
        with self._lock:
            found = self._saved.get(uri)
        if found is None:
            raise KeyError(f"no result {uri!r}: results are kept while the server runs")
        with open(found[1], "rb") as file:
            return file.read()

    def close(self) -> None:
        with self._lock:
            self._saved.clear()
        shutil.rmtree(self.folder, ignore_errors=True)
