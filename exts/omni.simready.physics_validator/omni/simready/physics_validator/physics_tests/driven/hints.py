"""Hints the four driven-joint tests share (each test's hints.py adds its own)."""

ADD_DRIVE = (
    "Add a UsdPhysics.DriveAPI (angular for revolute, linear for prismatic joints) with driveStiffness > 0, "
    "driveDamping > 0 and a driveMaxForce matching the real actuator to every joint that should be driven."
)
DEAD_DRIVE = (
    "Dead drive: the joint's UsdPhysics.DriveAPI cannot move it. Author a driveMaxForce that matches the real "
    "actuator (0 or a tiny value means no force at all) and a driveStiffness large enough to move the joint against "
    "gravity and its load; check the drive's axis token (angular for revolute, linear for prismatic joints)."
)
