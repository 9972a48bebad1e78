"""Progress bars for long pulls: ``tqdm.auto`` when it is installed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class ProgressBar:
    """A callback ``(done, total)`` that draws a tqdm bar, and closes it."""

    def __init__(self, description: str, unit: str = "req") -> None:
        from tqdm.auto import tqdm

        self._bar: Any = tqdm(total=0, desc=description, unit=unit)

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
    try:
        return ProgressBar(description, unit)
    except ImportError:
        return None


def close(bar: Callable[[int, int], None] | None) -> None:
    if isinstance(bar, ProgressBar):
        bar.close()
