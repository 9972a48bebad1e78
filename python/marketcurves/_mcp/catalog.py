"""The catalogue as the tools see it: kept for ten minutes (the library's
own keep), searched by words, and curves resolved by id or by name, an
unknown one naming the close names."""

from __future__ import annotations

import re
import threading
import time
from typing import TYPE_CHECKING

from marketcurves._mcp.problems import ToolProblem, close_names, unknown

if TYPE_CHECKING:
    from marketcurves.catalogue import Catalogue, Curve
    from marketcurves.client import Client

#: Seconds a catalogue is kept before it is asked for again.
KEEP = 600.0
_WORD = re.compile(r"[\w/$%.-]+")


class Catalog:
    def __init__(self, client: Client) -> None:
        self._client = client
        self._curves: Catalogue | None = None
        self._taken = 0.0
        self._lock = threading.Lock()

    def requests(self) -> int:
        """What reading it costs now: the one request the library counts
        for it (its later pages are not counted), none while it is kept."""
        with self._lock:
            kept = self._curves is not None and time.monotonic() - self._taken < KEEP
        return 0 if kept else 1

    def curves(self) -> Catalogue:
        with self._lock:
            if self._curves is None or time.monotonic() - self._taken >= KEEP:
                self._curves = self._client.catalogue()
                self._taken = time.monotonic()
            return self._curves

    def curve(self, given: str) -> Curve:
        """A curve by id, or by name (any case)."""
        curves = self.curves()
        wanted = given.strip().casefold()
        for curve in curves:
            if wanted in ((curve.id or "").casefold(), (curve.name or "").casefold()):
                return curve
        raise unknown("curve", given, [c.name for c in curves if c.name])

    def search(
        self, words: str, vertical: str | None, quotation: str | None, region: str | None
    ) -> list[tuple[float, Curve]]:
        """Curves matching the filters (any case), ranked by how many of
        ``words`` they hold in their name, vertical, quotation, region,
        units and filters; a word found only in part counts less. With
        words, a curve holding none of them is left out."""
        found = []
        for curve in self.curves():
            if not _is(curve.vertical, vertical) or not _is(curve.region, region):
                continue
            if not _is(curve.quotation, quotation):
                continue
            found.append((_score(curve, words), curve))
        if words.strip():
            found = [(score, curve) for score, curve in found if score > 0]
            if not found:
                names = [c.name for c in self.curves() if c.name]
                near = close_names(words, names)
                hint = "; close names: " + ", ".join(map(repr, near)) if near else ""
                raise ToolProblem(f"no curve matches {words!r}{hint}")
        found.sort(key=lambda pair: (-pair[0], pair[1].name or ""))
        return found


def _is(value: str | None, wanted: str | None) -> bool:
    if wanted is None or not wanted.strip():
        return True
    return value is not None and _fold(value) == _fold(wanted)


def _fold(text: str) -> str:
    """``FUEL_OIL`` is ``Fuel Oil``."""
    return text.casefold().replace("_", " ")


def _score(curve: Curve, words: str) -> float:
    fields = [curve.name, curve.units, curve.quotation, *curve.filters.values()]
    haystack = " ".join(f for f in fields if f).casefold()
    tokens = set(_WORD.findall(haystack))
    score = 0.0
    for word in _WORD.findall(words.casefold()):
        if word in tokens:
            score += 1.0
        elif word in haystack:
            score += 0.5
    return score
