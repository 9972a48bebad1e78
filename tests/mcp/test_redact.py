"""The redactor on a tool's structured output: searched once as JSON, and
taken apart only where something shows, so every secret, however it is
escaped in JSON, is still hidden wherever it is nested."""

from __future__ import annotations

import pytest

from marketcurves._mcp.redact import HIDDEN, Redactor

QUOTED = 'pa"ss\\word-1234'
#: Escaped in JSON otherwise than by a backslash before it: a control
#: character, and a letter outside ASCII that JSON may or may not escape.
ODD = "s\u00e9\tcret-5678"


def test_a_clean_output_is_given_back_as_it_is():
    redactor = Redactor(["hunter2-secret"])
    out = {"rows": [{"tenor": "Jul 25", "price": 1.5, "at": "2025-06-02T00:00:19.600000Z"}]}
    assert redactor.value(out) is out


@pytest.mark.parametrize(
    ("nested", "hidden"),
    [
        ({"rows": [{"note": f"token {QUOTED} here"}]}, QUOTED),
        ({"rows": [{"note": f"token {ODD} here", "n": 1.5}]}, ODD),
        ([["x", {"url": "https://files.example/a.parquet?X-Amz-Signature=abc"}]], "X-Amz"),
        ({"error": ["Bearer abc.def.ghi"]}, "abc.def"),
        ({"k": {"jwt": "eyJhbGciOi.eyJzdWIiOiIx.c2ln"}}, "eyJhbGciOi"),
    ],
)
def test_a_secret_nested_anywhere_is_hidden(nested, hidden):
    redacted = Redactor([QUOTED, ODD]).value(nested)
    assert hidden not in repr(redacted)
    assert HIDDEN in repr(redacted)
