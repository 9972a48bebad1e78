"""Notebook widgets fed by a live feed or a replay: a forward curve that
moves as the feed ticks (:class:`LiveCurve`) and a ticking table
(:class:`LiveBoard`).

They are anywidgets (JupyterLab, Notebook 7, VS Code's notebooks), drawn
by a front end shipped in the package that loads nothing from the network.
They need ``pip install 'marketcurves[jupyter]'``; ``import marketcurves``
does not import them, nor anywidget, until they are used.

>>> feed = client.replay("2026-01-14T09:00", "2026-01-14T12:00", speed=60)
>>> feed.subscribe(curve)
>>> chart = mc.widgets.LiveCurve(feed, curve)  # or feed.widget(curve)
>>> board = mc.widgets.LiveBoard(feed)  # both read the feed once
>>> chart.close(), board.close(), feed.close()
(None, None, None)

See [Watching the feed](../jupyter.md#watching-the-feed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from marketcurves.widgets._board import LiveBoard
    from marketcurves.widgets._curve import LiveCurve

__all__ = ["LiveBoard", "LiveCurve"]


def __getattr__(name: str) -> Any:
    # Imported on first use: anywidget (and ipywidgets under it) is an
    # optional dependency, and a heavy import.
    if name == "LiveCurve":
        from marketcurves.widgets._curve import LiveCurve

        return LiveCurve
    if name == "LiveBoard":
        from marketcurves.widgets._board import LiveBoard

        return LiveBoard
    raise AttributeError(f"module 'marketcurves.widgets' has no attribute {name!r}")
