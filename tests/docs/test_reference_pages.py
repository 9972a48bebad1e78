"""The API reference, as built, reads as a reference: no attribute shows
the code that computes it, and every function and method says what it
takes and what it gives back.

The rules, checked on every page under ``site/reference/``:

- **Attributes show no implementation.** An attribute's rendered value
  never names the package's private modules (``_args.``, ``_core.``...),
  and an instance attribute that only ``__init__`` assigns (which the
  reference can only show as the statement that assigns it) shows no value
  at all: such an attribute is declared on its class with a type and a
  docstring, or made a property. A class attribute's value (a constant, a
  type alias, a dataclass field's default) is its declaration, and shown.
- **Functions and methods have a Parameters section naming each of their
  parameters** (``**filters`` included). A function or method with no
  parameters besides ``self`` or ``cls`` is exempt: there is nothing to
  list. A class whose constructor the reference shows (its signature on the
  class's heading) names each parameter in a Parameters section, or as one
  of the class's documented attributes (the fields of a dataclass); one the
  package alone makes (``LiveFeed``) shows none (docs/_ext/special_methods.py).
  An awaitable twin (``settlements_async``) is held to the rule as rendered,
  with the sections docs/_ext/async_twins.py gives it from its blocking form.
- **What returns a value has a Returns section** (or Yields, for an
  iterator): a signature whose return annotation is not ``None``.
- **Signatures are formatted**: no line of one is longer than
  ``SIGNATURE_WIDTH``. mkdocstrings formats them with ruff (of the docs
  dependency group); without it, it prints each on one line.

``PENDING`` names the objects whose docstrings do not follow the last two
rules yet, by the start of their path. They are still held to the first
rule; once every object a prefix names follows the others, the test says
to take the prefix off the list, so the list can only shrink.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

#: The objects, by the start of their path, whose docstrings are still to
#: be given their Parameters and Returns sections.
PENDING: tuple[str, ...] = ()

#: The longest line of a formatted signature (mkdocstrings breaks them at 60).
SIGNATURE_WIDTH = 100

_PRIVATE_MODULE = r"(?<![\w.])_[a-z]\w*\."


# Reading the built pages.
#
# Reads the API reference as mkdocs built it: the objects of each page
# (``site/reference/**/index.html``), each with its kind, its id (the path
# the page gives it), its rendered signature, labels and docstring sections.
#
# The markup read is mkdocstrings-python's: an object is a ``div`` of classes
# ``doc doc-object doc-<kind>``, its heading carries its id, its signature is
# in ``div.doc-signature`` and its sections open with
# ``span.doc-section-title`` ("Parameters:", "Returns:"...), a parameter
# being a ``tr.doc-section-item`` whose first cell names it.

_VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass
class Element:
    tag: str
    classes: tuple[str, ...]
    id: str | None
    children: list[Element | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def elements(self) -> list[Element]:
        return [c for c in self.children if isinstance(c, Element)]

    def walk(self, into_objects: bool = True) -> list[Element]:
        """Every element below this one, in document order; without those
        of nested objects unless ``into_objects``."""
        found: list[Element] = []
        for child in self.elements():
            found.append(child)
            if into_objects or "doc-object" not in child.classes:
                found.extend(child.walk(into_objects))
        return found


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("root", (), None)
        self._open = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        element = Element(tag, tuple((values.get("class") or "").split()), values.get("id"))
        self._open[-1].children.append(element)
        if tag not in _VOID:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self._open) - 1, 0, -1):
            if self._open[depth].tag == tag:
                del self._open[depth:]
                return

    def handle_data(self, data: str) -> None:
        self._open[-1].children.append(data)


@dataclass(frozen=True)
class RenderedObject:
    page: str
    kind: str  # module, class, function, attribute
    path: str
    signature: str
    labels: tuple[str, ...]
    #: Section title ("Parameters", "Returns"...) -> the names its rows
    #: start with (a parameter's name; empty for sections without names).
    sections: dict[str, list[str]]

    @property
    def parameters(self) -> list[str]:
        """The names of the parameters in the rendered signature (of a
        function, or of a class's constructor), ``*args`` and ``**kwargs``
        with their stars; ``self`` and ``cls`` are never rendered."""
        return signature_parameters(self.signature)

    @property
    def returns(self) -> str | None:
        """The rendered return annotation, if any."""
        found = re.search(r"\)\s*->\s*(.+?)\s*$", self.signature, re.S)
        return None if found is None else found.group(1)


def objects(site: Path) -> list[RenderedObject]:
    """Every object every reference page renders, in page order."""
    found: list[RenderedObject] = []
    for page in sorted((site / "reference").rglob("*.html")):
        builder = _Builder()
        builder.feed(page.read_text(encoding="utf-8"))
        name = page.relative_to(site).parent.as_posix()
        for element in builder.root.walk():
            if "doc-object" in element.classes:
                found.append(_rendered(name, element))
    return found


def _rendered(page: str, element: Element) -> RenderedObject:
    kind = next(
        c[len("doc-") :] for c in element.classes if c.startswith("doc-") and c != "doc-object"
    )
    own = element.walk(into_objects=False)
    heading = next(e for e in own if e.tag in ("h1", "h2", "h3", "h4", "h5", "h6") and e.id)
    signature = next((e.text() for e in own if "doc-signature" in e.classes), "")
    labels = tuple(e.text().strip() for e in own if "doc-label" in e.classes)
    return RenderedObject(
        page=page,
        kind=kind,
        path=heading.id or "",
        signature=signature.strip(),
        labels=labels,
        sections=_sections(own),
    )


def _sections(own: list[Element]) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for element in own:
        if "doc-section-title" in element.classes:
            current = sections.setdefault(element.text().strip().rstrip(":"), [])
        elif "doc-section-item" in element.classes and current is not None:
            cells = element.elements()
            if cells:
                current.append(cells[0].text().strip())
    return sections


def signature_parameters(signature: str) -> list[str]:
    """The parameter names of ``name(a: int, *, b=1) -> X`` (``a``, ``b``)."""
    start = signature.find("(")
    if start < 0:
        return []
    depth, part, parts = 0, "", []
    for char in signature[start + 1 :]:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        if char == "," and depth == 0:
            parts.append(part)
            part = ""
        else:
            part += char
    parts.append(part)
    names = []
    for text in parts:
        name = re.split(r"[:=]", text, maxsplit=1)[0].strip()
        if name and name not in ("*", "/"):
            names.append(name)
    return names


@pytest.fixture(scope="module")
def rendered(site: Path) -> list[RenderedObject]:
    found = objects(site)
    assert len(found) > 100, "the reference pages hold too few objects: did the markup change?"
    return found


def implementation_shown(obj: RenderedObject) -> str | None:
    """Why an attribute's rendering shows code rather than a value, if it does."""
    if obj.kind != "attribute":
        return None
    if re.search(_PRIVATE_MODULE, obj.signature):
        return "names a private module"
    # A class attribute's value is its declaration (a dataclass field's
    # default); one only ``__init__`` assigns is shown as that statement.
    assigned = "instance-attribute" in obj.labels and "class-attribute" not in obj.labels
    if assigned and "=" in obj.signature:
        return "shows the statement of __init__ that assigns it"
    return None


def undocumented(obj: RenderedObject, documented: set[str]) -> list[str]:
    """What ``obj`` lacks under the last two rules (empty if nothing)."""
    if obj.kind not in ("function", "class"):
        return []
    lacks: list[str] = []
    listed = set(obj.sections.get("Parameters", []))
    for name in obj.parameters:
        if name in listed:
            continue
        if obj.kind == "class" and f"{obj.path}.{name.lstrip('*')}" in documented:
            continue
        lacks.append(f"parameter {name}")
    if obj.kind == "function" and obj.returns not in (None, "None"):
        if not {"Returns", "Yields"} & obj.sections.keys():
            lacks.append("a Returns section")
    return lacks


def test_no_attribute_renders_as_its_implementation(rendered: list[RenderedObject]) -> None:
    shown = {
        f"{obj.page}: {obj.path} ({why}): {obj.signature}"
        for obj in rendered
        if (why := implementation_shown(obj)) is not None
    }
    assert not shown, "attributes rendered as code:\n" + "\n".join(sorted(shown))


def test_every_function_says_what_it_takes_and_returns(rendered: list[RenderedObject]) -> None:
    documented = {obj.path for obj in rendered}
    lacking = {
        f"{obj.page}: {obj.path} lacks {', '.join(lacks)}"
        for obj in rendered
        if not obj.path.startswith(PENDING) and (lacks := undocumented(obj, documented))
    }
    assert not lacking, "the reference does not document:\n" + "\n".join(sorted(lacking))


def test_signatures_are_formatted(rendered: list[RenderedObject]) -> None:
    long = {
        f"{obj.page}: {obj.path}"
        for obj in rendered
        if any(len(line) > SIGNATURE_WIDTH for line in obj.signature.splitlines())
    }
    assert not long, "signatures on one long line (is ruff installed?):\n" + "\n".join(sorted(long))


def test_pending_objects_are_still_pending(rendered: list[RenderedObject]) -> None:
    """A prefix of ``PENDING`` whose objects are all documented comes off
    the list."""
    documented = {obj.path for obj in rendered}
    for prefix in PENDING:
        named = [o for o in rendered if o.path.startswith(prefix)]
        assert named, f"no object of the reference starts with {prefix}: take it off PENDING"
        if not any(undocumented(o, documented) for o in named):
            pytest.fail(f"every object of {prefix} is documented: take it off PENDING")


def test_the_rules_catch_what_they_are_for() -> None:
    """The checks above on made-up renderings: today's faults are caught."""
    base_url = RenderedObject(
        page="reference/client",
        kind="attribute",
        path="marketcurves.Client.base_url",
        signature="base_url = _args.url(base, 'base_url', ('http', 'https'))",
        labels=("instance-attribute",),
        sections={},
    )
    assert implementation_shown(base_url) == "names a private module"
    copied = RenderedObject(
        "p", "attribute", "x.E.field", "field = field", ("instance-attribute",), {}
    )
    assert implementation_shown(copied) is not None
    default = RenderedObject(
        "p",
        "attribute",
        "x.S.tasks",
        "tasks: int = 0",
        ("class-attribute", "instance-attribute"),
        {},
    )
    assert implementation_shown(default) is None
    alias = RenderedObject(
        "p", "attribute", "x.Mode", "Mode = Literal['a', 'b']", ("module-attribute",), {}
    )
    assert implementation_shown(alias) is None

    settlements = RenderedObject(
        page="reference/client",
        kind="function",
        path="marketcurves.Client.settlements",
        signature="settlements(\n    curve_id: str | Curve,\n    tenors: list[str] | None = None,\n"
        "    *,\n    cache: CacheMode | None = None,\n    **filters: str,\n) -> Table",
        labels=(),
        sections={"Parameters": ["curve_id", "tenors"]},
    )
    assert undocumented(settlements, set()) == [
        "parameter cache",
        "parameter **filters",
        "a Returns section",
    ]
    close = RenderedObject("p", "function", "x.C.close", "close() -> None", (), {})
    assert undocumented(close, set()) == []
    summary = RenderedObject("p", "class", "x.S", "S(tasks: int = 0, files: int = 0)", (), {})
    assert undocumented(summary, {"x.S.tasks", "x.S.files"}) == []
    assert signature_parameters("f(a: dict[str, int] = {}, *args, b: T = g(1, 2), **kw) -> X") == [
        "a",
        "*args",
        "b",
        "**kw",
    ]
