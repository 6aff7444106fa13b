"""The articulation Jacobian of one body, as Newton computes it (`newton.eval_jacobian`), in SI over the DOF joints.

`eval_jacobian(model, state)` gives per articulation a (links x 6, dofs) matrix that "satisfies J_link @ joint_qd ==
state.body_qd[link] under Newton's public COM/world body-twist convention": a link's six rows are the world-frame
velocity of its centre of mass, then its angular velocity (measured: the same numbers as ovphysx's on a 3R arm). Link k
of an articulation is the child body of its k-th joint; column c its c-th velocity coordinate. Newton's joint signs
(parent/child swapped against USD's body0/body1) are the DOF map's.
"""

from __future__ import annotations

import numpy as np

from ...core.engine import EngineError
from ...core.geometry import rotate, shift_jacobian
from .runtime import import_newton

wp, newton = import_newton()


def body_jacobian(model, state, body_index: int, dofs, com_local: np.ndarray) -> np.ndarray:
    """(6, len(dofs)) for the Newton body `body_index`: the velocity of its frame's origin, then its angular velocity."""
    starts = model.articulation_start.numpy()
    joint_child = model.joint_child.numpy()
    qd_start = model.joint_qd_start.numpy()
    for a in range(len(starts) - 1):
        joints = range(int(starts[a]), int(starts[a + 1]))
        link = next((k for k, j in enumerate(joints) if int(joint_child[j]) == body_index), None)
        if link is None:
            continue
        matrix = newton.eval_jacobian(model, state).numpy()[a]
        first = int(qd_start[joints[0]])
        last = int(qd_start[joints[-1] + 1]) if joints[-1] + 1 < len(qd_start) else model.joint_dof_count
        block = matrix[6 * link: 6 * link + 6]
        out = np.zeros((6, len(dofs)))
        for i, dof in enumerate(dofs):
            if first <= dof.qd_index < last:
                out[:, i] = block[:, dof.qd_index - first] * dof.sign
        pose = state.body_q.numpy()[body_index]
        x, y, z, w = (float(v) for v in pose[3:])
        return shift_jacobian(out, -rotate(np.array([w, x, y, z]), com_local[body_index]))
    raise EngineError(f"body_jacobian: Newton body {body_index} is in no articulation")
