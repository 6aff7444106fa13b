"""TestContext: the small facade a test sees while it runs.

It hides the engine (time, bounds, joint state and targets, forces, reset) and collects the
result (metrics, warnings, per-joint rows, fix hints, time series). Tests never import an engine.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Generic, Iterable

import numpy as np

from .codes import ExclusionCode, code_value
from .config import ConfigT
from .hints import HintTable
from .results import ExcludedJoint, JointRow, TestResult
from .status import Status

if TYPE_CHECKING:
    from .engine import Engine, EngineCapabilities
    from .asset_model import AssetModel
    from .built_model import BuiltModel
    from .scene import SceneSpec


class TestContext(Generic[ConfigT]):
    """Generic in the running test's config class, so `ctx.config` has that test's settings."""

    __test__ = False

    def __init__(self, engine: "Engine", asset: "AssetModel", config: ConfigT, result: TestResult,
                 hints: HintTable | None = None):
        self.engine = engine
        self.asset = asset  # the asset model; once loaded, with the facts the engine built put in (adopt_built_model)
        self.built: "BuiltModel | None" = None  # what the engine built (core.built_model), once loaded
        self.config = config
        self.result = result
        self.hints = hints or HintTable()  # the test's hints by code: rows and verdicts without hints get these
        self.label = ""  # what is happening now (e.g. "joint elbow: to_max"), shown in video overlays
        self.step_count = 0
        # Something shows the motion as it happens (a video recorder, the Kit viewport): steps kept only for the
        # people watching (ground_drop's tail after its verdict) are simulated only then.
        self.watched = False
        self._observers: list[Callable[["TestContext"], None]] = []
        self.scene: "SceneSpec | None" = None  # what the test asked of the engine (set when the session builds it)
        self.scene_loader: Callable[["SceneSpec"], None] | None = None  # the session's, for `load_scene`
        self._dof_indices: dict[str, int] = {}
        self._capabilities = engine.capabilities()
        self._finished = False
        # The forces applied for the coming step: [(body path, world force N, world point or None =
        # the centre of mass)]. Observers (the recorder draws the load) read it after the step; then cleared.
        self.applied_forces: list[tuple[str, np.ndarray, np.ndarray | None]] = []

    def adopt_built_model(self) -> None:
        """After the load: the facts the engine built become the asset model the test judges by (core.runtime_model:
        the root links it pins and measures from, the couplings that act, the shapes that collide, the bodies that fall,
        each body's mass properties); an engine that cannot read its own keeps the USD reading
        (`engine_capabilities.reads_built_model`), its bodies' mass properties as UsdPhysics's rules state them."""
        from .built_model import from_asset
        from .runtime_model import adopt, with_mass_properties

        if not self._capabilities.reads_built_model:
            self.built = from_asset(self.asset)
            self.asset = with_mass_properties(self.asset, self.built)  # the USD reading's statement of UsdPhysics's rules
            return
        self.built = self.engine.built_model()
        self.asset = adopt(self.asset, self.built)

    def asset_built_alone(self) -> "AssetModel":
        """Before the test's scene: the asset as this engine's runtime builds it on its own (loaded alone, in no scene,
        its built model adopted; the USD reading's statement where the engine cannot read its own), for a test that
        sizes its scene from what the runtime decides (`PhysicsTest.scene_reads_runtime_model`: grasp_and_lift's jaw
        from the prop's mass). The engine is loaded again with the test's scene afterwards."""
        from .built_model import from_asset
        from .runtime_model import adopt, with_mass_properties
        from .scene import SceneSpec

        if not self._capabilities.reads_built_model:
            return with_mass_properties(self.asset, from_asset(self.asset))
        self.engine.load(self.asset, SceneSpec(gravity=0.0))
        return adopt(self.asset, self.engine.built_model())

    def load_scene(self, scene: "SceneSpec") -> None:
        """A later phase of the test in a scene of its own (ground_stability's tilted release: the asset in a rig that
        turns it): the engine drops the scene it had and builds `scene` (its rig's model when it carries one, core.rig),
        what it built becomes `asset` again, the clock restarts; the session keeps what the engine said about the
        dropped scene and removes its rig. EngineCapabilityMissing on an engine that simulates a stage open elsewhere
        (`engine_capabilities.simulates_given_model`: the Kit engine)."""
        from .engine import EngineCapabilityMissing

        if not self._capabilities.simulates_given_model:
            raise EngineCapabilityMissing(f"the {self.engine.name} engine simulates a stage open elsewhere: it cannot "
                                          "load a scene of the test's own")
        if self.scene_loader is None:
            raise RuntimeError("load_scene outside a test session")
        self.scene_loader(scene)

    # -- simulation -------------------------------------------------------------------------------
    @property
    def time(self) -> float:
        return self.engine.time

    @property
    def dt(self) -> float:
        return self.engine.dt

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.engine.bounds()

    def outer_bounds(self) -> tuple[np.ndarray, np.ndarray] | None:
        """A box that holds `bounds()` and costs less (physx: a sphere per body about its origin), for a check that
        runs every step and needs the exact box only where this one could cross its line; None when the engine has
        no such read (`engine_capabilities.outer_bounds`): then use `bounds()`."""
        return self.engine.outer_bounds() if self._capabilities.outer_bounds else None

    @property
    def dof_joints(self) -> list[str]:
        return self.engine.dof_joints

    def dof_index(self, joint_path: str) -> int:
        return self.engine.dof_joints.index(joint_path)

    def _cached_dof_index(self, joint_path: str) -> int:
        index = self._dof_indices.get(joint_path)
        if index is None:
            index = self._dof_indices[joint_path] = self.dof_index(joint_path)
        return index

    @property
    def engine_capabilities(self) -> "EngineCapabilities":
        """What the engine offers and how it behaves (core.engine.EngineCapabilities): tests decide on it, never on
        the engine's name."""
        return self._capabilities

    def joint_positions(self) -> np.ndarray:
        return self.engine.joint_positions()

    def joint_velocities(self) -> np.ndarray:
        return self.engine.joint_velocities()

    def set_joint_targets(self, targets: np.ndarray) -> None:
        self.engine.set_joint_position_targets(np.asarray(targets, dtype=float))

    def set_joint_target(self, joint_path: str, value: float) -> None:
        """Command one joint's position; the others keep their current targets."""
        index = self._dof_indices.get(joint_path)  # `_cached_dof_index`, inlined: a driven test commands every step
        if index is None:
            index = self._cached_dof_index(joint_path)
        if self._capabilities.single_joint_position_targets:  # no full array per step (driven tests, every step)
            self.engine.set_joint_position_target(index, float(value))
            return
        targets = np.full(len(self.engine.dof_joints), np.nan)
        targets[index] = value
        self.engine.set_joint_position_targets(targets)

    def set_joint_velocity_target(self, joint_path: str, value: float) -> None:
        """Command one joint's drive velocity (rad/s or m/s; a drive with stiffness 0 and damping > 0 is a velocity
        drive); the others keep theirs. Raises core.engine.EngineCapabilityMissing on an engine that takes no
        velocity targets (`engine_capabilities.joint_velocity_targets`)."""
        targets = np.full(len(self.engine.dof_joints), np.nan)
        targets[self._cached_dof_index(joint_path)] = value
        self.engine.set_joint_velocity_targets(targets)

    def apply_force(self, body_path: str, force, point=None) -> None:
        force = np.array(force, dtype=float)
        point = None if point is None else np.array(point, dtype=float)
        self.engine.apply_force(body_path, force, point)
        self.applied_forces.append((body_path, force, point))

    def body_poses(self):
        return self.engine.body_poses()

    def body_pose(self, body_path: str):
        """One body's (position, wxyz quaternion), SI world, or None: `body_poses().get(body_path)`, through the
        engine's one-body read where it has one (`engine_capabilities.single_body_pose`; a load point, every step)."""
        if self._capabilities.single_body_pose:
            return self.engine.body_pose(body_path)
        return self.engine.body_poses().get(body_path)

    @property
    def revolute_target_bound(self) -> float:
        """The largest |position target| (rad) the engine accepts for a revolute joint without limits (inf: any).
        PhysX 5 bounds an unlimited revolute joint's target to 2 pi and wraps its position there."""
        return float(self._capabilities.revolute_target_bound)

    def enforced_velocity_limit(self, joint_path: str) -> float | None:
        """The velocity cap the engine's solver enforces on this joint (rad/s or m/s; inf = none), or None
        when the engine does not say (`engine_capabilities.reads_joint_velocity_limits`). It differs from the
        authored limit when the runtime does not parse the attribute the limit is spelled in."""
        if not self._capabilities.reads_joint_velocity_limits:
            return None
        try:
            value = float(self.engine.joint_velocity_limits()[self.dof_index(joint_path)])
        except Exception:  # noqa: BLE001 - a read that failed says nothing (never a value)
            return None
        return None if value != value else value

    def joint_inertia(self, joint_path: str) -> float | None:
        """The joint-space inertia M_ii (kg m^2 or kg) at the current pose, when the engine gives a mass matrix
        (`engine_capabilities.reads_mass_matrix`); None otherwise. PhysX leaves a joint's armature out of it."""
        if not self._capabilities.reads_mass_matrix:
            return None
        try:
            value = float(np.asarray(self.engine.mass_matrix(), float)[self.dof_index(joint_path), self.dof_index(joint_path)])
        except Exception:  # noqa: BLE001 - an engine that cannot say
            return None
        return value if math.isfinite(value) and value > 0 else None

    def body_jacobian(self, body_path: str) -> np.ndarray:
        """(6, n) the runtime's Jacobian of a body's origin (linear rows, then angular), over `dof_joints`
        (`engine_capabilities.reads_jacobian`; core.engine.Engine.body_jacobian)."""
        return np.asarray(self.engine.body_jacobian(body_path), dtype=float)

    def reset(self) -> None:
        self.engine.reset()

    def after_step(self) -> None:
        """Called by the driver after every engine step."""
        self.step_count += 1
        for observer in self._observers:
            observer(self)
        self.applied_forces.clear()

    def add_observer(self, observer: Callable[["TestContext"], None]) -> None:
        self._observers.append(observer)

    # -- reporting --------------------------------------------------------------------------------
    def metric(self, name: str, value, unit: str | None = None) -> None:
        """Record a metric (SI). `unit` (core.quantities symbols) lets reports show it for people."""
        if isinstance(value, (np.floating, np.integer, np.bool_)):
            value = value.item()
        self.result.metrics[name] = value
        if unit is not None:
            self.result.metric_units[name] = unit

    def log(self, message: str) -> None:
        self.result.log.append(message)

    def warn(self, message: str) -> None:
        self.result.warnings.append(message)

    def record(self, name: str, value: float) -> None:
        """Append one sample to a time series (for plots)."""
        self.result.series.setdefault(name, []).append(float(value))

    def joint_row(self, row: JointRow) -> None:
        """Add a joint's verdict; a row with codes and no hints gets the hints of its codes."""
        if row.codes and not row.fix_hints:
            row.fix_hints = self.hints.for_codes(row.codes, row)
        self.result.joints.append(row)

    def exclude_joint(self, joint: str, why: str, path: str = "", code: "ExclusionCode | str" = "") -> None:
        self.result.excluded_joints.append(ExcludedJoint(joint=joint, path=path, code=code_value(code), why=why))

    def finish(self, status: Status, reason: str = "", fix_hints: Iterable[str] | None = None, code=None) -> None:
        """Set the verdict and its code. Without `fix_hints`, the code's hints (the test's HintTable) are given.
        A test that never calls finish() ends as ERROR (core.codes.CommonCode.NO_VERDICT)."""
        self.result.status = status
        self.result.code = code_value(code)
        self.result.reason = reason
        if fix_hints is None:
            fix_hints = self.hints.for_codes([code], self) if code is not None else ()
        for hint in fix_hints:
            if hint not in self.result.fix_hints:
                self.result.fix_hints.append(hint)
        self._finished = True

    @property
    def finished(self) -> bool:
        return self._finished
