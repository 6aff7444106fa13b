"""The built-in physics tests and the registry a run uses.

A test is one folder, `<family>/<test>/`: the test class (test.py), its verdict codes (codes.py), settings
(config.py), hints by code (hints.py), report view and plot (view.py, plot.py) and what `fix` may do about
its failures (fix_rules.py). Families share what their tests have in common: `ground/` (ground_drop, slope_drop,
ground_stability: which parts a release judges), `driven/` (the seven driven-joint tests: joint selection, the
pinned-base scene, motion plans, position tracking, step response, load directions, the explosion watch) and
`multibody/` (joint_movement). `default_registry()` holds the built-ins, then third-party tests from the entry-point
group `omni.simready.physics_validator.tests` (core.plugin.ENTRY_POINT_GROUP).
"""

from __future__ import annotations

from ..core.plugin import PhysicsTest, TestRegistry, load_entry_points
from .driven.drive_gain_validation import DriveGainValidationTest
from .driven.effort_limit import EffortLimitTest
from .driven.full_range_sweep import FullRangeSweepTest
from .driven.ik_target_reach import IkTargetReachTest
from .driven.jacobian_ik import JacobianIkTest
from .driven.mimic_joint import MimicJointTest
from .driven.multi_joint_coordination import MultiJointCoordinationTest
from .driven.state_accuracy import StateAccuracyTest
from .driven.velocity_limit import VelocityLimitTest
from .ground.ground_drop import GroundDropTest
from .ground.ground_stability import GroundStabilityTest
from .ground.slope_drop import SlopeDropTest
from .manipulation.grasp_and_lift import GraspAndLiftTest
from .manipulation.gripper.gripper_close_lift_cube import GripperCloseLiftCubeTest
from .manipulation.gripper.gripper_close_lift_sphere import GripperCloseLiftSphereTest
from .multibody.joint_movement import JointMovementTest

BUILTIN_TESTS: tuple[type[PhysicsTest], ...] = (
    GroundDropTest,
    VelocityLimitTest,
    FullRangeSweepTest,
    DriveGainValidationTest,
    EffortLimitTest,
    StateAccuracyTest,
    MultiJointCoordinationTest,
    MimicJointTest,
    JointMovementTest,
    SlopeDropTest,
    GroundStabilityTest,
    JacobianIkTest,
    IkTargetReachTest,
    GripperCloseLiftSphereTest,
    GripperCloseLiftCubeTest,
    GraspAndLiftTest,
)

_REGISTRY: TestRegistry | None = None


def default_registry() -> TestRegistry:
    """The process-wide registry: the built-in tests in spec order, then entry-point plugins."""
    global _REGISTRY
    if _REGISTRY is None:
        registry = TestRegistry()
        for test_cls in BUILTIN_TESTS:
            registry.register(test_cls)
        load_entry_points(registry)
        _REGISTRY = registry
    return _REGISTRY


__all__ = ["BUILTIN_TESTS", "default_registry"]
