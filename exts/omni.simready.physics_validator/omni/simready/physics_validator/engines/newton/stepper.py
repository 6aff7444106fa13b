"""The target's solver, and one physics step of it: collide, solve, the new state copied onto the one the engine reads.

A Newton step is a few dozen Warp kernel launches, and on the CPU each launch costs tens of microseconds of Python
(Warp packing its arguments): measured on the 6-joint fixture arm, pinned, SolverSteel: 4.1 ms of CPU a step, of which
Warp's `launch` took 73 % in a profile, against ~40 us for a PhysX step. Warp records a stream of launches on the CPU
device as it does a CUDA graph (`wp.capture_begin(device="cpu")`, its API capture, replayed in C++), so after one eager
step (kernels compiled, the solver's buffers allocated) the stepper records one step and replays it: 0.50 ms of CPU a
step on that arm, 0.46 on the converted Unitree Z1 (7 DOFs, mesh colliders), 0.17 for SolverMuJoCo on MuJoCo Warp,
with the same joint and body positions to the last bit (pinned with targets and forces, dropped onto the ground;
tests/engines/test_newton.py). The recording reads the arrays it was made with, so everything the engine commands is
written into those arrays in place (targets, drive arrays, body wrenches), the state the engine reads is always the
same `state0` (the solver writes `state1`, which is copied onto it inside the recording), and a reset, which may
reallocate solver buffers, records again. `SIMREADY_NEWTON_EAGER=1` steps without a recording (for comparison).
"""

from __future__ import annotations

import os

from .runtime import import_newton
from .targets import NewtonTarget

wp, newton = import_newton()

EAGER_ENV = "SIMREADY_NEWTON_EAGER"
# Steel's default of 32 rows per articulation overflowed with ground contact (notes/engines.md).
ARTICULATION_CONSTRAINT_MAX = 64


def make_solver(model, spec, t: NewtonTarget):
    """SolverSteel with joint limits and joint velocity limits enforced (latest), or SolverMuJoCo as the target's
    runtime constructs it (Isaac Sim 6.2: MuJoCoSolverConfig's defaults; the scene's iteration counts are not
    mapped: Isaac Sim takes MuJoCo's from the physics scene)."""
    if t.solver == "mujoco":
        return newton.solvers.SolverMuJoCo(model, **dict(t.solver_options))
    return newton.solvers.SolverSteel(
        model,
        iterations=max(int(spec.solver_position_iterations), 1),
        enable_joint_limits=True,
        enable_joint_velocity_limits=True,
        articulation_constraint_max=ARTICULATION_CONSTRAINT_MAX,
    )


def make_pipeline(model, t: NewtonTarget):
    return newton.CollisionPipeline(model, broad_phase=t.broad_phase) if t.broad_phase else newton.CollisionPipeline(model)


class Stepper:
    """Steps `state0` in place: eagerly the first time after a build or reset, then by replaying one recorded step."""

    def __init__(self, solver, pipeline, contacts, state0, state1, control, dt: float):
        self.solver, self.pipeline, self.contacts = solver, pipeline, contacts
        self.state0, self.state1, self.control, self.dt = state0, state1, control, dt
        self.record = os.environ.get(EAGER_ENV, "") not in ("1", "true", "yes")
        self._graph = None
        self._eager_steps = 0  # since the build or the last reset

    def step(self) -> None:
        if self._graph is not None:
            wp.capture_launch(self._graph)
            return
        if self.record and self._eager_steps >= 1:
            self._graph = self._recorded()
            if self._graph is not None:
                wp.capture_launch(self._graph)
                return
        self._one_step()
        self._eager_steps += 1

    def forget(self) -> None:
        """After a reset: the solver may have replaced buffers the recording points at."""
        self._graph = None
        self._eager_steps = 0

    def _one_step(self) -> None:
        s0, s1 = self.state0, self.state1
        self.pipeline.collide(s0, self.contacts)
        self.solver.step(s0, s1, self.control, self.contacts, self.dt)
        s0.assign(s1)

    def _recorded(self):
        """One step recorded (not run), or None where this Warp cannot record on the CPU (then every step is eager)."""
        try:
            wp.capture_begin(device="cpu")
        except Exception:  # noqa: BLE001 - an older Warp: eager steps give the same physics
            self.record = False
            return None
        try:
            self._one_step()
        finally:
            graph = wp.capture_end(device="cpu")
        return graph
