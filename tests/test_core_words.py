"""The Rust crates name no Python parameter in their messages: advice such
as ``pass cache_dir= to the client`` or ``strict=False`` is data
(``places::Advice``) that the binding words (``src/python/errors.rs``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: A keyword argument written as Python writes it, in a message.
PYTHON_WORDS = re.compile(
    r"pass [a-z_]+=|[a-z_]+=(False|True)\b|\b(cache_dir|ca_bundle|strict|tenors|cache)="
)
#: Messages not yet made data: the certificate hint travels inside a
#: service or live feed error's text, a cache miss's and a backfill's
#: refusal name the tenors argument, and analytics' errors are its own.
KNOWN = {
    "crates/places/src/net/failure.rs",
    "crates/history/src/cache/through_catalogue.rs",
    "crates/lake/src/backfill/plan.rs",
    "crates/analytics/src/units.rs",
}


def sources() -> list[Path]:
    found = []
    for path in sorted((ROOT / "crates").rglob("*.rs")):
        relative = path.relative_to(ROOT).as_posix()
        if "_tests" in path.name or "/e2e_tests/" in relative or "test_" in path.name:
            continue
        if relative.startswith(("crates/emulator/", "crates/test-support/")):
            continue
        found.append(path)
    return found


def test_no_rust_message_names_a_python_parameter():
    offending = {}
    for path in sources():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            if PYTHON_WORDS.search(line):
                offending.setdefault(path.relative_to(ROOT).as_posix(), []).append(number)
    assert set(offending) <= KNOWN, {k: v for k, v in offending.items() if k not in KNOWN}


def test_the_binding_words_the_advice():
    errors = (ROOT / "src/python/errors.rs").read_text()
    for words in ("pass cache_dir= to the client", "pass strict=False", "pass ca_bundle="):
        assert words in errors, words
