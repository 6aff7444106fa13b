"""The step's external forces as the world wrenches ovphysx takes: rows `[F, tau, point]` (SI, world frame).

PhysX applies F at the wrench's point (measured: F at p with no torque moves a body as F at its centre of mass with
(p - com) x F), so a body loaded once at a point is written as it is; several forces on one body, or a force with no
point, are folded into one wrench at the body's centre of mass. Pure: no engine, no I/O.
"""

from __future__ import annotations

import numpy as np


def step_wrenches(forces: list, bodies: int, centre_of_mass) -> np.ndarray:
    """(bodies, 9) wrenches from `forces` [(row, F, point or None)]; `centre_of_mass(row)` gives a row's world
    centre of mass, asked only when forces must be folded."""
    wrench = np.zeros((bodies, 9))
    rows = [row for row, _force, _point in forces]
    if len(set(rows)) == len(rows) and all(point is not None for _row, _force, point in forces):
        for row, force, point in forces:
            wrench[row, 0:3] = force
            wrench[row, 6:9] = point
        return wrench
    for row, force, point in forces:
        com = centre_of_mass(row)
        wrench[row, 0:3] += force
        if point is not None:  # the torque of the force about the centre of mass, (p - com) x F
            (rx, ry, rz), (fx, fy, fz) = point - com, force
            wrench[row, 3:6] += (ry * fz - rz * fy, rz * fx - rx * fz, rx * fy - ry * fx)
        wrench[row, 6:9] = com
    return wrench
