"""``examples/tour.ipynb`` runs from top to bottom in a fresh kernel, and
the repository keeps it without outputs (the run leaves the file alone)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from docs_helpers import REPO

NOTEBOOK = REPO / "examples" / "tour.ipynb"

#: Seconds one cell may take (the bulk download is the slowest, about 6 s).
CELL_TIMEOUT = 120


def test_the_notebook_is_kept_without_outputs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {index} has outputs: clear them before committing"
            assert cell.execution_count is None, f"cell {index} has an execution count"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # jupyter_core's paths, in this process
def test_the_notebook_runs(tmp_path: Path) -> None:
    from nbclient import NotebookClient

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    images = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "image/png" in output.get("data", {})
    ]
    assert len(images) >= 6, "the plots were not drawn"
    # The views the Notebooks page promises, each shown by the tour.
    views = " ".join(
        output["data"]["text/html"]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "text/html" in output.get("data", {})
    )
    titles = (
        "Catalogue of",
        "Curve ",
        "Bulk job",
        "Bulk download",
        "Live feed",
        "Recorder summary",
    )
    for title in titles:
        assert title in views, f"no {title!r} view in the tour"
    # The replay's LiveCurve is shown as a widget.
    widgets = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "application/vnd.jupyter.widget-view+json" in output.get("data", {})
    ]
    assert widgets, "no widget in the tour"
    # The live section lasts long enough for updates after the snapshots.
    printed = " ".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.get("output_type") == "stream"
    )
    live = re.search(r"(\d+) snapshots, then (\d+) updates", printed)
    assert live and int(live.group(2)) > 0, printed
    # Pinging at the emulator's pace, the feed and the recorder keep their
    # connections: no warning of a drop, which a new user would take for a fault.
    assert "disconnected" not in printed, printed
    # The recording read back holds what the recorder says it wrote.
    recorded = re.search(r"(\d+) ticks read back, of (\d+) written", printed)
    assert recorded and recorded.group(1) == recorded.group(2) != "0", printed
