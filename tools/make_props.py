"""A library of small props for the benchmarks: copies of the free props of the shared assets and the corpus, with
variations, so every file is a different asset (its own content hash) and none is a cache hit of another.

    python tools/make_props.py OUT --count 1000 [--shared DIR] [--corpus DIR] [--seed 36]

Sources: every asset under --shared (default `../shared/assets` beside the checkout) and --corpus (the corpus build's
`corpus/` folder, default /work/corpus-build/corpus) that reads without an error as one to three free rigid bodies
(no joint, no static collider) at most 1 m across, through its `floating_base.usda` where the build wrote one; and
the bundled crate (a name in both folders: the shared copy). Copy i of source s (sources taken in turn) is
`OUT/<s>_<i>.usda`: a layer that sublayers the source unchanged and adds a yaw of 0-360° on the default prim and
scales every authored body mass by 0.5-2x (both from a seeded random generator: the same command writes the same
files). Prints the sources and how many copies of each.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CRATE = ROOT / "exts/omni.simready.physics_validator/data/examples/crate.usda"
MAX_SIZE_M = 1.0
MAX_BODIES = 3


def candidates(folders: list[Path]) -> list[Path]:
    """Top files (a floating_base.usda in place of the file it frees) under `folders`, sorted."""
    from omni.simready.physics_validator.core.usd import find_usd_files

    out = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for entry in sorted(p for p in folder.iterdir() if p.is_dir()):
            files = [p for p in find_usd_files(entry) if p.parent == entry]
            floating = [p for p in files if p.name == "floating_base.usda"]
            out.extend(floating or files[:1])
    return out


def is_small_free_prop(path: Path) -> bool:
    from omni.simready.physics_validator.core.usd import read_asset

    try:
        asset = read_asset(path)
    except Exception:  # noqa: BLE001 - unreadable: not a source
        return False
    if asset.errors() or not asset.bodies or len(asset.bodies) > MAX_BODIES or asset.static_colliders:
        return False
    if any(joint.enabled for joint in asset.joints.values()):
        return False
    bounds = asset.authored_bounds()
    return bounds is not None and float(max(bounds[1] - bounds[0])) <= MAX_SIZE_M


def write_copy(source: Path, target: Path, yaw_deg: float, mass_factor: float) -> None:
    """`target`: a layer over `source` (sublayered, unchanged) with the default prim turned by `yaw_deg` about the up
    axis and every authored body mass scaled by `mass_factor`."""
    from pxr import Sdf, Usd, UsdGeom, UsdPhysics

    target.unlink(missing_ok=True)
    stage = Usd.Stage.CreateNew(str(target))
    stage.GetRootLayer().subLayerPaths.append(str(source.resolve()))
    source_layer = Sdf.Layer.FindOrOpen(str(source))
    for key in ("defaultPrim", "metersPerUnit", "kilogramsPerUnit", "upAxis"):
        if source_layer.pseudoRoot.HasInfo(key):
            stage.GetRootLayer().pseudoRoot.SetInfo(key, source_layer.pseudoRoot.GetInfo(key))
    root = stage.GetDefaultPrim()
    if root and root.IsA(UsdGeom.Xformable):
        axis = UsdGeom.GetStageUpAxis(stage)
        xformable = UsdGeom.Xformable(root)
        op = (xformable.AddRotateYOp if axis == UsdGeom.Tokens.y else xformable.AddRotateZOp)(opSuffix="propCopy")
        op.Set(float(yaw_deg))
    for prim in stage.Traverse():
        if prim.HasAPI(UsdPhysics.MassAPI):
            mass = UsdPhysics.MassAPI(prim).GetMassAttr()
            value = mass.Get() if mass.HasAuthoredValue() else None
            if value:
                mass.Set(float(value) * mass_factor)
    stage.GetRootLayer().Save()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--shared", default=str(ROOT.parent / "shared" / "assets"))
    parser.add_argument("--corpus", default="/work/corpus-build/corpus")
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args(argv)
    found = {p.parent.name: p for p in candidates([Path(args.corpus), Path(args.shared)]) if is_small_free_prop(p)}
    sources = [CRATE] + [found[name] for name in sorted(found)]  # one per name: the shared copy of a corpus asset wins
    if not sources:
        print("no source props found", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    counts: dict[str, int] = {}
    for i in range(args.count):
        source = sources[i % len(sources)]
        name = source.parent.name if source.parent != CRATE.parent else "crate"
        counts[name] = counts.get(name, 0) + 1
        write_copy(source, out / f"{name}_{i:04d}.usda", rng.uniform(0.0, 360.0), rng.uniform(0.5, 2.0))
    print(f"{args.count} props in {out} from {len(sources)} sources: "
          + ", ".join(f"{name} x{n}" for name, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
