"""The manipulation family: what a gripper and a graspable prop are for. gripper_close_lift_sphere and
gripper_close_lift_cube (FET_028) close a gripper on an object, lift, shake and release it on a test-owned gantry;
grasp_and_lift (FET_005) grasps a prop along each of its grasp lines with a test-owned parallel jaw. Each builds its rig
as a layer beside the asset (core.rig, rig_usd.py)."""
