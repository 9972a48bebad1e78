"""Progress bars for long pulls: ``tqdm.auto`` when it is installed. Asked
for without tqdm, a call goes on without bars, after one warning per
process that says what to install."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

from marketcurves import _args

if TYPE_CHECKING:
    from marketcurves._core import Call

_T = TypeVar("_T")

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_warned = False


def tqdm() -> Any:
    """``tqdm.auto.tqdm``, or None (with the warning, once) if tqdm is not
    installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        _warn_once()
        return None
    return tqdm


def _warn_once() -> None:
    global _warned
    if _warned:
        return
    _warned = True
    warnings.warn(
        "progress=True draws its bars with tqdm, which is not installed: "
        "pip install 'marketcurves[progress]'. Going on without progress bars "
        "(this warning is shown once).",
        UserWarning,
        stacklevel=_caller_level(),
    )


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside the package: the
    warning names the user's line that asked for progress."""
    frame: FrameType | None = sys._getframe(2)  # the caller of _warn_once
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level


class ProgressBar:
    """A callback ``(done, total)`` that draws a tqdm bar, and closes it."""

    def __init__(self, bar: Any) -> None:
        self._bar = bar

    def __call__(self, done: int, total: int) -> None:
        if self._bar.total != total:
            self._bar.total = total
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        self._bar.close()


def progress_bar(enabled: bool, description: str, unit: str = "req") -> ProgressBar | None:
    """A bar if asked for and tqdm is installed, else None."""
    if not enabled:
        return None
    bar = tqdm()
    if bar is None:
        return None
    return ProgressBar(bar(total=0, desc=description, unit=unit))


def close(bar: Callable[[int, int], None] | None) -> None:
    if isinstance(bar, ProgressBar):
        bar.close()


def wait(start: Callable[[], Call[_T]], progress: object, description: str) -> _T:
    """Runs the call ``start`` makes to its end, blocking, with a bar of its
    requests if ``progress`` asks for one (the blocking forms' own step).
    ``progress`` is checked before the call is made: a call made and never
    run would hold its client, whose ``close`` would wait on it."""
    bar = progress_bar(_args.flag(progress, "progress"), description)
    try:
        return start().wait(bar)
    finally:
        close(bar)
