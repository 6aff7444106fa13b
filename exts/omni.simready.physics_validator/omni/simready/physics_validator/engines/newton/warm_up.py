"""Newton's kernels compiled before any test's clock starts: a first run is a phase of its own, never a "hang".

Warp compiles a module of kernels the first time one of its kernels runs (SolverSteel, the collision pipeline, the
narrow-phase variants each shape pair needs): about a minute on an idle 2-core machine, minutes on a loaded one, and
during a test that would be a minute without a physics step, which the watchdog calls a hang. `warm_kernels()`
therefore runs, once per kernel cache, the engine itself on a small asset written for it (`WARM_ASSET`: an
articulated arm with revolute and prismatic drives, limits and velocity limits, box, capsule, sphere, cylinder and
convex-mesh colliders, a free body and a static triangle mesh) in the scenes tests ask for (dropped on the ground,
pinned with targets, velocity targets and a force at a point, beside a ramp), and a second one (`LEAN_ASSET`) with only
boxes, spheres and convex hulls and a joint driven by a NewtonActuator: Newton compiles its narrow phase per set of
shape types in a model (no capsule, cylinder, cone or ellipsoid: a "lean" variant; measured: a box-only prop's
slope_drop compiled it during the test), and actuators have kernels of their own. Then it marks the cache warm. A
variant neither asset foresees is announced as a first-run phase when Warp compiles it (runtime._announce_compiles).
It holds a file lock in the cache, so two workers starting together compile once: the second waits, then finds the
kernels.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from ...core.ramp import RampSpec
from ...core.scene import GroundSpec, SceneSpec
from .install import exclusive
from .runtime import cache_root, is_warm, mark_warm

LOCK_NAME = ".simready-compile.lock"
WARM_STEPS = 6  # physics steps per scene: every kernel of a step runs in the first one

WARM_ASSET = """#usda 1.0
(
    defaultPrim = "World"
    metersPerUnit = 1
    kilogramsPerUnit = 1
    upAxis = "Z"
)

def Xform "World"
{
    def Xform "Base" (prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI", "PhysicsArticulationRootAPI"])
    {
        float physics:mass = 2
        double3 xformOp:translate = (0, 0, 0.1)
        uniform token[] xformOpOrder = ["xformOp:translate"]
        def Cube "Box" (prepend apiSchemas = ["PhysicsCollisionAPI"])
        {
            double size = 0.2
        }
    }
    def Xform "Link1" (prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI"])
    {
        float physics:mass = 1
        double3 xformOp:translate = (0, 0, 0.4)
        uniform token[] xformOpOrder = ["xformOp:translate"]
        def Capsule "Capsule" (prepend apiSchemas = ["PhysicsCollisionAPI"])
        {
            double radius = 0.04
            double height = 0.3
            uniform token axis = "Z"
        }
    }
    def Xform "Link2" (prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI"])
    {
        float physics:mass = 0.5
        double3 xformOp:translate = (0, 0, 0.7)
        uniform token[] xformOpOrder = ["xformOp:translate"]
        def Mesh "Hull" (prepend apiSchemas = ["PhysicsCollisionAPI", "PhysicsMeshCollisionAPI"])
        {
            uniform token physics:approximation = "convexHull"
            point3f[] points = [(-0.05, -0.05, -0.05), (0.05, -0.05, -0.05), (0.05, 0.05, -0.05), (-0.05, 0.05, -0.05),
                                (-0.05, -0.05, 0.05), (0.05, -0.05, 0.05), (0.05, 0.05, 0.05), (-0.05, 0.05, 0.05)]
            int[] faceVertexCounts = [4, 4, 4, 4, 4, 4]
            int[] faceVertexIndices = [0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7]
        }
        def Cylinder "Cylinder" (prepend apiSchemas = ["PhysicsCollisionAPI"])
        {
            double radius = 0.03
            double height = 0.08
            uniform token axis = "X"
            double3 xformOp:translate = (0.1, 0, 0)
            uniform token[] xformOpOrder = ["xformOp:translate"]
        }
    }
    def PhysicsRevoluteJoint "Hinge" (prepend apiSchemas = ["PhysicsDriveAPI:angular"])
    {
        rel physics:body0 = </World/Base>
        rel physics:body1 = </World/Link1>
        point3f physics:localPos0 = (0, 0, 0.1)
        point3f physics:localPos1 = (0, 0, -0.2)
        uniform token physics:axis = "Y"
        float physics:lowerLimit = -90
        float physics:upperLimit = 90
        float drive:angular:physics:stiffness = 100
        float drive:angular:physics:damping = 5
        float drive:angular:physics:maxForce = 200
        float newton:velocityLimit = 3
    }
    def PhysicsPrismaticJoint "Slider" (prepend apiSchemas = ["PhysicsDriveAPI:linear"])
    {
        rel physics:body0 = </World/Link1>
        rel physics:body1 = </World/Link2>
        point3f physics:localPos0 = (0, 0, 0.15)
        point3f physics:localPos1 = (0, 0, -0.15)
        uniform token physics:axis = "Z"
        float physics:lowerLimit = -0.1
        float physics:upperLimit = 0.1
        float drive:linear:physics:stiffness = 500
        float drive:linear:physics:damping = 20
        float drive:linear:physics:maxForce = 100
    }
    def Sphere "Ball" (prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI", "PhysicsCollisionAPI"])
    {
        float physics:mass = 0.2
        double radius = 0.05
        double3 xformOp:translate = (0.3, 0, 0.2)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }
    def Mesh "Tray" (prepend apiSchemas = ["PhysicsCollisionAPI", "PhysicsMeshCollisionAPI"])
    {
        uniform token physics:approximation = "none"
        point3f[] points = [(0.2, -0.2, 0.05), (0.6, -0.2, 0.05), (0.6, 0.2, 0.05), (0.2, 0.2, 0.05)]
        int[] faceVertexCounts = [3, 3]
        int[] faceVertexIndices = [0, 1, 2, 0, 2, 3]
    }
}
"""

# Boxes, spheres and a convex hull only (Newton's lean narrow phase), and a NewtonActuator PD on the hinge.
LEAN_ASSET = """#usda 1.0
(
    defaultPrim = "World"
    metersPerUnit = 1
    kilogramsPerUnit = 1
    upAxis = "Z"
)

def Xform "World"
{
    def Cube "Base" (prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI", "PhysicsCollisionAPI",
                                            "PhysicsArticulationRootAPI"])
    {
        float physics:mass = 1
        double size = 0.2
        double3 xformOp:translate = (0, 0, 0.1)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }
    def Xform "Lid" (prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI"])
    {
        float physics:mass = 0.5
        double3 xformOp:translate = (0, 0, 0.3)
        uniform token[] xformOpOrder = ["xformOp:translate"]
        def Mesh "Hull" (prepend apiSchemas = ["PhysicsCollisionAPI", "PhysicsMeshCollisionAPI"])
        {
            uniform token physics:approximation = "convexHull"
            point3f[] points = [(-0.05, -0.05, -0.05), (0.05, -0.05, -0.05), (0.05, 0.05, -0.05), (-0.05, 0.05, -0.05),
                                (-0.05, -0.05, 0.05), (0.05, -0.05, 0.05), (0.05, 0.05, 0.05), (-0.05, 0.05, 0.05)]
            int[] faceVertexCounts = [4, 4, 4, 4, 4, 4]
            int[] faceVertexIndices = [0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7]
        }
    }
    def PhysicsRevoluteJoint "Hinge"
    {
        rel physics:body0 = </World/Base>
        rel physics:body1 = </World/Lid>
        point3f physics:localPos0 = (0, 0, 0.1)
        point3f physics:localPos1 = (0, 0, -0.1)
        uniform token physics:axis = "X"
        float physics:lowerLimit = -45
        float physics:upperLimit = 45
    }
    def NewtonActuator "HingeActuator" (prepend apiSchemas = ["NewtonPDControlAPI"])
    {
        rel newton:targets = </World/Hinge>
        float newton:kp = 5
        float newton:kd = 0.5
    }
    def Sphere "Ball" (prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI", "PhysicsCollisionAPI"])
    {
        float physics:mass = 0.2
        double radius = 0.05
        double3 xformOp:translate = (0.3, 0, 0.2)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }
}
"""
# (asset, the scenes it runs in): the full asset in every scene, the lean one where shapes collide (every step
# launches the narrow phase, so one scene compiles its variant)
WARM_SET = (("warm_up.usda", WARM_ASSET, (0, 1, 2)), ("warm_up_lean.usda", LEAN_ASSET, (2,)))


def scenes() -> list[SceneSpec]:
    """The scenes tests ask of an engine: dropped on the ground, pinned in the air, beside a ramp."""
    return [
        SceneSpec(ground=GroundSpec(), place_bottom_at=0.05),
        SceneSpec(pin_base=True),
        SceneSpec(ground=GroundSpec(), ramp=RampSpec(top_height=0.5, top_y=1.0), place_bottom_at=0.05),
    ]


def warm_kernels(engine_class) -> float:
    """Compile (or load) every kernel a validation steps with `engine_class` (NewtonEngine), unless this cache is warm
    already; the seconds it took."""
    from ...core.usd import read_asset

    started = time.perf_counter()
    with exclusive(cache_root() / LOCK_NAME):
        if is_warm():  # another process compiled them while this one waited
            return time.perf_counter() - started
        with tempfile.TemporaryDirectory(prefix="simready-newton-warm-") as folder:
            for name, text, which in WARM_SET:
                path = Path(folder) / name
                path.write_text(text, encoding="utf-8")
                asset = read_asset(path, "Newton")
                for k in which:
                    engine = engine_class()
                    try:
                        engine.load(asset, scenes()[k])
                        _exercise(engine, asset)
                    finally:
                        engine.close()
        mark_warm()
    return time.perf_counter() - started


def _exercise(engine, asset) -> None:
    """Steps with what tests command: position and velocity targets, a force at a point, a reset; every read."""
    count = len(engine.dof_joints)
    for step in range(WARM_STEPS):
        if count:
            engine.set_joint_position_targets(np.full(count, 0.1 * step))
            engine.set_joint_velocity_targets(np.full(count, 0.5))
        body = next(iter(asset.bodies))
        engine.apply_force(body, np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 0.2]))
        engine.step()
        engine.bounds()
        engine.joint_positions()
        engine.joint_velocities()
        engine.body_poses()
    engine.reset()
    engine.step()
    engine.runtime_values()
    engine.built_model()
    links = [body for articulation in asset.articulations for body in articulation.bodies]
    if count and links:
        engine.body_jacobian(links[-1])  # newton.eval_jacobian: the IK and reach tests
