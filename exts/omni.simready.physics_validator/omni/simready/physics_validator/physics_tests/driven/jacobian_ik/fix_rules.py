"""What `fix` may do about jacobian_ik's failures: tune the drives of the joints that stopped short (a stiffer drive
with a maxForce above the load carries the arm where its kinematics say); an explosion is not a drive value's to fix.
A joint its own links block is not either: the re-run then names the same joint."""

from ..fix_rules import DrivenFixRules


class JacobianIkFixRules(DrivenFixRules):
    pass


FIX_RULES = JacobianIkFixRules()
