"""The matplotlib side of the plots: importing it (only when a plot is
drawn, with a clear message when it is missing), the Axes to draw on, and
the axes' tenor and date ticks."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.colors import Colormap

#: Tenor labels beyond which every nth one is shown, so that they stay legible.
TENOR_LABELS = 40
#: Tenor labels beyond which they are slanted.
UPRIGHT_LABELS = 8


def _matplotlib() -> None:
    """Imports matplotlib, saying plainly how to install it where it is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as error:
        raise ImportError(
            "marketcurves.plot draws with matplotlib, which is not installed: "
            "pip install 'marketcurves[plot]' (or pip install matplotlib)",
            name="matplotlib",
        ) from error


def colormap(name: Any, argument: str = "cmap") -> Colormap:
    """The matplotlib colormap called ``name``: checked before a figure is
    made, so that a misspelt one is refused with the names it is close to
    rather than failing half drawn."""
    _matplotlib()
    import matplotlib

    from marketcurves.exceptions import InvalidRequest

    if not isinstance(name, str):
        raise InvalidRequest(
            f"{argument} must be the name of a matplotlib colormap, not {type(name).__name__}"
        )
    if name not in matplotlib.colormaps:
        close = difflib.get_close_matches(name, list(matplotlib.colormaps), n=3)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise InvalidRequest(f"{argument}={name!r} is not a matplotlib colormap{hint}")
    return matplotlib.colormaps[name]


def axes(ax: Any) -> Axes:
    """``ax``, or the Axes of a new pyplot figure (shown by Jupyter, and drawn
    by the Agg backend where there is no display)."""
    _matplotlib()
    if ax is None:
        import matplotlib.pyplot as plt

        new: Axes  # one Axes, as subplots() makes by default
        _, new = plt.subplots(figsize=(9, 4.5), layout="constrained")
        return new
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        from marketcurves.exceptions import InvalidType

        raise InvalidType(f"ax must be a matplotlib Axes, not {type(ax).__name__}")
    return ax


def tenor_axis(ax: Axes, tenors: Sequence[str], axis: str = "x") -> None:
    """Tenor names as the tick labels of positions 0..n-1, in the order given."""
    step = max(1, -(-len(tenors) // TENOR_LABELS))
    positions = list(range(0, len(tenors), step))
    labels = [tenors[i] for i in positions]
    if axis == "x":
        ax.set_xticks(positions, labels)
        if len(labels) > UPRIGHT_LABELS:
            ax.tick_params(axis="x", labelrotation=45)
            for label in ax.get_xticklabels():
                label.set_horizontalalignment("right")
        ax.set_xlabel("tenor (delivery period)")
    else:
        ax.set_yticks(positions, labels)
        ax.set_ylabel("tenor (delivery period)")


def date_axis(ax: Axes, label: str) -> None:
    """Dates on the x axis, labelled as concisely as they allow."""
    import matplotlib.dates as mdates

    locator = mdates.AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    ax.set_xlabel(label)


def title(ax: Axes, curve_id: str | None, what: str) -> None:
    ax.set_title(what if curve_id is None else f"{what}\n{curve_id}", fontsize="medium")
