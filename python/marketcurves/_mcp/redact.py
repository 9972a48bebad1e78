"""What the server never shows: tokens, passwords, pre-signed URL queries,
store secrets and local paths (the cache, the results folder). Every text
that leaves the server (a tool's output, an error, a log line) passes
through :meth:`Redactor.text` first."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable
from typing import Any

import pydantic_core

HIDDEN = "[redacted]"

#: Environment variables whose values are secrets by their names.
_SECRET_NAME = re.compile(r"TOKEN|PASSWORD|SECRET|CREDENTIAL|(^|_)KEY($|_)|SAS|SIGNATURE", re.I)
#: A URL's query (a pre-signed URL carries its signature there).
_URL_QUERY = re.compile(r"((?:https?|wss?|s3|gs|az|abfss?)://[^\s?#'\"]+)\?[^\s'\"]*", re.I)
#: A bearer header or a JWT, wherever they show.
_BEARER = re.compile(r"(?i)\bbearer\s+[^\s'\",]+")
_JWT = re.compile(r"\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*")
#: The variables whose values are local paths, which are never shown either.
_PATHS = ("MARKETCURVES_CACHE_DIR", "HOME", "TMPDIR")
#: Shorter values would hide ordinary words.
_SHORTEST = 6


class Redactor:
    """Hides the secrets and paths it is given, and those of the
    environment, in any text."""

    def __init__(self, extra: Iterable[str | None] = ()) -> None:
        found = {value for value in extra if value}
        for name, value in os.environ.items():
            if _SECRET_NAME.search(name) or name in _PATHS:
                found.add(value)
        for value in list(found):
            if os.sep in value or value.startswith("~"):
                found.add(os.path.realpath(os.path.expanduser(value)))
        self._hide(v for v in found if len(v) >= _SHORTEST)

    def add(self, *values: str | None) -> None:
        """Hides these values too (a folder made later)."""
        self._hide([*self._secrets, *(v for v in values if v and len(v) >= _SHORTEST)])

    def _hide(self, secrets: Iterable[str]) -> None:
        # Longest first, so that a path's parent does not leave its tail showing.
        self._secrets = sorted(set(secrets), key=len, reverse=True)
        # Each as it shows inside JSON text (quotes and backslashes escaped),
        # for the scan of a whole output.
        self._in_json = [pydantic_core.to_json(s).decode()[1:-1] for s in self._secrets]

    def text(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, HIDDEN)
        text = _URL_QUERY.sub(rf"\1?{HIDDEN}", text)
        text = _BEARER.sub(f"Bearer {HIDDEN}", text)
        return _JWT.sub(HIDDEN, text)

    def value(self, value: Any) -> Any:
        """``value`` with every string in it redacted (dicts, lists). A
        tool's output is thousands of strings, nearly always clean: it is
        searched once, as JSON, and taken apart only if something shows."""
        try:
            # pydantic's serializer (the SDK's own): three times quicker
            # than json.dumps over a table's rows.
            whole = pydantic_core.to_json(value, fallback=str).decode()
        except (TypeError, ValueError, pydantic_core.PydanticSerializationError):
            return self._each(value)
        return self._each(value) if self._shows(whole) else value

    def _shows(self, text: str) -> bool:
        """Whether ``text`` (JSON) shows a secret or a pattern ``text`` hides."""
        for secret, in_json in zip(self._secrets, self._in_json, strict=True):
            if secret in text or in_json in text:
                return True
        # Each pattern only where its cheap sign shows: a search of the
        # whole output by each took milliseconds.
        return (
            ("://" in text and _URL_QUERY.search(text) is not None)
            or ("bearer" in text.lower() and _BEARER.search(text) is not None)
            or ("eyJ" in text and _JWT.search(text) is not None)
        )

    def _each(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {key: self._each(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self._each(item) for item in value]
        return value


class RedactingFilter(logging.Filter):
    """A log record's message, its arguments merged in, redacted."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self._redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self._redactor.text(record.getMessage())
        record.args = None
        if record.exc_info is not None:
            # A traceback may quote a secret; its last line is enough.
            record.msg += f" ({self._redactor.text(repr(record.exc_info[1]))})"
            record.exc_info = None
            record.exc_text = None
        return True


def redact_logs(redactor: Redactor) -> None:
    """Every log line redacted, on stderr (stdout is the protocol's)."""
    import sys

    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler(sys.stderr))
    for handler in root.handlers:
        if getattr(handler, "stream", None) is sys.stdout:
            handler.setStream(sys.stderr)  # type: ignore[attr-defined]
        handler.addFilter(RedactingFilter(redactor))
