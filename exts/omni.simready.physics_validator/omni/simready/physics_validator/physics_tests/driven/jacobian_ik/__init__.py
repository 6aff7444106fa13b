"""jacobian_ik (FET_022): damped least squares on the runtime's own Jacobian brings the end effector to poses the
arm's kinematics reach."""

from .test import JacobianIkTest

__all__ = ["JacobianIkTest"]
