"""The documentation site builds with ``mkdocs build --strict`` (a broken
link, anchor or cross-reference fails it; the ``site`` fixture of the
suite's conftest), and its API reference documents every public name of the
package and every public method of its classes."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

from docs_helpers import REPO

import marketcurves

#: The modules whose ``__all__`` is public API besides ``marketcurves`` itself.
PUBLIC_MODULES = ("cache", "curves", "exceptions", "live", "plot", "record", "testing", "widgets")


def anchors(site: Path) -> set[str]:
    """The ids of every object the reference renders."""
    found: set[str] = set()
    for page in (site / "reference").rglob("*.html"):
        found.update(re.findall(r'id="(marketcurves[\w.]*)"', page.read_text(encoding="utf-8")))
    return found


def public_objects() -> dict[str, object]:
    """Every public name, by the path a user reaches it under."""
    objects = {f"marketcurves.{name}": getattr(marketcurves, name) for name in marketcurves.__all__}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(f"marketcurves.{module_name}")
        for name in module.__all__:
            objects[f"{module.__name__}.{name}"] = getattr(module, name)
    return objects


def where_defined(path: str, obj: object) -> set[str]:
    """The paths an object may be documented under: where it is reached, and
    where it is defined (``marketcurves.LiveFeed`` is ``marketcurves.live.LiveFeed``)."""
    paths = {path}
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str) and module.startswith("marketcurves"):
        paths.add(f"{module}.{qualname}")
    return paths


def own_public_members(cls: type) -> set[str]:
    """Public attributes the package defines on a class (not those of the
    standard library's bases, such as ``Sequence.index``)."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass.__module__.startswith("marketcurves"):
            names.update(n for n in vars(klass) if not n.startswith("_"))
    return names


def test_the_site_builds_strictly(site: Path) -> None:
    assert (site / "index.html").is_file()
    assert (site / "reference" / "client" / "index.html").is_file()


def test_the_plots_pages_pictures_are_drawn_by_the_build(site: Path) -> None:
    """docs/_ext/plot_images.py draws each picture the plots page links to
    (none is kept in the repository) and the page shows it."""
    linked = re.findall(r"\]\((images/[\w.-]+\.png)\)", (REPO / "docs" / "plots.md").read_text())
    assert len(linked) == 5
    page = (site / "plots" / "index.html").read_text(encoding="utf-8")
    for picture in linked:
        png = (site / picture).read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n"), picture
        assert len(png) > 10_000, f"{picture} is nearly empty"
        assert f'src="../{picture}"' in page
        assert not (REPO / "docs" / picture).exists(), (
            f"{picture} is in docs/: leave it to the build"
        )


def missing_from(documented: set[str]) -> list[str]:
    """The public names and methods with no place among ``documented``."""
    missing: list[str] = []
    for path, obj in public_objects().items():
        homes = where_defined(path, obj) & documented
        if not homes:
            missing.append(path)
            continue
        if inspect.isclass(obj):
            for member in sorted(own_public_members(obj)):
                if not {f"{home}.{member}" for home in homes} & documented:
                    missing.append(f"{path}.{member}")
    return missing


def test_every_public_name_and_method_is_in_the_reference(site: Path) -> None:
    missing = missing_from(anchors(site))
    assert not missing, f"not in the API reference (docs/reference/): {missing}"


def test_a_name_left_out_of_the_reference_is_reported(site: Path) -> None:
    documented = anchors(site) - {
        "marketcurves.Client.settlements",
        "marketcurves.live.LiveFeed.batches",
        "marketcurves.curves.crack",
    }
    assert set(missing_from(documented)) == {
        "marketcurves.Client.settlements",
        "marketcurves.LiveFeed.batches",
        "marketcurves.live.LiveFeed.batches",
        "marketcurves.curves.crack",
    }
