"""jacobian_ik's settings (docs/tests/jacobian_ik.md), each with its unit, and what they make of one arm in SI
(`thresholds_for`): the solve, the rows and the plot read that one object."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field

from ....core.setting_units import unit
from ..base import DrivenJointConfig


@dataclass(frozen=True)
class ReachThresholds:
    """One arm's targets and tolerances in SI (m, rad, physics steps)."""

    position_tolerance: float  # m: a target is reached within this distance ...
    orientation_tolerance: float  # rad: ... and this rotation, read from the runtime after the hold
    min_pass_rate: float  # fraction of the reachable targets that must be reached
    min_travel: float  # m: a reachable target lies at least this far from the pose the solve starts from
    step_angular: float  # rad: the most one iteration changes a revolute joint's command
    step_linear: float  # m: likewise for a prismatic joint
    iteration_steps: int  # physics steps per solver iteration at most (fewer once the joints are at rest)
    rest_steps: int  # steps in a row below the rest speed that end an iteration
    settle_iterations: int  # going home: at most this many iteration windows
    rest_angular: float  # rad/s
    rest_linear: float  # m/s
    progress: float  # an iteration that does not lower the error by this much (m; rotations at length_per_radian) stalls
    length_per_radian: float  # m: how an orientation error counts against a position error in `progress`
    hold_steps: int  # physics steps held after the solve, before the pose is judged
    blocked_lag_angular: float  # rad: a joint this far behind its command where a target was missed stopped short
    blocked_lag_linear: float  # m


class JacobianIkConfig(DrivenJointConfig):
    num_targets: int = Field(5, ge=1, le=50, description="Reachable targets: end-effector poses the authored kinematics "
                                                          "give at sampled joint positions.")
    out_of_reach_count: int = Field(2, ge=0, le=20, description="Targets beyond the arm's reach, expected not reached.")
    out_of_reach_factor: float = Field(1.4, gt=1, description="Unreachable targets lie this many times the arm's reach "
                                                              "bound (the sum of its link lengths) from its first joint.",
                                       json_schema_extra=unit("ratio"))
    sample_spread: float = Field(0.35, gt=0, le=1, description="Each sampled joint position lies within this fraction "
                                                               "of its range from home (NVIDIA's SPREAD).",
                                 json_schema_extra=unit("fraction"))
    limit_margin: float = Field(0.15, ge=0, lt=0.5, description="... and this fraction of its range inside each limit.",
                                json_schema_extra=unit("fraction"))
    min_target_travel: float = Field(0.05, ge=0, description="A reachable target lies at least this far from the pose "
                                                             "its solve starts from (resampled otherwise): a target "
                                                             "within the tolerance of the start would pass unmoved (m).",
                                     json_schema_extra=unit("m"))
    seed: int = Field(20260608, description="Seed of the joint-position sampler (NVIDIA's).")
    position_tolerance: float = Field(0.05, gt=0, description="A target is reached within this distance (m), read from "
                                                              "the runtime's pose after the hold.",
                                      json_schema_extra=unit("m"))
    orientation_tolerance_deg: float = Field(10.0, gt=0, description="... and within this rotation (deg).",
                                             json_schema_extra=unit("deg"))
    min_pass_rate: float = Field(0.4, gt=0, le=1, description="Fraction of the reachable targets that must be reached "
                                                              "(NVIDIA's).",
                                 json_schema_extra=unit("fraction"))
    damping_lambda: float = Field(0.05, gt=0, description="Damping of the least-squares step (NVIDIA's lambda).",
                                  json_schema_extra=unit("ratio"))
    max_solver_iterations: int = Field(150, ge=1, le=5000, description="Iterations per target at most.")
    converged_fraction: float = Field(0.25, gt=0, le=1, description="The solve stops once both errors are this fraction "
                                                                    "of their tolerances.",
                                      json_schema_extra=unit("fraction"))
    iteration_seconds: float = Field(0.25, gt=0, description="The most physics time between two iterations: the command "
                                                             "moves, the arm follows until its joints are at rest, the "
                                                             "runtime's pose and Jacobian are read again (s).",
                                     json_schema_extra=unit("s"))
    rest_speed_deg: float = Field(3.0, gt=0, description="A revolute joint slower than this is at rest (deg/s).",
                                  json_schema_extra=unit("deg/s"))
    rest_speed_m: float = Field(0.005, gt=0, description="A prismatic joint slower than this is at rest (m/s).",
                                json_schema_extra=unit("m/s"))
    rest_seconds: float = Field(0.02, gt=0, description="Joints at rest this long end an iteration (s).",
                                json_schema_extra=unit("s"))
    stall_iterations: int = Field(10, ge=1, description="The solve gives up after this many iterations in a row that did "
                                                        "not lower the error by min_progress.")
    min_progress: float = Field(0.001, gt=0, description="Progress an iteration must make (m; an orientation error counts "
                                                         "at the arm's reach per radian).", json_schema_extra=unit("m"))
    max_step_deg: float = Field(10.0, gt=0, description="The most one iteration changes a revolute joint's command (deg); "
                                                        "a larger step is shrunk whole, its direction kept.",
                                json_schema_extra=unit("deg"))
    max_step_m: float = Field(0.02, gt=0, description="The most one iteration changes a prismatic joint's command (m).",
                              json_schema_extra=unit("m"))
    hold_seconds: float = Field(0.3, ge=0, description="Held after the solve before the pose is judged (NVIDIA's "
                                                       "hold_after_reach_seconds) (s).", json_schema_extra=unit("s"))
    settle_seconds: float = Field(0.5, ge=0, description="Held at home before the first target (s).",
                                  json_schema_extra=unit("s"))
    home_seconds: float = Field(2.0, gt=0, description="Each target's solve starts at home: the arm goes back, until its "
                                                       "joints are at rest, at most this long (s).",
                                json_schema_extra=unit("s"))
    blocked_lag_deg: float = Field(5.0, gt=0, description="A joint this far behind its command where a target was missed "
                                                          "stopped short: its row fails (deg).",
                                   json_schema_extra=unit("deg"))
    blocked_lag_m: float = Field(0.01, gt=0, description="Likewise for a prismatic joint (m).",
                                 json_schema_extra=unit("m"))

    # A joint read this many of its ranges beyond its limits after the settle is a blown-up state, not a pose (a converted
    # Kinova's joint_2, limits +-128 deg, read -2.7e10 deg while its links spun in place and its bounds stayed put)
    runaway_ranges: ClassVar[float] = 1.0

    def thresholds_for(self, reach: float = 1.0) -> ReachThresholds:
        """The thresholds of an arm whose end effector reaches `reach` (m) from its base."""
        fps = self.physics_fps
        return ReachThresholds(self.position_tolerance, math.radians(self.orientation_tolerance_deg), self.min_pass_rate,
                               self.min_target_travel, math.radians(self.max_step_deg), self.max_step_m,
                               max(1, int(round(self.iteration_seconds * fps))), max(1, int(round(self.rest_seconds * fps))),
                               max(1, int(math.ceil(self.home_seconds / self.iteration_seconds))),
                               math.radians(self.rest_speed_deg), self.rest_speed_m, self.min_progress, reach,
                               int(round(self.hold_seconds * fps)), math.radians(self.blocked_lag_deg), self.blocked_lag_m)
