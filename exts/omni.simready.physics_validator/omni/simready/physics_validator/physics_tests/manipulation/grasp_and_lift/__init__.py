"""grasp_and_lift (FET_005): a parallel jaw of the test's own grasps the prop along each of its grasp lines."""

from .test import GraspAndLiftTest

__all__ = ["GraspAndLiftTest"]
