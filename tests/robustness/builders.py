"""pxr builders for the bad-input corpus: each writes real USD files and returns the input paths.

Every builder takes a case folder and returns the list of paths to hand to `validate` (files,
folders, or paths that do not exist). Geometry is given in metres, Z-up; `up`/`mpu` convert it to
the stage's own axis and units so Y-up centimetre twins describe the same physical object.
"""

from __future__ import annotations

from pathlib import Path

from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

NAN = float("nan")
INF = float("inf")


class Stage:
    """A stage under construction with unit/axis conversion from SI Z-up."""

    def __init__(self, path: Path, up: str = "Z", mpu: float = 1.0, root: str = "Asset", default_prim: bool = True):
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.up = up
        self.mpu = mpu
        self.stage = Usd.Stage.CreateNew(str(path))
        UsdGeom.SetStageUpAxis(self.stage, UsdGeom.Tokens.y if up == "Y" else UsdGeom.Tokens.z)
        UsdGeom.SetStageMetersPerUnit(self.stage, mpu)
        self.root = f"/{root}"
        prim = UsdGeom.Xform.Define(self.stage, self.root).GetPrim()
        if default_prim:
            self.stage.SetDefaultPrim(prim)

    def vec(self, v, scale: bool = True) -> Gf.Vec3d:
        s = 1.0 / self.mpu if scale else 1.0
        x, y, z = (c * s for c in v)
        return Gf.Vec3d(x, z, -y) if self.up == "Y" else Gf.Vec3d(x, y, z)

    def extent(self, half) -> Gf.Vec3d:
        hx, hy, hz = (abs(c) / self.mpu for c in half)
        return Gf.Vec3d(hx, hz, hy) if self.up == "Y" else Gf.Vec3d(hx, hy, hz)

    def box_body(self, path: str, center=(0, 0, 0.5), half=(0.05, 0.05, 0.05), mass: float | None = 1.0, rigid: bool = True):
        """An Xform rigid body with one Cube collider of the given half extents (m)."""
        body = UsdGeom.Xform.Define(self.stage, path)
        body.AddTranslateOp().Set(self.vec(center))
        if rigid:
            UsdPhysics.RigidBodyAPI.Apply(body.GetPrim())
        if mass is not None:
            UsdPhysics.MassAPI.Apply(body.GetPrim()).CreateMassAttr(mass)
        cube = UsdGeom.Cube.Define(self.stage, f"{path}/Collider")
        cube.CreateSizeAttr(2.0)
        cube.AddScaleOp().Set(self.extent(half))
        UsdPhysics.CollisionAPI.Apply(cube.GetPrim())
        return body

    def mesh_body(self, path: str, points, counts, indices, center=(0, 0, 0.5), mass: float | None = 1.0,
                  approximation="convexHull"):
        """A rigid body with one mesh collider; points in metres, Z-up, relative to the body."""
        body = UsdGeom.Xform.Define(self.stage, path)
        body.AddTranslateOp().Set(self.vec(center))
        UsdPhysics.RigidBodyAPI.Apply(body.GetPrim())
        if mass is not None:
            UsdPhysics.MassAPI.Apply(body.GetPrim()).CreateMassAttr(mass)
        mesh = UsdGeom.Mesh.Define(self.stage, f"{path}/Collider")
        mesh.CreatePointsAttr([Gf.Vec3f(*self.vec(p)) for p in points])
        if counts is not None:
            mesh.CreateFaceVertexCountsAttr(list(counts))
        if indices is not None:
            mesh.CreateFaceVertexIndicesAttr(list(indices))
        UsdPhysics.CollisionAPI.Apply(mesh.GetPrim())
        UsdPhysics.MeshCollisionAPI.Apply(mesh.GetPrim()).CreateApproximationAttr(approximation)
        return body

    def revolute(self, path: str, body0: str | None, body1: str | None, pos0=(0, 0, 0), pos1=(0, 0, 0), limits=(-90.0, 90.0)):
        joint = UsdPhysics.RevoluteJoint.Define(self.stage, path)
        if body0:
            joint.CreateBody0Rel().SetTargets([Sdf.Path(body0)])
        if body1:
            joint.CreateBody1Rel().SetTargets([Sdf.Path(body1)])
        joint.CreateLocalPos0Attr(Gf.Vec3f(*self.vec(pos0)))
        joint.CreateLocalPos1Attr(Gf.Vec3f(*self.vec(pos1)))
        joint.CreateAxisAttr("Y" if self.up == "Z" else "Z")
        if limits is not None:
            joint.CreateLowerLimitAttr(limits[0])
            joint.CreateUpperLimitAttr(limits[1])
        return joint

    def articulation_root(self, path: str | None = None) -> None:
        UsdPhysics.ArticulationRootAPI.Apply(self.stage.GetPrimAtPath(path or self.root))

    def save(self) -> Path:
        self.stage.GetRootLayer().Save()
        return self.path


# -- cube mesh data (outward winding: counter-clockwise seen from outside) -------------------------
def cube_points(h: float = 0.05):
    return [(x, y, z) for z in (-h, h) for y in (-h, h) for x in (-h, h)]


CUBE_FACES = [
    (0, 2, 3, 1),  # -z
    (4, 5, 7, 6),  # +z
    (0, 1, 5, 4),  # -y
    (2, 6, 7, 3),  # +y
    (0, 4, 6, 2),  # -x
    (1, 3, 7, 5),  # +x
]


def cube_topology(inverted: bool = False):
    faces = [tuple(reversed(f)) if inverted else f for f in CUBE_FACES]
    return [4] * len(faces), [i for f in faces for i in f]


# -- the good asset every twin is derived from ----------------------------------------------------
def good_box(path: Path, up: str = "Z", mpu: float = 1.0) -> Path:
    s = Stage(path, up, mpu)
    s.box_body(f"{s.root}/Body", center=(0, 0, 0.5), half=(0.15, 0.05, 0.03), mass=1.0)
    return s.save()


# -- file-level problems ---------------------------------------------------------------------------
def zero_byte(folder: Path) -> list[Path]:
    path = folder / "empty.usda"
    path.write_bytes(b"")
    return [path]


def truncated_usdc(folder: Path) -> list[Path]:
    full = good_box(folder / "full.usdc")
    data = full.read_bytes()
    path = folder / "truncated.usdc"
    path.write_bytes(data[: len(data) // 2])
    full.unlink()
    return [path]


def syntax_error(folder: Path) -> list[Path]:
    path = folder / "syntax_error.usda"
    path.write_text('#usda 1.0\n(\n    defaultPrim = "Asset"\n)\n\ndef Xform "Asset" {\n    def Cube "Geom" {\n        double '
                    'size = \n}\n')
    return [path]


def not_usd_content(folder: Path) -> list[Path]:
    path = folder / "garbage.usd"
    path.write_bytes(bytes(range(256)) * 8)
    return [path]


def unresolved_sublayer(folder: Path) -> list[Path]:
    path = good_box(folder / "sublayer.usda")
    layer = Sdf.Layer.FindOrOpen(str(path))
    layer.subLayerPaths.append("./missing_physics_layer.usda")
    layer.Save()
    return [path]


def unresolved_reference(folder: Path) -> list[Path]:
    s = Stage(folder / "reference.usda")
    s.box_body(f"{s.root}/Body")
    s.stage.DefinePrim(f"{s.root}/Wheel").GetReferences().AddReference("./parts/missing_wheel.usd")
    return [s.save()]


def unresolved_payload(folder: Path) -> list[Path]:
    s = Stage(folder / "payload.usda")
    s.box_body(f"{s.root}/Body")
    s.stage.DefinePrim(f"{s.root}/Heavy").GetPayloads().AddPayload("./payloads/missing_heavy.usdc")
    return [s.save()]


def no_default_prim_several_roots(folder: Path) -> list[Path]:
    s = Stage(folder / "several_roots.usda", root="First", default_prim=False)
    s.box_body("/First/Body", center=(0, 0, 0.5))
    UsdGeom.Xform.Define(s.stage, "/Second")
    s.box_body("/Second/Body", center=(0.5, 0, 0.5))
    return [s.save()]


# -- mass and transform values ---------------------------------------------------------------------
def mass_value(value: float, name: str):
    def build(folder: Path) -> list[Path]:
        s = Stage(folder / f"{name}.usda")
        s.box_body(f"{s.root}/Body", mass=value)
        return [s.save()]

    return build


def nan_transform(folder: Path) -> list[Path]:
    s = Stage(folder / "nan_transform.usda")
    body = s.box_body(f"{s.root}/Body")
    body.GetOrderedXformOps()[0].Set(Gf.Vec3d(0.0, NAN, 0.5))
    return [s.save()]


# -- collider geometry -----------------------------------------------------------------------------
def zero_volume_mesh(folder: Path) -> list[Path]:
    s = Stage(folder / "flat_mesh.usda")
    points = [(-0.1, -0.1, 0), (0.1, -0.1, 0), (0.1, 0.1, 0), (-0.1, 0.1, 0)]
    s.mesh_body(f"{s.root}/Body", points, [4], [0, 1, 2, 3])
    return [s.save()]


def degenerate_mesh(folder: Path) -> list[Path]:
    s = Stage(folder / "degenerate_mesh.usda")
    points = [(0.1, 0.2, 0.3)] * 8  # every vertex at one point
    counts, indices = cube_topology()
    s.mesh_body(f"{s.root}/Body", points, counts, indices)
    return [s.save()]


def mesh_without_faces(folder: Path) -> list[Path]:
    s = Stage(folder / "no_faces.usda")
    s.mesh_body(f"{s.root}/Body", cube_points(), None, None)
    return [s.save()]


def inverted_normals(folder: Path) -> list[Path]:
    s = Stage(folder / "inverted_normals.usda")
    counts, indices = cube_topology(inverted=True)
    s.mesh_body(f"{s.root}/Body", cube_points(), counts, indices)
    UsdGeom.Mesh.Get(s.stage, f"{s.root}/Body/Collider").CreateOrientationAttr(UsdGeom.Tokens.rightHanded)
    return [s.save()]


def overlapping_bodies(folder: Path) -> list[Path]:
    s = Stage(folder / "overlapping_bodies.usda")
    s.box_body(f"{s.root}/A", center=(0, 0, 0.5), half=(0.1, 0.1, 0.1))
    s.box_body(f"{s.root}/B", center=(0.05, 0, 0.52), half=(0.1, 0.1, 0.1))
    return [s.save()]


# -- joints and articulations ----------------------------------------------------------------------
def extreme_mass_ratio(folder: Path) -> list[Path]:
    s = Stage(folder / "mass_ratio.usda")
    s.box_body(f"{s.root}/Base", center=(0, 0, 0.3), half=(0.3, 0.3, 0.1), mass=1.0e4)
    s.box_body(f"{s.root}/Tip", center=(0, 0, 0.55), half=(0.01, 0.01, 0.1), mass=1.0e-6)
    s.revolute(f"{s.root}/Joints/tip_joint", f"{s.root}/Base", f"{s.root}/Tip", (0, 0, 0.1), (0, 0, -0.15))
    s.articulation_root()
    return [s.save()]


def joint_target_missing(folder: Path) -> list[Path]:
    s = Stage(folder / "missing_joint_target.usda")
    s.box_body(f"{s.root}/Base", center=(0, 0, 0.3))
    s.revolute(f"{s.root}/Joints/dangling", f"{s.root}/Base", f"{s.root}/DoesNotExist", (0, 0, 0.05), (0, 0, 0))
    return [s.save()]


def articulation_loop(folder: Path) -> list[Path]:
    """Four links joined in a ring (a four-bar linkage) with no joint excluded from the articulation."""
    s = Stage(folder / "four_bar_loop.usda")
    corners = [(-0.2, 0, 0.5), (0.2, 0, 0.5), (0.2, 0, 0.9), (-0.2, 0, 0.9)]
    names = [f"{s.root}/Link{i}" for i in range(4)]
    for name, corner in zip(names, corners):
        s.box_body(name, center=corner, half=(0.03, 0.03, 0.03), mass=0.5)
    for i in range(4):
        a, b = names[i], names[(i + 1) % 4]
        pa, pb = corners[i], corners[(i + 1) % 4]
        mid = tuple((x + y) / 2 for x, y in zip(pa, pb))
        s.revolute(
            f"{s.root}/Joints/j{i}", a, b, tuple(m - p for m, p in zip(mid, pa)), tuple(m - p for m, p in zip(mid,
                                                                                                              pb)), limits=None
        )
    s.articulation_root()
    return [s.save()]


def many_bodies(folder: Path, count: int = 500) -> list[Path]:
    """`count` separate boxes in a loose grid, one layer of rigid bodies per 100."""
    s = Stage(folder / f"bodies_{count}.usda")
    side = 10
    for i in range(count):
        x, y, z = i % side, (i // side) % side, i // (side * side)
        s.box_body(f"{s.root}/B{i:03d}", center=(x * 0.12, y * 0.12, 0.3 + z * 0.12), half=(0.04, 0.04, 0.04), mass=0.1)
    return [s.save()]


# -- names, units and folders ----------------------------------------------------------------------
def unit_twins(folder: Path) -> list[Path]:
    return [good_box(folder / "z_up_metre.usda"), good_box(folder / "y_up_centimetre.usda", up="Y", mpu=0.01)]


def non_ascii_names(folder: Path) -> list[Path]:
    s = Stage(folder / "données_ロボット" / "ロボット_größe.usda", root="Résumé")
    s.box_body(f"{s.root}/Körper_体")
    return [s.save()]


def same_file_name(folder: Path) -> list[Path]:
    a = good_box(folder / "shelf_a" / "asset.usda")
    s = Stage(folder / "shelf_b" / "asset.usda")
    body = s.box_body(f"{s.root}/Body")
    UsdPhysics.RigidBodyAPI(body.GetPrim()).CreateKinematicEnabledAttr(True)  # never falls: a real FAIL
    return [a, s.save()]


def empty_folder(folder: Path) -> list[Path]:
    target = folder / "no_usd_here"
    target.mkdir(parents=True, exist_ok=True)
    (target / "readme.txt").write_text("not an asset\n")
    return [target]


def missing_path(folder: Path) -> list[Path]:
    return [folder / "does_not_exist.usda"]


def not_a_usd_file(folder: Path) -> list[Path]:
    """A text file given as the asset (notes.txt), beside nothing else."""
    folder.mkdir(parents=True, exist_ok=True)
    notes = folder / "notes.txt"
    notes.write_text("not an asset\n")
    return [notes]


def good_and_bad_batch(folder: Path) -> list[Path]:
    """A good asset next to broken ones: the good one's verdict must still be reported."""
    good = good_box(folder / "batch" / "good.usda")
    syntax_error(folder / "batch")
    zero_byte(folder / "batch")
    return [good.parent]


def stage_metadata(key: str, value, name: str):
    """The good box with one hostile root-layer metadata value (metersPerUnit, kilogramsPerUnit, upAxis)."""

    def build(folder: Path) -> list[Path]:
        path = good_box(folder / f"{name}.usda")
        stage = Usd.Stage.Open(str(path))
        stage.SetMetadata(key, value)
        stage.Save()
        return [path]

    return build
