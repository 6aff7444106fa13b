"""The Engine protocol: the only surface the core and the tests touch (engines implement it above core).

Everything is SI and in the asset model's Z-up world: positions in m, angles in rad, joint
velocities in rad/s or m/s, forces in N. Joint arrays are ordered as `dof_joints`.

What an engine can do beyond the members every engine has, and how it behaves where engines differ, is
one typed record: `engine.capabilities()` (`EngineCapabilities`). Callers read the record; they never
probe an engine for attributes, and tests never branch on an engine's name. A protocol method the record
says the engine lacks raises `EngineCapabilityMissing`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from .asset_model import AssetModel
    from .built_model import BuiltModel
    from .readback import RuntimeValues
    from .scene import SceneSpec


class EngineError(RuntimeError):
    """The engine could not build or step the scene (reported as ERROR, never as a pass)."""


class EngineUnavailable(EngineError):
    """The engine's package is not installed or not importable here."""


class EngineCapabilityMissing(EngineError):
    """A protocol method was called that this engine's capabilities() says it does not offer."""


@dataclass(frozen=True)
class EngineCapabilities:
    """What an engine offers beyond the members every engine has, and how it behaves where engines differ.

    The defaults describe an engine that offers nothing optional: each engine states what it adds, and
    tests/engines/conformance/ (test_capabilities.py, test_velocity_targets.py) checks every claim against what
    the engine really does.
    """

    # -- reads of what the physics runtime itself parsed and enforces (Engine methods of the same names) --
    reads_joint_limits: bool = False
    reads_drive_gains: bool = False
    reads_joint_velocity_limits: bool = False
    # the solver caps joint velocities at all, in some spelling (False: Isaac Sim 6.2's Newton, whose SolverMuJoCo
    # reads no joint velocity limit; a cap is then held only by the drive and the joint's damping)
    caps_joint_velocities: bool = True
    reads_mass_matrix: bool = False
    reads_body_masses: bool = False
    # runtime_values(): what the runtime parsed per DOF and body, for the runtime readback (core.readback)
    reads_runtime_values: bool = False
    # built_model(): what the runtime built (articulations and their root links, couplings that act, shapes that
    # collide, bodies that move and feel gravity, start poses: core.built_model), the facts the tests judge by
    reads_built_model: bool = False
    # body_jacobian(path): the runtime's own articulation Jacobian of a body (jacobian_ik's damped least squares)
    reads_jacobian: bool = False
    # describe() names the libraries behind the engine and its settings (every engine describes at least
    # its name and version)
    describes_components: bool = False
    # -- reads for loops that run every step ------------------------------------------------------------
    # outer_bounds(): a box that holds bounds() and costs less (an every-step watch takes the exact box only where
    # the outer one could be past its line)
    outer_bounds: bool = False
    # body_pose(path): one body's pose as body_poses() gives it, without the whole dict (a load point, every step)
    single_body_pose: bool = False
    # -- commands ---------------------------------------------------------------------------------------
    # set_joint_position_target(index, value): one joint per call, no full array (driven tests, every step)
    single_joint_position_targets: bool = False
    # set_joint_velocity_targets(targets): drive velocity targets (a drive with stiffness 0 and damping > 0
    # is a velocity drive); False: the method raises EngineCapabilityMissing
    joint_velocity_targets: bool = False
    # the largest |position target| (rad) the runtime accepts for a revolute joint without limits (inf = any);
    # PhysX 5 bounds such an eREVOLUTE joint's target to [-2 pi, 2 pi] and wraps its position there
    revolute_target_bound: float = math.inf
    # -- what the engine simulates ---------------------------------------------------------------------------
    # load() simulates the model it is given (a test rig's, core.rig), not a stage open elsewhere (the Kit engine
    # simulates the stage open in Kit: a rig layer beside the asset file is not on it)
    simulates_given_model: bool = True
    # actuator prim types it runs (e.g. "NewtonActuator"); a joint driven only by another type is not
    # commandable on this engine (driven-joint selection: "actuator_only")
    simulated_actuator_schemas: frozenset[str] = frozenset()
    # mimic couplings (PhysxMimicJointAPI / NewtonMimicAPI) are simulated (mimic_joint SKIPs where not)
    mimic_joints: bool = False
    # the physics runtime whose variant sets the asset is composed with for this engine ("PhysX", "Newton";
    # core.usd.variants); "" = none is selected
    physics_runtime: str = ""


@runtime_checkable
class Engine(Protocol):
    name: str

    @property
    def version(self) -> str: ...

    # what the engine reported about the asset and the run (load notes, runtime log records), without repeats
    warnings: list[str]

    def capabilities(self) -> EngineCapabilities:
        """What this engine offers and how it behaves (the same record for every instance of an engine)."""

    def describe(self) -> dict:
        """For the report's engine block: {"name", "version", "components": {library: version},
        "settings": {"physx.target": ...}} (core.results.EngineInfo fields; components and settings may
        be empty: `capabilities().describes_components`)."""

    def load(self, asset: "AssetModel", scene: "SceneSpec") -> None:
        """Build the scene in memory from the asset model. Never writes the asset."""

    def step(self) -> None:
        """Advance one physics step (1/physics_fps). Forces set since the last step apply once."""

    @property
    def time(self) -> float:
        """Simulated seconds since load (or since the last reset)."""

    @property
    def dt(self) -> float: ...

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Union of the asset's collision-shape world AABBs (min xyz, max xyz)."""

    @property
    def dof_joints(self) -> list[str]:
        """Paths of the joints with one degree of freedom the engine simulates (revolute, prismatic)."""

    def joint_positions(self) -> np.ndarray: ...

    def joint_velocities(self) -> np.ndarray: ...

    def set_joint_position_targets(self, targets: np.ndarray) -> None:
        """Full-size target array (NaN entries keep the current target)."""

    def set_joint_position_target(self, index: int, value: float) -> None:
        """One joint's position target, the others keep theirs (`capabilities().single_joint_position_targets`)."""

    def set_joint_velocity_targets(self, targets: np.ndarray) -> None:
        """Full-size drive velocity targets (rad/s or m/s; NaN entries keep the current target)
        (`capabilities().joint_velocity_targets`). Kept until changed; reset() restores those of load."""

    def apply_force(self, body_path: str, force: np.ndarray, point: np.ndarray | None = None) -> None:
        """World-frame force at a world point (default: the body's centre of mass) for the next step."""

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Body path -> (position xyz, quaternion wxyz) in the SI world."""

    def body_pose(self, body_path: str) -> tuple[np.ndarray, np.ndarray] | None:
        """`body_poses().get(body_path)` without the whole dict (`capabilities().single_body_pose`)."""

    def outer_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """A box (min xyz, max xyz) that holds `bounds()`, cheaper to read (`capabilities().outer_bounds`)."""

    def reset(self) -> None:
        """Back to the state right after load: poses, velocities, joint targets, time."""

    def close(self) -> None: ...

    # -- reads of what the physics runtime parsed (available as capabilities() says). NaN marks a joint the
    # engine cannot describe (e.g. one outside any articulation); +inf means unlimited. ------------------------
    def joint_limits(self) -> np.ndarray:
        """(n, 2) lower/upper position limits (rad or m) as the runtime parsed them; +-inf when free."""

    def drive_gains(self) -> dict[str, np.ndarray]:
        """Per DOF: "stiffness" (N m/rad | N/m), "damping" (N m s/rad | N s/m), "max_force" (N m | N, inf =
        unlimited) as the runtime parsed them; an engine may add more keys (armature, drive type, static_friction,
        dynamic_friction, viscous_friction in N m s/rad | N s/m)."""

    def joint_velocity_limits(self) -> np.ndarray:
        """(n,) the velocity cap the solver enforces (rad/s or m/s); inf = no cap is enforced, e.g. a limit
        spelled in an attribute this runtime does not parse."""

    def mass_matrix(self) -> np.ndarray:
        """(n, n) joint-space inertia over the DOF joints in the current pose (kg m^2 for revolute rows and
        columns, kg for prismatic ones, kg m on mixed entries), NaN rows/columns for joints outside any
        articulation; the effective inertia of joint i alone is M[i, i]."""

    def body_masses(self) -> dict[str, float]:
        """Mass per simulated body (kg) as the runtime computed it (density rules included)."""

    def built_model(self) -> "BuiltModel":
        """What the runtime built from the asset at the last load (core.built_model.BuiltModel, SI): the articulations
        with the link each is rooted at, the couplings that act, the shapes that collide, the bodies that move and feel
        gravity, where each body starts, and what the engine held for the scene (`capabilities().reads_built_model`)."""

    def body_jacobian(self, body_path: str) -> np.ndarray:
        """(6, n) the runtime's articulation Jacobian of one body over the DOF joints (`capabilities().reads_jacobian`):
        rows 0-2 the world-frame velocity of the body frame's origin, rows 3-5 its angular velocity (rad/s), per unit
        of each DOF joint's velocity (rad/s or m/s, the sign of `joint_velocities`); zero columns for joints outside the
        body's articulation. Raises EngineError for a body outside every articulation."""

    def runtime_values(self) -> "RuntimeValues":
        """What the runtime parsed per DOF joint and body, and what that runtime is (core.readback.RuntimeValues),
        for the runtime readback beside what the asset authors."""
