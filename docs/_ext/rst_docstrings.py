"""A griffe extension that lets the package's docstrings, written for
``help()`` and reStructuredText, read well on the mkdocs site.

Two things would render badly as Markdown: Sphinx roles
(``:class:`~marketcurves.Client```) would show as literal text, and doctest
lines (``>>> ...``) would become nested block quotes. Roles become
mkdocstrings cross-references when their target is an object of the
package (looked up as Python would, from the object's class and module
outwards), plain code otherwise; so do the exceptions that Raises
sections name. Doctests become ``pycon`` code blocks (those of a
Google-style ``Examples:`` section already are).
The docstrings themselves stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|meth|func|attr|data|mod|exc|obj):`(~?)([\w.]+)`")
# Directives for the doctest runner, not for the reader.
_DIRECTIVE = re.compile(r"\s*# doctest: .*$")
_EXAMPLES = re.compile(r"^\s*Examples:\s*$")


class RstDocstrings(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = _rewrite(obj.docstring.value, obj, loader)
                _link_raised(obj, loader)


def _link_raised(obj: griffe.Object, loader: griffe.GriffeLoader) -> None:
    """Links the exceptions a Raises (or Warns) section names, looked up as
    the roles are: ``NotFound`` in a module that does not import it is the
    package's ``marketcurves.NotFound``."""
    assert obj.docstring is not None
    for section in obj.docstring.parsed:
        if section.kind not in (
            griffe.DocstringSectionKind.raises,
            griffe.DocstringSectionKind.warns,
        ):
            continue
        for item in section.value:
            name = item.annotation
            if not isinstance(name, griffe.ExprName) or _in_scope(name):
                continue
            path = _resolve(name.name, obj, loader)
            if path is not None:
                home = loader.modules_collection.get_member(path.rsplit(".", 1)[0])
                item.annotation = griffe.ExprName(name.name, parent=home)


def _in_scope(name: griffe.ExprName) -> bool:
    # An unresolved name is its own canonical path.
    return name.canonical_path != name.name


def _rewrite(text: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str:
    return _ROLE.sub(lambda m: _reference(m, obj, loader), _fence_doctests(text))


def _objects(obj: griffe.Object) -> Any:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)  # type: ignore[arg-type]


def _reference(match: re.Match[str], obj: griffe.Object, loader: griffe.GriffeLoader) -> str:
    short, target = match.group(1), match.group(2)
    label = target.rsplit(".", 1)[-1] if short else target
    path = _resolve(target, obj, loader)
    return f"`{label}`" if path is None else f"[`{label}`][{path}]"


def _resolve(target: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str | None:
    """The canonical path of ``target`` seen from ``obj``: a member of the
    object itself, of its class, of its module, or of the package."""
    scopes = [obj.path]
    parent = obj.parent
    while parent is not None:
        scopes.append(parent.path)
        parent = parent.parent
    for scope in [*scopes, ""]:
        path = f"{scope}.{target}" if scope else target
        try:
            found = loader.modules_collection.get_member(path)
        except (KeyError, ValueError, griffe.AliasResolutionError):
            # An alias on the way that points outside the package
            # (``html.escape`` from a module that imports ``html``).
            continue
        try:
            return found.canonical_path
        except griffe.AliasResolutionError:
            return None
    return None


def _fence_doctests(text: str) -> str:
    """Wraps each run of doctest lines (a ``>>>`` line, its ``...``
    continuations and its output, up to a blank line) in a pycon block,
    without their ``# doctest:`` directives. In an ``Examples:`` section
    the docstring parser makes the blocks itself: there, only the
    directives go."""
    out: list[str] = []
    in_block = False
    examples: int | None = None  # the indentation of an Examples: title
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if examples is not None and line.strip() and indent <= examples:
            examples = None
        if _EXAMPLES.match(line):
            examples = indent
        starts = line.lstrip().startswith(">>>")
        if examples is not None:
            out.append(_DIRECTIVE.sub("", line) if starts else line)
            continue
        if starts and not in_block:
            out.append("```pycon")
            in_block = True
        elif in_block and not line.strip():
            out.append("```")
            in_block = False
        out.append(_DIRECTIVE.sub("", line) if in_block else line)
    if in_block:
        out.append("```")
    return "\n".join(out)
