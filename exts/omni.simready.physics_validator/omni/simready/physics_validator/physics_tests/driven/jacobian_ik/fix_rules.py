"""What `fix` may do about jacobian_ik's failures: tune the drives of the joints that stopped short (a stiffer drive
with a maxForce above the load carries the arm where its kinematics say); an explosion is not a drive value's to fix.
A joint its own links block is not either: the re-run then names the same joint. A chain that cannot be commanded
because joints on it have no drive (CHAIN_NOT_DRIVEN) gets first drives with `--add-drives`, as the driven family's
NOTHING_TO_TEST does: `fix --add-drives --tests jacobian_ik` proves them by this test alone."""

from ..fix_rules import DrivenFixRules
from .codes import JacobianIkCode


class JacobianIkFixRules(DrivenFixRules):
    adds_drives_on = DrivenFixRules.adds_drives_on | {JacobianIkCode.CHAIN_NOT_DRIVEN.value}


FIX_RULES = JacobianIkFixRules()
