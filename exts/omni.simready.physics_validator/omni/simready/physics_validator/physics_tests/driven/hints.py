"""Hints the driven-joint tests share (each test's hints.py adds its own).

Every hint says what `simready-physics fix` would change for the same finding (docs/fix.md: stiffness K from the
load over the tolerance, damping D = 2 zeta sqrt(K I), maxForce from the peak load but never above the actuator's
rating), and none loosens the test: a hint never asks for a setting of the test to change.

A robot imported without drives (URDF has no gains) skips every driven-joint test: its hint names the joints and
gives, per joint, a USD override to paste, with first values from the joint's inertia the engine measured and the
actuator's rated effort where the asset carries one; `simready-physics fix --add-drives` sizes them against the
measured gravity load and proves them by a re-run.
"""

from __future__ import annotations

import math

from ...core.quantities import listed
from ...core.units import StageFrame
from .codes import DRIVE_LESS

FIRST_FREQUENCY_HZ = 5.0  # the snippet's first stiffness: this natural frequency on the joint's inertia (fix's f_n)

ADD_DRIVE = (
    "Add a UsdPhysics.DriveAPI (angular for revolute, linear for prismatic joints) with driveStiffness > 0, "
    "driveDamping > 0 and a driveMaxForce matching the real actuator to every joint that should be driven; "
    "`simready-physics fix --add-drives` proposes first values from the measured inertia and gravity load and proves them."
)
DEAD_DRIVE = (
    "Dead drive: the most the drive pulls with over the commanded move (driveStiffness x the move, at most driveMaxForce: "
    "the reason gives it) does not move the joint. Where that pull is its maxForce and the maxForce is 0 or tiny, author "
    "the real actuator's; otherwise something holds the joint harder than that pull (joint friction, which the runtime "
    "readback shows, links in contact, a load) and driveStiffness must beat it: `simready-physics fix` measures what holds "
    "it and sizes the drive against it, or names the cause. Check the drive's axis token too (angular for revolute, linear "
    "for prismatic joints)."
)
STATIC_OFFSET = (
    "A drive holds a load (gravity, friction, a test load) with a static error of load / driveStiffness: raise "
    "driveStiffness until that error is inside the tolerance, keep driveDamping near critical (2 sqrt(stiffness x "
    "inertia)), and keep driveMaxForce at or above the holding torque within the actuator's rating. Damping does not "
    "remove a static offset. `simready-physics fix` sizes these from the measured load and proves them."
)
EXPLODED = (
    "The simulation exploded: check that the articulation is rooted where the robot is held (the runtime readback's "
    "articulation_root says which link the runtime roots it at; ArticulationRootAPI on the base link names it), that "
    "every body has a valid mass and "
    "inertia and that the joint limits are physically possible. `simready-physics fix` does not change masses."
)


def drive_less_joints(ctx) -> list:
    """The joints of this run that no drive moves (their JointInfo), from the verdict's excluded joints."""
    if ctx is None or not hasattr(ctx, "result"):
        return []
    paths = [e.path for e in ctx.result.excluded_joints if e.code in DRIVE_LESS]
    return [ctx.asset.joints[p] for p in paths if p in ctx.asset.joints]


def add_drives(ctx) -> str:
    """The SKIP's first hint: which joints have no drive and the command that proposes and proves them."""
    joints = drive_less_joints(ctx)
    if not joints:
        return ADD_DRIVE if ctx is None else ("No joint this test can exercise: the report lists each joint it left out "
                                              "and why (mimic follower, locked, no limits...).")
    return (f"{len(joints)} joint{'s have' if len(joints) != 1 else ' has'} no drive ({listed([j.name for j in joints])}): "
            "add a UsdPhysics.DriveAPI to each (a USD snippet per joint is in the report), or run "
            "`simready-physics fix --add-drives` on the asset to measure, propose and prove first drives.")


def drive_snippet(ctx) -> str:
    """A USD override layer, paste-ready, giving each drive-less joint a drive (first values, see the comments)."""
    joints = drive_less_joints(ctx)
    if not joints:
        return ""
    kpu, mpu = ctx.asset.kilograms_per_unit, ctx.asset.meters_per_unit
    lines = ["#usda 1.0", "# first drives: stiffness for a "
             f"{FIRST_FREQUENCY_HZ:g} Hz natural frequency on the inertia the engine measured, critical damping;",
             "# gravity loads are not in them: `simready-physics fix --add-drives` measures those and proves the values"]
    tree: dict = {}
    for joint in joints:
        node = tree
        for part in joint.path.strip("/").split("/"):
            node = node.setdefault(part, {})
        node[None] = _drive_lines(ctx, joint, kpu, mpu)
    _nest(tree, lines, 0)
    return "\n".join(lines)


def _drive_lines(ctx, joint, kpu: float, mpu: float) -> list[str]:
    angular = joint.is_angular
    axis = "angular" if angular else "linear"
    gain = StageFrame(meters_per_unit=mpu, kilograms_per_unit=kpu).joint_gain_scale(angular)  # USD value x this = SI
    force = kpu * mpu**2 if angular else kpu * mpu
    per, torque = ("°", "N·m") if angular else ("m", "N")
    attr = f"drive:{axis}:physics"
    out = [f'uniform token {attr}:type = "force"']
    inertia = ctx.joint_inertia(joint.path)
    if inertia:
        omega = 2 * math.pi * FIRST_FREQUENCY_HZ
        stiffness = inertia * omega**2
        damping = 2.0 * math.sqrt(stiffness * inertia)
        out += [f"float {attr}:stiffness = {stiffness / gain:.4g}  # {torque}/{per} (inertia {inertia:.3g} "
                f"{'kg·m²' if angular else 'kg'} at the authored pose, armature not included; `fix` sizes by the largest "
                "over the poses the tests take it to)", f"float {attr}:damping = {damping / gain:.4g}  # {torque}·s/{per}"]
    else:
        out += [f"float {attr}:stiffness = 0  # set: the engine gave no inertia to size it by ({torque}/{per})",
                f"float {attr}:damping = 0  # set: 2 sqrt(stiffness x inertia) ({torque}·s/{per})"]
    if joint.effort_limit:
        out.append(f"float {attr}:maxForce = {joint.effort_limit / force:.4g}  # {torque}: the rated effort "
                   f"({joint.effort_limit_source})")
    else:
        out.append(f"# float {attr}:maxForce = ...  # {torque}: the real actuator's rated effort (none authored)")
    target = min(max(0.0, joint.lower), joint.upper) if joint.has_limits else 0.0
    out.append(f"float {attr}:targetPosition = {math.degrees(target) if angular else target / mpu:.4g}")
    return out


def _nest(tree: dict, lines: list[str], depth: int) -> None:
    pad = "    " * depth
    for name, child in tree.items():
        if name is None:
            continue
        api = ""
        if None in child:
            axis = "angular" if 'drive:angular' in child[None][0] else "linear"
            api = f' (prepend apiSchemas = ["PhysicsDriveAPI:{axis}"])'
        lines.append(f'{pad}over "{name}"{api}')
        lines.append(f"{pad}{{")
        for line in child.get(None, []):
            lines.append(f"{pad}    {line}")
        _nest(child, lines, depth + 1)
        lines.append(f"{pad}}}")
