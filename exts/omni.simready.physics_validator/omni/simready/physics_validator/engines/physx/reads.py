"""The one per-step read/write path of the physx engine: tensor bindings after the first step, the
session API before it. Everything the engine does per step goes through `StateIO`, so switching the
path (e.g. when ovphysx drops tensor bindings) is this one module.

Why tensor bindings: measured on the pinned 6-DOF arm moving every step (2-core CPU, NUM_THREADS=0),
one step costs ≈ 40 µs; a session `read_sync` ≈ 260 µs per read and a persistent query + read
≈ 215 µs, while a tensor-binding read costs ≈ 4 µs. With three reads per step the arm runs at 4-6x real
time on the session API and ≈ 70x on bindings. `create_tensor_binding` is **deprecated since
ovphysx 0.6** but present and working in 0.7 (docs/tensor_binding_migration.md); re-measure both
paths on every ovphysx upgrade.

Why the session API before the first step: any binding read or write before the first `step_sync`
runs an "auto-warmup" step of ≈ 1 ns, and a joint authored outside its limit then gets a correction
velocity of error / 1e-9 s (erd_panda read 9.4e6 deg/s and then NaN). Session reads and writes do not
warm up, and neither does creating a binding.

Units: bindings speak radians, rad/s and per-radian gains (undocumented, measured) and stage lengths;
the session API speaks USD units (degrees). `StateIO` hands out *binding units* both ways — DOF arrays
(A, D) in rad / stage length, body poses (N, 7) `[p, q_xyzw]` and velocities (N, 6) in stage units —
and the engine converts them to SI once, through `core.units.StageFrame`.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .fastpath import direct_call
from .session import read_columns, write_per_prim


class StateIO:
    """DOF state/targets of the articulations and poses/velocities/wrenches of the bodies, per step."""

    def __init__(self, runtime, physx, stage, articulations: list[str], art_dofs: list[list[str]], angular: dict[str, bool],
                 bodies: list[str], wrench_bodies: list[str], snapshot: dict | None = None):
        self.runtime, self.physx, self.stage = runtime, physx, stage
        self.articulations, self.art_dofs, self.angular = articulations, art_dofs, angular
        self.bodies, self.wrench_bodies = bodies, wrench_bodies
        self.live = False  # True once PhysX has stepped: bindings are safe from then on
        self._bindings: dict = {}
        self._fresh: set[str] = set()  # what was read since the last step: read once per step, however often asked
        self._direct: dict[str, tuple] = {}  # key -> (buffer, native call) once a public call cached it (fastpath.py)
        TT = runtime.TensorType
        if articulations:
            for key, tensor_type in (("q", TT.ARTICULATION_DOF_POSITION), ("qd", TT.ARTICULATION_DOF_VELOCITY),
                                     ("target", TT.ARTICULATION_DOF_POSITION_TARGET)):
                self._bind(key, tensor_type, articulations)
        shape = self._bindings["q"].shape if articulations else (0, 0)
        self.dof_shape = tuple(shape)
        self.dof_names = self._dof_names(articulations) if articulations else []
        if bodies:
            pose = self._bind("pose", TT.RIGID_BODY_POSE, bodies)
            if list(pose.prim_paths) != list(bodies):
                missing = sorted(set(bodies) - set(pose.prim_paths))
                raise RuntimeError(f"PhysX simulates no rigid body at {missing[:3]}")
            self._bind("vel", TT.RIGID_BODY_VELOCITY, bodies)
        if wrench_bodies:
            self._bind("wrench", TT.RIGID_BODY_WRENCH, wrench_bodies)
        self._q = np.zeros(self.dof_shape, np.float32)
        self._qd = np.zeros(self.dof_shape, np.float32)
        self._pose = np.zeros((len(bodies), 7), np.float32)
        self._vel = np.zeros((len(bodies), 6), np.float32)
        # Write from the same arrays every step: a binding write from a new array is ~10x slower (ovphysx caches
        # the tensor view of a buffer it has seen: 116 us -> 7 us per wrench write, measured)
        self.wrench_buffer = np.zeros((len(wrench_bodies), 9), np.float32)
        # the state at attach; a re-attach of the same ordinal (reset) builds the same state, so it is reused then
        self.snapshot = snapshot if snapshot is not None else self._session_snapshot()

    def _bind(self, key, tensor_type, prim_paths):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # deprecated since 0.6, kept in 0.7 (see above)
            binding = self.physx.create_tensor_binding(prim_paths=list(prim_paths), tensor_type=tensor_type)
        self._bindings[key] = binding
        return binding

    def _dof_names(self, articulations: list[str]) -> list[str]:
        """The bindings' DOF names. A view over articulations of different DOF counts (a robot beside a jointed
        object) reads and writes padded (A, D) arrays but has no common metadata ("heterogeneous or empty view"):
        its names are asked of one short-lived binding per articulation."""
        try:
            return list(self._bindings["q"].dof_names)
        except RuntimeError:
            names: list[str] = []
            for path in articulations:
                binding = self._bind("names", self.runtime.TensorType.ARTICULATION_DOF_POSITION, [path])
                names += list(binding.dof_names) if binding.shape[-1] else []
                binding.destroy()
            del self._bindings["names"]
            return names

    # -- reads ---------------------------------------------------------------------------------------
    def dof_positions(self) -> np.ndarray:
        return self._read("q", self._q)

    def dof_velocities(self) -> np.ndarray:
        return self._read("qd", self._qd)

    def body_poses(self) -> np.ndarray:
        return self._read("pose", self._pose)

    def body_velocities(self) -> np.ndarray:
        return self._read("vel", self._vel)

    def _read(self, key: str, buffer: np.ndarray) -> np.ndarray:
        """The buffer, refilled once per step (shared: callers copy what they keep past the next step)."""
        if key in self._fresh or not buffer.size:
            return buffer
        if not self.live:
            buffer[...] = self.snapshot[key]
        else:
            known = self._direct.get(key)  # `_native`, inlined: a driven test reads every step
            if known is None or known[0] is not buffer or known[1]().status:
                self._bindings[key].read(buffer)
                self._remember(key, key, buffer, write=False)
        self._fresh.add(key)
        return buffer

    def _native(self, key: str, buffer: np.ndarray) -> bool:
        """The binding call as one native call (fastpath.py); False when there is none yet or it failed."""
        known = self._direct.get(key)
        return known is not None and known[0] is buffer and not known[1]().status

    def _remember(self, key: str, binding: str, buffer: np.ndarray, write: bool) -> None:
        call = direct_call(self._bindings[binding], buffer, write)
        if call is not None:
            self._direct[key] = (buffer, call)

    # -- writes --------------------------------------------------------------------------------------
    def write_dof_targets(self, raw: np.ndarray) -> None:
        """The full (A, D) position target array in binding units (rad / stage length)."""
        self._write_dof_array("target", "jointPositionTarget", raw)

    def write_dof_velocity_targets(self, raw: np.ndarray) -> None:
        """The full (A, D) drive velocity target array in binding units (rad/s / stage length per s). Its binding
        is made when first needed (creating one does not warm the scene up)."""
        if self.live and "velocity_target" not in self._bindings:
            self._bind("velocity_target", self.runtime.TensorType.ARTICULATION_DOF_VELOCITY_TARGET, self.articulations)
        self._write_dof_array("velocity_target", "jointVelocityTarget", raw)

    def velocity_targets(self) -> np.ndarray:
        """(A, D) drive velocity targets PhysX holds now, binding units, read through the session API (no warm-up)."""
        return self._session_dof_columns({"velocity_target": "jointVelocityTarget"})["velocity_target"]

    def _write_dof_array(self, key: str, session_name: str, raw: np.ndarray) -> None:
        """A full (A, D) array through its binding once PhysX has stepped, else the session API (USD units)."""
        if self.live:
            if not self._native("w:" + key, raw):
                self._bindings[key].write(raw)
                self._remember("w:" + key, key, raw, write=True)
            return
        values = {}
        for a, joints in enumerate(self.art_dofs):
            for c, joint in enumerate(joints):
                values[joint] = math.degrees(raw[a, c]) if self.angular.get(joint, True) else float(raw[a, c])
        write_per_prim(self.physx, self.stage, self.runtime, self.runtime.SimObjectType.ARTICULATION_JOINT, session_name, values)

    def write_wrenches(self, raw: np.ndarray) -> None:
        """(M, 9) rows `[F, tau, point]` over `wrench_bodies` (world frame, stage units) for the next step."""
        if self.live:
            if not self._native("w:wrench", raw):
                self._bindings["wrench"].write(raw)
                self._remember("w:wrench", "wrench", raw, write=True)
            return
        rows = {p: raw[i] for i, p in enumerate(self.wrench_bodies) if np.any(raw[i, :6])}
        SOT = self.runtime.SimObjectType
        for sim_type in (SOT.RIGID_BODY, SOT.ARTICULATION_LINK):
            write_per_prim(self.physx, self.stage, self.runtime, sim_type, "wrench", rows)

    def stepped(self) -> None:
        """After every step: bindings are live, and every read is due again."""
        self.live = True
        self._fresh.clear()

    def reattached(self, physx) -> "StateIO":
        """The same reads over a re-attached PhysX instance (reset): fresh bindings, the load's snapshot."""
        return StateIO(self.runtime, physx, self.stage, self.articulations, self.art_dofs, self.angular, self.bodies,
                       self.wrench_bodies, snapshot=self.snapshot)

    # -- before the first step ------------------------------------------------------------------------
    def _session_snapshot(self) -> dict[str, np.ndarray]:
        """The state at attach, read through the session API (no warm-up), in binding units."""
        SOT = self.runtime.SimObjectType
        state: dict[str, dict] = {}
        for sim_type in (SOT.RIGID_BODY, SOT.ARTICULATION_LINK):
            names = ["position", "orientation", "linearVelocity", "angularVelocity", "centerOfMassPosition"]
            for name, column in read_columns(self.physx, sim_type, names).items():
                state.setdefault(name, {}).update(column)

        def rows(name, width):
            column = state.get(name, {})
            return np.array([column.get(p, np.full(width, np.nan)) for p in self.bodies], float).reshape(len(self.bodies), width)

        snapshot = {
            "pose": np.hstack([rows("position", 3), rows("orientation", 4)]),
            "vel": np.hstack([rows("linearVelocity", 3), rows("angularVelocity", 3)]),
            "com": np.array([state.get("centerOfMassPosition", {}).get(p, np.zeros(3)) for p in self.wrench_bodies],
                            float).reshape(-1, 3),
        }
        snapshot.update(self._session_dof_columns({"q": "jointPosition", "qd": "jointVelocity", "target": "jointPositionTarget"}))
        return snapshot

    def _session_dof_columns(self, names: dict[str, str]) -> dict[str, np.ndarray]:
        """{key: (A, D) array in binding units} of the session's articulation-joint attributes {key: name}."""
        SOT = self.runtime.SimObjectType
        joints = read_columns(self.physx, SOT.ARTICULATION_JOINT, list(names.values()),
                              per_prim=True) if self.articulations else {}
        out = {}
        for key, name in names.items():
            data = np.zeros(self.dof_shape, float)
            for a, paths in enumerate(self.art_dofs):
                for c, joint in enumerate(paths):
                    value = joints.get(name, {}).get(joint)
                    if value is not None and len(value):
                        data[a, c] = math.radians(value[0]) if self.angular.get(joint, True) else value[0]
            out[key] = data
        return out

    def close(self) -> None:
        self._direct = {}  # never call into a destroyed binding
        self._fresh.clear()
        for binding in self._bindings.values():
            try:
                binding.destroy()
            except Exception:  # noqa: BLE001 - closing never fails a verdict
                pass
        self._bindings = {}
