"""Every code example of the docs (docs/*.md and the README) runs, page by
page, against an emulator: its ``python`` blocks in order in one namespace,
its ``pycon`` blocks as doctests."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from docs_helpers import DOCS, REPO, code_blocks, logging_restored, run_block, runnable

PAGES = [*sorted(DOCS.glob("*.md")), REPO / "README.md"]

#: The clock runs at real speed, as the service's does (the live feed's
#: timers with it), except on pages whose bulk jobs would keep the suite
#: waiting: a job runs 2 s plus 0.5 s a month on the emulator's clock.
TIME_SCALE = {"bulk.md": 20.0}


def close_clients(namespace: dict[str, object]) -> None:
    import marketcurves as mc

    for value in namespace.values():
        if isinstance(value, mc.Client):
            value.close()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_page_examples_run(page: Path, reader_env: Callable[[float], object]) -> None:
    reader_env(TIME_SCALE.get(page.name, 1.0))
    namespace: dict[str, object] = {"__name__": "__docs__"}
    try:
        with warnings.catch_warnings(record=True) as caught, logging_restored():
            warnings.simplefilter("always")
            for block in code_blocks(page):
                if runnable(block):
                    run_block(block, namespace)
    finally:
        close_clients(namespace)
    # A reader pasting the examples sees no warning of the package's (a
    # narrowed bulk range, a tenor with no rows): the ranges they ask for
    # stay inside the demo licence whatever the day. Other libraries'
    # deprecations are theirs, and hidden from a reader by default.
    shown = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert shown == [], shown


def test_every_python_block_runs_or_says_why_not() -> None:
    """A block that cannot run in the tests says so with a reason; nothing
    is left out silently (a block in another language is not Python)."""
    for page in PAGES:
        for block in code_blocks(page):
            if block.language in ("", "py", "python3"):
                pytest.fail(
                    f"{page.name}:{block.line}: name the block's language (python, sh, ...)"
                )
            if block.skip is not None:
                assert block.skip.strip(), f"{page.name}:{block.line}: a skip needs a reason"
