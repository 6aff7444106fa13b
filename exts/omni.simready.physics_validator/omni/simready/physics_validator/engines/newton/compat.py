"""Where the Newtons this engine runs differ in API (1.8: `latest`; 1.6.1: Isaac Sim 6.2's), said once here.

- Mimic couplings: 1.8 keeps one per follower joint (`joint_mimic_joint` / `joint_mimic_coeffs`,
  `set_joint_mimic`); 1.6 keeps mimic constraints (`constraint_mimic_joint0` follower, `_joint1` reference,
  `_coef0` / `_coef1`, `_enabled`; `add_constraint_mimic`). Both read follower = coef0 + coef1 x reference.
- SolverSteel exists in 1.8 only; the 1.6 target runs SolverMuJoCo (stepper.py), so everything Steel-specific
  (`check_constraint_capacity`) is asked of the solver only where it has it.
"""

from __future__ import annotations

from typing import Any


def _per_joint(holder: Any) -> bool:
    return hasattr(holder, "joint_mimic_joint")


def _values(array_or_list) -> list:
    return array_or_list.numpy().tolist() if hasattr(array_or_list, "numpy") else list(array_or_list)


def mimics(holder: Any) -> dict[int, tuple[int, float, float]]:
    """follower joint index -> (reference joint index, coef0, coef1) of the enabled couplings of a builder or model."""
    if _per_joint(holder):
        reference = _values(holder.joint_mimic_joint) if holder.joint_mimic_joint is not None else []
        coeffs = _values(holder.joint_mimic_coeffs) if reference else []
        return {j: (int(r), float(coeffs[j][0]), float(coeffs[j][1])) for j, r in enumerate(reference) if int(r) >= 0}
    if getattr(holder, "constraint_mimic_joint0", None) is None:
        return {}
    followers, references = _values(holder.constraint_mimic_joint0), _values(holder.constraint_mimic_joint1)
    coef0, coef1 = _values(holder.constraint_mimic_coef0), _values(holder.constraint_mimic_coef1)
    enabled = _values(holder.constraint_mimic_enabled)
    return {int(f): (int(r), float(a), float(b))
            for f, r, a, b, on in zip(followers, references, coef0, coef1, enabled) if on}


def set_mimic(builder, follower: int, reference: int, coeffs: tuple[float, float]) -> None:
    """follower = coeffs[0] + coeffs[1] x reference, replacing the follower's coupling; raises where Newton refuses."""
    if _per_joint(builder):
        builder.set_joint_mimic(follower, reference, coeffs=coeffs)
        return
    for k, f in enumerate(builder.constraint_mimic_joint0):
        if int(f) == follower:
            builder.constraint_mimic_joint1[k] = reference
            builder.constraint_mimic_coef0[k], builder.constraint_mimic_coef1[k] = (float(c) for c in coeffs)
            builder.constraint_mimic_enabled[k] = True
            return
    builder.add_constraint_mimic(follower, reference, coef0=float(coeffs[0]), coef1=float(coeffs[1]))


def clear_mimic(builder, follower: int) -> None:
    """The follower moves on its own (newton:mimicEnabled = false)."""
    if _per_joint(builder):
        if builder.joint_mimic_joint[follower] >= 0:
            builder.joint_mimic_joint[follower] = -1
        return
    for k, f in enumerate(builder.constraint_mimic_joint0):
        if int(f) == follower:
            builder.constraint_mimic_enabled[k] = False


def check_capacity(solver) -> None:
    """Raises when the solver dropped constraint rows or contacts (SolverSteel); nothing to check elsewhere."""
    check = getattr(solver, "check_constraint_capacity", None)
    if check is not None:
        check()
