"""Every line of every fenced code block of the site fits the page: at the
theme's default width a code block shows about 88 columns before it
scrolls, so a longer line hides its end (often the comment that explains
it). ``ruff format``, which formats these blocks too, allows 100 columns:
a call it would join is split with a trailing comma, or shortened with a
name; a long output goes over several lines (doctests compare it with
whitespace normalised)."""

from __future__ import annotations

from pathlib import Path

import pytest
from docs_helpers import DOCS, code_blocks

#: Columns a code block shows without scrolling.
WIDTH = 88

PAGES = sorted(DOCS.glob("*.md"))


def too_long(page: Path) -> list[str]:
    found = []
    for block in code_blocks(page):
        for offset, line in enumerate(block.code.splitlines(), start=1):
            if len(line) > WIDTH:
                found.append(f"{page.name}:{block.line + offset}: {len(line)} columns")
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_code_lines_fit_the_page(page: Path) -> None:
    assert too_long(page) == [], f"code lines longer than {WIDTH} columns"


def test_a_long_line_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Text.\n\n```python\nshort = 1\n" + "x" * (WIDTH + 1) + "\n```\n")
    assert too_long(page) == [f"page.md:5: {WIDTH + 1} columns"]
