"""The FET028 gripper tests (gripper_close_lift_sphere, gripper_close_lift_cube) and what they share: the base test,
the rig, the phases, codes, hints, view and settings."""
