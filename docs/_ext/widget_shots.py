"""An mkdocs hook that takes the pictures of the notebook widgets when the
site is built: a notebook watching the emulator's feed, opened in headless
Chromium through a Jupyter server (the harness of the widgets' browser
test, ``tests/browser/notebook_browser.py``), each widget's element saved
as a PNG. No picture is kept in the repository.

A page links them as ``![...](shots/NAME.png)``, NAME naming the widget's
class in the page (``live-curve``: the element ``.mc-live-curve``). Where
the browser cannot run (no chromium or chromium-driver, or the ``browser``
dependency group not installed: the ``docs`` group alone, as
``.ci/docs-group`` builds the site), each picture is replaced by a note
saying why, and the build goes on. Taking them adds about 15 s to a build.
"""

from __future__ import annotations

import importlib.util
import re
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from mkdocs.structure.files import File, Files

_SHOT = re.compile(r"!\[([^\]]*)\]\((shots/([\w-]+)\.png)\)")
#: Why the pictures were not taken (None: they were).
_not_taken: str | None = None


def _harness() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tests" / "browser" / "notebook_browser.py"
    spec = importlib.util.spec_from_file_location("notebook_browser", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def on_files(files: Files, config: Any) -> Files:
    global _not_taken
    docs = Path(config.docs_dir)
    wanted: dict[str, str] = {}  # site path -> widget name
    for page in sorted(docs.rglob("*.md")):
        folder = page.parent.relative_to(docs).as_posix()
        for _, link, name in _SHOT.findall(page.read_text(encoding="utf-8")):
            wanted[str(Path(folder, link).as_posix()).lstrip("./")] = name
    if not wanted:
        return files
    harness = _harness()
    _not_taken = harness.why_not()
    if _not_taken is not None:
        return files
    for site_path, png in _take(harness, wanted).items():
        files.append(File.generated(config, site_path, content=png))
    return files


def _take(harness: ModuleType, wanted: dict[str, str]) -> dict[str, bytes]:
    """A PNG of each widget, once its points have moved."""
    cells = harness.WATCH_CELLS
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / "watch.ipynb").write_text(harness.notebook(cells), encoding="utf-8")
        with harness.jupyter_server(Path(root)) as base, harness.chromium(900, 1400) as driver:
            page = harness.Page(driver, base, "watch.ipynb")
            for _ in range(3):  # the feed, the curve, the board
                page.run_cell(timeout=120)

            def prices() -> list[str]:
                return list(page.texts(".mc-live-curve circle.mc-live-point title"))

            first = harness.wait_for(prices, "the points drawn")
            harness.wait_for(lambda: prices() != first, "a point to move")
            shots = {path: page.shot(f".mc-{name}") for path, name in wanted.items()}
            page.run_cell()
            page.run_cell()
            return shots


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if _not_taken is None:
        return markdown

    def note(match: re.Match[str]) -> str:
        return (
            f'!!! note "Picture not taken: {match.group(1).split(":")[0]}"\n'
            f"    This build of the docs could not run the browser that takes it "
            f"({_not_taken}).\n"
        )

    return _SHOT.sub(note, markdown)
