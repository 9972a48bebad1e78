"""Plots of the package's price tables, drawn with matplotlib.

>>> import marketcurves as mc
>>> history = client.settlements(curve, "2025-01-01", "2025-06-30")  # doctest: +SKIP
>>> mc.plot.forward_curve(history)  # the last day's curve  # doctest: +SKIP
>>> mc.plot.curve_history(history, ["2025-01-02", "2025-03-31", "2025-06-30"])  # doctest: +SKIP
>>> mc.plot.heatmap(history)  # date x tenor  # doctest: +SKIP
>>> mc.plot.settlements_and_intraday(history, client.intraday(curve, "Jan 26"), "Jan 26")  # doctest: +SKIP

Each function takes tables as the client returns them (one curve, prices in
one unit), labels its axes with the tenors in calendar order, the dates or
UTC times and the price's units (from the ``units`` column), and returns the
matplotlib ``Axes`` it drew on: the ``ax=`` given, or a new figure's. They
work without a display (the Agg backend), e.g. to write PNG files with
``ax.figure.savefig("curve.png")``. Bad input raises
:class:`~marketcurves.InvalidRequest` naming the problem, before anything
is drawn.

matplotlib is optional: ``pip install 'marketcurves[plot]'``. It is imported
when a plot is drawn, never by ``import marketcurves``; without it a plot
raises ``ImportError`` saying what to install.
"""

from marketcurves.plot._forward import curve_history, forward_curve
from marketcurves.plot._heatmap import heatmap
from marketcurves.plot._tenor_history import settlements_and_intraday

__all__ = ["curve_history", "forward_curve", "heatmap", "settlements_and_intraday"]
