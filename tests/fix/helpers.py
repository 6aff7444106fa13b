"""Shared by the fix suites: run `fix_assets` lean (in this process, -j1), read its block, measure a step response.

`step_response` loads a file on the physx engine (ovphysx) in the driven-joint tests' scene (240 Hz, base pinned),
with gravity off, and steps one joint's target: the re-run the damping-ratio and natural-frequency checks read.
`damped_oscillation` estimates zeta by the logarithmic decrement of successive peaks and omega_n from their period;
`zeta_from_overshoot` inverts overshoot = exp(-pi zeta / sqrt(1 - zeta²)).
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.scene import SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine, engine_settings
from omni.simready.physics_validator.fix import FixTargets, fix_assets
from omni.simready.physics_validator.physics_tests import default_registry

FPS = 240.0


def run_fix(paths, out, tests=None, targets: FixTargets | None = None, sets: list[str] | None = None, **kw):
    """fix_assets in this process, one job; `sets` as the CLI's --set ("physx.target=latest")."""
    config = ValidationConfig.defaults(default_registry(), engine_settings())
    config.apply_set(list(sets or []))
    paths = [str(p) for p in (paths if isinstance(paths, (list, tuple)) else [paths])]
    return fix_assets(paths, tests=tests, config=config, out_dir=str(out), jobs=1, targets=targets, in_process=True, **kw)


def validate_file(path, tests: list[str], out):
    """The verdicts of `path` as a plain file (e.g. a fix's composed root), in this process: its AssetResult."""
    from omni.simready.physics_validator import validate

    config = ValidationConfig.defaults(default_registry(), engine_settings())
    config.run.isolate, config.run.video = False, False
    return validate([str(path)], tests, config, "physx", str(out)).assets[0]


def verdicts(fix) -> dict[str, tuple]:
    """test -> (before, after) statuses as strings (after None when no layer was accepted)."""
    return {t.test: (t.before.value, t.after.value if t.after else None) for t in fix.tests}


def assert_fixed_and_nothing_broken(fix) -> None:
    assert fix.status == "accepted", fix.summary
    for test, (before, after) in verdicts(fix).items():
        if before in ("FAIL", "WARN"):
            assert after == "PASS", f"{test}: {before} -> {after} ({fix.summary})"
        else:
            assert after == before, f"{test}: {before} -> {after}: a fix must not change a verdict it did not fix"
    for joint in fix.joints:
        for test, before in joint.before.items():
            if before.value == "PASS":
                assert joint.after[test].value == "PASS", f"{joint.joint} {test} PASS -> {joint.after[test].value}"


def step_response(path, joint: str, step: float, seconds: float = 2.0, settle: float = 0.2) -> np.ndarray:
    """q(t) - target of `joint` after its target steps by `step` from the authored target (gravity off, base pinned)."""
    eng = create_engine("physx")
    try:
        eng.load(read_asset(path), SceneSpec(physics_fps=FPS, gravity=0.0, pin_base=True))
        i = list(eng.dof_joints).index(joint)
        for _ in range(int(settle * FPS)):
            eng.step()
        start = float(eng.joint_positions()[i])
        targets = np.full(len(eng.dof_joints), np.nan)
        targets[i] = start + step
        eng.set_joint_position_targets(targets)
        q = []
        for _ in range(int(seconds * FPS)):
            eng.step()
            q.append(float(eng.joint_positions()[i]))
    finally:
        eng.close()
    return (np.asarray(q) - (start + step)) * math.copysign(1.0, step)


def damped_oscillation(error: np.ndarray, floor: float = 1e-5) -> tuple[float, float]:
    """(zeta, omega_n) from the first two overshoot peaks of a step response's error (target - q, sign-normalised)."""
    peaks = [k for k in range(1, len(error) - 1) if error[k] > error[k - 1] and error[k] >= error[k + 1] and error[k] > floor]
    if len(peaks) < 2:
        raise AssertionError(f"fewer than two overshoot peaks: {peaks}")
    a, b = peaks[:2]
    decrement = math.log(error[a] / error[b])
    zeta = decrement / math.sqrt(4 * math.pi**2 + decrement**2)
    period = (b - a) / FPS
    return zeta, 2 * math.pi / period / math.sqrt(1 - zeta**2)


def zeta_from_overshoot(error: np.ndarray, step: float) -> float:
    overshoot = max(float(error.max()), 1e-12) / abs(step)
    return -math.log(overshoot) / math.sqrt(math.pi**2 + math.log(overshoot) ** 2)


def tree_digest(folder) -> dict[str, str]:
    """sha256 of every file under `folder` by relative path."""
    folder = Path(folder)
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}
