"""Every blocking call of the public API has an awaitable twin, declared as
its blocking form is.

The test walks the public classes and module functions (those of
``marketcurves`` and of the modules whose ``__all__`` is public API). Each
public class either does I/O (the service, a disk, an object store), and is
in ``IO_CLASSES``, or is in ``WITHOUT_IO`` with the reason; so is each
module of public functions. A public method of a class that does I/O, and
a public function of a module that does, is blocking unless
``NOT_BLOCKING`` says why not. A blocking call ``name`` fails the test
unless:

- ``name_async`` is beside it: a coroutine function (an asynchronous
  generator function for a generator);
- it takes the same parameters, ``progress`` aside: the same names, kinds,
  defaults and annotations, in the same order, and returns the same type
  (an ``AsyncIterator`` for an ``Iterator``);
- the API reference has it: the sources mkdocstrings reads (griffe, without
  importing, as ``mkdocs.yml`` says) hold it as a public, documented async
  function with the same parameters, and a page of ``docs/reference/``
  renders its class or module, or itself.

And every ``_async`` call has its blocking form. The type stubs of the
compiled core (``_core.pyi``) are held to the core by stubtest; the classes
here are Python, whose annotations are their stubs (mypy reads them).
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, is_typeddict

import pytest

import marketcurves
from marketcurves import bulk, live, record

griffe = pytest.importorskip("griffe")

#: The modules whose ``__all__`` is public API besides ``marketcurves``
#: (as tests/docs/test_site.py reads them).
PUBLIC_MODULES = (
    "cache",
    "curves",
    "exceptions",
    "lake",
    "live",
    "plot",
    "record",
    "testing",
    "widgets",
)

#: The public classes whose methods do I/O.
IO_CLASSES = {"Client", "BulkJob", "LiveFeed"}

#: The public classes without I/O, and why.
WITHOUT_IO = {
    "Catalogue": "the curves a catalogue call returned, in memory",
    "LakeReport": "a result",
    "Tenor": "a tenor's name, parsed",
    "Emulator": "a test tool: the service in this process, its controls answered at once",
    "WorkerSettings": "a client's settings, in memory",
}

#: Where public functions are defined, and whether they do I/O (and why not).
FUNCTION_MODULES: dict[str, str | None] = {
    "marketcurves.bulk": None,
    "marketcurves.lake": None,
    "marketcurves.record": None,
    "marketcurves.curves": "analytics on tables in memory",
    "marketcurves.frames": "conversions of tables in memory",
    "marketcurves._polars": "conversions of tables in memory",
    "marketcurves.plot._forward": "plots of tables in memory",
    "marketcurves.plot._heatmap": "plots of tables in memory",
    "marketcurves.plot._tenor_history": "plots of tables in memory",
    "marketcurves.testing": "test tools",
}

#: Public methods and functions of the above that do not block on I/O.
NOT_BLOCKING = {
    "Client.live": "opens the feed, which connects in the background",
    "Client.replay": "opens the replay, which reads in the background",
    "LiveFeed.stats": "reads the feed's counters",
    "LiveFeed.widget": "makes a widget, which reads the feed in the background",
    "Client.worker_settings": "reads the client's settings",
}

#: What only the blocking form takes.
BLOCKING_ONLY = {"progress"}


def public_objects() -> dict[str, object]:
    """Every public name, by the path a user reaches it under."""
    found = {f"marketcurves.{n}": getattr(marketcurves, n) for n in marketcurves.__all__}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(f"marketcurves.{module_name}")
        for name in module.__all__:
            found[f"{module.__name__}.{name}"] = getattr(module, name)
    return found


def public_classes() -> dict[str, type]:
    """The public classes with public methods of their own (not exceptions,
    nor records such as TypedDicts and NamedTuples)."""
    return {
        obj.__name__: obj
        for obj in public_objects().values()
        if inspect.isclass(obj)
        and not issubclass(obj, (BaseException, tuple))
        and not is_typeddict(obj)
        and obj.__module__.startswith("marketcurves")
        and any(callable(v) and not n.startswith("_") for n, v in vars(obj).items())
    }


def public_functions() -> dict[str, Callable[..., Any]]:
    """Every public function, by its qualified name where it is defined."""
    return {
        f"{obj.__module__}.{obj.__qualname__}": obj
        for obj in public_objects().values()
        if inspect.isfunction(obj)
    }


def own_methods(cls: type) -> dict[str, Callable[..., Any]]:
    """The public methods the package defines on ``cls`` (not properties)."""
    return {
        name: value
        for name, value in vars(cls).items()
        if not name.startswith("_") and inspect.isfunction(value)
    }


def blocking_calls() -> Iterator[tuple[str, dict[str, Callable[..., Any]], str]]:
    """``(label, namespace, name)`` of each blocking call: a method of a class
    that does I/O, or a function of a module that does."""
    for cls in sorted(public_classes().values(), key=lambda c: c.__name__):
        if cls.__name__ not in IO_CLASSES:
            continue
        methods = own_methods(cls)
        for name in sorted(methods):
            label = f"{cls.__name__}.{name}"
            if not name.endswith("_async") and label not in NOT_BLOCKING:
                yield label, methods, name
    for path, function in sorted(public_functions().items()):
        module = importlib.import_module(function.__module__)
        if FUNCTION_MODULES.get(module.__name__) is None and not path.endswith("_async"):
            namespace = {
                n: v for n, v in vars(module).items() if inspect.isfunction(v) and n[0] != "_"
            }
            yield path, namespace, function.__name__


# The rules, for one blocking call and its twin.


def twin_faults(label: str, blocking: Callable[..., Any], twin: Any) -> list[str]:
    """What is wrong with ``twin`` as the awaitable form of ``blocking``."""
    if twin is None:
        return [f"{label} has no awaitable twin {label}_async"]
    faults = []
    unwrapped = inspect.unwrap(blocking)
    if inspect.isgeneratorfunction(unwrapped):
        if not inspect.isasyncgenfunction(twin):
            faults.append(f"{label}_async is not an asynchronous generator (async for)")
    elif not inspect.iscoroutinefunction(twin):
        faults.append(f"{label}_async is not a coroutine function (async def)")
    expected = [
        _parameter(p)
        for p in inspect.signature(blocking).parameters.values()
        if p.name not in BLOCKING_ONLY
    ]
    found = [_parameter(p) for p in inspect.signature(twin).parameters.values()]
    if found != expected:
        faults.append(
            f"{label}_async takes {_shown(found)}, where {label} takes {_shown(expected)}"
        )
    returns = inspect.signature(blocking).return_annotation
    if inspect.isgeneratorfunction(unwrapped):
        returns = re.sub(r"^Iterator\b", "AsyncIterator", str(returns))
    if inspect.signature(twin).return_annotation != returns:
        faults.append(f"{label}_async returns {inspect.signature(twin).return_annotation}")
    return faults


def _parameter(p: inspect.Parameter) -> tuple[str, str, object, object]:
    return (p.name, p.kind.name, p.default, p.annotation)


def _shown(parameters: list[tuple[str, str, object, object]]) -> str:
    return "(" + ", ".join(f"{name} [{kind.lower()}]" for name, kind, *_ in parameters) + ")"


def missing_blocking_forms() -> list[str]:
    """``_async`` calls without a blocking form beside them."""
    missing = []
    for cls in public_classes().values():
        methods = own_methods(cls)
        missing += [
            f"{cls.__name__}.{name}"
            for name in methods
            if name.endswith("_async") and name.removesuffix("_async") not in methods
        ]
    functions = public_functions()
    missing += [
        path
        for path in functions
        if path.endswith("_async") and path.removesuffix("_async") not in functions
    ]
    return missing


# The API reference, as mkdocstrings reads it.


def reference_roots() -> set[str]:
    """The objects the pages of ``docs/reference/`` render (``::: path``)."""
    pages = Path(__file__).resolve().parent.parent / "docs" / "reference"
    roots: set[str] = set()
    for page in pages.glob("*.md"):
        roots.update(re.findall(r"^::: ([\w.]+)", page.read_text(encoding="utf-8"), re.M))
    return roots


@pytest.fixture(scope="module")
def sources() -> Any:
    """The package as mkdocstrings loads it: from its sources, not imported."""
    package = Path(marketcurves.__file__).resolve().parent.parent
    return griffe.load("marketcurves", search_paths=[str(package)], allow_inspection=False)


def homes(function: Callable[..., Any]) -> set[str]:
    """Where ``function`` is defined, and every path a user reaches it under
    (``marketcurves.read_bulk_async``, ``marketcurves.BulkJob.wait_async``)."""
    found = {f"{function.__module__}.{function.__qualname__}"}
    owner, _, name = function.__qualname__.rpartition(".")
    for path, obj in public_objects().items():
        if obj is function:
            found.add(path)
        elif owner and inspect.isclass(obj) and obj.__qualname__ == owner:
            if vars(obj).get(name) is function:
                found.add(f"{path}.{name}")
    return found


def reference_faults(
    label: str, twin: Callable[..., Any], sources: Any, roots: set[str]
) -> list[str]:
    """What keeps ``twin`` out of the API reference."""
    shown = f"{label}_async"
    defined = f"{twin.__module__}.{twin.__qualname__}"
    try:
        found = sources[defined.removeprefix("marketcurves.")]
    except (KeyError, ValueError):
        return [f"{shown} is not in the sources the reference reads ({defined})"]
    faults = []
    if not found.docstring:
        faults.append(f"{shown} has no docstring")
    if "async" not in found.labels:
        faults.append(f"{shown} is not an async function in the sources")
    if [p.name for p in found.parameters] != list(inspect.signature(twin).parameters):
        faults.append(f"{shown}'s parameters differ in the sources")
    paths = homes(twin)
    if paths & roots:
        return faults
    # Rendered with its class or module, through mkdocstrings' "public" filter.
    parents = {p.rsplit(".", 1)[0] for p in paths}
    if not (parents | {p.rsplit(".", 1)[0] for p in parents}) & roots:
        faults.append(f"no page of docs/reference/ renders {shown} or its class or module")
    exported = getattr(importlib.import_module(twin.__module__), "__all__", None)
    if "." not in twin.__qualname__ and exported is not None and twin.__name__ not in exported:
        faults.append(f"{shown} is not in its module's __all__, which the reference follows")
    return faults


def all_faults(sources: Any) -> list[str]:
    roots = reference_roots()
    faults: list[str] = []
    for label, namespace, name in blocking_calls():
        twin = namespace.get(f"{name}_async")
        found = twin_faults(label, namespace[name], twin)
        faults += found
        if twin is not None:
            faults += reference_faults(label, twin, sources, roots)
    return faults + [f"{name} has no blocking form" for name in missing_blocking_forms()]


def test_every_blocking_call_has_an_awaitable_twin(sources: Any) -> None:
    faults = all_faults(sources)
    assert not faults, "\n".join(faults)


def test_every_public_class_and_function_module_is_classified() -> None:
    classes = set(public_classes())
    unknown = classes - IO_CLASSES - set(WITHOUT_IO)
    assert not unknown, f"say whether these classes do I/O (IO_CLASSES, WITHOUT_IO): {unknown}"
    assert not (IO_CLASSES | set(WITHOUT_IO)) - classes, "a class listed here is gone"
    modules = {f.__module__ for f in public_functions().values()}
    assert not modules - set(FUNCTION_MODULES), (
        f"say whether these modules' functions do I/O (FUNCTION_MODULES): "
        f"{modules - set(FUNCTION_MODULES)}"
    )
    assert set(NOT_BLOCKING) <= {
        f"{cls}.{name}" for cls in IO_CLASSES for name in own_methods(public_classes()[cls])
    }


def test_the_twins_the_issue_named_are_found() -> None:
    """The walk reaches the calls that once had no twin."""
    labels = {label for label, _, _ in blocking_calls()}
    assert {
        "Client.bulk_submit",
        "Client.bulk_download",
        "BulkJob.download",
        "BulkJob.wait",
        "LiveFeed.next",
        "LiveFeed.batches",
        "marketcurves.bulk.read_bulk",
        "marketcurves.record.read_ticks",
        "marketcurves.record.compact",
        "marketcurves.lake.check_lake",
    } <= labels
    assert "Client.live" not in labels and "Client.settlements_async" not in labels


def test_the_rules_catch_what_they_are_for(sources: Any) -> None:
    """Made-up twins: each fault is named."""

    def pull(curve: str, start: str, *, progress: bool = False, cache: str | None = None) -> int:
        return 0

    async def same(curve: str, start: str, *, cache: str | None = None) -> int:
        return 0

    async def other_default(curve: str, start: str, *, cache: str | None = "use") -> int:
        return 0

    async def positional(curve: str, start: str, cache: str | None = None) -> int:
        return 0

    def not_async(curve: str, start: str, *, cache: str | None = None) -> int:
        return 0

    async def other_return(curve: str, start: str, *, cache: str | None = None) -> str:
        return ""

    def lines(n: int) -> Iterator[int]:
        yield n

    async def lines_async(n: int) -> Any:
        yield n

    assert twin_faults("pull", pull, same) == []
    assert twin_faults("pull", pull, None) == ["pull has no awaitable twin pull_async"]
    assert len(twin_faults("pull", pull, other_default)) == 1
    assert "keyword_only" in twin_faults("pull", pull, positional)[0]
    assert twin_faults("pull", pull, not_async) == [
        "pull_async is not a coroutine function (async def)"
    ]
    assert twin_faults("pull", pull, other_return) == ["pull_async returns str"]
    assert twin_faults("lines", lines, lines_async) == ["lines_async returns Any"]
    assert twin_faults("lines", lines, same)[0].endswith("asynchronous generator (async for)")

    # Out of the reference: a function the sources do not hold.
    assert reference_faults("pull", same, sources, reference_roots()) != []
    # In it: a real twin.
    twin = bulk.BulkJob.download_async
    assert reference_faults("BulkJob.download", twin, sources, reference_roots()) == []
    assert reference_faults("LiveFeed.next", live.LiveFeed.next_async, sources, set()) == [
        "no page of docs/reference/ renders LiveFeed.next_async or its class or module"
    ]
    assert record.read_ticks_async.__name__ in record.__all__


# Keyword-only after the data.

#: The parameters that name a call's data, taken by position: the curve and
#: its tenors, the range, the destination or source, the tables.
DATA = {
    "base_url",
    "settings",
    "feed",
    "curve",
    "curve_id",
    "tenor",
    "tenors",
    "vertical",
    "quotation",
    "region",
    "start",
    "end",
    "before",
    "on",
    "at",
    "dates",
    "dest",
    "subscriptions",
    "table",
    "built",
    "product",
    "crude",
    "near",
    "far",
    "settlements",
    "intraday",
    "curves",
    "name",
}

#: Calls whose other parameters are positional too, and why.
POSITIONAL_EXCEPTIONS = {
    "Tenor.range": "the kind is what is asked for, as the range is",
    "Tenor.parse": "strict: the compiled class's, still to follow the rule",
}

#: Classes whose constructors only the package calls, or whose fields are
#: their data (results), and the test tools.
CONSTRUCTED_BY_THE_PACKAGE = {
    "BackfillSummary",
    "BulkJob",
    "Curve",
    "LakeReport",
    "LiveFeed",
    "RecordSummary",
    "WorkerSettings",
}


def positional_options() -> list[str]:
    """``call(parameter)`` for each option a public call takes by position."""
    found = []

    def check(label: str, call: Any) -> None:
        if label in POSITIONAL_EXCEPTIONS:
            return
        try:
            signature = inspect.signature(call)
        except (TypeError, ValueError):
            return
        for p in signature.parameters.values():
            positional = p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            if positional and p.name not in DATA | {"self", "cls"}:
                found.append(f"{label}({p.name})")

    for path, obj in public_objects().items():
        if path.startswith("marketcurves.testing.") and obj is not marketcurves.testing.Emulator:
            continue  # the test tools' controls take their subject by position
        name = path.rsplit(".", 1)[-1]
        if inspect.isfunction(obj):
            check(name, obj)
        elif inspect.isclass(obj) and obj.__module__.startswith("marketcurves"):
            if issubclass(obj, (BaseException, tuple)) or is_typeddict(obj):
                continue
            if name not in CONSTRUCTED_BY_THE_PACKAGE and "__init__" in vars(obj):
                check(name, obj.__init__)
            if name == "Emulator":
                continue
            for member in vars(obj):
                if not member.startswith("_") and callable(getattr(obj, member)):
                    check(f"{name}.{member}", getattr(obj, member))
    return sorted(set(found))


def test_options_are_keyword_only() -> None:
    """Every public call takes its data by position and the rest by keyword."""
    assert positional_options() == []
