"""The articulation Jacobian of one body, as ovphysx's Omni PhysX runtime computes it (the session read's `jacobian`
column of an ARTICULATION, ovphysx docs/read_write/readable.md), in SI over the engine's DOF joints.

Layout (measured on a 3R arm and the panda, and checked against finite differences by the engine conformance suite):
per articulation a row-major (rows, cols) matrix, `jacobianShape`; a fixed base gives 6 rows for every link after
the root and one column per DOF (dofJointPath order), a floating base 6 rows for every link and 6 root columns first.
A link's six rows are the world-frame velocity of its centre of mass, then its angular velocity; links are in the
order the ARTICULATION_LINK read lists them (`Built.rows`). Angular columns are per radian, linear ones per stage
length; rows are in the stage's frame and length. Signs follow each joint's authored body order, as our joint positions do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.engine import EngineError
from ...core.geometry import rotate, shift_jacobian
from .session import read_handles


class ArticulationJacobian:
    """`body_jacobian` for the physx engine (mixed into OvPhysxEngine: the engine module is at its line cap)."""

    def body_jacobian(self, body_path: str) -> np.ndarray:
        return read_body_jacobian(self, body_path)


def read_body_jacobian(engine: Any, body_path: str) -> np.ndarray:
    """(6, n): the origin's velocity and the angular velocity of `body_path` per unit of each DOF joint's velocity.
    `engine`: the OvPhysxEngine (typed Any: the engine module imports this one)."""
    built, frame, runtime = engine.built, engine._frame, engine._runtime
    columns = read_handles(engine._physx, engine._stage, runtime, runtime.SimObjectType.ARTICULATION,
                           ["jacobian", "jacobianShape", "isFixedBase"])  # row by row: one prim can name several
    for a, row in enumerate(built.rows):
        if body_path not in row.links:
            continue
        rows, cols = (int(v) for v in np.ravel(columns["jacobianShape"][1][a])[:2])
        matrix = np.asarray(columns["jacobian"][1][a], float).ravel()[: rows * cols].reshape(rows, cols)
        fixed = bool(int(np.ravel(columns["isFixedBase"][1][a])[0]))
        link = row.links.index(body_path) - (1 if fixed else 0)
        if link < 0:
            return np.zeros((6, len(built.dofs)))  # a fixed root does not move
        block = matrix[6 * link: 6 * link + 6]
        offset = 0 if fixed else 6
        out = np.zeros((6, len(built.dofs)))
        for i, dof in enumerate(built.dofs):
            if dof.art == a:
                column = block[:, offset + dof.col]
                per_si = 1.0 if dof.angular else 1.0 / frame.meters_per_unit  # per metre of a prismatic joint
                out[:3, i] = frame.vector_to_si(column[:3], frame.meters_per_unit) * per_si  # stage -> SI Z-up
                out[3:, i] = frame.to_si_rotation @ column[3:] * per_si
        return shift_jacobian(out, -_com_offset(engine, body_path))
    raise EngineError(f"body_jacobian: {body_path} is not a link of any articulation PhysX built")


def _com_offset(engine: Any, body_path: str) -> np.ndarray:
    """World vector from the body frame's origin to its centre of mass (m)."""
    row = engine.built.wrench_row.get(body_path)
    pose = engine.body_pose(body_path)
    if row is None or pose is None:
        return np.zeros(3)
    return rotate(pose[1], engine.built.com_local[row])
