"""The Rust crates name no Python parameter in their messages: advice such
as ``pass cache_dir= to the client`` or ``strict=False`` is data
(``places::Advice``) that the binding words (``src/python/errors.rs``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: A keyword argument written as Python writes it, in a message: ``pass
#: x=``, ``x=True``, ``name='value'`` (or with double quotes, escaped in
#: Rust), and the parameters the binding words.
PYTHON_WORDS = re.compile(
    r"pass [a-z_]+="
    r"|[a-z_]+=(False|True|None)\b"
    r"|\b[a-z_]+=\\?[\"']\w"
    r"|\b(cache_dir|ca_bundle|strict|tenors|cache|token_provider|base_url)="
)
#: Files still allowed to name a Python parameter: none. The synthetic
#: lines below keep the scan able to fail.
KNOWN: set[str] = set()


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


@pytest.mark.parametrize(
    "line",
    [
        '"the cache is off; pass cache_dir= to the client"',
        '"offline needs a cache: pass strict=False"',
        "\"which adjust='ratio' would make negative\"",
        '"holidays only apply to weights=\\"business\\""',
        '"unless tenors= names them"',
        '"cache=None turns it off"',
    ],
)
def test_the_pattern_catches_python_wording(line):
    # The scan can fail: each form the binding writes is caught in a line.
    assert PYTHON_WORDS.search(line), line


def test_the_pattern_spares_the_rust_words():
    for line in (
        '"give the client a cache folder, or set MARKETCURVES_CACHE_DIR"',
        '"{place}: cannot write {cause}"',
        'let words = format!("{name}={value}");',
        'folder.strip_prefix("date=")',
    ):
        assert not PYTHON_WORDS.search(line), line


def test_the_binding_words_the_advice():
    errors = (ROOT / "src/python/errors.rs").read_text()
    for words in (
        "pass cache_dir= to the client",
        "pass strict=False",
        "pass ca_bundle=",
        "unless tenors= names them",
        "adjust='ratio'",
        "pass factor=",
        'weights=\\"business\\"',
        '"token_provider"',
        '"base_url"',
    ):
        assert words in errors, words
