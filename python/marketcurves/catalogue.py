"""The curve catalogue: :class:`Curve` and the list-like :class:`Catalogue`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, overload

from marketcurves import _core, _deprecation, _html
from marketcurves._core import Tenor
from marketcurves.frames import to_pandas

if TYPE_CHECKING:
    import pandas
    import pyarrow

    from marketcurves.frames import NestedMode


__all__ = ["Catalogue", "Curve"]


@dataclass(frozen=True)
class Curve:
    """A curve quotation of the catalogue, as :meth:`marketcurves.Client.catalogue` lists it; any method of the client takes
    it where it takes a curve id. Any field the service left out is None (or
    empty, for the mappings and ``contracts``).

    Examples:
        >>> curve.name, curve.quotation, curve.vertical, curve.region, curve.units
        ('Jet Fob AG', 'Fob', 'Jet', 'AG', '$/mt')
        >>> curve.contracts[:5]
        ('C 00', 'C 01', 'C 02', 'Jan 26', 'Q1 26')
    """

    id: str | None
    """The curve's id, which every call takes."""
    name: str | None
    """Its name (``"Jet Fob AG"``)."""
    quotation: str | None
    """How it is quoted (``"Fob"``, ``"Price"``, ``"Margin"``...)."""
    units: str | None
    """The units of its prices (``"$/mt"``, ``"$/bbl"``, ``"c/gal"``...)."""
    filters: Mapping[str, str] = field(default_factory=dict)
    """The keys the catalogue filters on (``vertical``, ``quotation``,
    ``region``, ``productType``...) and their values."""
    properties: Mapping[str, str] = field(default_factory=dict)
    """Other facts the service gives (``loadPortName``, ``incoterms``...)."""
    contracts: tuple[str, ...] = ()
    """The names of the tenors the service lists for it, in its order."""

    @property
    def vertical(self) -> str | None:
        """Its vertical (``filters["vertical"]``), or None."""
        return self.filters.get("vertical")

    @property
    def region(self) -> str | None:
        """Its region (``filters["region"]``), or None."""
        return self.filters.get("region")

    @property
    def tenors(self) -> list[Tenor]:
        """The contracts as tenors, in calendar order."""
        return sorted(Tenor.parse(name, strict=False) for name in self.contracts)

    def __repr__(self) -> str:
        return f"Curve({self.name!r}, id={self.id!r}, units={self.units!r}, {len(self.contracts)} contracts)"

    def _repr_html_(self) -> str:
        contracts = [t.name for t in self.tenors]
        rows: list[tuple[str, Any]] = [
            ("id", self.id),
            ("quotation", self.quotation),
            ("units", self.units),
            ("vertical", self.vertical),
            ("region", self.region),
            (f"contracts ({len(contracts)})", _html.names(contracts)),
        ]
        rows += [
            (f"filter {k}", v) for k, v in self.filters.items() if k not in ("vertical", "region")
        ]
        rows += [(f"property {k}", v) for k, v in self.properties.items()]
        return _html.facts(f"Curve {self.name}", rows)


_COLUMNS = ("id", "name", "vertical", "quotation", "region", "units")
#: Rows of a catalogue's view drawn; the rest are counted.
_VIEW_ROWS = 50


class Catalogue(Sequence[Curve]):
    """The curves of a catalogue query, in the service's order: a sequence
    of :class:`Curve` (``len``, indexing, slicing, ``in``, iteration), made
    by :meth:`marketcurves.Client.catalogue`.

    Args:
        curves: the curves, in order.

    Examples:
        >>> jet = client.catalogue(vertical="Jet", quotation="Fob")
        >>> jet[1:3]
        Catalogue of 2 curves
          Jet Fob FAR EAST ($/mt) f76a9605-95c8-47b6-92d6-52f3b9a24b2f
          Jet Fob RED SEA 10ppm ($/mt) 39df80a9-0f02-4ff0-ae67-8f615fdf40c8
    """

    def __init__(self, curves: Sequence[Curve]) -> None:
        self._curves = list(curves)

    @overload
    def __getitem__(self, index: int) -> Curve: ...
    @overload
    def __getitem__(self, index: slice) -> Catalogue: ...
    def __getitem__(self, index: int | slice) -> Curve | Catalogue:
        if isinstance(index, slice):
            return Catalogue(self._curves[index])
        return self._curves[index]

    def __len__(self) -> int:
        return len(self._curves)

    def __iter__(self) -> Iterator[Curve]:
        """The curves in order (``for curve in catalogue``).

        Yields:
            Each curve.
        """
        return iter(self._curves)

    def by_id(self, curve_id: str) -> Curve:
        """The curve with this id.

        Args:
            curve_id: a curve's id.

        Returns:
            The curve.

        Raises:
            KeyError: no curve of the catalogue has this id.

        Examples:
            >>> jet = client.catalogue(vertical="Jet")
            >>> jet.by_id(curve.id).name
            'Jet Fob AG'
        """
        for curve in self._curves:
            if curve.id == curve_id:
                return curve
        raise KeyError(curve_id)

    def to_arrow(self) -> pyarrow.Table:
        """The catalogue as an Arrow table.

        Returns:
            One row per curve, of the columns ``id``, ``name``, ``vertical``,
            ``quotation``, ``region``, ``units`` (strings), ``filters`` and
            ``properties`` (maps) and ``contracts`` (a list).

        Examples:
            >>> client.catalogue(vertical="Jet").to_arrow().column_names
            ['id', 'name', 'vertical', 'quotation', 'region', 'units', 'filters', 'properties', 'contracts']
        """
        import pyarrow as pa

        text = pa.string()
        schema = pa.schema(
            [(c, text) for c in _COLUMNS]
            + [
                ("filters", pa.map_(text, text)),
                ("properties", pa.map_(text, text)),
                ("contracts", pa.list_(text)),
            ]
        )
        columns: dict[str, list[Any]] = {c: [getattr(k, c) for k in self._curves] for c in _COLUMNS}
        columns["filters"] = [list(c.filters.items()) for c in self._curves]
        columns["properties"] = [list(c.properties.items()) for c in self._curves]
        columns["contracts"] = [list(c.contracts) for c in self._curves]
        return pa.table(columns, schema=schema)

    @_deprecation.positional_options("nested")
    def to_pandas(self, *, nested: NestedMode | None = None) -> pandas.DataFrame:
        """The catalogue as a pandas DataFrame (needs pandas).

        Args:
            nested: as for :func:`marketcurves.to_pandas`: ``filters``,
                ``properties`` and ``contracts`` Arrow-backed (the default
                on pandas 2.0 and later), or Python lists of pairs and lists
                (``"python"``), or left out (``"drop"``).

        Returns:
            One row per curve, with the columns of :meth:`to_arrow`.

        Raises:
            InvalidRequest: an unknown ``nested``.

        Examples:
            >>> client.catalogue(vertical="Jet", quotation="Fob").to_pandas()[["name", "region", "units"]]
                                        name           region  units
            0                     Jet Fob AG               AG   $/mt
            1               Jet Fob FAR EAST         FAR EAST   $/mt
            2          Jet Fob RED SEA 10ppm          RED SEA   $/mt
            3  Jet Fob SOUTH EAST ASIA 10ppm  SOUTH EAST ASIA   $/mt
            4             Jet Fob USGC 10ppm             USGC  c/gal
            5              Jet Fob WCI 10ppm              WCI   $/mt
        """
        return to_pandas(self.to_arrow(), nested=nested)

    def _title(self) -> str:
        """The first line of its repr, and its view's title."""
        return f"Catalogue of {len(self)} {'curve' if len(self) == 1 else 'curves'}"

    def __repr__(self) -> str:
        lines = [self._title()]
        lines += [f"  {c.name} ({c.units}) {c.id}" for c in self._curves[:10]]
        if len(self) > 10:
            lines.append(f"  … {len(self) - 10} more")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        columns = ("id", "name", "vertical", "quotation", "region", "units", "contracts")
        rows = [
            (c.id, c.name, c.vertical, c.quotation, c.region, c.units, len(c.contracts))
            for c in self._curves[:_VIEW_ROWS]
        ]
        return _html.grid(self._title(), columns, rows, len(self) - _VIEW_ROWS)


def from_core(rows: Sequence[_core._CurveRow]) -> Catalogue:
    """The catalogue of the core's rows, as :meth:`marketcurves.Client.catalogue` returns it."""
    return Catalogue(
        [
            Curve(
                id=row["id"],
                name=row["name"],
                quotation=row["quotation"],
                units=row["units"],
                filters=MappingProxyType(row["filters"]),
                properties=MappingProxyType(row["properties"]),
                contracts=tuple(row["contracts"]),
            )
            for row in rows
        ]
    )
