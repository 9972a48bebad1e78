"""The curve catalogue: :class:`Curve` and the list-like :class:`Catalogue`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, overload

from marketcurves import _html
from marketcurves._core import Tenor
from marketcurves.frames import to_pandas

if TYPE_CHECKING:
    import pandas
    import pyarrow

    from marketcurves.frames import NestedMode


@dataclass(frozen=True)
class Curve:
    """A curve quotation of the catalogue. Any field the service left out is
    None (or empty, for the mappings and ``contracts``)."""

    id: str | None
    name: str | None
    quotation: str | None
    units: str | None
    filters: Mapping[str, str] = field(default_factory=dict)
    properties: Mapping[str, str] = field(default_factory=dict)
    contracts: tuple[str, ...] = ()

    @classmethod
    def _from_core(cls, row: tuple[Any, ...]) -> Curve:
        id_, name, quotation, units, filters, properties, contracts = row
        return cls(
            id=id_,
            name=name,
            quotation=quotation,
            units=units,
            filters=MappingProxyType(dict(filters or {})),
            properties=MappingProxyType(dict(properties or {})),
            contracts=tuple(contracts or ()),
        )

    @property
    def vertical(self) -> str | None:
        return self.filters.get("vertical")

    @property
    def region(self) -> str | None:
        return self.filters.get("region")

    @property
    def tenors(self) -> list[Tenor]:
        """The contracts as tenors, in calendar order."""
        return sorted(Tenor.parse(name, strict=False) for name in self.contracts)

    def __repr__(self) -> str:
        return f"Curve({self.name!r}, id={self.id!r}, units={self.units!r}, {len(self.contracts)} contracts)"

    def _repr_html_(self) -> str:
        return _html.curve(self)


_COLUMNS = ("id", "name", "vertical", "quotation", "region", "units")


class Catalogue(Sequence[Curve]):
    """The curves of a catalogue query, in the service's order."""

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
        return iter(self._curves)

    def by_id(self, curve_id: str) -> Curve:
        """The curve with this id; KeyError if there is none."""
        for curve in self._curves:
            if curve.id == curve_id:
                return curve
        raise KeyError(curve_id)

    def to_arrow(self) -> pyarrow.Table:
        """One row per curve: id, name, vertical, quotation, region, units,
        filters and properties (maps) and contracts (list)."""
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

    def to_pandas(self, nested: NestedMode | None = None) -> pandas.DataFrame:
        """The catalogue as a DataFrame; ``nested`` as for
        :func:`marketcurves.to_pandas` (``filters``, ``properties`` and
        ``contracts`` Arrow-backed by default, or Python lists of pairs and
        lists)."""
        return to_pandas(self.to_arrow(), nested)

    def __repr__(self) -> str:
        lines = [f"Catalogue of {len(self)} curves"]
        lines += [f"  {c.name} ({c.units}) {c.id}" for c in self._curves[:10]]
        if len(self) > 10:
            lines.append(f"  … {len(self) - 10} more")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return _html.catalogue(self)
