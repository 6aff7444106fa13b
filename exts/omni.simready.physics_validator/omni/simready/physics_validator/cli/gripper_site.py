"""`simready-physics gripper-site ASSET --out SITE.usda`: a FET028 gripper site in a layer of its own, for the gripper
tests (docs/cli.md, docs/tests/gripper_close_lift_sphere.md).

The layer sublayers ASSET and adds one site: at `--at PRIM` (a converter's MJCF site, a TCP frame), at `--centre`
under `--base`, or else at the converter site the fingers surround, else midway between the fingers. What is not given
is derived from the jaws and colliders (manipulation/gripper/jaw_geometry.py) and printed with where it came from.
ASSET is never written; OUT must be a new .usda path or a layer this command wrote (never a link, never a layer of the
asset). A problem with the command line is a UsageError (exit 2).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

PARALLEL = 0.99  # |cos| between forward and grip above this: the two directions do not span a grasp


def add_parser(sub) -> None:
    site = sub.add_parser(
        "gripper-site", help="write a layer that gives a gripper a FET028 site (forward axis, grip line, opening, payload)",
        usage="%(prog)s ASSET --out SITE.usda [--at PRIM | --centre X Y Z [--base PRIM]] [--forward X Y Z] [--grip X Y Z]\n"
        "       [--opening M] [--payload KG] [--description TEXT]",
        description="Write SITE.usda: a layer that sublayers ASSET and adds a FET028 gripper site (GR.001-004) under the "
        "gripper's base body, for the FET028 gripper tests. Points and directions are in "
        "the asset's world as the validator reports it (metres, Z up). What is not given is derived from the jaws' "
        "joints and colliders and printed. ASSET is never written. See docs/cli.md.",
    )
    site.add_argument("asset", metavar="ASSET", help="the gripper's .usd/.usda/.usdc/.usdz file")
    site.add_argument("--out", required=True, metavar="SITE.usda", help="the layer to write (a new .usda file)")
    site.add_argument("--at", metavar="PRIM", help="the prim at the grasp centre (an MJCF site, a TCP frame); its rigid "
                                                   "body is the base")
    site.add_argument("--centre", type=float, nargs=3, metavar=("X", "Y", "Z"), help="the grasp centre (m)")
    site.add_argument("--base", metavar="PRIM", help="the rigid body the site hangs under (default: the gripper's root)")
    site.add_argument("--forward", type=float, nargs=3, metavar=("X", "Y", "Z"), help="the approach direction")
    site.add_argument("--grip", type=float, nargs=3, metavar=("X", "Y", "Z"), help="the direction pad to pad")
    site.add_argument("--opening", type=float, metavar="M", help="pad to pad fully open (m)")
    site.add_argument("--payload", type=float, metavar="KG", help="the rated payload (kg); without it the tests use "
                                                                  "NVIDIA's 50 kg per metre of opening and warn")
    site.add_argument("--description", default="parallel-jaw grasp centre", metavar="TEXT", help="isaac:Description")
    site.add_argument("--debug", action="store_true", help="show Python tracebacks")


def run(args, console) -> int:
    from ..core import out_writer
    from ..core.status import ExitCode, UsageError
    from ..core.usd import read_asset
    from ..physics_tests.manipulation.gripper.site_layer import site_layer_text, validate_command

    asset_path, out = _checked_paths(args)
    try:
        asset = read_asset(str(asset_path))
    except Exception as exc:  # noqa: BLE001 - an unreadable asset is a problem with the command line's ASSET
        raise UsageError(f"cannot read {asset_path}: {exc}") from None
    if out.resolve() in _layer_files(asset_path):
        raise UsageError(f"--out {out} is a layer of the asset: the asset is never written; choose another path")
    proposal, said = _proposal(args, asset, asset_path)
    text, site_path = site_layer_text(asset_path, out, proposal, args.payload, args.description)
    out_writer.write_text(out, text)  # by replace: never through a link, never half a file
    found = next((s for s in read_asset(str(out)).markers.gripper_sites if s.path == site_path), None)
    if found is None or found.problems:
        raise RuntimeError(f"the site written to {out} does not read back: {found.problems if found else 'missing'}")
    for line in said:
        console.print(line, highlight=False, soft_wrap=True)
    console.print(f"wrote {out}: {site_path}, opening {found.max_opening * 1000:.1f} mm, payload "
                  f"{f'{found.max_payload:g} kg' if found.max_payload else 'not given (NVIDIA heuristic, warned)'}",
                  highlight=False, soft_wrap=True)
    console.print(f"next: {validate_command(str(out))}", highlight=False, soft_wrap=True)
    return int(ExitCode.OK)


def _checked_paths(args) -> tuple[Path, Path]:
    from ..core.status import UsageError
    from ..core.usd.stage import USD_EXTENSIONS
    from ..physics_tests.manipulation.gripper.site_layer import written_by_gripper_site

    asset, out = Path(args.asset), Path(args.out)
    if not asset.is_file():
        raise UsageError(f"no such file: {asset}")
    if asset.suffix.lower() not in USD_EXTENSIONS:
        raise UsageError(f"not a USD file: {asset} (expected {', '.join(USD_EXTENSIONS)})")
    if out.suffix.lower() != ".usda":
        raise UsageError(f"--out {out}: the site layer is written as text, name it *.usda")
    if out.is_symlink():
        raise UsageError(f"--out {out} is a link: the layer is never written through a link")
    if out.exists() and not written_by_gripper_site(out):
        raise UsageError(f"--out {out} exists and was not written by gripper-site: choose a new path (it is never "
                         "overwritten)")
    if out.exists() and out.resolve() == asset.resolve():
        raise UsageError("--out is the asset itself: the asset is never written")
    for name in ("centre", "forward", "grip"):
        value = getattr(args, name)
        if value is not None and not (np.all(np.isfinite(value)) and (name == "centre" or np.linalg.norm(value) > 0)):
            raise UsageError(f"--{name} must be finite{'' if name == 'centre' else ' and not zero'}")
    for name in ("opening", "payload"):
        value = getattr(args, name)
        if value is not None and not (np.isfinite(value) and value > 0):
            raise UsageError(f"--{name} must be a positive number")
    if args.at and args.centre is not None:
        raise UsageError("give --at PRIM or --centre X Y Z, not both")
    return asset, out


def _layer_files(asset: Path) -> set[Path]:
    from pxr import Usd

    stage = Usd.Stage.Open(str(asset), Usd.Stage.LoadNone)
    return {Path(layer.realPath).resolve() for layer in stage.GetUsedLayers() if layer.realPath}


def _proposal(args, asset, asset_path: Path):
    """The complete site and what was derived (lines for the console); a UsageError says what cannot be."""
    from ..core.status import UsageError
    from ..core.units import StageFrame
    from ..physics_tests.manipulation.gripper import jaw_geometry as geo

    said = []
    base, centre = args.base, None if args.centre is None else np.asarray(args.centre, float)
    if base is not None and base not in asset.bodies:
        raise UsageError(f"--base {base} is not a rigid body of the asset")
    if args.at:
        base, centre = _at(args.at, asset, asset_path, base)
    if centre is None:
        found = geo.converter_grasp_site(asset)
        if found is not None and (base is None or found[0].body == base):
            frame = found[0]
            base, centre = frame.body, np.asarray(frame.pose.pos, float)
            said.append(f"centre: the converter's site {frame.path} ({', '.join(frame.schemas)}), between the fingers of "
                        f"{', '.join(j.rsplit('/', 1)[-1] for j in found[1])}")
    base = base or geo.gripper_base(asset)
    if base is None:
        raise UsageError("no jaw found (a limited revolute or prismatic joint) to put a gripper site beside; give --base")
    if centre is None:
        centre = geo.finger_centre(asset, base)
        if centre is None:
            raise UsageError(f"no jaw beyond {base}: give --centre X Y Z and --base PRIM")
        said.append("centre: midway between the fingers' colliders, opened")
    proposal = geo.propose_site(asset, base, centre, args.forward, args.grip, args.opening)
    for name, given, value in (("forward", args.forward, proposal.forward), ("grip", args.grip, proposal.grip)):
        if given is None and value is not None:
            said.append(f"{name}: {_vector(value)} (derived from the jaws)")
    if args.opening is None and proposal.opening is not None:
        said.append(f"opening: {proposal.opening * 1000:.1f} mm (the fingers' gap at the limit that opens them)")
    missing = [name for name, value in (("--forward", proposal.forward), ("--grip", proposal.grip),
                                        ("--opening", proposal.opening)) if value is None]
    if missing:
        raise UsageError(f"give {', '.join(missing)}: {'; '.join(proposal.notes) or 'not derivable'}")
    assert proposal.forward is not None and proposal.grip is not None
    if abs(float(np.dot(proposal.forward, proposal.grip))) > PARALLEL:
        raise UsageError("--forward and --grip are (nearly) parallel: the grip line runs across the approach")
    lower_opens = proposal.lower_opens
    if lower_opens is False:
        said.append(f"convention: the jaws' lower limits close them (gap {proposal.gaps['lower'] * 1000:.1f} mm at the "
                    f"lower, {proposal.gaps['upper'] * 1000:.1f} mm at the upper), the reverse of FET028's; the tests "
                    "measure it on the runtime (JAW_REVERSED), and `simready-physics fix` proposes the layer that "
                    "negates the jaws' axes")
    said.insert(0, f"site under {base} at {_vector(centre)} m ({StageFrame.of_asset(asset).up_axis}-up stage)")
    return proposal, said


def _at(prim_path: str, asset, asset_path: Path, base: str | None):
    from pxr import Usd, UsdGeom

    from ..core.status import UsageError
    from ..core.units import StageFrame

    stage = Usd.Stage.Open(str(asset_path))
    prim = stage.GetPrimAtPath(prim_path) if prim_path.startswith("/") else None
    if not prim or not prim.IsA(UsdGeom.Xformable):
        raise UsageError(f"--at {prim_path}: no such transformable prim in the asset")
    world = UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default()).ExtractTranslation()
    centre = StageFrame.of_asset(asset).point_to_si(np.array(world, float))
    if base is None:
        probe = prim
        while probe and str(probe.GetPath()) != "/" and str(probe.GetPath()) not in asset.bodies:
            probe = probe.GetParent()
        base = str(probe.GetPath()) if probe and str(probe.GetPath()) in asset.bodies else None
        if base is None:
            raise UsageError(f"--at {prim_path} is under no rigid body: give --base PRIM")
    return base, centre


def _vector(v) -> str:
    return "(" + ", ".join(f"{float(x):+.4g}" for x in v) + ")"
