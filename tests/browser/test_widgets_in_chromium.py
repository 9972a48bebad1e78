"""The widgets in a real browser: a Jupyter server (Notebook 7) and kernel
started here, headless Chromium opening a notebook that subscribes to the
emulator's live feed and shows both widgets. The test reads what the page
shows: the points drawn, the curve's name in the title, values changing
between two screenshots, the board's rows, and the closed state."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_browser import WATCH_CELLS, Page, chromium, jupyter_server, notebook, wait_for


@pytest.mark.usefixtures("browser_ready")
def test_both_widgets_tick_then_close_in_chromium(tmp_path: Path) -> None:
    (tmp_path / "watch.ipynb").write_text(notebook(WATCH_CELLS), encoding="utf-8")
    with jupyter_server(tmp_path) as base, chromium() as driver:
        page = Page(driver, base, "watch.ipynb")
        page.run_cell(timeout=120)
        name = page.output_text(0).strip().splitlines()[-1]
        page.run_cell()
        page.run_cell()
        chart, board = ".mc-live-curve", ".mc-live-board"

        def prices() -> list[str]:
            return list(
                page.script(
                    "return [...document.querySelectorAll(arguments[0] + ' circle.mc-live-point')]"
                    ".map(p => p.dataset.tenor + '=' + p.dataset.price)",
                    chart,
                )
            )

        first = wait_for(prices, "the points drawn")
        assert len(first) >= 5, first
        assert page.texts(f"{chart} .mc-live-title") == [name]
        assert page.texts(f"{chart} .mc-live-units")[0].startswith("price (")
        before = page.shot(chart)
        wait_for(lambda: prices() != first, "a point to move")
        after = wait_for(lambda: (png := page.shot(chart)) != before and png, "a new picture")
        assert after != before
        rows = wait_for(lambda: page.texts(f"{board} tr.mc-live-row td:nth-child(2)"), "rows")
        assert set(rows) >= {p.split("=")[0] for p in first}
        assert page.texts(f"{chart} .mc-live-state") == ["live"]
        assert page.texts(f"{board} .mc-live-state") == ["live"]

        page.run_cell()  # feed.close()
        wait_for(
            lambda: page.texts(".mc-live .mc-live-state") == ["closed", "closed"],
            "the closed state of both",
        )
        page.run_cell()
