"""Checks a Linux wheel before it is published:

- its platform tag is one a package index accepts, no newer than
  manylinux_2_28, and its binaries keep what the tag promises, as auditwheel
  reads them (the glibc symbol versions they reference, the libraries they
  link);
- its extension modules carry no symbol table and no debug information,
  which users never need: the release profile strips them, and this keeps
  a change of profile or linker from bringing them back unseen;
- they carry no test code: the benchmarks' live probe (`_probe_live`, cargo
  feature `probe`) is left out.

Usage: ``python scripts/check_wheel.py WHEEL``, with auditwheel (and so
pyelftools) installed in that python (scripts/dist does both).
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

from elftools.elf.elffile import ELFFile

#: The newest glibc a published wheel may need: manylinux_2_28 runs on RHEL 8,
#: Debian 10, Ubuntu 18.10 and later.
NEWEST = (2, 28)

#: The legacy names of manylinux tags, and the glibc each stands for (PEP 600).
LEGACY = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}

TAG = re.compile(r"(?P<name>manylinux|musllinux)_(?P<major>\d+)_(?P<minor>\d+)_\w+")


def libc_version(tag: str) -> tuple[str, tuple[int, int]] | None:
    """``("manylinux", (2, 28))`` for ``manylinux_2_28_x86_64``; None for a
    tag an index refuses (``linux_x86_64``)."""
    for legacy, version in LEGACY.items():
        if tag.startswith(legacy + "_"):
            return "manylinux", version
    match = TAG.fullmatch(tag)
    if match is None:
        return None
    return match["name"], (int(match["major"]), int(match["minor"]))


def check_tag(wheel: Path) -> int:
    # name-version(-build)?-python-abi-platform.whl; the platform may be
    # several tags joined by dots.
    platform_tags = wheel.stem.split("-")[-1].split(".")
    claimed = [(tag, libc_version(tag)) for tag in platform_tags]
    refused = [tag for tag, version in claimed if version is None]
    if refused:
        print(f"error: {wheel.name}: {', '.join(refused)} is not a tag an index accepts")
        return 1
    families = {version[0] for _, version in claimed if version}
    oldest = min(version[1] for _, version in claimed if version)
    newest = max(version[1] for _, version in claimed if version)
    if families == {"manylinux"} and newest > NEWEST:
        print(
            f"error: {wheel.name} claims glibc {'.'.join(map(str, newest))}, "
            f"newer than {'.'.join(map(str, NEWEST))} (manylinux_2_28)"
        )
        return 1

    shown = subprocess.run(
        [sys.executable, "-m", "auditwheel", "show", "--json", str(wheel)],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(shown.stdout)
    audited = libc_version(report["overall_tag"])
    if audited is None or audited[0] not in families or audited[1] > oldest:
        print(
            f"error: {wheel.name} claims {'.'.join(platform_tags)}, "
            f"but auditwheel finds its binaries need {report['overall_tag']}"
        )
        return 1
    print(
        f"{wheel.name}: tagged {'.'.join(platform_tags)}; "
        f"auditwheel finds it needs no more than {report['overall_tag']}"
    )
    return 0


def extension_modules(wheel: Path) -> Iterator[tuple[zipfile.ZipInfo, bytes]]:
    """Each extension module of the wheel, with its bytes."""
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.infolist():
            if member.filename.endswith(".so"):
                yield member, archive.read(member)


def check_stripped(wheel: Path) -> int:
    failures = 0
    for member, binary in extension_modules(wheel):
        elf = ELFFile(io.BytesIO(binary))
        kept = [
            section.name
            for section in elf.iter_sections()
            if section.name == ".symtab" or section.name.startswith(".debug")
        ]
        if kept:
            print(f"error: {member.filename} is not stripped: it has {', '.join(kept)}")
            failures += 1
        else:
            print(f"{member.filename}: stripped, {member.file_size:,} bytes")
    return failures


#: Names that only test code defines, and so no published wheel may hold.
TEST_ONLY = (b"_probe_live",)


def check_no_test_code(wheel: Path) -> int:
    failures = 0
    for member, binary in extension_modules(wheel):
        found = [name.decode() for name in TEST_ONLY if name in binary]
        if found:
            print(f"error: {member.filename} holds test code: {', '.join(found)}")
            failures += 1
        else:
            print(f"{member.filename}: no test code")
    return failures


def main(wheel: Path) -> int:
    failures = check_tag(wheel) + check_stripped(wheel) + check_no_test_code(wheel)
    print(f"{wheel.name}: {wheel.stat().st_size:,} bytes")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
