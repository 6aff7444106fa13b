"""The Engine protocol: the only surface the core and the tests touch (engines implement it above core).

Everything is SI and in the asset model's Z-up world: positions in m, angles in rad, joint
velocities in rad/s or m/s, forces in N. Joint arrays are ordered as `dof_joints`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from .asset_model import AssetModel
    from .scene import SceneSpec


class EngineError(RuntimeError):
    """The engine could not build or step the scene (reported as ERROR, never as a pass)."""


class EngineUnavailable(EngineError):
    """The engine's package is not installed or not importable here."""


@runtime_checkable
class Engine(Protocol):
    name: str
    version: str

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
        """Full-size target array (NaN entries keep the current target).

        Engines may also offer `set_joint_position_target(index, value)` for one joint; TestContext
        uses it when present so a per-step single-joint command needs no full array.
        """

    def apply_force(self, body_path: str, force: np.ndarray, point: np.ndarray | None = None) -> None:
        """World-frame force at a world point (default: the body's centre of mass) for the next step."""

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Body path -> (position xyz, quaternion wxyz) in the SI world."""

    def reset(self) -> None:
        """Back to the state right after load: poses, velocities, joint targets, time."""

    def close(self) -> None: ...


class EngineIntrospection(Protocol):
    """OPTIONAL reads an engine may offer besides the protocol: what the physics runtime itself parsed
    and enforces, in SI and `dof_joints` order. Callers look them up with getattr and treat a missing
    method as "this engine does not say" (never as a value). NaN marks a joint the engine cannot
    describe (e.g. one outside any articulation); +inf means unlimited.

    physx (ovphysx) implements all of them; newton has `joint_velocity_limits` and `body_masses`; sapien
    `body_masses`.

    Attribute `revolute_target_bound` (rad, default inf through EngineBase): the largest |position target| the
    runtime accepts for a revolute joint without limits (PhysX 5: 2 pi; TestContext.revolute_target_bound).
    """

    def describe(self) -> dict:
        """For the report's engine block: {"name", "version", "components": {library: version},
        "settings": {"physx.target": ...}} (core.results.EngineInfo fields)."""

    def joint_limits(self) -> np.ndarray:
        """(n, 2) lower/upper position limits (rad or m) as the runtime parsed them; +-inf when free."""

    def drive_gains(self) -> dict[str, np.ndarray]:
        """Per DOF: "stiffness" (N m/rad | N/m), "damping" (N m s/rad | N s/m), "max_force" (N m | N, inf =
        unlimited) as the runtime parsed them; an engine may add more keys (armature, drive type)."""

    def joint_velocity_limits(self) -> np.ndarray:
        """(n,) the velocity cap the solver enforces (rad/s or m/s); inf = no cap is enforced, e.g. a limit
        spelled in an attribute this runtime does not parse."""

    def mass_matrix(self) -> np.ndarray:
        """(n, n) joint-space inertia over the DOF joints in the current pose (kg m^2 for revolute rows and
        columns, kg for prismatic ones, kg m on mixed entries), NaN rows/columns for joints outside any
        articulation; the effective inertia of joint i alone is M[i, i]."""

    def body_masses(self) -> dict[str, float]:
        """Mass per simulated body (kg) as the runtime computed it (density rules included)."""
