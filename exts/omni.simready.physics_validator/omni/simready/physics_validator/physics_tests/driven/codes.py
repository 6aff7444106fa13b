"""Codes the driven-joint tests share; each test's codes.py adds its own findings."""

from ...core.codes import ExclusionCode, VerdictCode


class DrivenCode(VerdictCode):
    OK = "OK"  # PASS (a verdict or a joint row)
    NO_DOF_JOINT = "NO_DOF_JOINT"  # NOT_APPLICABLE: no revolute or prismatic joint (a prop)
    NO_ARTICULATION = "NO_ARTICULATION"  # PRECHECK_FAILURE: joints but no ArticulationRootAPI
    NO_COLLIDER = "NO_COLLIDER"  # PRECHECK_FAILURE: nothing bounds the explosion watch
    NOTHING_TO_TEST = "NOTHING_TO_TEST"  # SKIP: no driven joint this test can exercise
    JOINTS_FAILED = "JOINTS_FAILED"  # FAIL (WARN): at least one joint row failed
    DEAD_DRIVE = "DEAD_DRIVE"  # a row: the drive moved its joint less than 10 % of the way it was asked
    EXPLODED = "EXPLODED"  # a row: NaN joint state, or the bounding box reached farther than the asset's reach


# The exclusions of a joint no UsdPhysics.DriveAPI drives (`fix --add-drives` can give it one; the hints say so).
DRIVE_LESS = frozenset({ExclusionCode.PASSIVE.value, ExclusionCode.ACTUATOR_ONLY.value})
