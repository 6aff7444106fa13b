"""Our plausibility findings beside simcheck's on the same assets (docs/plausibility.md's table).

simcheck 0.2.0 (MuJoCo and PyBullet, in a venv of its own: `pip install simcheck==0.2.0 pybullet`) checks the URDF or
MJCF source; we check the USD converted from it, as physx builds it (core/plausibility). For each asset, the findings
of the five classes of issue 45 on both sides, by class: 1 placeholder inertia (simcheck inertia.geometry), 2 mass
authored 0 / 3 inertia that cannot exist (inertia.mass, inertia.tensor), 4 limits (joints.limits), 5 overlap at rest
(kinematics.rest_overlap, engine.rest_contacts).

Usage:
    simcheck check SOURCE --json SIMCHECK/ID.json ...            # once per asset, in simcheck's venv
    python tools/plausibility_table.py LIST SIMCHECK [--markdown]   # LIST: lines "ID USD_PATH"
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

CLASSES = {  # simcheck check id -> class of issue 45
    "inertia.geometry": "1", "inertia.mass": "2/3", "inertia.tensor": "3", "joints.limits": "4",
    "kinematics.rest_overlap": "5", "engine.rest_contacts": "5",
}
OURS = {"INERTIA_PLACEHOLDER": "1", "MASS_ZERO_AUTHORED": "2/3", "MASSLESS_LINK": "2/3", "INERTIA_TRIANGLE": "3",
        "INERTIA_ZERO": "3", "LIMIT_RANGE_TINY": "4", "REST_OVERLAP": "5"}


def simcheck_findings(path: Path) -> list[tuple[str, str, str]]:
    """[(class, check id, message)] of simcheck's warnings and errors in the five classes."""
    if not path.exists():
        return []
    report = json.loads(path.read_text())
    out = []
    for result in report.get("results", []):
        if result["id"] not in CLASSES:
            continue
        for finding in result.get("findings", []):
            if finding.get("severity") in ("warning", "error"):
                out.append((CLASSES[result["id"]], result["id"], finding.get("message", "")))
    return out


def our_findings(usd: str) -> list[tuple[str, str, str]]:
    from omni.simready.physics_validator.core.scene import SceneSpec
    from omni.simready.physics_validator.core.usd import read_asset
    from omni.simready.physics_validator.engines import create_engine
    from omni.simready.physics_validator.run.readback import check_plausibility

    asset = read_asset(usd)
    engine = create_engine("physx")
    try:
        engine.load(asset, SceneSpec())
        engine.step()
        block = check_plausibility(engine, asset)
    finally:
        engine.close()
    return [(OURS[f.code], f.code, f.message) for f in block.findings]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("list", help="lines 'ID USD_PATH'")
    parser.add_argument("simcheck", help="the folder of simcheck's ID.json reports")
    parser.add_argument("--json", help="write every finding of both sides here")
    args = parser.parse_args(argv)
    rows, dump = [], {}
    for line in Path(args.list).read_text().splitlines():
        if not line.strip():
            continue
        ident, usd = line.split(maxsplit=1)
        theirs, ours = simcheck_findings(Path(args.simcheck) / f"{ident}.json"), our_findings(usd)
        dump[ident] = {"simcheck": theirs, "ours": ours}
        for cls in ("1", "2/3", "3", "4", "5"):
            t = [f for f in theirs if f[0] == cls]
            o = [f for f in ours if f[0] == cls]
            if t or o:
                said = ["; ".join(m for _, _, m in side)[:300] for side in (t, o)]
                rows.append((ident, cls, len(t), len(o), *said))
    print("| asset | class | simcheck | ours | simcheck says | we say |\n|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(x).replace("|", "/") for x in r) + " |")
    if args.json:
        Path(args.json).write_text(json.dumps(dump, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
