"""Warnings shown at the user's line: the first frame outside the package,
however many of the package's own frames (a deprecation's wrapper, a
helper) lie between."""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def user(message: str, category: type[Warning] = UserWarning) -> None:
    """Warns of ``message`` at the first frame outside the package."""
    warnings.warn(message, category, stacklevel=_outside_level())


def _outside_level() -> int:
    """The ``stacklevel``, counted from :func:`user`'s call of
    ``warnings.warn``, of the first frame outside the package."""
    frame: FrameType | None = sys._getframe(2)  # the caller of user()
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level
