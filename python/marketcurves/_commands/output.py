"""How the commands write tables: the ``--format`` and ``-o`` flags and the
five formats.

- ``table``: aligned columns for reading (the default on a terminal);
- ``csv``: every column, nested ones (``dependencies``, ``metadata``,
  ``contracts``) as JSON text;
- ``json``: one array of row objects; ``ndjson``: one object per line;
- in ``csv``, ``json`` and ``ndjson`` alike, dates as ``2025-06-13`` and
  times in ISO 8601, UTC, with microseconds: ``2025-06-13T17:00:00.000000Z``;
- ``parquet``: the Arrow table itself, into ``-o FILE`` only.

A file named by ``-o`` is written under a temporary name and renamed once
complete, so that nothing half-written carries its name.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import errno
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow

FORMATS = ("table", "csv", "json", "ndjson", "parquet")
_BY_SUFFIX = {
    ".csv": "csv",
    ".json": "json",
    ".ndjson": "ndjson",
    ".jsonl": "ndjson",
    ".parquet": "parquet",
    ".txt": "table",
}


def add_flags(
    parser: argparse.ArgumentParser, formats: Sequence[str] = FORMATS, piped: str = "csv"
) -> None:
    """``--format`` (one of ``formats``) and ``-o FILE``; ``piped`` is the
    format when neither says and stdout is not a terminal."""
    if piped == "table":
        default = "default: from the -o file's suffix, else table"
    else:
        default = (
            f"default: from the -o file's suffix, else table on a terminal and {piped} otherwise"
        )
    parser.add_argument(
        "--format",
        choices=formats,
        help=default + ("; parquet needs -o" if "parquet" in formats else ""),
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE rather than to stdout"
    )
    parser.set_defaults(formats=tuple(formats), piped_format=piped)


def chosen(args: argparse.Namespace) -> str:
    """The format the flags ask for; a usage error (exit 2) if they cannot be met."""
    fmt: str | None = args.format
    if fmt is None and args.output:
        fmt = _BY_SUFFIX.get(Path(args.output).suffix.lower())
        if fmt is None or fmt not in args.formats:
            args.usage_error(
                f"cannot tell the format of {args.output!r} from its name: "
                f"give --format ({', '.join(args.formats)})"
            )
    if fmt is None:
        fmt = "table" if sys.stdout.isatty() else args.piped_format
    if fmt == "parquet" and not args.output:
        args.usage_error("--format parquet writes a binary file: give -o FILE")
    if args.output:
        folder = Path(args.output).parent
        if not folder.is_dir():
            # Said before anything is fetched, rather than after.
            raise FileNotFoundError(errno.ENOENT, "no such folder", str(folder))
    return fmt


@contextlib.contextmanager
def destination(args: argparse.Namespace, binary: bool = False) -> Iterator[IO[Any]]:
    """stdout, or the ``-o`` file, written under a temporary name and renamed
    once the block ends without an exception (removed if it raises)."""
    if not args.output:
        stream: IO[Any] = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    path = Path(args.output)
    part = path.with_name(f".{path.name}.part")
    try:
        try:
            stream = part.open("wb") if binary else part.open("w", encoding="utf-8", newline="")
        except OSError as error:
            # Named by the file asked for, not by its temporary name.
            raise OSError(error.errno, error.strerror, str(path)) from None
        with stream:
            yield stream
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def write(
    table: pyarrow.Table,
    fmt: str,
    args: argparse.Namespace,
    brief: Sequence[str] | None = None,
) -> None:
    """``table`` in ``fmt`` to stdout or ``-o``; ``table`` shows the ``brief``
    columns (those present), or every column that is not nested."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        with destination(args, binary=True) as stream:
            pq.write_table(table, stream)
    elif fmt == "csv":
        import pyarrow.csv as pacsv

        with destination(args, binary=True) as stream:
            pacsv.write_csv(_as_text(table), stream)
    elif fmt == "json":
        with destination(args) as stream:
            json.dump(rows(table), stream, ensure_ascii=False, default=iso)
            stream.write("\n")
    elif fmt == "ndjson":
        with destination(args) as stream:
            for row in rows(table):
                stream.write(json.dumps(row, ensure_ascii=False, default=iso) + "\n")
    else:
        with destination(args) as stream:
            stream.write(text_table(table, brief))


def write_object(value: Any, args: argparse.Namespace) -> None:
    """One JSON object, for the commands whose result is a record."""
    with destination(args) as stream:
        json.dump(value, stream, ensure_ascii=False, default=iso, indent=2)
        stream.write("\n")


#: Times in every text format but ``table``: ISO 8601, UTC, microseconds.
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def timestamp(value: _dt.datetime) -> str:
    """``2025-06-13T17:00:00.000000Z``; a naive time is taken as UTC, as the
    package's tables hold every time in UTC."""
    if value.tzinfo is not None:
        value = value.astimezone(_dt.UTC)
    return value.strftime(TIME_FORMAT)


def iso(value: Any) -> str:
    """Dates and times in ISO 8601, paths as text: ``json``'s ``default``."""
    if isinstance(value, _dt.datetime):
        return timestamp(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _is_nested(kind: pyarrow.DataType) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_nested(kind))


def _plain(value: Any, kind: pyarrow.DataType) -> Any:
    """A ``to_pylist`` value with maps (lists of pairs there) made dicts."""
    import pyarrow as pa

    if value is None:
        return None
    if pa.types.is_map(kind):
        return {k: _plain(v, kind.item_type) for k, v in value}
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return [_plain(v, kind.value_type) for v in value]
    if pa.types.is_struct(kind):
        return {f.name: _plain(value[f.name], f.type) for f in kind}
    return value


def _column(table: pyarrow.Table, name: str) -> list[Any]:
    column = table[name]
    values: list[Any] = column.to_pylist()
    if _is_nested(column.type):
        values = [_plain(v, column.type) for v in values]
    return values


def rows(table: pyarrow.Table) -> list[dict[str, Any]]:
    names = table.column_names
    columns = [_column(table, name) for name in names]
    return [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]


def _as_text(table: pyarrow.Table) -> pyarrow.Table:
    """The columns CSV cannot hold as they are, as text: nested ones as JSON,
    times as the JSON formats write them (pyarrow's own CSV times differ)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for i, field in enumerate(table.schema):
        if pa.types.is_timestamp(field.type):
            utc = table[field.name].cast(pa.timestamp("us", field.type.tz and "UTC"))
            # %S carries the microseconds of a time in microseconds.
            text = pc.strftime(utc, format="%Y-%m-%dT%H:%M:%SZ")
            table = table.set_column(i, field.name, text)
        elif _is_nested(field.type):
            text = [
                None if v is None else json.dumps(v, ensure_ascii=False, default=iso)
                for v in _column(table, field.name)
            ]
            table = table.set_column(i, field.name, pa.array(text, pa.string()))
    return table


def cell(value: Any) -> str:
    """A value as the ``table`` format shows it."""
    if value is None:
        return ""
    if isinstance(value, _dt.datetime):
        # Milliseconds: what the live feed carries, and enough to read.
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
    if isinstance(value, float):
        return repr(value)
    return str(value)


def text_table(table: pyarrow.Table, brief: Sequence[str] | None = None) -> str:
    """Aligned columns with a header line; numbers to the right."""
    import pyarrow as pa

    present = table.column_names
    names = [n for n in (brief or present) if n in present and not _is_nested(table[n].type)]
    columns = [[cell(v) for v in table[n].to_pylist()] for n in names]
    widths = [max([len(n), *(len(v) for v in c)]) for n, c in zip(names, columns, strict=True)]
    numeric = [
        pa.types.is_integer(table[n].type) or pa.types.is_floating(table[n].type) for n in names
    ]

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.rjust(w) if right else c.ljust(w)
            for c, w, right in zip(cells, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    lines = [line(names)] + [line(values) for values in zip(*columns, strict=True)]
    return "\n".join(lines) + "\n"
