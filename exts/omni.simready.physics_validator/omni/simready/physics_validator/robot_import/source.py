"""What a URDF or MJCF source holds before conversion: its kind, name, joints and the mesh files each link names.

The arrival check (arrival.py) compares the converted USD with this. A URDF is read here (its XML is plain); an MJCF
is read by MuJoCo itself in the converters' venv (mjcf_probe.py), which resolves includes, default classes and
meshdir as the converter will. A source that is neither, a xacro file, or XML that does not parse is a SourceError:
the command line's usage error.
"""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from . import packages
from .packages import Resolution
from .converter_env import clean_env

MAX_SOURCE_BYTES = 64 << 20  # a URDF or MJCF larger than this is not a robot description
PROBE_SECONDS = 300
URDF_MOVABLE = ("revolute", "continuous", "prismatic")
MJCF_MOVABLE = ("hinge", "slide")
# File stems and model names that say nothing about the robot (robosuite's `robot.xml`, MuJoCo's default model name):
# the output is named after the folder instead.
GENERIC_NAMES = {"robot", "model", "scene", "main", "index", "description", "mujoco model", "mujoco_model", "urdf", "mjcf"}


class SourceError(ValueError):
    """The source cannot be imported as given (the sentence says why and what to do)."""


class ConversionError(RuntimeError):
    """A converter (or MuJoCo in the converters' venv) failed on a source it should read: its message, its output
    (`log`) and where that was kept (`log_path`, once written)."""

    def __init__(self, message: str, log: str = ""):
        super().__init__(message)
        self.log = log
        self.log_path: Path | None = None


@dataclass
class SourceJoint:
    name: str
    kind: str  # URDF: revolute continuous prismatic fixed floating planar; MJCF: hinge slide ball free
    mimic: str = ""  # the URDF joint this one mimics

    @property
    def movable(self) -> bool:
        return self.kind in URDF_MOVABLE + MJCF_MOVABLE


@dataclass
class MeshFile:
    uri: str  # as the source writes it
    path: Path | None  # resolved, absolute; None while its package is unresolved
    exists: bool = False


@dataclass
class SourceModel:
    kind: str  # "urdf" | "mjcf"
    path: Path
    name: str  # the robot's own name (URDF <robot name>, MJCF <mujoco model>)
    joints: list[SourceJoint] = field(default_factory=list)
    links: dict[str, list[MeshFile]] = field(default_factory=dict)  # link/body -> the mesh files its geometry names
    packages: dict[str, Resolution] = field(default_factory=dict)

    @property
    def movable_joints(self) -> list[SourceJoint]:
        return [j for j in self.joints if j.movable]

    @property
    def unresolved(self) -> list[Resolution]:
        return [r for r in self.packages.values() if r.folder is None]

    @property
    def missing_files(self) -> list[tuple[str, MeshFile]]:
        return [(link, m) for link, meshes in self.links.items() for m in meshes if m.path is not None and not m.exists]


def kind_of(path: Path) -> str:
    """'urdf' or 'mjcf' by the root element (never by the extension); a SourceError otherwise."""
    root = _root(path)
    if root.tag == "robot":
        if any(str(el.tag).startswith("{http://www.ros.org/wiki/xacro}") for el in root.iter()) or path.suffix == ".xacro":
            raise SourceError(f"{path.name} is a xacro file: expand it first (pip install xacro; xacro {path.name} > "
                              f"robot.urdf), then import robot.urdf")
        return "urdf"
    if root.tag == "mujoco":
        return "mjcf"
    raise SourceError(f"{path.name} is neither a URDF (<robot>) nor an MJCF (<mujoco>) file: its root element is <{root.tag}>")


def read_urdf(path: Path, explicit: dict[str, Path]) -> SourceModel:
    """Joints, links' mesh files and package:// folders of a URDF (packages resolved as packages.py says)."""
    root = _root(path)
    model = SourceModel("urdf", path, root.get("name") or path.stem)
    for joint in root.findall("joint"):
        mimic = joint.find("mimic")
        model.joints.append(SourceJoint(joint.get("name") or "", joint.get("type") or "?",
                                        mimic.get("joint", "") if mimic is not None else ""))
    uris = {link.get("name") or "": [m.get("filename") or "" for tag in ("visual", "collision")
                                     for m in link.findall(f"{tag}/geometry/mesh")] for link in root.findall("link")}
    wanted: dict[str, list[str]] = {}
    for uri in (u for names in uris.values() for u in names):
        split = packages.split_uri(uri)
        if split:
            wanted.setdefault(split[0], []).append(split[1])
    model.packages = packages.resolve(wanted, path, explicit)
    for link, names in uris.items():
        model.links[link] = [_mesh_file(uri, path, model.packages) for uri in names]
    return model


def read_mjcf(path: Path, python: Path) -> SourceModel:
    """An MJCF as MuJoCo compiles it (in the converters' venv: `python`); a model that does not compile is a
    SourceError with MuJoCo's message."""
    probe = Path(__file__).with_name("mjcf_probe.py")
    try:
        run = subprocess.run([str(python), str(probe), str(path)], capture_output=True, text=True, timeout=PROBE_SECONDS,
                             stdin=subprocess.DEVNULL, env=clean_env())
    except (subprocess.TimeoutExpired, OSError) as exc:
        raise ConversionError(f"MuJoCo could not read {path.name}: {exc}") from None
    try:
        found = json.loads(run.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        raise ConversionError(f"MuJoCo could not read {path.name} (exit {run.returncode}): "
                              f"{run.stderr.strip()[-500:] or 'no output'}") from None
    if "error" in found:
        raise SourceError(f"MuJoCo 3.16 (the converter's) cannot compile {path.name}: {found['error']}")
    model = SourceModel("mjcf", path, found["name"])
    model.joints = [SourceJoint(j["name"], j["kind"]) for j in found["joints"]]
    base = path.parent / found.get("meshdir", "")
    model.links = {body: [MeshFile(f, (base / f).resolve(), (base / f).is_file()) for f in files]
                   for body, files in found["links"].items()}
    return model


def output_name(model: SourceModel) -> str:
    """A file-system-safe name for the output: the source's file name, unless it says nothing about the robot
    (robot.xml), then the robot's own name, then its folder's."""
    for candidate in (model.path.stem, model.name, model.path.parent.name):
        name = safe_name(candidate)
        if name and name.lower() not in GENERIC_NAMES and candidate.lower() not in GENERIC_NAMES:
            return name
    return safe_name(model.path.stem) or "robot"


def safe_name(text: str) -> str:
    """Letters, digits, '.', '-' and '_' only (spaces and the rest become '_'), no leading dot, at most 80 characters."""
    return re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9._-]", "_", text.strip())).strip("._")[:80]


def _mesh_file(uri: str, urdf: Path, resolved: dict[str, Resolution]) -> MeshFile:
    split = packages.split_uri(uri)
    if split:
        folder = resolved[split[0]].folder
        path = (folder / split[1]) if folder else None
    elif uri.startswith("file://"):
        path = Path(unquote(urlparse(uri).path))
    else:
        path = urdf.parent / uri
    return MeshFile(uri, path.resolve() if path else None, bool(path and path.is_file()))


def _root(path: Path) -> ET.Element:
    try:
        if path.stat().st_size > MAX_SOURCE_BYTES:
            raise SourceError(f"{path.name} is larger than {MAX_SOURCE_BYTES >> 20} MiB: not a robot description")
        return ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise SourceError(f"{path.name} is not well-formed XML: {exc}") from None
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None
