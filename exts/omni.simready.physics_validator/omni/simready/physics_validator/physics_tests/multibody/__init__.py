"""The multibody family (FET004): joint_movement, whether every joint of an assembly moves its bodies."""
