"""What `fix` may do about the gripper tests' failures: nothing yet. The grip depends on the jaws' maxForce and
stiffness, which `fix` tunes for the driven-joint tests, and on pad friction, which it does not; sizing a jaw's force
from a payload is not among its rules (docs/fix.md)."""

from ....core.fix_rules import FixRules


class GripperFixRules(FixRules):
    result_not_fixable = ("not_drive", "judges a grasp: pad friction, the jaws' squeeze and the site's ratings, which "
                                       "fix does not size")


FIX_RULES = GripperFixRules()
