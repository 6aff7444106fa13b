"""What `fix` may do about the gripper tests' failures: negate the axis of a jaw whose limits run the reverse of FET028's
convention (its JAW_REVERSED row; the layer fix/jaw_axis.py writes, kept only when the re-run passes), and nothing
else. The grip depends on the jaws' maxForce and stiffness, which `fix` tunes for the driven-joint tests, and on pad
friction, which it does not; sizing a jaw's force from a payload is not among its rules (docs/fix.md)."""

from ....core.fix_rules import FixRules
from .codes import GripperCode as Code

GRASP = ("not_drive", "judges a grasp: pad friction, the jaws' squeeze and the site's ratings, which fix does not size")


class GripperFixRules(FixRules):
    result_not_fixable = None  # judged by code: JAW_REVERSED rows are fixed, the rest named
    negates_axis = frozenset({Code.JAW_REVERSED.value})
    not_fixable = {code.value: GRASP for code in (Code.OPEN_NOT_REACHED, Code.CLOSED_ON_NOTHING, Code.OBJECT_PUSHED_AWAY,
                                                  Code.NOT_LIFTED, Code.DROPPED, Code.SLIPPED, Code.NOT_RELEASED)}


FIX_RULES = GripperFixRules()
