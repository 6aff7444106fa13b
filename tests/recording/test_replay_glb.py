"""The 3D replay (recording/replay_glb.py) of a real recorded run: a glTF 2.0 file that another reader (trimesh) opens
with the asset where the test found it, whose animation puts every body within the stated tolerance of every recorded
pose, that marks the joints under test and the loads the test applied, and whose geometry keeps to its budget."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from omni.simready.physics_validator.core.geometry import quat_to_matrix
from omni.simready.physics_validator.recording.keyframes import POSITION_TOLERANCE_M, ROTATION_TOLERANCE_RAD, slerp
from omni.simready.physics_validator.recording.replay_glb import _times
from tests.fixtures.arms import build_arm
from tests.fixtures.recording import record_test

pytestmark = pytest.mark.usefixtures("physx_available")
Y_UP = np.array([[1.0, 0, 0], [0, 0, 1.0], [0, -1.0, 0]])  # the replay's root: SI Z-up -> glTF Y-up


@pytest.fixture(scope="module")
def loaded_arm(tmp_path_factory):
    """effort_limit on a three-joint arm: every joint under test in turn, twelve loads each."""
    root = tmp_path_factory.mktemp("replay_glb")
    run = record_test("effort_limit", build_arm(root / "arm.usda", joints=3, world_anchor=True), root / "out")
    timeline = json.loads(Path(run.artifacts["timeline"]).read_text())
    with np.load(Path(run.artifacts["timeline"]).parent / timeline["poses"]) as data:
        paths, poses = [str(p) for p in data["paths"]], np.array(data["poses"])
    return run, timeline, paths, poses


def _gltf(path: str):
    """The document and a reader of its accessors (numpy arrays), by pygltflib."""
    import pygltflib

    gltf = pygltflib.GLTF2().load(path)
    blob = gltf.binary_blob()
    sizes = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}
    types = {pygltflib.FLOAT: np.float32, pygltflib.UNSIGNED_SHORT: np.uint16, pygltflib.UNSIGNED_INT: np.uint32}

    def accessor(index: int) -> np.ndarray:
        acc = gltf.accessors[index]
        view = gltf.bufferViews[acc.bufferView]
        data = np.frombuffer(blob, types[acc.componentType], acc.count * sizes[acc.type], view.byteOffset + (acc.byteOffset or 0))
        return data.reshape(acc.count, sizes[acc.type]) if sizes[acc.type] > 1 else data

    return gltf, accessor


def test_trimesh_opens_it_with_the_asset_where_the_test_found_it(loaded_arm):
    trimesh = pytest.importorskip("trimesh")
    run, timeline, paths, poses = loaded_arm
    scene = trimesh.load(run.artifacts["replay_glb"])
    assert isinstance(scene, trimesh.Scene)
    gltf, _ = _gltf(run.artifacts["replay_glb"])
    nodes = {n.extras["path"]: n.name for n in gltf.nodes if n.extras and "path" in n.extras}
    assert set(nodes) == {p for j, p in enumerate(paths) if np.isfinite(poses[:, j]).all(axis=1).any()}
    for j, path in enumerate(paths):
        if path not in nodes or not np.all(np.isfinite(poses[0, j])):
            continue
        transform, _ = scene.graph.get(nodes[path])  # what trimesh composes, glTF Y-up
        assert np.allclose(transform[:3, 3], Y_UP @ poses[0, j, :3], atol=1e-6), path
        assert np.allclose(transform[:3, :3], Y_UP @ quat_to_matrix(poses[0, j, 3:]), atol=1e-5), path
    extras = gltf.scenes[0].extras["simready_replay"]
    kept = sum(len(g.faces) for name, g in scene.geometry.items() if not name.startswith(("joint marker", "force arrow")))
    assert kept == extras["kept"]["triangles"][1] > 0


def test_every_recorded_pose_is_within_the_stated_tolerance(loaded_arm):
    run, timeline, paths, poses = loaded_arm
    gltf, accessor = _gltf(run.artifacts["replay_glb"])
    extras = gltf.scenes[0].extras["simready_replay"]
    assert extras["kept"]["position_tolerance_m"] == POSITION_TOLERANCE_M
    times = _times(timeline["frames"])
    animation = gltf.animations[0]
    tracks: dict[int, dict[str, tuple[np.ndarray, np.ndarray]]] = {}
    for channel in animation.channels:
        sampler = animation.samplers[channel.sampler]
        tracks.setdefault(channel.target.node, {})[channel.target.path] = (accessor(sampler.input), accessor(sampler.output))
    kept = 0
    for j, path in enumerate(paths):
        node = next(i for i, n in enumerate(gltf.nodes) if n.extras and n.extras.get("path") == path)
        (keys, moved), (_, turned) = tracks[node]["translation"], tracks[node]["rotation"]
        kept += len(keys)
        at = np.clip(np.searchsorted(keys, times, side="right") - 1, 0, len(keys) - 2)
        share = np.clip((times - keys[at]) / (keys[at + 1] - keys[at]), 0.0, 1.0)
        position = moved[at] + share[:, None] * (moved[at + 1] - moved[at])
        rotation = slerp(turned[at].astype(float), turned[at + 1].astype(float), share)[:, [3, 0, 1, 2]]
        valid = np.all(np.isfinite(poses[:, j]), axis=1)
        position_error = np.linalg.norm(position[valid] - poses[valid, j, :3], axis=1)
        recorded = poses[valid, j, 3:] / np.linalg.norm(poses[valid, j, 3:], axis=1, keepdims=True)
        chord = np.minimum(np.linalg.norm(rotation[valid] - recorded, axis=1), np.linalg.norm(rotation[valid] + recorded, axis=1))
        rotation_error = 4 * np.arcsin(np.clip(chord / 2, 0, 1))  # the rotation angle between them (well conditioned)
        assert position_error.max() <= POSITION_TOLERANCE_M + 2e-6, (path, position_error.max())
        assert rotation_error.max() <= ROTATION_TOLERANCE_RAD + 2e-5, (path, math.degrees(rotation_error.max()))
    assert extras["kept"]["samples"] == [len(times) * len(paths), kept] and kept < len(times) * len(paths)


def test_it_marks_the_joints_under_test_and_the_loads(loaded_arm):
    run, timeline, paths, poses = loaded_arm
    gltf, _ = _gltf(run.artifacts["replay_glb"])
    extras = gltf.scenes[0].extras["simready_replay"]
    joints = {row.joint: row.status.value for row in run.result.joints}
    markers = {n.extras["joint"] for n in gltf.nodes if n.extras and "joint" in n.extras}
    assert markers == set(joints)
    statuses = {c["joint"]: c.get("status") for c in extras["chapters"] if "joint" in c}
    assert statuses == joints
    applied = [max(np.linalg.norm(f["force"]) for f in frame["forces"]) for frame in timeline["frames"] if frame.get("forces")]
    assert len(extras["loads"]) == len(applied) and np.allclose([n for _, n in extras["loads"]], applied, rtol=1e-5)
    assert any(n.name == "force 1" for n in gltf.nodes)
    assert extras["verdict"] == run.result.status.value and extras["time"]["verdict"] <= extras["time"]["end"]


def test_a_mesh_over_the_budget_is_decimated_and_says_so():
    from omni.simready.physics_validator.recording.render_geometry import BodyGeometry, _capsule
    from omni.simready.physics_validator.recording.replay_geometry import prepare

    points, triangles = _capsule(0.1, 0.2, "Z", segments=160, rings=80)  # 25 600 triangles
    body = BodyGeometry("/a/body", points, triangles, np.tile([0.8, 0.3, 0.2], (len(points), 1)))
    pin = BodyGeometry("/a/pin", *_capsule(0.01, 0.0, "Z", segments=4, rings=2), np.tile([0.2, 0.2, 0.9], (12, 1)))
    geometry = prepare({"/a/body": body, "/a/pin": pin}, budget=5000)
    assert geometry.authored_triangles == 25_600 + 16 and geometry.decimated_by
    assert 4000 <= geometry.kept_triangles <= 5000
    assert len(geometry.bodies["/a/pin"][0].triangles) == 16  # a small piece is kept whole
    assert geometry.bodies["/a/body"][0].triangles.dtype == np.uint16
