"""Which Newton a verdict speaks for (`newton.target`), where each lives, and which one this process imports.

- `latest`: the newton and warp-lang of the [newton] extra in this environment, with SolverSteel.
- `isaacsim-6.2`: what Isaac Sim 6.2.0 bundles (Newton 1.6.1, Warp 1.17.0, MuJoCo and MuJoCo Warp 3.12.0; its
  release notes say not to upgrade Newton on its own), run as `isaacsim.physics.newton` 1.1.1 runs a stage by default:
  SolverMuJoCo on MuJoCo Warp ("Mujoco is the default newton solver": the physics scene gets `MjcSceneAPI`) with the
  `MuJoCoSolverConfig` defaults, Newton's collision pipeline with the explicit broad phase (`CollisionConfig`), and the
  `NewtonConfig` import defaults (contact and joint-limit gains, armature 0.1 on every joint that authors none, the
  add_usd options and schema resolvers) - all read from that extension's `newton_stage.py`, `newton_config.py`,
  `solver_config.py` and `collision_config.py`. Isaac Sim runs MuJoCo Warp on a GPU; here it runs on Warp's CPU device
  (the same kernels). Two Newtons cannot share one site-packages, so its wheels are installed without dependencies
  (`pip install --no-deps --target`) into a folder of their own under ~/.cache/simready-physics/ (install.py), put
  first on sys.path by the process that runs the target.

A process imports one Newton: the target `SIMREADY_NEWTON_TARGET` names when it first imports Warp and Newton
(runtime.import_newton; `latest` when unset). A run sets the variable from its config (`NewtonEngine.from_config`)
before any worker starts, and its spawned workers inherit it. Importing this module imports neither Warp nor Newton.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from .settings import TARGETS

TARGET_ENV = "SIMREADY_NEWTON_TARGET"  # the Newton this process (and the workers it starts) imports
SITE_ENV = "SIMREADY_NEWTON_SITES"  # where side installs live (default: ~/.cache/simready-physics)
LATEST = "latest"


@dataclass(frozen=True)
class NewtonTarget:
    """One Newton a verdict can speak for: its packages, and how that runtime builds and steps an asset."""

    name: str
    solver: str  # "steel" (SolverSteel) or "mujoco" (SolverMuJoCo)
    pins: tuple[tuple[str, str], ...] = ()  # (distribution, version) installed side by side; () = this environment's
    # ModelBuilder defaults set before the import: (attribute of builder.default_shape_cfg / default_joint_cfg, value)
    shape_defaults: tuple[tuple[str, float], ...] = ()
    joint_defaults: tuple[tuple[str, float], ...] = ()
    import_options: tuple[tuple[str, object], ...] = ()  # add_usd keyword arguments beyond the engine's own
    resolvers: tuple[str, ...] = ("SchemaResolverNewton", "SchemaResolverPhysx")  # newton.usd classes, in order
    solver_options: tuple[tuple[str, object], ...] = ()  # the solver's keyword arguments
    broad_phase: str | None = None  # CollisionPipeline's broad phase (None: Newton's default)
    joint_state_from_body_poses: bool = False  # joint_q by inverse kinematics from the imported body poses

    @property
    def side_by_side(self) -> bool:
        return bool(self.pins)

    @property
    def enforces_velocity_limits(self) -> bool:
        """SolverMuJoCo does not read `joint_velocity_limit` (its documentation): no joint is capped."""
        return self.solver == "steel"

    def pinned(self, distribution: str) -> str | None:
        return dict(self.pins).get(distribution)


_TARGETS = {
    LATEST: NewtonTarget(LATEST, solver="steel"),
    "isaacsim-6.2": NewtonTarget(
        "isaacsim-6.2", solver="mujoco",
        pins=(("newton", "1.6.1"), ("warp-lang", "1.17.0"), ("mujoco", "3.12.0"), ("mujoco-warp", "3.12.0")),
        shape_defaults=(("ke", 1.0e4), ("kd", 1.0e2), ("kf", 1.0e1), ("ka", 0.5), ("mu", 1.0), ("restitution", 0.0)),
        joint_defaults=(("limit_ke", 1.0e2), ("limit_kd", 1.0), ("armature", 0.1)),
        import_options=(("collapse_fixed_joints", False), ("joint_drive_gains_scaling", 1.0),
                        ("only_load_enabled_rigid_bodies", True), ("force_position_velocity_actuation", True)),
        resolvers=("SchemaResolverNewton", "SchemaResolverMjc", "SchemaResolverPhysx"),
        solver_options=(("njmax", 1200), ("nconmax", 200), ("use_mujoco_cpu", False), ("disable_contacts", False),
                        ("update_data_interval", 1), ("use_mujoco_contacts", False), ("include_sites", False)),
        broad_phase="explicit",
        joint_state_from_body_poses=True,
    ),
}
assert tuple(_TARGETS) == TARGETS, "settings.Target and the targets here must list the same names"


def named(name: str) -> NewtonTarget:
    try:
        return _TARGETS[name]
    except KeyError:
        raise ValueError(f"unknown newton.target '{name}' (known: {', '.join(_TARGETS)})") from None


def process_target() -> NewtonTarget:
    """The target this process imports (or will): $SIMREADY_NEWTON_TARGET, else latest."""
    return named(os.environ.get(TARGET_ENV) or LATEST)


def choose_for_process(name: str) -> None:
    """Make `name` the target this process and the workers it starts import (a run's newton.target)."""
    named(name)
    os.environ[TARGET_ENV] = name


def site_folder(t: NewtonTarget) -> Path:
    """The folder a side-by-side target is installed into: one per target and Python version (MuJoCo's wheel is
    CPython-specific)."""
    root = Path(os.environ.get(SITE_ENV) or Path.home() / ".cache" / "simready-physics").expanduser()
    return root / f"newton-{t.name}-py{sys.version_info.major}{sys.version_info.minor}"


def requirements(t: NewtonTarget) -> list[str]:
    return [f"{name}=={version}" for name, version in t.pins]


def install_command(t: NewtonTarget) -> list[str]:
    """The pip command that installs a side-by-side target: its exact wheels, no dependencies (numpy and the rest are
    this environment's; a second numpy there would shadow the one the environment's compiled packages were built
    against), into its own folder."""
    return [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-deps", "--upgrade",
            "--target", str(site_folder(t)), *requirements(t)]


def installed_versions(t: NewtonTarget) -> dict[str, str]:
    """distribution -> version of the target's packages as installed (its folder, or this environment), {} for
    those missing. Reads package metadata only."""
    names = [name for name, _ in t.pins] or ["newton", "warp-lang"]
    if t.side_by_side:
        found = {d.metadata["Name"].lower().replace("_", "-"): d.version
                 for d in metadata.distributions(path=[str(site_folder(t))])}
        return {name: found[name] for name in names if name in found}
    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return out


def is_installed(t: NewtonTarget) -> bool:
    """A side-by-side target is installed when its folder holds exactly the pinned versions."""
    return not t.side_by_side or installed_versions(t) == dict(t.pins)


def versions(t: NewtonTarget) -> dict[str, str]:
    """What a verdict of this target names: its pinned versions (what the worker verifies after import), or this
    environment's newton and warp-lang."""
    return dict(t.pins) if t.side_by_side else installed_versions(t)


def version_line(t: NewtonTarget) -> str:
    """"newton 1.8.0 / warp 1.19.0 / SolverSteel", "newton 1.6.1 / warp 1.17.0 / SolverMuJoCo (MuJoCo Warp 3.12.0)"."""
    v = versions(t)
    line = f"newton {v.get('newton', '?')} / warp {v.get('warp-lang', '?')}"
    if t.solver == "mujoco":
        return f"{line} / SolverMuJoCo (MuJoCo Warp {v.get('mujoco-warp', '?')})"
    return f"{line} / SolverSteel"
