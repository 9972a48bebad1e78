"""Plots of the package's price tables, drawn with matplotlib.

>>> import marketcurves as mc
>>> history = client.settlements(curve, "2025-12-01", "2025-12-31")
>>> ax = mc.plot.forward_curve(history, curve=curve)  # the last day's curve
>>> print(ax.get_title())
forward curve on 2025-12-31
Jet Fob AG
>>> ax = mc.plot.curve_history(history, ["2025-12-01", "2025-12-15", "2025-12-31"])
>>> [line.get_label() for line in ax.get_lines()]
['2025-12-01', '2025-12-15', '2025-12-31']
>>> ax = mc.plot.heatmap(history, curve=curve)  # date x tenor
>>> ticks = client.intraday_history(curve, "2025-12-29", "2025-12-31", ["Feb 26"])
>>> ax = mc.plot.settlements_and_intraday(history, ticks, "Feb 26", curve=curve)
>>> print(ax.get_title())
Feb 26: settlements and intraday values
Jet Fob AG

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
