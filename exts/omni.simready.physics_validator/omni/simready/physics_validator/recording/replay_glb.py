"""A test's 3D replay as one glTF 2.0 binary (`<test>.replay.glb`): what the report's viewer plays, and any glTF tool.

Built from what the recording keeps (every captured body pose, the chapters, the joint under test, the forces) and
the asset's render geometry (replay_geometry: split by colour, decimated to a budget). No frame is drawn here: the
browser draws it (reports/viewer), so writing a replay costs milliseconds where a video cost seconds.

The file (glTF 2.0 JSON and one binary buffer, framed as GLB here; pygltflib and trimesh read it in the tests):
- a root node turning the recording's SI Z-up world into glTF's Y-up (metres either way), and under it one node per
  rigid body (its render geometry in the body's frame; the prim path in the node's extras);
- one animation, "replay", on the simulated time axis (seconds): per body a translation and a rotation channel,
  only the samples a viewer's interpolation would miss by more than keyframes' tolerances (0.2 mm, 0.05 deg); the
  joint under test as a chartreuse sphere at its anchor on the body it moves, shown (scale 1) during its chapters;
  the applied forces as magenta arrows from their points (shown while applied: STEP channels);
- the scene's extras (`simready_replay`): test, verdict, reason, the verdict's moment, the chapters with each joint's
  own verdict, the loads in newtons, the floor of the test's scene, and what was kept (triangles, samples).
Beside it `<test>.replay.glb.js` holds the same bytes (zlib, base64) for the HTML report opened from disk: a page from
file:// may load a script, but not fetch a file.
"""

from __future__ import annotations

import base64
import json
import math
import re
import struct
import zlib
from pathlib import Path

import numpy as np

from ..core import out_writer
from .keyframes import POSITION_TOLERANCE_M, ROTATION_TOLERANCE_RAD, continuous, keyframes
from .replay_geometry import ReplayGeometry

REPLAY_SUFFIX = ".replay.glb"
SCRIPT_SUFFIX = ".replay.glb.js"
FORMAT = "simready-replay/1"
Z_UP_TO_Y_UP = [-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)]  # x, y, z, w: -90 deg about X
MARKER_COLOR = (0.72, 1.0, 0.0)  # chartreuse, as the video's joint marker (recording.renderer)
FORCE_COLOR = (1.0, 0.08, 0.85)  # magenta, as the video's arrows
MARKER_SHARE = 0.02  # the joint marker's radius, as a share of the asset's size (at least MIN_MARKER_M)
MIN_MARKER_M = 0.004
ARROW_SHARE = 0.35  # a force arrow's length, as a share of the asset's size (every load alike: the HUD gives N)
JOINT_LABEL = re.compile(r"^joint (?P<name>[^:]+):")
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963  # bufferView targets (glTF 2.0)
COMPONENT = {np.dtype(np.float32): 5126, np.dtype(np.uint16): 5123, np.dtype(np.uint32): 5125}  # accessor componentType


def write_replay(folder: Path, stem: str, geometry: ReplayGeometry, timeline: dict, paths: list[str],
                 poses: np.ndarray, verdict: dict) -> dict[str, str]:
    """Write `<stem>.replay.glb` and its script twin into `folder`; their paths by artifact name."""
    data = build(geometry, timeline, paths, poses, verdict)
    glb = out_writer.write_bytes(Path(folder) / f"{stem}{REPLAY_SUFFIX}", data, durable=False)
    packed = base64.b64encode(zlib.compress(data, 1)).decode("ascii")  # 27 % smaller; the browser inflates it
    script = (f"/* {glb.name}: the replay's bytes (zlib, base64) for the HTML report opened from disk (reports/viewer) */\n"
              "(window.SIMREADY_REPLAYS = window.SIMREADY_REPLAYS || {})[document.currentScript && "
              f"document.currentScript.dataset.replay || \"{glb.name}\"] = {{encoding: \"deflate\", data: \"{packed}\"}};\n")
    twin = out_writer.write_text(Path(folder) / f"{stem}{SCRIPT_SUFFIX}", script, durable=False)
    return {"replay_glb": str(glb), "replay_glb_js": str(twin)}


def build(geometry: ReplayGeometry, timeline: dict, paths: list[str], poses: np.ndarray, verdict: dict) -> bytes:
    """The GLB's bytes. `poses`: (frames, bodies, 7) [x y z qw qx qy qz], SI Z-up, NaN where a body had none;
    `verdict`: status, label, reason and `joints` (joint name -> {status, reason})."""
    frames = timeline.get("frames") or []
    times = _times(frames)
    size = _size(frames)
    builder = _Builder()
    root = builder.node(name="z_up_to_y_up", rotation=Z_UP_TO_Y_UP)
    names: dict[str, str] = {}  # prim path -> node name
    body_nodes: dict[str, int] = {}
    samples_kept = 0
    for index, path in enumerate(paths):
        track = poses[:, index, :]
        valid = np.all(np.isfinite(track), axis=1)
        if not valid.any():
            continue
        name = _unique(path.rsplit("/", 1)[-1] or "body", names.values())
        names[path] = name
        mesh = builder.mesh(name, [(p.points, p.triangles, p.color) for p in geometry.bodies.get(path, [])])
        filled = _filled(track, valid)
        quats = continuous(filled[:, 3:])
        # at rest where the recording starts: a tool that plays no animation shows the asset as the test found it
        node = builder.node(name=name, mesh=mesh, parent=root, extras={"path": path}, translation=filled[0, :3].tolist(),
                            rotation=quats[0, [1, 2, 3, 0]].tolist())
        body_nodes[path] = node
        kept = keyframes(times, filled[:, :3], quats)
        samples_kept += len(kept)
        builder.linear(node, times[kept], filled[kept, :3], quats[kept][:, [1, 2, 3, 0]])
    chapters = _chapters(timeline, times, frames, names, verdict.get("joints") or {})
    _markers(builder, frames, times, poses, paths, body_nodes, size)
    loads = _arrows(builder, frames, times, root, size)
    start, end = (float(times[0]), float(times[-1])) if len(times) else (0.0, 0.0)
    decided = timeline.get("decided_frame")
    builder.gltf["scenes"][0]["extras"] = {"simready_replay": {
        "format": FORMAT,
        "test": timeline.get("test", ""), "title": timeline.get("title", ""),
        "verdict": verdict.get("status", ""), "label": verdict.get("label", ""), "reason": verdict.get("reason", ""),
        "time": {"start": start, "end": end,
                 "verdict": float(times[decided]) if isinstance(decided, int) and 0 <= decided < len(times) else end},
        "capture_fps": float(timeline.get("fps") or 0.0),
        "chapters": chapters, "loads": loads,
        "floor": {"shown": bool(timeline.get("floor")), "height_m": float(timeline.get("floor_height") or 0.0)},
        "size_m": size, "bounds_m": _bounds(frames),
        "nodes": {name: path for path, name in names.items()},
        "kept": {"triangles": [geometry.authored_triangles, geometry.kept_triangles], "decimated_by": geometry.decimated_by,
                 "samples": [len(times) * len(names), samples_kept], "position_tolerance_m": POSITION_TOLERANCE_M,
                 "rotation_tolerance_deg": round(math.degrees(ROTATION_TOLERANCE_RAD), 4)},
    }}
    return builder.finish()


class _Builder:
    """A glTF 2.0 document (its JSON as dicts) and its one binary buffer, grown as meshes, nodes and animation samplers
    are added; `finish` frames both as a GLB (the spec's 12-byte header, a JSON chunk padded with spaces, a BIN chunk
    padded with zeros). Plain dicts: pygltflib's serializer (dataclasses-json) cost 31 ms a replay, most of the write."""

    def __init__(self):
        self.gltf: dict = {"asset": {"version": "2.0", "generator": "omni.simready.physics_validator (simready-physics)"},
                           "scene": 0, "scenes": [{"name": "replay", "nodes": [0]}], "nodes": [], "meshes": [],
                           "materials": [], "accessors": [], "bufferViews": []}
        self.animation: dict = {"name": "replay", "channels": [], "samplers": []}
        self.parts: list[bytes] = []
        self.length = 0
        self.materials: dict[tuple, int] = {}

    def finish(self) -> bytes:
        blob = b"".join(self.parts)
        document = {key: value for key, value in self.gltf.items() if value != []}
        if self.animation["channels"]:
            document["animations"] = [self.animation]
        document["buffers"] = [{"byteLength": len(blob)}]
        text = json.dumps(document, separators=(",", ":"), allow_nan=False).encode("utf-8")
        text += b" " * (-len(text) % 4)
        total = 12 + 8 + len(text) + 8 + len(blob)
        return b"".join([struct.pack("<4sII", b"glTF", 2, total), struct.pack("<I4s", len(text), b"JSON"), text,
                         struct.pack("<I4s", len(blob), b"BIN\0"), blob])

    def node(self, parent: int | None = None, **fields) -> int:
        self.gltf["nodes"].append({k: v for k, v in fields.items() if v is not None})
        index = len(self.gltf["nodes"]) - 1
        if parent is not None:
            self.gltf["nodes"][parent].setdefault("children", []).append(index)
        return index

    def accessor(self, array: np.ndarray, kind: str, target: int | None = None, bounds: bool = False) -> int:
        array = np.ascontiguousarray(array)
        data = array.tobytes()
        view: dict = {"buffer": 0, "byteOffset": self.length, "byteLength": len(data)}
        if target is not None:
            view["target"] = target
        self.gltf["bufferViews"].append(view)
        self.parts.append(data + b"\0" * (-len(data) % 4))
        self.length += len(data) + (-len(data) % 4)
        count = array.size if kind == "SCALAR" else len(array)
        accessor = {"bufferView": len(self.gltf["bufferViews"]) - 1, "componentType": COMPONENT[array.dtype],
                    "count": count, "type": kind}
        if bounds:
            flat = array.reshape(count, -1).astype(float)
            accessor.update(min=flat.min(axis=0).tolist(), max=flat.max(axis=0).tolist())
        self.gltf["accessors"].append(accessor)
        return len(self.gltf["accessors"]) - 1

    def material(self, color: tuple[float, float, float], glow: bool = False) -> int:
        key = (tuple(round(c, 4) for c in color), glow)
        if key not in self.materials:
            material: dict = {"pbrMetallicRoughness": {"baseColorFactor": [*map(float, color), 1.0], "metallicFactor": 0.0,
                                                       "roughnessFactor": 0.75}, "doubleSided": True}
            if glow:
                material["emissiveFactor"] = [*map(float, color)]
            self.gltf["materials"].append(material)
            self.materials[key] = len(self.gltf["materials"]) - 1
        return self.materials[key]

    def mesh(self, name: str, pieces: list[tuple[np.ndarray, np.ndarray, tuple]], glow: bool = False) -> int | None:
        primitives = []
        for points, triangles, color in pieces:
            if not len(triangles):
                continue
            position = self.accessor(np.asarray(points, np.float32), "VEC3", ARRAY_BUFFER, bounds=True)
            indices = self.accessor(np.asarray(triangles).reshape(-1), "SCALAR", ELEMENT_ARRAY_BUFFER)
            primitives.append({"attributes": {"POSITION": position}, "indices": indices,
                               "material": self.material(color, glow)})
        if not primitives:
            return None
        self.gltf["meshes"].append({"name": name, "primitives": primitives})
        return len(self.gltf["meshes"]) - 1

    def channel(self, node: int, path: str, times: np.ndarray | int, values: np.ndarray, interpolation: str) -> None:
        """One animated property of a node; `times`: the key times, or the index of an accessor holding them."""
        kind = {3: "VEC3", 4: "VEC4"}[values.shape[1]]
        keys = times if isinstance(times, int) else self.accessor(np.asarray(times, np.float32), "SCALAR", bounds=True)
        self.animation["samplers"].append({"input": keys, "output": self.accessor(np.asarray(values, np.float32), kind),
                                           "interpolation": interpolation})
        self.animation["channels"].append({"sampler": len(self.animation["samplers"]) - 1,
                                           "target": {"node": node, "path": path}})

    def linear(self, node: int, times: np.ndarray, translations: np.ndarray, rotations_xyzw: np.ndarray) -> None:
        """A body's track: translation and rotation sampled at the same kept times (one input accessor)."""
        self.channel(node, "translation", times, translations, "LINEAR")
        self.channel(node, "rotation", self.animation["samplers"][-1]["input"], rotations_xyzw, "LINEAR")


# -- what the test acts on --------------------------------------------------------------------------------
def _markers(builder: _Builder, frames: list[dict], times: np.ndarray, poses: np.ndarray, paths: list[str],
             body_nodes: dict[str, int], size: float) -> None:
    """Per joint under test, a sphere at its anchor on the body it moves (placed in that body's frame from the first
    frame that gives the anchor: its chapter's first), shown in the frames naming that joint, hidden (scale 0) in the
    others."""
    index_of = {path: j for j, path in enumerate(paths)}
    radius = max(MARKER_SHARE * size, MIN_MARKER_M)
    sphere = None
    shown: dict[str, np.ndarray] = {}
    placed: dict[str, int] = {}
    for number, frame in enumerate(frames):
        joint, body, anchor = frame.get("joint"), frame.get("highlight"), frame.get("marker")
        if not joint or body not in body_nodes:
            continue
        if joint not in placed:
            if not anchor or None in anchor:
                continue
            pose = poses[number, index_of[body]]
            if not np.all(np.isfinite(pose)):
                continue
            local = _rotation(pose[3:]).T @ (np.asarray(anchor, float) - pose[:3])
            sphere = sphere if sphere is not None else builder.mesh("joint marker", [_sphere(1.0)], glow=True)
            placed[joint] = builder.node(name=f"joint {joint}", mesh=sphere, parent=body_nodes[body],
                                         translation=local.tolist(), scale=[0.0] * 3, extras={"joint": joint})
            shown[joint] = np.zeros(len(frames), bool)
        shown[joint][number] = True
    for joint, node in placed.items():
        keys, values = _steps(times, shown[joint].astype(float)[:, None] * radius)
        builder.channel(node, "scale", keys, np.repeat(values, 3, axis=1), "STEP")


def _arrows(builder: _Builder, frames: list[dict], times: np.ndarray, root: int, size: float) -> list[list[float]]:
    """The forces applied in each frame as arrows from their points (slot k = the k-th force of a frame), STEP
    channels; returns [[time s, largest load N], ...] for the frames with a load."""
    slots = max((len(f.get("forces") or []) for f in frames), default=0)
    if not slots:
        return []
    length = ARROW_SHARE * max(size, 0.05)
    arrow = builder.mesh("force arrow", [_arrow()], glow=True)
    loads = []
    for slot in range(slots):
        place = np.zeros((len(frames), 3))
        turn = np.tile([0.0, 0.0, 0.0, 1.0], (len(frames), 1))
        scale = np.zeros((len(frames), 1))
        for number, frame in enumerate(frames):
            forces = frame.get("forces") or []
            if slot >= len(forces):
                continue
            force, point = np.asarray(_nan(forces[slot].get("force")), float), np.asarray(_nan(forces[slot].get("point")), float)
            norm = float(np.linalg.norm(force))
            if not (np.isfinite(norm) and norm > 0 and np.all(np.isfinite(point))):
                continue
            place[number], turn[number], scale[number] = point, _quat_from_x(force / norm), length
            if slot == 0:
                norms = [float(np.linalg.norm(_nan(f.get("force")))) for f in forces]
                loads.append([float(times[number]), round(max((n for n in norms if np.isfinite(n)), default=0.0), 6)])
        node = builder.node(name=f"force {slot + 1}", mesh=arrow, parent=root, scale=[0.0, 0.0, 0.0])
        track = np.hstack([place, turn, scale])
        keys, values = _steps(times, track)
        builder.channel(node, "translation", keys, values[:, :3], "STEP")
        builder.channel(node, "rotation", keys, values[:, 3:7], "STEP")
        builder.channel(node, "scale", keys, np.repeat(values[:, 7:8], 3, axis=1), "STEP")
    return loads


def _chapters(timeline: dict, times: np.ndarray, frames: list[dict], names: dict[str, str], joints: dict) -> list[dict]:
    """Each chapter with its time, and for a joint under test the body it moves (prim path) and its own verdict."""
    out = []
    for chapter in timeline.get("chapters") or []:
        frame = int(chapter.get("frame", 0))
        if not 0 <= frame < len(times):
            continue
        entry = {"label": str(chapter.get("label", "")), "time": float(times[frame])}
        match = JOINT_LABEL.match(str(chapter.get("caption") or ""))
        if match:
            joint = match.group("name").strip()
            entry["joint"] = joint
            body = frames[frame].get("highlight")
            if body in names:
                entry["body"] = body
            row = joints.get(joint)
            if row:
                entry.update(status=row.get("status", ""), reason=row.get("reason", ""))
        out.append(entry)
    return out


# -- helpers ----------------------------------------------------------------------------------------------
def _times(frames: list[dict]) -> np.ndarray:
    """Each frame's simulated time (s), made strictly increasing (a glTF sampler's input must be)."""
    times = np.array([float(f.get("sim_time") or 0.0) for f in frames], float)
    for index in range(1, len(times)):
        if times[index] <= times[index - 1]:
            times[index] = times[index - 1] + 1e-4
    return times


def _steps(times: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keys of a STEP track: the first frame and every frame whose value differs from the one before."""
    changed = np.ones(len(values), bool)
    changed[1:] = np.any(np.abs(np.diff(values, axis=0)) > 1e-9, axis=1)
    return times[changed], values[changed]


def _filled(track: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """A body's poses with the frames it had none of holding its nearest earlier one (the first valid one before)."""
    indices = np.where(valid, np.arange(len(track)), 0)
    np.maximum.accumulate(indices, out=indices)
    first = int(np.argmax(valid))
    indices[: first + 1] = first
    return track[indices]


def _size(frames: list[dict]) -> float:
    lo, hi = _bounds_arrays(frames[:1])
    extent = float(np.linalg.norm(hi - lo)) if lo is not None else 0.0
    return extent if np.isfinite(extent) and extent > 0 else 1.0


def _bounds(frames: list[dict]) -> list[list[float]] | None:
    lo, hi = _bounds_arrays(frames)
    return [lo.tolist(), hi.tolist()] if lo is not None else None


def _bounds_arrays(frames: list[dict]):
    """The union of the frames' finite bounds (lo, hi), or (None, None)."""
    lows = np.array([_nan(f.get("bounds_min")) for f in frames], float).reshape(-1, 3)
    highs = np.array([_nan(f.get("bounds_max")) for f in frames], float).reshape(-1, 3)
    finite = np.all(np.isfinite(lows), axis=1) & np.all(np.isfinite(highs), axis=1)
    if not finite.any():
        return None, None
    return lows[finite].min(axis=0), highs[finite].max(axis=0)


def _nan(values) -> list[float]:
    return [math.nan if v is None else float(v) for v in (values or [math.nan] * 3)]


def _unique(name: str, taken) -> str:
    taken = set(taken)
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}_{number}", number + 1
    return candidate


def _rotation(quat_wxyz: np.ndarray) -> np.ndarray:
    from ..core.geometry import quat_to_matrix

    return quat_to_matrix(np.asarray(quat_wxyz, float))


def _quat_from_x(direction: np.ndarray) -> np.ndarray:
    """[x, y, z, w] of the shortest rotation taking +X to the unit vector `direction`."""
    x = np.array([1.0, 0.0, 0.0])
    cross, dot = np.cross(x, direction), float(np.dot(x, direction))
    if dot < -1.0 + 1e-9:
        return np.array([0.0, 0.0, 1.0, 0.0])  # half a turn about Z
    quat = np.array([*cross, 1.0 + dot])
    return quat / np.linalg.norm(quat)


def _sphere(radius: float, segments: int = 16, rings: int = 8):
    theta = np.linspace(0, np.pi, rings + 1)[:, None]
    phi = np.linspace(0, 2 * np.pi, segments, endpoint=False)[None, :]
    points = np.stack([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), np.cos(theta) + 0 * phi], -1)
    points = (radius * points).reshape(-1, 3)
    triangles = []
    for ring in range(rings):
        for seg in range(segments):
            a, b = ring * segments + seg, ring * segments + (seg + 1) % segments
            triangles += [(a, a + segments, b), (b, a + segments, b + segments)]
    return points.astype(np.float32), np.array(triangles, np.uint16), MARKER_COLOR


def _arrow(segments: int = 12):
    """A unit arrow along +X from the origin: a shaft to 0.75 and a cone to 1."""
    angle = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    ring = np.stack([np.zeros(segments), np.cos(angle), np.sin(angle)], 1)
    shaft, head = 0.03, 0.08
    along = np.array([0.75, 0.0, 0.0])
    points = np.vstack([ring * shaft, ring * shaft + along, ring * head + along, np.array([[1.0, 0, 0], [0, 0, 0]])])
    tip, base = 3 * segments, 3 * segments + 1
    triangles = []
    for seg in range(segments):
        nxt = (seg + 1) % segments
        ring0, ring1, ring2 = seg, segments + seg, 2 * segments + seg  # shaft start, shaft end, cone base
        next0, next1, next2 = nxt, segments + nxt, 2 * segments + nxt
        triangles += [(ring0, ring1, next0), (next0, ring1, next1),  # shaft
                      (ring2, tip, next2),  # cone
                      (ring1, ring2, next1), (next1, ring2, next2),  # the cone's underside
                      (base, ring0, next0)]
    return points.astype(np.float32), np.array(triangles, np.uint16), FORCE_COLOR
