"""One version, written once in Cargo.toml: what the compiled core reports,
what the installed distribution declares, what ``marketcurves --version``
prints, and the newest release the changelog describes."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import marketcurves as mc

ROOT = Path(__file__).resolve().parent.parent


def cargo_version() -> str:
    manifest = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    section = manifest.split("[workspace.package]", 1)[1].split("\n[", 1)[0]
    match = re.search(r'^version\s*=\s*"([^"]+)"', section, re.MULTILINE)
    assert match, "Cargo.toml's [workspace.package] has no version"
    return match.group(1)


def test_the_package_reports_the_version_of_cargo_toml_and_of_its_metadata():
    assert mc.__version__ == cargo_version()
    assert mc.__version__ == importlib.metadata.version("marketcurves")


def test_the_console_script_prints_the_version():
    script = Path(sys.executable).parent / "marketcurves"
    result = subprocess.run(
        [str(script), "--version"], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == f"marketcurves {cargo_version()}"


def test_the_changelog_describes_this_version_first():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\]", changelog, re.MULTILINE)
    assert releases, "CHANGELOG.md has no release section"
    described = [r for r in releases if r != "Unreleased"]
    assert described[0] == cargo_version(), f"the newest release in CHANGELOG.md is {described[0]}"


def test_the_licence_file_is_the_one_the_metadata_declares_and_ships_in_the_wheel():
    metadata = importlib.metadata.metadata("marketcurves")
    declared = metadata.get("License-Expression") or metadata.get("License")
    assert declared, "the metadata declares no licence"
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith(f"{declared} License\n"), f"LICENSE is not the {declared} licence"
    shipped = [f for f in importlib.metadata.files("marketcurves") or [] if f.name == "LICENSE"]
    assert shipped, "the installed distribution carries no LICENSE file"
    assert shipped[0].read_text(encoding="utf-8") == licence
