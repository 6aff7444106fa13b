"""What an MJCF model holds, as MuJoCo compiles it: run by the converters' venv python, never imported by the package.

    python mjcf_probe.py MODEL.xml     -> one JSON object on stdout

MuJoCo itself reads the file (includes, default classes, meshdir, angle units) as mujoco-usd-converter will, so the
joints and mesh geoms counted here are the ones the converter sees; a model MuJoCo cannot compile (a mesh file
missing, a bad attribute) gives {"error": "..."} with MuJoCo's message.
"""

import json
import sys

JOINT_KINDS = {0: "free", 1: "ball", 2: "slide", 3: "hinge"}


def probe(path):
    import mujoco

    try:
        spec = mujoco.MjSpec.from_file(path)
        model = spec.compile()
    except Exception as exc:  # noqa: BLE001 - MuJoCo's own message is the answer
        return {"error": str(exc).strip()}
    name = mujoco.mj_id2name
    joints = [{"name": name(model, mujoco.mjtObj.mjOBJ_JOINT, j) or "", "kind": JOINT_KINDS.get(int(model.jnt_type[j]), "?"),
               "body": name(model, mujoco.mjtObj.mjOBJ_BODY, int(model.jnt_bodyid[j])) or ""}
              for j in range(model.njnt)]
    files = {m.name: m.file for m in spec.meshes}
    links = {}
    for g in range(model.ngeom):
        if int(model.geom_type[g]) != int(mujoco.mjtGeom.mjGEOM_MESH):
            continue
        body = name(model, mujoco.mjtObj.mjOBJ_BODY, int(model.geom_bodyid[g])) or f"body {int(model.geom_bodyid[g])}"
        mesh = name(model, mujoco.mjtObj.mjOBJ_MESH, int(model.geom_dataid[g])) or ""
        links.setdefault(body, []).append(files.get(mesh) or mesh)
    return {"name": spec.modelname or "", "joints": joints, "links": links, "meshdir": spec.meshdir or ""}


if __name__ == "__main__":
    print(json.dumps(probe(sys.argv[1])))
