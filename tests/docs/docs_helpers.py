"""Helpers of the docs suite: the code blocks of a Markdown page, and
running them in order in one namespace, as a reader pasting them would.

A ``python`` block is executed (top-level ``await`` allowed, as in Jupyter);
a ``pycon`` block is a doctest, its printed output checked. A block right
after a line ``<!-- skip: <reason> -->`` is not run: the reason says what it
needs that the tests do not have (an S3 bucket, a corporate CA, ...).
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import doctest
import inspect
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"

_FENCE = re.compile(r"^```(\w*)\s*$")
_SKIP = re.compile(r"^<!-- skip: (.+) -->$")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    language: str
    code: str
    skip: str | None


def code_blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a page, at the start of a line, in order."""
    blocks: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    previous = ""
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            if lines[index].strip():
                previous = lines[index].strip()
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        if end == len(lines):
            raise AssertionError(f"{path}:{index + 1}: code block never closed")
        skip = _SKIP.match(previous)
        blocks.append(
            Block(
                path=path,
                line=index + 1,
                language=opening.group(1),
                code="\n".join(lines[index + 1 : end]) + "\n",
                skip=skip.group(1) if skip else None,
            )
        )
        previous = ""
        index = end + 1
    return blocks


def run_block(block: Block, namespace: dict[str, Any]) -> None:
    """Runs one block in ``namespace``; an error names the page and line."""
    where = f"{block.path.relative_to(REPO)}:{block.line}"
    if block.language == "python":
        # Line numbers of tracebacks are the page's own.
        source = "\n" * block.line + block.code
        code = compile(source, where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        if code.co_flags & inspect.CO_COROUTINE:
            asyncio.run(eval(code, namespace))
        else:
            exec(code, namespace)
    elif block.language == "pycon":
        test = doctest.DocTestParser().get_doctest(
            block.code, namespace, where, str(block.path), block.line
        )
        flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
        runner = doctest.DocTestRunner(optionflags=flags)
        output: list[str] = []
        runner.run(test, out=output.append, clear_globs=False)
        # A doctest runs in a copy of its globals: what it defines goes on.
        namespace.update(test.globs)
        if runner.failures:
            raise AssertionError(f"{where}: doctest failed\n" + "".join(output))
    else:
        raise ValueError(f"{where}: not a runnable block ({block.language})")


def runnable(block: Block) -> bool:
    return block.language in ("python", "pycon") and block.skip is None


@contextlib.contextmanager
def logging_restored() -> Iterator[None]:
    """Undoes what a page's ``logging.basicConfig`` and ``setLevel`` calls
    did, so that one page's logging does not leak into the other tests."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {
        name: logger.level
        for name, logger in logging.Logger.manager.loggerDict.items()
        if isinstance(logger, logging.Logger)
    }
    try:
        yield
    finally:
        for handler in root.handlers:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
        for name, logger in logging.Logger.manager.loggerDict.items():
            if isinstance(logger, logging.Logger):
                logger.setLevel(levels.get(name, logging.NOTSET))
