"""``help()`` on the classes of the compiled core: they have no Python
wrapper, so what help shows is the core's own doc comments, which must say
what the stubs (and the reference) say."""

from __future__ import annotations

import pydoc

import marketcurves as mc


def test_help_on_a_tick_describes_each_field():
    shown = pydoc.render_doc(mc.Tick, renderer=pydoc.plaintext)
    assert "One price from the live feed" in shown
    for field in ("curve_id", "tenor", "generated_on", "price", "source"):
        assert getattr(mc.Tick, field).__doc__, f"Tick.{field} has no docstring"
    assert "in the curve's units" in mc.Tick.price.__doc__
    assert "renewed" in mc.Tick.source.__doc__
