"""What counts as a leaked secret in a text: a password the test knows, a
bearer token (the emulator's are JWTs), or the query string of a pre-signed
URL."""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Iterable

SHAPES = {
    "a token": re.compile(r"eyJ[\w-]+\.[\w-]+\.[\w-]+"),
    "a URL signature": re.compile(r"X-Signature|X-Expires|\b[0-9a-f]{64}\b"),
}


def texts_of(records: Iterable[logging.LogRecord], errors: Iterable[BaseException]) -> list[str]:
    """Everything a user could see: log messages, their arguments and
    tracebacks, and each exception's message, repr and traceback."""
    texts: list[str] = []
    for record in records:
        texts.append(record.getMessage())
        texts.extend(str(arg) for arg in record.args or ())
        if record.exc_info and record.exc_info[1] is not None:
            texts.append("".join(traceback.format_exception(*record.exc_info)))
    for error in errors:
        texts += [str(error), repr(error)]
        texts.append("".join(traceback.format_exception(type(error), error, error.__traceback__)))
    return texts


def leaks(texts: Iterable[str], passwords: Iterable[str]) -> list[str]:
    """The secrets found, each with the start of the text it is in."""
    found = []
    for text in texts:
        for password in passwords:
            if password in text:
                found.append(f"a password in {text[:120]!r}")
        for what, shape in SHAPES.items():
            if shape.search(text):
                found.append(f"{what} in {text[:120]!r}")
    return found
