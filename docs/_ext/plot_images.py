"""An mkdocs hook that draws the pictures of the docs when the site is built,
from the code the pages show, so that a picture cannot drift from its code
and no image is kept in the repository.

A page that links to a picture under ``images/`` (``![...](images/x.png)``)
has its ``python`` blocks run in order in one namespace, against an emulator
whose address and demo login are in the environment (as ``tests/docs``
runs them; a block after ``<!-- skip: reason -->`` is not run). The figures
a block opens are saved, in order, as the pictures linked between it and
the next block, and added to the site as files of their own. A block that
opens figures with no picture after it (a variation on the one above) has
them closed unsaved; the blocks after the last picture are not run. A
picture no block draws, or a block drawing a number of figures other than
the pictures after it, fails the build.

Needs the package installed where mkdocs runs (a wheel, ``pip install .`` or
``scripts/dev``), besides the ``docs`` dependency group, which holds what the
pages' examples use (matplotlib, pandas, holidays); ``.ci/docs-group``
builds the site in a fresh virtualenv of exactly those. The drawing
adds 3 to 5 s to a build (on a busy 2-core machine): importing matplotlib,
the emulator's history and writing the PNGs, about a third each.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import inspect
import io
import os
import posixpath
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

#: The emulator's clock, as in tests/docs: a Thursday evening in January
#: 2026, after the 2025 history the pages pull and the day's settlement.
CLOCK = "2026-01-15T17:00:00Z"
#: Pixels per inch of the pictures (the plots' figures are 9 x 4.5 inches).
DPI = 100
#: Variables of the builder's machine that would change what the pages do.
UNSET = ("MARKETCURVES_CACHE_DIR", "MARKETCURVES_TOKEN")

_FENCE = re.compile(r"^```(\w*)\s*$")
_SKIP = re.compile(r"^<!-- skip: .+ -->$")
_PICTURE = re.compile(r"!\[[^\]]*\]\((images/[\w./-]+\.png)\)")


@dataclass
class Block:
    line: int  # of the opening fence, 1-based
    code: str
    pictures: list[str] = field(default_factory=list)  # linked after it, before the next block


def on_files(files: Files, config: Any) -> Files:
    docs = Path(config.docs_dir)
    pages = [
        (page, blocks)
        for page in sorted(docs.rglob("*.md"))
        if (blocks := _blocks(page)) and any(b.pictures for b in blocks)
    ]
    if not pages:
        return files
    for src_uri, content in _draw(docs, pages):
        files.append(File.generated(config, src_uri, content=content))
    return files


def _blocks(page: Path) -> list[Block]:
    """The page's runnable ``python`` blocks, each with the pictures linked
    after it; a picture before the first block fails."""
    blocks: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    previous, index = "", 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            for picture in _PICTURE.findall(lines[index]):
                if not blocks:
                    raise ValueError(f"{page.name}:{index + 1}: {picture} follows no code block")
                blocks[-1].pictures.append(picture)
            if lines[index].strip():
                previous = lines[index].strip()
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        if opening.group(1) == "python" and not _SKIP.match(previous):
            blocks.append(Block(index + 1, "\n".join(lines[index + 1 : end]) + "\n"))
        previous, index = "", end + 1
    return blocks


def _draw(docs: Path, pages: list[tuple[Path, list[Block]]]) -> Iterator[tuple[str, bytes]]:
    """(site path, PNG) of every picture of ``pages``."""
    import matplotlib

    matplotlib.use("Agg")
    try:
        from marketcurves.testing import Emulator
    except ModuleNotFoundError as missing:
        raise ModuleNotFoundError(
            "the pictures of the docs are drawn by running the package: install it where "
            "mkdocs runs (a wheel, pip install . or bash scripts/dev), besides the docs group"
        ) from missing

    with tempfile.TemporaryDirectory() as home, Emulator(seed=0, start=CLOCK) as emulator:
        environment = {
            "MARKETCURVES_BASE_URL": emulator.base_url,
            "MARKETCURVES_LIVE_URL": emulator.live_url,
            "MARKETCURVES_EMAIL": emulator.credentials["email"],
            "MARKETCURVES_PASSWORD": emulator.credentials["password"],
            "HOME": home,
        }
        with _reader_machine(home, environment):
            for page, blocks in pages:
                folder = posixpath.dirname(page.relative_to(docs).as_posix())
                for picture, png in _draw_page(page, blocks):
                    yield posixpath.normpath(posixpath.join(folder, picture)), png


def _draw_page(page: Path, blocks: list[Block]) -> Iterator[tuple[str, bytes]]:
    """(link, PNG) of each picture of one page, its blocks run in order."""
    import matplotlib.pyplot as plt

    namespace: dict[str, Any] = {"__name__": "__docs__"}
    # The blocks after the last picture draw nothing shown: not run, for speed.
    last = max(i for i, block in enumerate(blocks) if block.pictures)
    try:
        for block in blocks[: last + 1]:
            before = set(plt.get_fignums())
            _run(page, block, namespace)
            opened = [n for n in plt.get_fignums() if n not in before]
            if block.pictures and len(opened) != len(block.pictures):
                raise ValueError(
                    f"{page.name}:{block.line}: the block draws {len(opened)} "
                    f"figure(s), the pictures after it are {block.pictures}"
                )
            # A block without pictures may draw figures that are not shown.
            for number, picture in zip(opened, block.pictures, strict=False):
                png = io.BytesIO()
                plt.figure(number).savefig(png, format="png", dpi=DPI)
                yield picture, png.getvalue()
            for number in opened:
                plt.close(number)
    finally:
        _close_clients(namespace)


def _run(page: Path, block: Block, namespace: dict[str, Any]) -> None:
    # Tracebacks give the page's own line numbers.
    source = "\n" * block.line + block.code
    code = compile(source, str(page), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    if code.co_flags & inspect.CO_COROUTINE:
        asyncio.run(eval(code, namespace))
    else:
        exec(code, namespace)


def _close_clients(namespace: dict[str, Any]) -> None:
    import marketcurves as mc

    for value in namespace.values():
        if isinstance(value, mc.Client):
            value.close()


@contextlib.contextmanager
def _reader_machine(home: str, values: dict[str, str]) -> Iterator[None]:
    """The environment and working directory of a reader running the pages
    (what they write lands in ``home``), undone afterwards."""
    saved = {name: os.environ.get(name) for name in [*values, *UNSET]}
    cwd = os.getcwd()
    os.environ.update(values)
    for name in UNSET:
        os.environ.pop(name, None)
    os.chdir(home)
    try:
        yield
    finally:
        os.chdir(cwd)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
