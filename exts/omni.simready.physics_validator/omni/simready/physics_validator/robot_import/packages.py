"""Where a URDF's `package://NAME/...` paths point: found before the converter runs, said, never guessed silently.

urdf-usd-converter resolves `package://NAME/rest` with its `--package NAME=DIR` arguments; without one it reads
`rest` beside the URDF, and a mesh it cannot open is a warning: it exits 0 and writes a robot without meshes. A
relative DIR is read from the URDF's folder, not from where the user stands. So every package is resolved here, to
an absolute folder, in this order, and the way it was found is printed:

1. `--package NAME=DIR` (DIR relative to the current folder, as a user means it);
2. a ROS `package.xml` whose `<name>` is NAME: in the URDF's folder or a folder above it, or in a folder beside one of
   those (a workspace's `src/<pkg>/`), then in each folder of ROS_PACKAGE_PATH and AMENT_PREFIX_PATH's `share/`;
3. a folder above the URDF named NAME (a package installed without its package.xml);
4. the nearest folder above the URDF that holds every file the URDF names in that package (rtb-data's ABB IRB 140
   names `package://abb_irb140_support/...` from a folder called abb_irb140_description).
A package found by none of these is a usage error naming the flag to pass.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

SIBLING_LIMIT = 500  # folders looked at beside each folder above the URDF (a home folder must not be walked whole)


@dataclass(frozen=True)
class Resolution:
    name: str
    folder: Path | None
    how: str  # "--package", "package.xml", "ROS_PACKAGE_PATH", "folder name", "the files it holds"; "" unresolved


def split_uri(uri: str) -> tuple[str, str] | None:
    """('pkg', 'meshes/a.stl') for 'package://pkg/meshes/a.stl', else None."""
    if not uri.startswith("package://"):
        return None
    name, _, rest = uri[len("package://"):].partition("/")
    return name, rest


def parse_package_flags(flags: list[str], cwd: Path) -> dict[str, Path]:
    """`--package NAME=DIR` values: DIR made absolute against `cwd`; a malformed flag or a missing folder raises
    ValueError with the sentence to show."""
    packages: dict[str, Path] = {}
    for flag in flags:
        name, sep, folder = flag.partition("=")
        if not sep or not name.strip() or not folder.strip():
            raise ValueError(f"--package {flag!r}: expected NAME=DIR, e.g. --package my_robot_description=./my_robot")
        path = (cwd / Path(folder.strip()).expanduser()).resolve()
        if not path.is_dir():
            raise ValueError(f"--package {name}={folder}: no such folder ({path})")
        packages[name.strip()] = path
    return packages


def resolve(names: dict[str, list[str]], source: Path, explicit: dict[str, Path]) -> dict[str, Resolution]:
    """Each package NAME (with the relative paths the source names in it) resolved to a folder, or unresolved."""
    above = [source.parent, *source.parent.parents]
    manifests = _manifests(above)
    found: dict[str, Resolution] = {}
    for name, files in names.items():
        if name in explicit:
            found[name] = Resolution(name, explicit[name], "--package")
        elif name in manifests:
            found[name] = Resolution(name, manifests[name][0], manifests[name][1])
        elif any(folder.name == name for folder in above):
            found[name] = Resolution(name, next(f for f in above if f.name == name), "folder name")
        else:
            holder = next((f for f in above if files and all((f / rel).is_file() for rel in files)), None)
            found[name] = Resolution(name, holder, "the files it holds" if holder else "")
    return found


def _manifests(above: list[Path]) -> dict[str, tuple[Path, str]]:
    """package name -> (its folder, how found): the nearest package.xml wins."""
    seen: dict[str, tuple[Path, str]] = {}

    def note(folder: Path, how: str) -> None:
        name = _package_name(folder / "package.xml")
        if name and name not in seen:
            seen[name] = (folder, how)

    for folder in above:
        note(folder, "package.xml")
        for sibling in _subfolders(folder):
            note(sibling, "package.xml")
    for entry in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep):
        if entry:
            note(Path(entry), "ROS_PACKAGE_PATH")
            for sub in _subfolders(Path(entry)):
                note(sub, "ROS_PACKAGE_PATH")
    for prefix in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep):
        if prefix:
            for sub in _subfolders(Path(prefix) / "share"):
                note(sub, "AMENT_PREFIX_PATH")
    return seen


def _subfolders(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as entries:
            out: list[Path] = []
            for entry in entries:
                if len(out) >= SIBLING_LIMIT:
                    break
                if entry.is_dir(follow_symlinks=False):
                    out.append(Path(entry.path))
            return out
    except OSError:
        return []


def _package_name(manifest: Path) -> str:
    try:
        if not manifest.is_file() or manifest.stat().st_size > 1 << 20:
            return ""
        name = ET.parse(manifest).getroot().find("name")
    except (OSError, ET.ParseError):
        return ""
    return (name.text or "").strip() if name is not None else ""
