"""The multibody family (FET_004): joint_movement, whether every joint of an assembly moves its bodies."""
