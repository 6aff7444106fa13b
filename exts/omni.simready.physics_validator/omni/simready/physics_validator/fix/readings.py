"""What the probe reads from an engine once it has loaded the asset: its joint-space mass matrix, the velocity caps
the solver enforces, the masses it gave the bodies and the drive gains it parsed. A read the engine does not offer,
or that fails, reads as not measured (NaN, no cap, no mass), never as a guess."""

from __future__ import annotations

import numpy as np


def mass_matrix(eng, n: int) -> np.ndarray:
    """The engine's joint-space mass matrix, NaN (not measured) when it offers none or the read fails."""
    if not eng.capabilities().reads_mass_matrix:
        return np.full((n, n), np.nan)
    try:
        return np.asarray(eng.mass_matrix(), float)
    except Exception:  # noqa: BLE001 - a read that failed: not measured
        return np.full((n, n), np.nan)


def velocity_caps(eng, n: int) -> np.ndarray:
    """The velocity caps the solver enforces (inf where none, or when the engine does not say)."""
    caps = np.full(n, np.inf)
    if eng.capabilities().reads_joint_velocity_limits:
        try:
            caps = np.asarray(eng.joint_velocity_limits(), float)
        except Exception:  # noqa: BLE001
            caps = np.full(n, np.inf)
    return np.where(np.isfinite(caps) & (caps > 0), caps, np.inf)


def body_masses(eng) -> dict[str, float]:
    if not eng.capabilities().reads_body_masses:
        return {}
    try:
        return dict(eng.body_masses())
    except Exception:  # noqa: BLE001
        return {}


def drive_gains(eng, n: int) -> dict[str, np.ndarray]:
    out = {"static_friction": np.zeros(n)}
    if eng.capabilities().reads_drive_gains:
        try:
            out.update(eng.drive_gains())
        except Exception:  # noqa: BLE001
            pass
    return out
